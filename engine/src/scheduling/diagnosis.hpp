// Pending diagnosis: blames every waiting job on the lowest of the four layers that explains
// it, with a reason in kube-scheduler's words.
//   Reservation   the fleet, even empty and healthy, cannot hold the job.
//   Provisioning  it would fit if the bought capacity were Ready, but not enough of it is.
//   Scheduling    Ready capacity exists, but running jobs, fragmentation, gang, topology or
//                 queue order keep it out.
//   Workload      bound but not progressing: starting up, or crash-looping (out of memory).
// The reason starts with the FitError histogram kube-scheduler prints
// ("0/32 nodes are available: 20 Insufficient nvidia.com/gpu, 12 node(s) were unschedulable.")
// and adds one sentence that names the layer's cause.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler.hpp"
#include "sim_state.hpp"

namespace gpuplan::detail {

class Diagnoser {
public:
    Diagnoser(SimState& sim, const Scheduler& scheduler) : m_sim(sim), m_scheduler(scheduler) {}

    /// Forgets per-sample memo (cluster state has moved on).
    void beginSample() { m_memo.clear(); }
    /// A queued job.
    PendingEntry diagnoseQueued(std::uint32_t job, double nowS);
    /// A job just queued (submitted or evicted) that could not start: its layer, exactly, and
    /// a reason that says only that (the detailed one is taken at samples, for the jobs within
    /// the sample's list). Cheap: no text per job.
    PendingEntry diagnoseJustQueued(std::uint32_t job);
    /// A bound job that is starting or crash-looping.
    PendingEntry diagnoseStuck(std::uint32_t job, double nowS);
    /// A job an MPS fault from `faulting`'s crash on (node, slot) evicted: workload layer.
    PendingEntry diagnoseMpsFault(std::uint32_t job, std::uint32_t faulting, std::uint32_t node,
                                  int slot);

    /// A job just preempted so that `by` could start: scheduling layer, token Preempted.
    PendingEntry diagnosePreempted(std::uint32_t job, std::uint32_t by);

    /// A job that preempted and waits for its victims' grace periods to end: scheduling
    /// layer, token WaitingForPreemptedWorkloads (Kueue's "Pending the preemption of N
    /// workload(s)"), the victims named.
    PendingEntry diagnoseAwaiting(std::uint32_t job, const std::vector<std::uint32_t>& victims);

    /// The layer alone, for callers that do not need the text.
    Layer layerOf(std::uint32_t job) const;

private:
    struct NodeCounts {
        int total = 0;        // all nodes in the fleet
        int mismatch = 0;     // outside the job's pin or of another GPU model
        int notReady = 0;     // Provisioning
        int unreachable = 0;  // Failed
        int cordoned = 0;
        int insufficient = 0;  // Ready, fewer free GPUs (shares, instances) than one pod needs
        int insufficientCpu = 0;
        int insufficientMemory = 0;
        int available = 0;  // Ready, a pod fits now
    };
    NodeCounts countNodes(const JobSpec& job) const;
    std::string fitError(const JobSpec& job, const NodeCounts& counts) const;
    std::string layerSentence(std::uint32_t job, Layer layer, const NodeCounts& counts,
                              double nowS) const;
    long long capacity(const JobSpec& job, Basis basis) const;
    /// Does the job wait on capacity that is down (failed, reclaimed, in repair)? Its pods fit
    /// in what is free now on one GPU model together with what those nodes would hold empty,
    /// and not in what is free now alone. (Quota is the caller's to check.)
    bool waitsOnDownCapacity(const JobSpec& job) const;
    /// The nodes failed or in repair now (kept until a node changes state).
    const std::vector<std::uint32_t>& downNodes() const;
    /// Per GPU model, the on-demand nodes not provisioned (no Nodes to kube-scheduler), kept
    /// until a node changes state.
    const std::vector<int>& unprovisionedOnDemand() const;
    /// Why its team's quota admits a queued job on none of its flavors (Kueue's token and
    /// message); token None when quota admits it somewhere or does not manage its team.
    struct QuotaBlock {
        ReasonToken token = ReasonToken::None;
        std::string text;
    };
    QuotaBlock quotaBlock(const JobSpec& job, bool withText) const;
    /// The diagnosis memo's key: the shape, and the team where quota decides admission.
    ShapeKey memoKey(const JobSpec& job) const {
        ShapeKey key = shapeKey(job);
        if (m_sim.quota.manages(job.team)) key.team = job.team;
        return key;
    }
    std::uint32_t intern(const std::string& text);
    /// The shape and constraint of a job, as one number (jobs alike share diagnoses).
    /// Jobs with the same shape (size, target, kind of hold, CPU and memory) get the same
    /// diagnosis.
    static ShapeKey shapeKey(const JobSpec& job) { return JobQueue::shapeOf(job); }

    SimState& m_sim;
    const Scheduler& m_scheduler;
    std::unordered_map<ShapeKey, PendingEntry, JobQueue::KeyHash> m_memo;
    std::unordered_map<std::string, std::uint32_t> m_reasonIds;
    std::uint32_t m_justQueuedReason[kLayerCount] = {~0u, ~0u, ~0u, ~0u};
    /// "Starting up, which takes …" by startup time: every binding with a startup asks for it, and
    /// formatting it each time cost more than the rest of the binding.
    std::unordered_map<float, std::uint32_t> m_startingReason;
    /// A queued job's layer depends only on its shape and the node states: kept per shape
    /// until a node changes state (every arrival that cannot start asks).
    mutable std::unordered_map<ShapeKey, Layer, JobQueue::KeyHash> m_queuedLayer;
    mutable std::uint64_t m_queuedLayerAt = ~std::uint64_t{0};
    mutable std::vector<std::uint32_t> m_downNodes;
    mutable std::vector<int> m_absentOfModel;
    mutable std::uint64_t m_absentAt = ~std::uint64_t{0};
    mutable std::uint64_t m_downNodesAt = ~std::uint64_t{0};
};

}  // namespace gpuplan::detail
