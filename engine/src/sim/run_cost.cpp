#include "gpuplan/sim/run_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>
#include <unordered_map>

#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/gpu_timeline.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "io/text_rules.hpp"
#include "metrics_recorder.hpp"
#include "resources/placeable_slots.hpp"
#include "scheduling/sim_state.hpp"

namespace gpuplan {

namespace {

// Bytes per job over a run: its spec (generated, then copied into its record), record and
// runtime, one run segment, its pending spans (queued, stuck), a diagnosis when it waits, its
// entries in the queue and the bound set (tree nodes of about 48 bytes), two pending events,
// and its wait in the KPI lists.
constexpr double kBytesPerJob = sizeof(JobSpec) + sizeof(JobRecord) + sizeof(detail::JobRuntime) +
                                sizeof(RunSegment) + 2 * sizeof(PendingSpan) +
                                sizeof(TimedDiagnosis) + sizeof(std::uint32_t) + 2 * 48 + 2 * 24 +
                                2 * sizeof(double);
// A pod's placement, and its job's entry in the node's list of bound jobs.
constexpr double kBytesPerPod = sizeof(PodPlacement) + sizeof(std::uint32_t);
// Every series' value, the time, the pending-list bounds and counts.
constexpr double kBytesPerSample =
    (detail::kSeriesCount + 1) * sizeof(double) + 3 * sizeof(std::uint32_t);
// A node's record, name, free mask, state, bound-job list and index bits.
constexpr double kBytesPerNode = sizeof(FleetNode) + 48 + 16 + 24 + 64;
// A GPU: its row of the results' GPU timeline (where its holds begin, its longest hold, its
// lanes) and, while the timeline is built, its lanes' free times.
constexpr double kBytesPerGpu =
    sizeof(std::uint32_t) + sizeof(double) + 1 + sizeof(double) + sizeof(std::vector<double>);
// A rack or pod: its record, name and entry in the fleet's name index.
constexpr double kBytesPerUnit = sizeof(FleetRack) + 48 + 64;
// A GPU one pod holds in one binding: its interval in the results' GPU timeline.
constexpr double kBytesPerGpuHold = sizeof(GpuInterval);
// A cohort or ClusterQueue per GPU model: its quota, limits, usage and the fixed sums.
constexpr double kBytesPerQuotaCell = 7 * sizeof(std::int64_t);
// What one replication keeps once reduced, besides its series: its KPIs (35 to 40 in the
// presets' runs: name, unit, a sentence of description, about 115 characters in all).
constexpr double kBytesPerReducedRun = 40 * (sizeof(Kpi) + 128);
// Runs of one scenario's replications in memory at once: the budget's machine's 2 cores
// (runReplications runs one per core).
constexpr double kRunsAtOnce = 2;

// Work units: one is a few nanoseconds of scheduling (a queue or index operation).
constexpr double kOpsPerEvent = 8;   // heap, bookkeeping, the pass's fixed part
constexpr double kOpsPerShape = 1;   // a pass looks at each shape group at most once
constexpr double kOpsPerPod = 8;     // place, index, release one pod
constexpr double kOpsPerListed = 4;  // one pending entry diagnosed at a sample
// A node visited by a sample's walks, which run when pods ask CPU or host memory (a free GPU
// count no longer says whether a node fits): the fragmentation gauge, the stranded GPUs, the
// pending diagnosis's node counts. Measured: 12,500 nodes × 20,000 samples in 6.1 s, 24 ns
// a node, about 0.4 of a unit (budgetExcess: 1.5e7 units a second).
constexpr double kOpsPerNodeWalked = 0.4;
// The rest was measured on the same machine under load from other work, each run beside
// that host walk (its 24 ns a node scaling the times back: it ran 5.3 to 6.4 times slower):
// Setting the fleet up (records and name index, cluster state and histograms, results' rows,
// the GPU timeline's rows): 100,000 idle nodes in one rack with 8 GPUs each in 1.1 s, with 4
// each in 0.73 s: 0.15 µs a GPU, 0.6 µs a node; 100,000 one-node racks 0.45 s more than one
// rack: 0.75 µs a rack (or pod).
constexpr double kOpsPerNodeSetUp = 9;
constexpr double kOpsPerGpuSetUp = 2.3;
constexpr double kOpsPerUnitSetUp = 11;
// A rack or pod a sample's gang measures visit (placeable_slots.hpp): a histogram row read.
// 15,000 eight-node racks (two visits each) 9,072 samples more in 2.1 s: 1.2 ns a visit.
constexpr double kOpsPerUnitVisited = 0.02;
// A GPU held in a binding: its interval scattered into the GPU timeline at the end (half of
// 2.0 s for 22,000,000 holds: 45 ns).
constexpr double kOpsPerGpuHold = 0.7;
// A GPU hold a resize records: the tries that size the growth (a bisection when pods ask CPU),
// the unbind and bind of every pod, its timeline interval: 22,000,000 holds (gangs of 8-GPU
// pods asking CPU, growing into 100,000 GPUs) in 3.6 s, 165 ns a hold.
constexpr double kOpsPerResizeGpuHold = 2.5;
// A sample's pass over one cohort or ClusterQueue and GPU model (the quota series): 1,000
// cohorts and queues × 100,801 samples in 0.2 s, 2 ns.
constexpr double kOpsPerQuotaCell = 0.03;
// A replication's series value summarised (its column's mean and spread: two passes).
constexpr double kOpsPerSummarisedValue = 2;
// A quota check or charge climbing one level of the cohort tree: 1,200,000 checks and charges
// through 1,000 levels in 1.7 s more than through 2, 1.4 ns a level.
constexpr double kOpsPerCohortLevel = 0.021;

/// Does any job ask CPU or host memory (then samples walk the nodes)?
bool asksHost(const Scenario& s) {
    auto host = [](const JobTraitsDef& t) { return t.cpuMilliPerPod > 0 || t.memoryMiBPerPod > 0; };
    return std::any_of(s.jobClasses.begin(), s.jobClasses.end(),
                       [&](const JobClassDef& c) { return host(c.traits); }) ||
           std::any_of(s.jobs.begin(), s.jobs.end(),
                       [&](const JobDef& j) { return host(j.traits); }) ||
           std::any_of(s.traces.begin(), s.traces.end(), [&](const TraceDef& t) {
               return host(t.traits) ||
                      (t.data &&
                       std::any_of(t.data->jobs.begin(), t.data->jobs.end(), [](const TraceJob& j) {
                           return j.cpuMilliPerPod > 0 || j.memoryMiBPerPod > 0;
                       }));
           });
}

double meanOf(const DistributionDef& d, double lo, double hi) {
    double mean = d.value;
    switch (d.kind) {
        case DistKind::Fixed:
            break;
        case DistKind::Exponential:
            mean = d.mean;
            break;
        case DistKind::Lognormal:
            mean = d.median * std::exp(d.sigma * d.sigma / 2);
            break;
        case DistKind::Uniform:
            mean = (d.low + d.high) / 2;
            break;
        case DistKind::Empirical: {
            double sum = 0, weights = 0;
            for (std::size_t i = 0; i < d.values.size() && i < d.weights.size(); ++i) {
                sum += d.values[i] * d.weights[i];
                weights += d.weights[i];
            }
            mean = weights > 0 ? sum / weights : 0;
            break;
        }
    }
    if (d.min) lo = std::max(lo, *d.min);
    if (d.max) hi = std::min(hi, *d.max);
    return std::clamp(mean, lo, std::max(lo, hi));
}

/// The fewest GPUs a distribution can draw (at least 1).
double leastOf(const DistributionDef& d) {
    double least = 1;
    switch (d.kind) {
        case DistKind::Fixed:
            least = d.value;
            break;
        case DistKind::Empirical:
            if (!d.values.empty()) least = *std::min_element(d.values.begin(), d.values.end());
            break;
        case DistKind::Uniform:
            least = d.low;
            break;
        default:
            break;
    }
    if (d.min) least = std::max(least, *d.min);
    return std::max(least, 1.0);
}

/// Distinct GPU counts a distribution can draw (each is a queue shape of its class).
double distinctSizes(const DistributionDef& d) {
    switch (d.kind) {
        case DistKind::Fixed:
            return 1;
        case DistKind::Empirical:
            return static_cast<double>(std::max<std::size_t>(d.values.size(), 1));
        case DistKind::Uniform:
            return std::max(1.0, std::floor(d.high) - std::ceil(d.low) + 1);
        default:
            return std::max(1.0, (d.max ? *d.max : 100000) - (d.min ? *d.min : 1) + 1);
    }
}

double podsOf(int gpus, int gpusPerPod, int maxPerNode) {
    gpus = std::max(gpus, 1);
    const int perPod = gpusPerPod > 0 ? gpusPerPod : automaticGpusPerPod(gpus, maxPerNode);
    return std::ceil(static_cast<double>(gpus) / std::max(perPod, 1));
}

/// A count in a message: "1,000,000".
std::string count(double n) {
    return detail::withThousands(std::llround(std::clamp(n, 0.0, 1e18)));
}

/// The most levels a quota check or charge climbs: a ClusterQueue, then its cohort and each
/// cohort above it (the reader refuses cycles). 0 without quotas.
double quotaLevels(const Scenario& s) {
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < s.cohorts.size(); ++i)
        index.emplace(s.cohorts[i].name, i);
    std::vector<int> levels(s.cohorts.size(), 0);  // a cohort's levels up to its root
    const auto levelsOf = [&](const std::string& name) {
        std::vector<std::size_t> up;  // the chain from `name` to the first cohort known
        for (auto it = index.find(name); it != index.end() && levels[it->second] == 0;
             it = index.find(s.cohorts[it->second].parent)) {
            up.push_back(it->second);
            if (up.size() > s.cohorts.size()) break;  // a cycle: the reader refuses it
        }
        for (auto c = up.rbegin(); c != up.rend(); ++c) {
            const auto parent = index.find(s.cohorts[*c].parent);
            levels[*c] = 1 + (parent == index.end() ? 0 : levels[parent->second]);
        }
        const auto it = index.find(name);
        return it == index.end() ? 0 : levels[it->second];
    };
    int most = 0;
    for (const QuotaDef& q : s.quotas)
        most = std::max(most, 1 + levelsOf(q.cohort));
    return most;
}

/// Resizes an elastic job may make: a growth at most once a window (it waits for nothing
/// queued and no resize of its own for scheduler.elasticGrowAfterIdleS), a growth given back
/// at most once per growth.
double resizesPerElasticJob(const Scenario& s) {
    return 2 * (std::floor(s.horizonS / std::max(s.scheduler.elasticGrowAfterIdleS, 1.0)) + 1);
}

}  // namespace

RunCost estimateRunCost(const Scenario& s, const Fleet& fleet) {
    RunCost c;
    const int perNode = std::max(fleet.maxGpusPerNode, 1);
    // Elastic jobs (their count, the most GPUs a resize of one records, their least size).
    double elasticJobs = 0, elasticHoldsEach = 0, elasticLeastGpus = 1e18;
    std::string elasticPointer;
    auto addElastic = [&](const std::string& pointer, double jobs, const JobTraitsDef& traits,
                          double leastGpus) {
        if (traits.elasticMaxGpus <= 0 || jobs <= 0) return;
        if (elasticPointer.empty()) elasticPointer = pointer + "/elastic";
        elasticJobs += jobs;
        elasticHoldsEach =
            std::max(elasticHoldsEach,
                     std::min<double>(traits.elasticMaxGpus, static_cast<double>(fleet.totalGpus)));
        elasticLeastGpus = std::min(elasticLeastGpus, std::max(leastGpus, 1.0));
    };
    auto addJobs = [&](const std::string& pointer, double jobs, double pods, double gpuHolds,
                       double shapes) {
        c.jobs += jobs;
        c.pods += pods;
        c.gpuHolds += gpuHolds;
        c.shapes += shapes;
        RunCostPart part;
        part.pointer = pointer;
        part.what = "about " + count(jobs) + " jobs";
        part.memoryBytes = jobs * kBytesPerJob + pods * kBytesPerPod + gpuHolds * kBytesPerGpuHold;
        part.workOps = jobs * 3 * kOpsPerEvent + pods * kOpsPerPod + gpuHolds * kOpsPerGpuHold;
        c.parts.push_back(part);
    };
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i) {
        const JobClassDef& cls = s.jobClasses[i];
        const std::string pointer = "/jobClasses/" + std::to_string(i);
        const double jobs = std::ceil(expectedClassJobs(cls, s.demandMultiplier, s.horizonS));
        const double meanGpus = meanOf(cls.gpus, 1, 100000);
        const double pods =
            cls.gpus.kind == DistKind::Fixed
                ? podsOf(static_cast<int>(std::lround(meanGpus)), cls.traits.gpusPerPod, perNode)
                : std::max(1.0, meanGpus /
                                    (cls.traits.gpusPerPod > 0 ? cls.traits.gpusPerPod : perNode));
        // Every GPU a job asks is one GPU held (a share or a MIG instance holds one too).
        addJobs(pointer, jobs, jobs * pods, jobs * meanGpus,
                std::min(distinctSizes(cls.gpus), std::max(jobs, 1.0)));
        addElastic(pointer, jobs, cls.traits, leastOf(cls.gpus));
    }
    if (!s.jobs.empty()) {
        double pods = 0, gpus = 0;
        std::set<std::tuple<int, int, std::string, int, std::string>> shapes;
        for (std::size_t i = 0; i < s.jobs.size(); ++i) {
            const JobDef& j = s.jobs[i];
            pods += podsOf(j.gpus, j.traits.gpusPerPod, perNode);
            gpus += std::max(j.gpus, 1);
            shapes.insert({j.gpus, j.traits.gpusPerPod, j.traits.gpuModel.value_or(""),
                           static_cast<int>(j.traits.pin.level), j.traits.pin.target});
            addElastic("/jobs/" + std::to_string(i), 1, j.traits, j.gpus);
        }
        addJobs("/jobs", static_cast<double>(s.jobs.size()), pods, gpus,
                static_cast<double>(shapes.size()));
    }
    for (std::size_t i = 0; i < s.traces.size(); ++i) {
        const TraceDef& t = s.traces[i];
        if (!t.data) continue;  // not loaded: counted when it is
        const std::size_t rows = t.maxJobs > 0
                                     ? std::min<std::size_t>(t.maxJobs, t.data->jobs.size())
                                     : t.data->jobs.size();
        double pods = 0, gpus = 0, leastGpus = 1e18;
        std::set<int> sizes;
        for (std::size_t r = 0; r < rows; ++r) {
            pods += t.data->rowsArePods
                        ? 1
                        : podsOf(t.data->jobs[r].gpus, t.traits.gpusPerPod, perNode);
            gpus += std::max(t.data->jobs[r].gpus, 1);
            leastGpus = std::min<double>(leastGpus, t.data->jobs[r].gpus);
            sizes.insert(t.data->jobs[r].gpus);
        }
        const std::string pointer = "/traces/" + std::to_string(i);
        addJobs(pointer, static_cast<double>(rows), pods, gpus, static_cast<double>(sizes.size()));
        addElastic(pointer, static_cast<double>(rows), t.traits, leastGpus);
    }

    c.samples = std::floor(s.horizonS / s.sampleIntervalS) + 1;
    double nodeChanges = 0;
    for (const NodeEventDef& e : s.nodeEvents) {
        if (auto r = fleet.findRack(e.node))
            nodeChanges += fleet.racks[*r].nodeCount;
        else if (auto p = fleet.findPod(e.node))
            nodeChanges += fleet.pods[*p].nodeCount;
        else
            nodeChanges += 1;
    }
    // Random failures (down and repaired) and spot reclaims (notice, reclaim, return).
    nodeChanges += 2 * expectedFailures(s, fleet) + 3 * expectedReclaims(s, fleet);
    // A node that fails or is taken back evicts what runs on it (at most a pod per GPU), and
    // each evicted job queues and binds again.
    const double evictions = nodeChanges * fleet.maxGpusPerNode;
    c.events = 3 * c.jobs + c.samples + nodeChanges + 3 * evictions;

    // The pending lists: per sample the first jobs in queue order, within the run's cap.
    const RunOptions defaults;
    const double listed = std::min(
        static_cast<double>(defaults.maxPendingEntriesPerRun),
        c.samples * std::min(static_cast<double>(defaults.maxPendingEntriesPerSample), c.jobs));
    // The racks and pods a sample's gang measures visit (not those too small to matter).
    c.unitsPerSample = static_cast<double>(detail::unitsVisitedPerSample(
        fleet, detail::UnitsByWholeGpus(fleet), detail::commonGangSizes(fleet)));
    const double listedBytes = listed * sizeof(PendingEntry), listedWork = listed * kOpsPerListed;
    RunCostPart sampling;
    sampling.pointer = "/sampleIntervalS";
    sampling.what = count(c.samples) + " samples";
    sampling.memoryBytes = c.samples * kBytesPerSample + listedBytes;
    sampling.workOps = c.samples * (kOpsPerEvent + c.shapes * kOpsPerShape +
                                    c.unitsPerSample * kOpsPerUnitVisited) +
                       listedWork;
    if (asksHost(s))
        sampling.workOps += c.samples * static_cast<double>(fleet.nodes.size()) * kOpsPerNodeWalked;
    c.parts.push_back(sampling);

    // The fleet set up once (records, name index, cluster state, GPU timeline rows), and the
    // node changes with the evictions they cause.
    const double nodes = static_cast<double>(fleet.nodes.size());
    const double units = static_cast<double>(fleet.racks.size() + fleet.pods.size());
    RunCostPart topology;
    topology.pointer = "/topology";
    topology.what = count(nodes) + " nodes";
    const double gpus = static_cast<double>(fleet.totalGpus);
    topology.memoryBytes = nodes * kBytesPerNode + gpus * kBytesPerGpu + units * kBytesPerUnit;
    topology.workOps = nodes * kOpsPerNodeSetUp + gpus * kOpsPerGpuSetUp +
                       units * kOpsPerUnitSetUp + (nodeChanges + 3 * evictions) * kOpsPerEvent;
    c.parts.push_back(topology);

    // Every pass looks at each shape group once: passes (≤ events) × shapes.
    RunCostPart passes;
    passes.pointer = "/jobClasses";
    passes.what = count(c.shapes) + " job shapes looked at by each of about " + count(c.events) +
                  " scheduling passes";
    passes.workOps = c.events * c.shapes * kOpsPerShape;
    c.parts.push_back(passes);

    // Quotas: every sample walks each cohort and ClusterQueue once per GPU model (the quota
    // series), and each quota check (a pass's and a sample's look at a shape, a job as it
    // queues) or charge (a bind, a release) climbs the cohort tree from the team's queue.
    if (!s.quotas.empty()) {
        c.quotaLevels = quotaLevels(s);
        const double cells = static_cast<double>(s.cohorts.size() + s.quotas.size()) *
                             static_cast<double>(fleet.gpuModels.size());
        // Checks: a pass's and a sample's diagnosis's look at each shape, a job's when it
        // queues; charges: its bind and release (and an evicted job's again).
        const double checks = (c.events + c.samples) * c.shapes + 3 * (c.jobs + evictions);
        RunCostPart quota;
        quota.pointer = s.cohorts.empty() ? "/quotas" : "/cohorts";
        quota.what = count(static_cast<double>(s.cohorts.size() + s.quotas.size())) +
                     " cohorts and queues, " + count(c.quotaLevels) +
                     (c.quotaLevels == 1 ? " level deep" : " levels deep");
        quota.memoryBytes = cells * kBytesPerQuotaCell;
        quota.workOps =
            c.samples * cells * kOpsPerQuotaCell + checks * c.quotaLevels * kOpsPerCohortLevel;
        c.parts.push_back(quota);
    }

    // Elastic resizes: each records the job's whole new binding (a placement a pod, a
    // timeline interval a GPU, a run segment), at most the fleet's GPUs, and failing nodes
    // shrink the jobs on them; the run stops resizing at its budget of GPU holds.
    if (elasticJobs > 0) {
        const double resizes = elasticJobs * resizesPerElasticJob(s) + evictions;
        c.resizeGpuHolds = std::min(static_cast<double>(defaults.maxElasticResizeGpuHolds),
                                    resizes * elasticHoldsEach);
        // Each resize records at least its job's own GPUs.
        const double recorded = std::min(resizes, c.resizeGpuHolds / elasticLeastGpus);
        RunCostPart elastic;
        elastic.pointer = elasticPointer;
        elastic.what = "up to " + count(c.resizeGpuHolds) + " GPU holds recorded by resizes";
        elastic.memoryBytes = c.resizeGpuHolds * (kBytesPerGpuHold + sizeof(PodPlacement)) +
                              recorded * sizeof(RunSegment);
        elastic.workOps = c.resizeGpuHolds * kOpsPerResizeGpuHold + recorded * kOpsPerEvent;
        c.parts.push_back(elastic);
    }

    double runMemory = 0, runWork = 0;
    for (const RunCostPart& p : c.parts) {
        runMemory += p.memoryBytes;
        runWork += p.workOps;
    }
    // Replications: the scenario runs on that many seeds, a few at once; each leaves its
    // KPIs and series until they are summarised into bands (mean, low, high per value). Only
    // the first keeps its pending lists (runReplications).
    c.runs = std::max(s.replications, 1);
    if (c.runs > 1) {
        const double seriesValues =
            c.samples * (detail::kSeriesCount + 1 + 4 * static_cast<double>(s.quotas.size()));
        RunCostPart replications;
        replications.pointer = "/replications";
        replications.what = count(c.runs) + " runs";
        // The first run's results are kept whole while the next ones run.
        replications.memoryBytes = std::min(c.runs - 1, kRunsAtOnce) * (runMemory - listedBytes) +
                                   c.runs * (seriesValues * sizeof(double) + kBytesPerReducedRun) +
                                   3 * seriesValues * sizeof(double);
        replications.workOps =
            (c.runs - 1) * (runWork - listedWork) + c.runs * seriesValues * kOpsPerSummarisedValue;
        c.parts.push_back(replications);
    }

    for (const RunCostPart& p : c.parts) {
        c.memoryBytes += p.memoryBytes;
        c.workOps += p.workOps;
    }
    return c;
}

std::string budgetExcess(const RunCost& cost, const RunBudget& budget) {
    const bool memory = cost.memoryBytes > budget.memoryBytes;
    const bool work = cost.workOps > budget.workOps;
    if (!memory && !work) return {};
    std::vector<RunCostPart> parts = cost.parts;
    std::sort(parts.begin(), parts.end(), [&](const RunCostPart& a, const RunCostPart& b) {
        return memory ? a.memoryBytes > b.memoryBytes : a.workOps > b.workOps;
    });
    char head[256];
    if (memory)
        std::snprintf(head, sizeof head,
                      "the run would need about %.1f GB of memory (budget %.1f GB)",
                      cost.memoryBytes / (1ull << 30), budget.memoryBytes / (1ull << 30));
    else
        std::snprintf(head, sizeof head,
                      "the run would take about %.2g work units (budget %.2g, about %.0f s on a "
                      "2-core machine)",
                      cost.workOps, budget.workOps, budget.workOps / 1.5e7);
    std::string text = head;
    text += "; most of it from ";
    for (std::size_t i = 0; i < parts.size() && i < 2; ++i) {
        const double share =
            memory ? parts[i].memoryBytes / cost.memoryBytes : parts[i].workOps / cost.workOps;
        if (i > 0 && share < 0.1) break;
        char pct[32];
        std::snprintf(pct, sizeof pct, " (%.0f %%)", 100 * share);
        text += (i ? " and " : "") + parts[i].pointer + ": " + parts[i].what + pct;
    }
    text +=
        ". Shorten horizonS, lengthen sampleIntervalS, lower the rates or set maxJobs, use "
        "fewer replications, or raise the budget (--budget-gb / --budget-ops of gpuplan-cli and "
        "gpuplan).";
    return text;
}

double expectedFailures(const Scenario& s, const Fleet& fleet) {
    if (!s.failures) return 0;
    return fleet.totalGpus * (s.horizonS / 3600) / s.failures->mtbfGpuHours;
}

double expectedReclaims(const Scenario& s, const Fleet& fleet) {
    if (!s.spot) return 0;
    double spotNodes = 0;
    for (const FleetNode& node : fleet.nodes)
        spotNodes += node.buyingClass == BuyingClass::Spot && node.gpus > 0;
    return spotNodes * s.horizonS / s.spot->meanTimeToReclaimS();
}

}  // namespace gpuplan
