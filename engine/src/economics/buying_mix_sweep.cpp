#include "gpuplan/economics/buying_mix_sweep.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan {

Scenario scenarioAtLevel(const Scenario& scenario, const OnDemandDef& onDemand, int reservedNodes,
                         int spotNodes) {
    Scenario s = scenario;
    s.buyingMix = BuyingMixDef{reservedNodes, spotNodes};
    s.onDemand = onDemand;
    return s;
}

namespace {

/// Spot nodes at a level: the fixed count, or the share of the nodes between the reservation
/// and the peak; never more than the reservation leaves of the fleet.
int spotNodesAt(const MixSweepOptions& o, int reservedNodes, int peakNodes, int fleetNodes) {
    const int wanted =
        o.spotNodes
            ? *o.spotNodes
            : static_cast<int>(std::lround(o.spotShare * std::max(0, peakNodes - reservedNodes)));
    return std::clamp(wanted, 0, std::max(0, fleetNodes - reservedNodes));
}

}  // namespace

MixSweep sweepReservedLevels(const Scenario& scenario, const MixSweepOptions& options) {
    if (!scenario.pricing)
        throw std::invalid_argument(
            "the buying mix needs prices: give the scenario a \"pricing\" (or a price book)");
    if (scenario.nodeList)
        throw std::invalid_argument("the buying mix needs a fleet of pods, racks and node groups");
    if (options.levels < 2 || options.levels > 1000)
        throw std::invalid_argument("levels must be between 2 and 1000");
    if (!(options.spotShare >= 0 && options.spotShare <= 1))
        throw std::invalid_argument("the spot share must be between 0 and 1");
    if (options.spotNodes && *options.spotNodes < 0)
        throw std::invalid_argument("spot nodes must not be negative");
    MixSweep sweep;
    sweep.onDemandDefaulted = !scenario.onDemand;
    sweep.onDemand = scenario.onDemand.value_or(kDefaultMixOnDemand);
    const Fleet fleet = Fleet::build(scenario);
    const int fleetNodes = static_cast<int>(fleet.nodes.size());

    // Peak demand: everything on demand (spot as at level 0), the most GPUs held at a sample.
    RunOptions runOptions;
    runOptions.diagnosePending = false;  // costs only: no pending lists
    const Results all = simulate(scenarioAtLevel(scenario, sweep.onDemand, 0,
                                                 spotNodesAt(options, 0, fleetNodes, fleetNodes)),
                                 runOptions, {}, options.stop);
    if (const Series* held = all.findSeries("allocated_gpus"))
        for (double v : held->values)
            sweep.peakDemandGpus = std::max(sweep.peakDemandGpus, static_cast<int>(std::ceil(v)));
    int gpus = 0;
    while (sweep.peakDemandNodes < fleetNodes && gpus < sweep.peakDemandGpus)
        gpus += fleet.nodes[sweep.peakDemandNodes++].gpus;

    // Levels 0 .. peak, evenly, as whole nodes.
    std::vector<int> reserved;
    for (int i = 0; i < options.levels; ++i) {
        const int r = static_cast<int>(
            std::lround(static_cast<double>(i) * sweep.peakDemandNodes / (options.levels - 1)));
        if (reserved.empty() || reserved.back() != r) reserved.push_back(r);
    }
    sweep.levels.resize(reserved.size());
    std::vector<int> prefixGpus(fleetNodes + 1, 0);
    for (int n = 0; n < fleetNodes; ++n)
        prefixGpus[n + 1] = prefixGpus[n] + fleet.nodes[n].gpus;

    // Each level on its own: results by index, so the thread count changes nothing.
    std::atomic<std::size_t> next{0}, done{0};
    auto work = [&] {
        for (std::size_t i; (i = next++) < reserved.size();) {
            if (options.stop.stop_requested()) return;
            MixLevel& level = sweep.levels[i];
            level.reservedNodes = reserved[i];
            level.reservedGpus = prefixGpus[reserved[i]];
            level.spotNodes = spotNodesAt(options, reserved[i], sweep.peakDemandNodes, fleetNodes);
            const Results r = simulate(
                scenarioAtLevel(scenario, sweep.onDemand, level.reservedNodes, level.spotNodes),
                runOptions, {}, options.stop);
            level.costUsd = r.kpi("cost_usd");
            level.waitP95S = r.kpi("wait_s_p95");
            level.jobsWaitingAtEnd = r.kpi("jobs_waiting_at_end");
            ++done;
        }
    };
    const unsigned threads = std::max(
        1u,
        std::min<unsigned>(options.threads ? options.threads : std::thread::hardware_concurrency(),
                           static_cast<unsigned>(reserved.size())));
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back(work);
        // This thread reports progress while the workers run.
        while (done < reserved.size() && !options.stop.stop_requested()) {
            if (options.progress) options.progress(static_cast<double>(done) / reserved.size());
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    if (options.progress) options.progress(1.0);
    sweep.stopped = options.stop.stop_requested() || done < reserved.size();
    if (sweep.stopped) return sweep;
    for (std::size_t i = 1; i < sweep.levels.size(); ++i)
        if (sweep.levels[i].costUsd < sweep.levels[sweep.optimum].costUsd) sweep.optimum = i;
    return sweep;
}

}  // namespace gpuplan
