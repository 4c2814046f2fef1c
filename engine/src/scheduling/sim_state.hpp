// The mutable state of one run, shared by the kernel, the scheduler and the diagnoser.
// One instance per simulate() call: nothing here is global.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checkpoints.hpp"
#include "core/bound_job_index.hpp"
#include "core/end_ordered_jobs.hpp"
#include "core/index_set.hpp"
#include "core/large_arrays.hpp"
#include "gpuplan/results/run_record.hpp"
#include "quota/quota_ledger.hpp"
#include "resources/cluster_state.hpp"
#include "resources/shared_gpus.hpp"
#include "scheduling/autoscaler.hpp"
#include "scheduling/mig_recuts.hpp"

namespace gpuplan::detail {

enum class Phase : std::uint8_t {
    NotArrived,
    Queued,
    Starting,   ///< bound, startup not yet over (workload layer)
    Running,    ///< bound and progressing
    CrashLoop,  ///< bound, never progressing (workload layer)
    /// Preempted with a grace period: holds its GPUs and quota, no longer progresses, and is
    /// no longer a preemption candidate; released at the grace period's end.
    Terminating,
    Done,
};

struct JobRuntime {
    double plannedEndS = 0;     ///< when the current binding releases its GPUs
    double progressStartS = 0;  ///< when useful progress began (after startup)
    std::uint32_t segment = 0xFFFFFFFFu;
    Phase phase = Phase::NotArrived;
};

/// Elastic jobs (JobTraitsDef::elasticMaxGpus): how far each may grow and which are bound.
/// Empty when the run has none, and then nothing else asks.
struct ElasticJobs {
    explicit ElasticJobs(const RunRecord& r) {
        // Most runs have no elastic source: no walk over their jobs at start-up.
        bool anySource = false;
        for (const auto& source : r.sourceTraits.elasticMaxGpus)
            for (int maxGpus : source)
                anySource |= maxGpus > 0;
        if (!anySource) return;
        for (std::uint32_t j = 0; j < r.jobs.size(); ++j) {
            const int most = r.maxPodsOf(j);
            if (most == r.jobs[j].spec.pods()) continue;
            if (maxPods.empty()) {
                maxPods.assign(r.jobs.size(), 0);
                bound.reset(static_cast<std::uint32_t>(r.jobs.size()));
            }
            maxPods[j] = most;
        }
        m_any = !maxPods.empty();
        if (!m_any) return;
        lastResizeS.assign(r.jobs.size(), -std::numeric_limits<double>::infinity());
        triedAtEpoch.assign(r.jobs.size(), 0);
    }
    /// One flag, read on every bind, release and progress change (not the vector's ends).
    bool any() const { return m_any; }
    bool isElastic(std::uint32_t job) const { return m_any && maxPods[job] > 0; }

    std::vector<int> maxPods;         ///< per job: the most pods it may hold; 0 = fixed size
    IndexSet bound;                   ///< elastic jobs bound now
    std::vector<double> lastResizeS;  ///< per job: its last grow, shrink or failure resize
    /// Capacity may have grown since: bumped whenever a binding ends or a node changes state.
    std::uint64_t capacityEpoch = 1;
    /// Per job: the epoch of a grow that did not happen (no room, or not worth it): tried
    /// again only once capacity may have grown, not on every pass.
    std::vector<std::uint64_t> triedAtEpoch;
    /// Nothing left queued after a pass since then: −inf until something is, +inf while it is.
    double queueEmptySinceS = -std::numeric_limits<double>::infinity();
    double growTimerS = -1;  ///< the latest growth check pushed
    std::uint64_t grows = 0;
    std::uint64_t shrinks = 0;  ///< to let queued jobs in
    /// The run's resizes recorded RunOptions::maxElasticResizeGpuHolds GPU holds: from
    /// then on elastic jobs keep their sizes (no grow, no reclaim).
    double budgetSpentAtS = -1;
    std::size_t resizeGpuHolds = 0;  ///< GPU holds resizes recorded so far

private:
    bool m_any = false;
};

struct SimState {
    SimState(RunRecord& r, const Fleet& f, const Scenario& s)
        : record(r),
          fleet(f),
          scenario(s),
          cluster(f),
          migRecuts(f, cluster, r.migRecuts),
          quota(s, f, r.teams),
          savedWork(r),
          autoscaler(f, s.onDemand),
          elastic(r) {
        reserveLarge(runtime, r.jobs.size());
        runtime.resize(r.jobs.size());
        nodeJobs.resize(f.nodes.size());
    }

    const JobSpec& spec(std::uint32_t job) const { return record.jobs[job].spec; }
    HostDemand hostOf(std::uint32_t job) const {
        const JobSpec& s = spec(job);
        return {s.cpuMilliPerPod, s.memoryMiBPerPod};
    }
    std::span<const PodPlacement> placementOf(std::uint32_t job) const {
        return record.placementOf(record.segments[runtime[job].segment]);
    }

    /// Takes some of a bound job's pods off (−1) or back onto (+1) the cluster and quota
    /// books, for a what-if (preemption's victims, elastic growth): nothing else moves.
    void liftPods(std::uint32_t job, std::span<const PodPlacement> pods, int sign) {
        const HostDemand host = hostOf(job);
        for (const PodPlacement& pod : pods) {
            if (sign < 0)
                cluster.release(pod, host);
            else
                cluster.occupy(pod, host);
        }
        chargeQuota(job, pods, sign);
    }

    /// Admitted GPU-equivalents, per team and GPU model (a team's job while bound). Inline
    /// only the test for quotas at all: the whole-GPU bind and release paths stay small.
    [[gnu::always_inline]] void chargeQuota(std::uint32_t job, std::span<const PodPlacement> pods,
                                            int sign) {
        if (quota.enabled()) quota.chargePods(spec(job).team, fleet, pods, sign);
    }

    /// What the run records as it goes (the only output it writes; Results is built from it).
    RunRecord& record;
    const Fleet& fleet;
    const Scenario& scenario;
    ClusterState cluster;
    /// Dynamic MIG re-cuts in flight (the diagnoser asks what is coming for a MIG job).
    MigRecuts migRecuts;
    QuotaLedger quota;
    std::vector<JobRuntime> runtime;
    /// What each job kept at checkpoints when it was evicted: its next binding resumes there.
    SavedWork savedWork;
    /// Bound jobs by planned release time: what a backfill reservation looks ahead through.
    EndOrderedJobs boundByEnd;
    /// Bound jobs by team, model and priority: kept only when something can be preempted.
    BoundJobIndex boundJobs;
    /// A pod bound on a node, with what a reservation asks of it kept alongside (a head's
    /// hold reads every reserved node's pods on every pass: no job records to fetch).
    struct BoundPod {
        std::uint32_t job;
        int gpus;
        double plannedEndS;  ///< when the job releases it
    };
    /// Bound pods per node (a gang appears on each of its nodes once per pod).
    std::vector<std::vector<BoundPod>> nodeJobs;
    /// Jobs in their preemption grace period (Phase::Terminating), with the job they were
    /// preempted for. Few at a time.
    struct TerminatingJob {
        std::uint32_t job;
        std::uint32_t by;     ///< its preemptor; kNoPreemptor for a spot reclaim's notice
        bool awaited = true;  ///< `by` holds room and waits for it (false once given up)
    };
    static constexpr std::uint32_t kNoPreemptor = 0xFFFFFFFFu;
    std::vector<TerminatingJob> terminating;
    std::uint32_t preemptorOf(std::uint32_t job) const {
        for (const TerminatingJob& t : terminating)
            if (t.job == job) return t.by;
        throw std::logic_error("not in a grace period");
    }
    std::vector<std::uint32_t> victimsOf(std::uint32_t by) const {
        std::vector<std::uint32_t> victims;
        for (const TerminatingJob& t : terminating)
            if (t.by == by && t.awaited) victims.push_back(t.job);
        return victims;
    }
    /// Elastic on-demand nodes: which are coming, which jobs wait for them, idle since when.
    Autoscaler autoscaler;
    ElasticJobs elastic;
    /// Crash-looping shares OOM-killed by their GPU's memory or their client limit: why.
    std::unordered_map<std::uint32_t, MemoryFault> memoryFaults;
};

}  // namespace gpuplan::detail
