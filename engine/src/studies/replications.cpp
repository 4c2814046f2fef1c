#include "gpuplan/studies/replications.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "gpuplan/core/parallel_runs.hpp"
#include "model/random.hpp"

namespace gpuplan {

namespace {

/// What one replication leaves once its results are reduced (its KPIs and series).
struct Reduced {
    std::vector<Kpi> kpis;
    std::vector<std::pair<std::string, std::vector<Kpi>>> teamKpis;  ///< teamKpiList per team
    std::vector<Series> series;
    std::vector<double> sampleTimesS;
    std::uint64_t fingerprint = 0;
};

Reduced reduce(const Results& r) {
    Reduced out;
    out.kpis = r.kpis;
    // A team without a job in this run held nothing and has no waits.
    for (const std::string& name : r.teams) {
        const auto it = std::find_if(r.teamKpis.begin(), r.teamKpis.end(),
                                     [&](const GroupKpis& g) { return g.name == name; });
        GroupKpis idle;
        idle.name = name;
        if (r.fleet.priced) idle.costUsd = 0;
        out.teamKpis.emplace_back(name, teamKpiList(it != r.teamKpis.end() ? *it : idle));
    }
    out.series = r.series;
    out.sampleTimesS = r.sampleTimesS;
    out.fingerprint = r.fingerprint;
    return out;
}

/// Puts run `run`'s KPIs into their estimates by name (one of `runs` values each), adding an
/// estimate, NaN in every other run, for a KPI not seen before.
void collect(std::vector<KpiEstimate>& estimates, const std::vector<Kpi>& kpis, std::size_t run,
             std::size_t runs) {
    for (const Kpi& k : kpis) {
        auto it = std::find_if(estimates.begin(), estimates.end(),
                               [&](const KpiEstimate& e) { return e.name == k.name; });
        if (it == estimates.end())
            it = estimates.insert(
                it, {k.name, k.unit, k.description, std::vector<double>(runs, std::nan("")), {}});
        it->values[run] = k.value;
    }
}

Replications summarise(std::vector<Reduced>& runs, const std::vector<std::uint64_t>& seeds,
                       double confidence, std::shared_ptr<const Results> first) {
    Replications out;
    out.count = static_cast<int>(runs.size());
    out.confidence = confidence;
    out.seeds = seeds;
    out.first = std::move(first);
    for (const Reduced& r : runs)
        out.fingerprints.push_back(r.fingerprint);
    // KPIs by name: a KPI only some runs report (one that needs an event to happen) is NaN in
    // the others and counted over those that have it; a team's, when the team ran.
    for (std::size_t i = 0; i < runs.size(); ++i) {
        collect(out.kpis, runs[i].kpis, i, runs.size());
        for (const auto& [name, kpis] : runs[i].teamKpis) {
            // clang 14 cannot capture a structured binding; an init-capture names it instead.
            auto team =
                std::find_if(out.teams.begin(), out.teams.end(),
                             [&name = name](const TeamEstimates& t) { return t.team == name; });
            if (team == out.teams.end()) team = out.teams.insert(team, TeamEstimates{name, {}});
            collect(team->kpis, kpis, i, runs.size());
        }
    }
    ConfidenceIntervals intervals(confidence);
    for (KpiEstimate& e : out.kpis)
        e.interval = intervals.of(e.values);
    for (TeamEstimates& team : out.teams)
        for (KpiEstimate& e : team.kpis)
            e.interval = intervals.of(e.values);
    // Series: every replication has the same samples and series (the scenario fixes them).
    out.sampleTimesS = runs.front().sampleTimesS;
    std::vector<double> column(runs.size());
    for (std::size_t s = 0; s < runs.front().series.size(); ++s) {
        const Series& shape = runs.front().series[s];
        SeriesBand band{shape.name, shape.unit, {}, {}, {}};
        for (std::size_t k = 0; k < shape.values.size(); ++k) {
            for (std::size_t i = 0; i < runs.size(); ++i)
                column[i] = runs[i].series[s].values[k];
            const MeanInterval m = intervals.of(column);
            band.mean.push_back(m.mean);
            band.low.push_back(m.low);
            band.high.push_back(m.high);
        }
        out.series.push_back(std::move(band));
    }
    return out;
}

}  // namespace

std::uint64_t replicationSeed(std::uint64_t scenarioSeed, int index) {
    if (index == 0) return scenarioSeed;
    // SplitMix64's index-th output from the scenario's seed: its state steps by a constant.
    std::uint64_t state =
        scenarioSeed + static_cast<std::uint64_t>(index - 1) * 0x9E3779B97F4A7C15ull;
    return detail::splitmix64(state);
}

namespace {
const KpiEstimate* findIn(const std::vector<KpiEstimate>& kpis, std::string_view name) {
    for (const KpiEstimate& k : kpis)
        if (k.name == name) return &k;
    return nullptr;
}
}  // namespace

const KpiEstimate* Replications::findKpi(std::string_view name) const {
    return findIn(kpis, name);
}

const KpiEstimate* TeamEstimates::findKpi(std::string_view name) const {
    return findIn(kpis, name);
}

const TeamEstimates* Replications::findTeam(std::string_view team) const {
    for (const TeamEstimates& t : teams)
        if (t.team == team) return &t;
    return nullptr;
}

std::vector<Kpi> teamKpiList(const GroupKpis& team) {
    std::vector<Kpi> kpis{
        {"wait_s_p50", team.waitP50S, "s", "Median time from submit to first start."},
        {"wait_s_p95", team.waitP95S, "s",
         "95th percentile of the time from submit to first start."},
        {"gpu_hours_allocated", team.gpuHours, "gpu_h", "GPU-hours bound to its jobs."},
        {"jobs_completed", static_cast<double>(team.completed), "jobs",
         "Its jobs that ran to completion."},
        {"jobs_waiting_at_end", static_cast<double>(team.waitingAtEnd), "jobs",
         "Its jobs queued when the run ends."},
        {"allocation_share", team.allocationShare, "fraction",
         "Its allocated GPU-seconds ÷ the fleet's provisioned GPU-seconds."}};
    if (!std::isnan(team.costUsd))
        kpis.push_back({"cost_usd", team.costUsd, "usd",
                        "Chargeback: what its jobs held × the held GPUs' prices."});
    return kpis;
}

namespace {

/// Runs `scenario` on each seed on up to `threads` threads; each run's results are reduced
/// as soon as it ends (only replication 0's are kept whole), stored by replication index.
Replications runOnSeeds(const Scenario& scenario, const std::vector<std::uint64_t>& seeds,
                        const ReplicationOptions& options, const ProgressFn& progress,
                        std::stop_token stop, std::atomic<int>& done, int totalRuns) {
    const int n = static_cast<int>(seeds.size());
    std::vector<Reduced> runs(n);
    std::shared_ptr<const Results> first;
    std::mutex progressLock;  // progress reports one at a time
    const bool finished = runInParallel(
        static_cast<std::size_t>(n), options.threads,
        [&](std::size_t i, std::stop_token runStop) {
            RunOptions run = options.run;
            run.seed = seeds[i];
            // Only the first run is kept whole: the others' pending lists would be dropped
            // unread (reduce keeps KPIs and series), so they are not made (their pending_gpus
            // series still count every job).
            if (i > 0) run.maxPendingEntriesPerSample = 0;
            // Shared by every run at once: a caller's counters or snapshots would race.
            run.counters = nullptr;
            run.onPartialResults = nullptr;
            auto results = std::make_shared<const Results>(simulate(scenario, run, {}, runStop));
            if (results->stopped) return false;
            runs[i] = reduce(*results);
            if (i == 0) first = std::move(results);
            const std::lock_guard held(progressLock);
            const int doneNow = ++done;
            if (progress) progress(static_cast<double>(doneNow) / totalRuns);
            return true;
        },
        stop);
    if (!finished) {
        Replications out;
        out.stopped = true;
        return out;
    }
    return summarise(runs, seeds, options.confidence, std::move(first));
}

std::vector<std::uint64_t> seedsFor(const Scenario& scenario, const ReplicationOptions& options) {
    if (options.replications < 1) throw std::invalid_argument("replications must be at least 1");
    if (!(options.confidence > 0 && options.confidence < 1))
        throw std::invalid_argument("a confidence level is between 0 and 1");
    std::vector<std::uint64_t> seeds;
    for (int i = 0; i < options.replications; ++i)
        seeds.push_back(replicationSeed(scenario.seed, i));
    return seeds;
}

}  // namespace

Replications runReplications(const Scenario& scenario, const ReplicationOptions& options,
                             const ProgressFn& progress, std::stop_token stop) {
    std::atomic<int> done{0};
    return runOnSeeds(scenario, seedsFor(scenario, options), options, progress, stop, done,
                      options.replications);
}

PairedComparison comparePaired(const Scenario& baseline, const Scenario& candidate,
                               const ReplicationOptions& options, const ProgressFn& progress,
                               std::stop_token stop) {
    const std::vector<std::uint64_t> seeds = seedsFor(baseline, options);
    std::atomic<int> done{0};
    PairedComparison out;
    out.baseline =
        runOnSeeds(baseline, seeds, options, progress, stop, done, 2 * options.replications);
    if (out.baseline.stopped) return out;
    out.candidate =
        runOnSeeds(candidate, seeds, options, progress, stop, done, 2 * options.replications);
    if (out.candidate.stopped) return out;
    for (const KpiEstimate& a : out.baseline.kpis)
        if (const auto d = pairedDifference(out.baseline, out.candidate, a.name))
            out.kpis.push_back(
                {a.name, a.unit, a.interval, out.candidate.findKpi(a.name)->interval, *d});
    return out;
}

namespace {
/// b − a, run by run, when both went over the same seeds and both have the KPI.
std::optional<MeanInterval> pairedOf(const Replications& baseline, const KpiEstimate* a,
                                     const Replications& candidate, const KpiEstimate* b) {
    if (!a || !b || baseline.seeds != candidate.seeds) return std::nullopt;
    std::vector<double> differences(a->values.size());
    for (std::size_t i = 0; i < differences.size(); ++i)
        differences[i] = b->values[i] - a->values[i];
    return meanInterval(differences, candidate.confidence);
}
}  // namespace

std::optional<MeanInterval> pairedDifference(const Replications& baseline,
                                             const Replications& candidate, std::string_view kpi) {
    return pairedOf(baseline, baseline.findKpi(kpi), candidate, candidate.findKpi(kpi));
}

std::optional<MeanInterval> pairedTeamDifference(const Replications& baseline,
                                                 const Replications& candidate,
                                                 std::string_view team, std::string_view kpi) {
    const TeamEstimates* a = baseline.findTeam(team);
    const TeamEstimates* b = candidate.findTeam(team);
    if (!a || !b) return std::nullopt;
    return pairedOf(baseline, a->findKpi(kpi), candidate, b->findKpi(kpi));
}

}  // namespace gpuplan
