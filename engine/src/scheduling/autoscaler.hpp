// On-demand nodes that follow demand (Scenario::onDemand, FleetNode::elastic), as the
// cluster autoscaler does: after a scheduling pass, queued jobs that would fit on new nodes
// ask for them; each is Ready provisioningDelayS after the request, and given back once idle
// for idleTimeoutS. The kernel (simulate.cpp) turns requests into node changes; this keeps
// the books: which nodes are coming, which jobs wait for them, which nodes are idle since when.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "binding.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"
#include "job_queue.hpp"
#include "quota/quota_ledger.hpp"
#include "resources/cluster_state.hpp"
#include "resources/placement.hpp"

namespace gpuplan::detail {

class Autoscaler {
public:
    Autoscaler(const Fleet& fleet, const std::optional<OnDemandDef>& def);

    bool active() const { return m_active; }
    double provisioningDelayS() const { return m_def.provisioningDelayS; }
    double idleTimeoutS() const { return m_def.idleTimeoutS; }

    /// After a pass: the elastic nodes to request now for the queued jobs (in queue order,
    /// the first kMaxScan) that quota admits: the pods that do not fit in the free GPUs
    /// (spoken for in queue order) on new nodes of a pool that can hold them all (a gang
    /// beyond the ceiling asks for nothing), less the nodes already coming. Marks them
    /// coming.
    std::vector<std::uint32_t> scaleUp(const JobQueue& queue, const std::vector<JobRecord>& jobs,
                                       const ClusterState& cluster, const QuotaLedger& quota,
                                       double nowS);
    static constexpr std::size_t kMaxScan = 4096;

    /// A requested node turned Ready (or was taken by a node event before it came).
    void arrived(std::uint32_t node);
    /// When the job's capacity is Ready, if the last scale-up counted it (else nullopt).
    std::optional<double> comingFor(std::uint32_t job) const;
    /// Nodes requested and not yet Ready.
    int comingNodes() const { return m_comingTotal; }

    /// Idle tracking: a node with no pod since `nowS` (−1 = busy).
    void idleSince(std::uint32_t node, double nowS) { m_idleSinceS[node] = nowS; }
    double idleSinceS(std::uint32_t node) const { return m_idleSinceS[node]; }
    /// A binding starts: its nodes are busy. (Which nodes a release leaves idle the kernel
    /// decides: it knows whether the job takes new pods at once.)
    void bindingStarted(const Binding& b) {
        if (!m_active) return;
        for (const PodPlacement& pod : b.pods)
            m_idleSinceS[pod.node] = -1;
    }
    /// The node is given back now: it is not requested again at the same instant (so that
    /// a job the ceiling cannot hold does not request and return nodes forever).
    void givenBack(std::uint32_t node, double nowS) {
        m_idleSinceS[node] = -1;
        m_givenBackAtS[node] = nowS;
    }

private:
    /// Elastic nodes of one node type: a request takes the lowest-indexed unprovisioned ones.
    struct Pool {
        int nodeType = 0;
        std::vector<std::uint32_t> nodes;
        int coming = 0;
        double readyS = 0;  ///< when the last request is Ready
    };
    const Fleet& m_fleet;
    OnDemandDef m_def;
    bool m_active = false;
    std::vector<Pool> m_pools;
    std::vector<int> m_poolOf;           ///< per node, −1 when not elastic
    std::vector<std::uint8_t> m_coming;  ///< per node: requested, not yet Ready
    std::vector<double> m_idleSinceS;    ///< per node
    std::vector<double> m_givenBackAtS;  ///< per node, −1 = never
    int m_comingTotal = 0;
    /// Jobs the last scale-up counted, with their pool (sorted by job).
    std::vector<std::pair<std::uint32_t, int>> m_waiting;
    /// What one queue group's jobs may do with each pool, worked out once per scale-up.
    struct PoolFit {
        int model = 0;
        long long podsPerNode = 0;  ///< 0: the pool is not for it, or its quota refuses it
    };
    struct GroupFit {
        PlacementRequest req;
        long long freeNowPods = 0;  ///< whole-GPU pods that fit the free GPUs now
        std::vector<PoolFit> pools;
        bool anyPool = false;  ///< some pool's nodes hold it, and its quota admits it
    };
    GroupFit groupFit(const JobSpec& spec, const ClusterState& cluster,
                      const QuotaLedger& quota) const;
    /// One job in queue order: the pods that do not fit the free GPUs it speaks for ask for
    /// nodes of the first pool that can hold them (m_waiting).
    void countJob(std::uint32_t job, const GroupFit& fit, std::vector<long long>& freeGpus,
                  std::vector<double>& needNodes);
    /// How many of a queue group's jobs are among the first kMaxScan in queue order.
    static std::size_t windowShare(const JobQueue& queue, int group);
    /// Could `newNodes` nodes of the pool ever come (its size, the ceiling)?
    bool withinPool(std::size_t pool, double newNodes) const;
    /// What countJob says of every job of a group none of whose pods fit the free GPUs now:
    /// the pool it waits for and the nodes it asks (pool −1: none). Nothing while it may fit.
    struct Settled {
        int pool = -1;
        double newNodes = 0;
    };
    std::optional<Settled> settledOutcome(const GroupFit& fit,
                                          const std::vector<long long>& freeGpus) const;
    /// The jobs of a settled run that wait for a pool: a group's live jobs with keys in
    /// [first, last] when the scale-up looked (the queue does not change before the next).
    struct WaitingSpan {
        int group;
        JobQueue::OrderKey first, last;
        int pool;
    };
    std::vector<WaitingSpan> m_waitingSpans;  ///< by group
    const JobQueue* m_queue = nullptr;        ///< the last scale-up's
    std::vector<GroupFit> m_byGroup;
};

}  // namespace gpuplan::detail
