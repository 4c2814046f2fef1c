#include "gpuplan/fit_check.hpp"

#include "diagnosis.hpp"
#include "scheduler.hpp"

namespace gpuplan {

FitVerdict checkFit(const Scenario& scenario, const JobDef& job, double timeS) {
    // A scenario holding only this job, so the diagnoser sees it against an empty fleet.
    Scenario alone = scenario;
    alone.jobClasses.clear();
    alone.traces.clear();
    alone.jobs = {job};
    alone.jobs[0].submitS = 0;
    Results results;
    results.fleet = Fleet::build(alone);
    Workload w = generateWorkload(alone, results.fleet);
    results.explicitNames = std::move(w.explicitNames);
    for (const JobSpec& spec : w.jobs)
        results.jobs.push_back(JobRecord{.spec = spec});

    detail::SimState sim(results, results.fleet);
    // Node states as of timeS.
    for (std::size_t n = 0; n < results.fleet.nodes.size(); ++n) {
        const FleetNode& node = results.fleet.nodes[n];
        if (node.initialState == NodeState::Provisioning && node.readyAtS > 0 &&
            node.readyAtS <= timeS)
            sim.cluster.setState(static_cast<int>(n), NodeState::Ready);
    }
    for (const NodeEventDef& e : scenario.nodeEvents) {
        if (e.timeS > timeS) continue;
        auto apply = [&](int first, int count) {
            for (int n = first; n < first + count; ++n)
                sim.cluster.setState(n, e.state);
        };
        if (auto n = results.fleet.findNode(e.node))
            apply(*n, 1);
        else if (auto r = results.fleet.findRack(e.node))
            apply(results.fleet.racks[*r].firstNode, results.fleet.racks[*r].nodeCount);
        else if (auto p = results.fleet.findPod(e.node))
            apply(results.fleet.pods[*p].firstNode, results.fleet.pods[*p].nodeCount);
    }
    detail::Scheduler scheduler(
        alone.scheduler, sim,
        [](std::uint32_t, const std::vector<PodPlacement>&, double t) { return t; },
        [](std::uint32_t, const std::vector<PodPlacement>&) {});
    detail::Diagnoser diagnoser(sim, scheduler);
    FitVerdict verdict;
    verdict.layer = diagnoser.layerOf(0);
    verdict.canEverFit = verdict.layer != Layer::Reservation;
    if (verdict.layer != Layer::Scheduling) {
        const PendingEntry e = diagnoser.diagnoseQueued(0, timeS);
        verdict.reason = results.reasons[e.reason];
    }
    return verdict;
}

}  // namespace gpuplan
