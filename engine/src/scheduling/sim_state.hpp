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

#include "autoscaler.hpp"
#include "binding.hpp"
#include "checkpoints.hpp"
#include "core/bound_job_index.hpp"
#include "core/end_ordered_jobs.hpp"
#include "core/index_set.hpp"
#include "core/large_arrays.hpp"
#include "gpuplan/results/run_record.hpp"
#include "mig_recuts.hpp"
#include "quota/quota_ledger.hpp"
#include "resources/cluster_state.hpp"
#include "resources/shared_gpus.hpp"

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
    /// A binding starts or ends: the bound elastic jobs follow, and an end may leave room
    /// to grow into.
    void bindingStarted(const Binding& b) {
        if (isElastic(b.job)) bound.insert(b.job);
    }
    void bindingEnded(const Binding& b) {
        if (!m_any) return;
        bound.erase(b.job);
        ++capacityEpoch;
    }
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
          nodePods(f.nodes.size()),
          autoscaler(f, s.onDemand),
          elastic(r) {
        reserveLarge(runtime, r.jobs.size());
        runtime.resize(r.jobs.size());
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

    /// The job's current binding, as the books are told about it.
    Binding bindingOf(std::uint32_t job) const {
        const JobRuntime& rt = runtime[job];
        const RunSegment& seg = record.segments[rt.segment];
        return {job, spec(job), record.placementOf(seg), seg.placementBegin, rt.plannedEndS};
    }

    // The binding lifecycle, as the books that keep bound jobs see it. The cluster's GPUs
    // were taken by the placer before a binding starts; every other book learns of it here.

    /// A binding starts: the end order, its nodes' pods, the quota and the preemption
    /// candidates take it.
    void bindingStarted(const Binding& b) {
        boundByEnd.insert(b.plannedEndS, b.job, b.placementBegin,
                          static_cast<std::uint32_t>(b.pods.size()));
        nodePods.bindingStarted(b);
        chargeQuota(b.job, b.pods, +1);
        if (boundJobs.enabled())
            boundJobs.add(
                b.job, b.spec.team, fleet.nodes[b.pods.front().node].gpuModel, b.spec.priority,
                runtime[b.job].segment,
                b.spec.source == JobSource::Class ? static_cast<int>(b.spec.sourceIndex) : -1);
    }
    /// It gives up its room (it ends, or a grace period's notice hands its GPUs and quota to a
    /// preemptor): the cluster's GPUs, the quota, the preemption candidates and the end
    /// order let it go. Its pods stay on their nodes until it releases them.
    [[gnu::always_inline]] void roomLeft(const Binding& b) {
        const HostDemand host = hostOf(b.job);
        if (host.none() && b.spec.holdsWholeGpus()) {
            for (const PodPlacement& pod : b.pods)
                cluster.release(static_cast<int>(pod.node), pod.gpuMask);
        } else {
            for (const PodPlacement& pod : b.pods)
                cluster.release(pod, host);
        }
        chargeQuota(b.job, b.pods, -1);
        if (boundJobs.enabled()) boundJobs.remove(b.job);
        boundByEnd.erase(b.plannedEndS, b.job);
    }
    /// Its release moves to endS (`handedOver`: at a grace period's notice, whose GPUs went
    /// to the preemptor and are off the end order already).
    void releaseMoved(const Binding& b, double endS, bool handedOver) {
        if (!handedOver) {
            boundByEnd.erase(b.plannedEndS, b.job);
            boundByEnd.insert(endS, b.job, b.placementBegin,
                              static_cast<std::uint32_t>(b.pods.size()));
        }
        nodePods.moved(b, endS, handedOver);
    }
    /// It ends: its pods leave their nodes (after roomLeft, at once or at its notice).
    void bindingEnded(const Binding& b) { nodePods.bindingEnded(b); }

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
    /// Pods bound per node.
    NodePods nodePods;
    using BoundPod = NodePods::BoundPod;
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
