#include "autoscaler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "placement.hpp"

namespace gpuplan::detail {

Autoscaler::Autoscaler(const Fleet& fleet, const std::optional<OnDemandDef>& def)
    : m_fleet(fleet), m_def(def.value_or(OnDemandDef{})) {
    if (!def) return;
    m_poolOf.assign(fleet.nodes.size(), -1);
    for (std::uint32_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        if (!node.elastic) continue;
        auto it = std::find_if(m_pools.begin(), m_pools.end(),
                               [&](const Pool& p) { return p.nodeType == node.nodeType; });
        if (it == m_pools.end()) it = m_pools.insert(m_pools.end(), Pool{node.nodeType, {}});
        it->nodes.push_back(n);
        m_poolOf[n] = static_cast<int>(it - m_pools.begin());
    }
    m_active = !m_pools.empty();
    m_coming.assign(fleet.nodes.size(), 0);
    m_idleSinceS.assign(fleet.nodes.size(), -1);
    m_givenBackAtS.assign(fleet.nodes.size(), -1);
}

std::vector<std::uint32_t> Autoscaler::scaleUp(const JobQueue& queue,
                                               const std::vector<JobRecord>& jobs,
                                               const ClusterState& cluster,
                                               const QuotaLedger& quota, double nowS) {
    std::vector<std::uint32_t> requested;
    m_waiting.clear();
    if (!m_active || queue.empty()) return requested;
    // The ceiling: nodes up (bought) or coming count against it.
    int room = std::numeric_limits<int>::max();
    if (m_def.maxNodes) room = *m_def.maxNodes - m_comingTotal - cluster.elasticNodesBought();
    // No node can be requested (all bought, or the ceiling reached) and none is coming, so
    // no job can be told it waits for one: nothing to count. A backlog on a fleet scaled to
    // its ceiling costs nothing here.
    if (m_comingTotal == 0 && (room <= 0 || cluster.elasticNodesUnbought() == 0)) return requested;
    // Whole nodes each pool needs: per job, the pods that do not fit in what is free now
    // (free GPUs are spoken for in queue order, as the cluster autoscaler's bin-packing
    // simulation places pending pods on existing nodes first), over what one empty node holds.
    std::vector<double> needNodes(m_pools.size(), 0.0);
    // Free GPUs on Ready nodes per model, from the fleet histograms the cluster keeps current
    // (not a walk over every node on every pass).
    std::vector<long long> freeGpus(m_fleet.gpuModels.size(), 0);
    for (std::size_t m = 0; m < freeGpus.size(); ++m) {
        const int* hist = cluster.freeHist(Scope::Fleet, 0, static_cast<int>(m));
        for (int f = 1; f < cluster.histWidth(); ++f)
            freeGpus[m] += static_cast<long long>(f) * hist[f];
    }
    // What a job's pools say depends on its shape (and team, where quota groups by it) only:
    // worked out once per queue group in this call.
    m_byGroup.resize(queue.groups().size());
    ++m_call;
    for (std::uint32_t job : queue.firstInOrder(kMaxScan)) {
        const int group = queue.groupOf(job);
        GroupFit& fit = m_byGroup[static_cast<std::size_t>(group)];
        if (fit.call != m_call) fit = groupFit(jobs[job].spec, cluster, quota);
        const PlacementRequest& req = fit.req;
        for (std::size_t p = 0; p < m_pools.size(); ++p) {
            const PoolFit& pool = fit.pools[p];
            if (pool.podsPerNode <= 0) continue;  // not for it, or its quota does not admit it
            // Whole-GPU pods fit now up to the free GPUs not spoken for and the free shape.
            long long fitNow = 0;
            if (req.wholeGpusOnly()) {
                fitNow =
                    std::min(fit.freeNowPods, freeGpus[pool.model] / std::max(1, req.gpusPerPod));
                fitNow = std::min<long long>(fitNow, req.pods);
                freeGpus[pool.model] -= fitNow * req.gpusPerPod;
            }
            if (fitNow >= req.pods) break;  // waits for a reservation, not for capacity
            const double newNodes =
                std::ceil(static_cast<double>(req.pods - fitNow) / pool.podsPerNode);
            if (newNodes > static_cast<double>(m_pools[p].nodes.size()) ||
                (m_def.maxNodes && newNodes > *m_def.maxNodes))
                continue;  // never fits
            needNodes[p] += newNodes;
            m_waiting.emplace_back(job, static_cast<int>(p));
            break;
        }
    }
    for (std::size_t p = 0; p < m_pools.size(); ++p) {
        Pool& pool = m_pools[p];
        // Idle Ready nodes were counted free above.
        int want = static_cast<int>(needNodes[p]) - pool.coming;
        int added = 0;
        for (std::uint32_t n : pool.nodes) {
            if (want <= 0 || room <= 0) break;
            if (cluster.state(static_cast<int>(n)) != NodeState::Provisioning || m_coming[n] ||
                m_givenBackAtS[n] == nowS)
                continue;
            m_coming[n] = 1;
            ++pool.coming;
            ++m_comingTotal;
            requested.push_back(n);
            --want;
            --room;
            ++added;
        }
        if (added > 0) pool.readyS = nowS + m_def.provisioningDelayS;
    }
    std::sort(m_waiting.begin(), m_waiting.end());
    return requested;
}

Autoscaler::GroupFit Autoscaler::groupFit(const JobSpec& s, const ClusterState& cluster,
                                          const QuotaLedger& quota) const {
    GroupFit fit;
    fit.call = m_call;
    fit.req = requestOf(s);
    const PlacementRequest& req = fit.req;
    if (req.wholeGpusOnly()) fit.freeNowPods = bestPodCapacity(req, cluster, Basis::FreeNow);
    const NodeRange range = nodeRangeOf(m_fleet, req.pinLevel, req.pinIndex);
    fit.pools.resize(m_pools.size());
    for (std::size_t p = 0; p < m_pools.size(); ++p) {
        // The pool's first node the job may use stands for all of its (one node type).
        const auto& nodes = m_pools[p].nodes;
        const auto first =
            std::lower_bound(nodes.begin(), nodes.end(), static_cast<std::uint32_t>(range.begin));
        if (first == nodes.end() || static_cast<int>(*first) >= range.end) continue;
        const int model = m_fleet.nodes[*first].gpuModel;
        if (req.gpuModel >= 0 && req.gpuModel != model) continue;
        const long long podsPerNode =
            podsOnNode(req, cluster, static_cast<int>(*first), Basis::FleetEmpty);
        if (podsPerNode <= 0) continue;
        // Kueue creates no pods for a workload its quota does not admit: nothing to scale for.
        if (quota.manages(s.team) &&
            !quota.check(s.team, model, QuotaLedger::requestUnits(s, m_fleet, model)).admits())
            continue;
        fit.pools[p] = {model, podsPerNode};
    }
    return fit;
}

void Autoscaler::arrived(std::uint32_t node) {
    if (!m_active || !m_coming[node]) return;
    m_coming[node] = 0;
    --m_pools[m_poolOf[node]].coming;
    --m_comingTotal;
}

std::optional<double> Autoscaler::comingFor(std::uint32_t job) const {
    const auto it = std::lower_bound(m_waiting.begin(), m_waiting.end(),
                                     std::pair<std::uint32_t, int>{job, -1});
    if (it == m_waiting.end() || it->first != job) return std::nullopt;
    const Pool& pool = m_pools[it->second];
    if (pool.coming == 0) return std::nullopt;
    return pool.readyS;
}

}  // namespace gpuplan::detail
