#include "gpuplan/run_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

#include "gpuplan/simulate.hpp"
#include "gpuplan/workload.hpp"
#include "metrics_recorder.hpp"
#include "scenario_read_scheduler.hpp"
#include "sim_state.hpp"
#include "text_rules.hpp"

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

}  // namespace

RunCost estimateRunCost(const Scenario& s, const Fleet& fleet) {
    RunCost c;
    const int perNode = std::max(fleet.maxGpusPerNode, 1);
    auto addJobs = [&](const std::string& pointer, double jobs, double pods, double shapes) {
        c.jobs += jobs;
        c.pods += pods;
        c.shapes += shapes;
        RunCostPart part;
        part.pointer = pointer;
        part.what = "about " + count(jobs) + " jobs";
        part.memoryBytes = jobs * kBytesPerJob + pods * kBytesPerPod;
        part.workOps = jobs * 3 * kOpsPerEvent + pods * kOpsPerPod;
        c.parts.push_back(part);
    };
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i) {
        const JobClassDef& cls = s.jobClasses[i];
        const double jobs = std::ceil(expectedClassJobs(cls, s.demandMultiplier, s.horizonS));
        const double meanGpus = meanOf(cls.gpus, 1, 100000);
        const double pods =
            cls.gpus.kind == DistKind::Fixed
                ? podsOf(static_cast<int>(std::lround(meanGpus)), cls.traits.gpusPerPod, perNode)
                : std::max(1.0, meanGpus /
                                    (cls.traits.gpusPerPod > 0 ? cls.traits.gpusPerPod : perNode));
        addJobs("/jobClasses/" + std::to_string(i), jobs, jobs * pods,
                std::min(distinctSizes(cls.gpus), std::max(jobs, 1.0)));
    }
    if (!s.jobs.empty()) {
        double pods = 0;
        std::set<std::tuple<int, int, std::string, int, std::string>> shapes;
        for (const JobDef& j : s.jobs) {
            pods += podsOf(j.gpus, j.traits.gpusPerPod, perNode);
            shapes.insert({j.gpus, j.traits.gpusPerPod, j.traits.gpuModel.value_or(""),
                           static_cast<int>(j.traits.pin.level), j.traits.pin.target});
        }
        addJobs("/jobs", static_cast<double>(s.jobs.size()), pods,
                static_cast<double>(shapes.size()));
    }
    for (std::size_t i = 0; i < s.traces.size(); ++i) {
        const TraceDef& t = s.traces[i];
        if (!t.data) continue;  // not loaded: counted when it is
        const std::size_t rows = t.maxJobs > 0
                                     ? std::min<std::size_t>(t.maxJobs, t.data->jobs.size())
                                     : t.data->jobs.size();
        double pods = 0;
        std::set<int> sizes;
        for (std::size_t r = 0; r < rows; ++r) {
            pods += t.data->rowsArePods
                        ? 1
                        : podsOf(t.data->jobs[r].gpus, t.traits.gpusPerPod, perNode);
            sizes.insert(t.data->jobs[r].gpus);
        }
        addJobs("/traces/" + std::to_string(i), static_cast<double>(rows), pods,
                static_cast<double>(sizes.size()));
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
    nodeChanges += 2 * detail::expectedFailures(s, fleet) + 3 * detail::expectedReclaims(s, fleet);
    // A node that fails or is taken back evicts what runs on it (at most a pod per GPU), and
    // each evicted job queues and binds again.
    const double evictions = nodeChanges * fleet.maxGpusPerNode;
    c.events = 3 * c.jobs + c.samples + nodeChanges + 3 * evictions;

    // The pending lists: per sample the first jobs in queue order, within the run's cap.
    const RunOptions defaults;
    const double listed = std::min(
        static_cast<double>(defaults.maxPendingEntriesPerRun),
        c.samples * std::min(static_cast<double>(defaults.maxPendingEntriesPerSample), c.jobs));
    RunCostPart sampling;
    sampling.pointer = "/sampleIntervalS";
    sampling.what = count(c.samples) + " samples";
    sampling.memoryBytes = c.samples * kBytesPerSample + listed * sizeof(PendingEntry);
    sampling.workOps =
        c.samples * (kOpsPerEvent + c.shapes * kOpsPerShape) + listed * kOpsPerListed;
    if (asksHost(s))
        sampling.workOps += c.samples * static_cast<double>(fleet.nodes.size()) * kOpsPerNodeWalked;
    c.parts.push_back(sampling);

    RunCostPart topology;
    topology.pointer = "/topology";
    topology.what = count(static_cast<double>(fleet.nodes.size())) + " nodes";
    topology.memoryBytes = static_cast<double>(fleet.nodes.size()) * kBytesPerNode;
    topology.workOps = (nodeChanges + 3 * evictions) * kOpsPerEvent;
    c.parts.push_back(topology);

    // Every pass looks at each shape group once: passes (≤ events) × shapes.
    RunCostPart passes;
    passes.pointer = "/jobClasses";
    passes.what = count(c.shapes) + " job shapes looked at by each of about " + count(c.events) +
                  " scheduling passes";
    passes.workOps = c.events * c.shapes * kOpsPerShape;
    c.parts.push_back(passes);

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
        ". Shorten horizonS, lengthen sampleIntervalS, lower the rates or set maxJobs, or "
        "raise the budget (--budget-gb / --budget-ops of gpuplan-cli and gpuplan).";
    return text;
}

}  // namespace gpuplan
