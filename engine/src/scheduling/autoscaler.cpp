#include "autoscaler.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "resources/placement.hpp"

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
    m_waitingSpans.clear();
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
    m_queue = &queue;
    m_byGroup.resize(queue.groups().size());
    // The first kMaxScan jobs in queue order count. A group's jobs all come out alike once
    // none of its pods fits the free GPUs (settled): they are counted at once, and remembered
    // as a span of queue keys. The others speak for free GPUs job by job, in queue order,
    // merged from their groups (settled jobs take no GPUs, so they need no place in it).
    const auto& groups = queue.groups();
    struct Cursor {
        JobQueue::OrderKey key;
        int group;
        std::size_t seen;  ///< of its jobs in the window, counted so far
        bool operator>(const Cursor& o) const { return o.key < key; }
    };
    std::vector<Cursor> heap;
    std::vector<std::size_t> inWindow(groups.size(), 0);
    auto jobAt = [&](int g, std::size_t m) {
        return groups[g].jobs[queue.positionOfLive(groups[g], m)];
    };
    // The group's jobs from its m-th live one to the window's end, settled: counted at once.
    auto countSettled = [&](int g, std::size_t m, const Settled& settled) {
        const std::size_t n = inWindow[g] - m;
        if (n == 0 || settled.pool < 0) return;
        needNodes[settled.pool] += static_cast<double>(n) * settled.newNodes;
        m_waitingSpans.push_back({g, queue.orderKey(jobAt(g, m)),
                                  queue.orderKey(jobAt(g, inWindow[g] - 1)), settled.pool});
    };
    for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
        if (groups[g].live == 0) continue;
        GroupFit& fit = m_byGroup[static_cast<std::size_t>(g)];
        fit = groupFit(jobs[jobAt(g, 0)].spec, cluster, quota);
        if (!fit.anyPool) continue;  // no pool holds it: its jobs count for nothing
        inWindow[g] = windowShare(queue, g);
        if (inWindow[g] == 0) continue;
        if (const std::optional<Settled> settled = settledOutcome(fit, freeGpus))
            countSettled(g, 0, *settled);
        else
            heap.push_back({queue.orderKey(jobAt(g, 0)), g, 0});
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        Cursor c = heap.back();
        heap.pop_back();
        const GroupFit& fit = m_byGroup[static_cast<std::size_t>(c.group)];
        if (const std::optional<Settled> settled = settledOutcome(fit, freeGpus)) {
            countSettled(c.group, c.seen, *settled);  // other groups took the GPUs it hoped for
            continue;
        }
        countJob(c.key.job, fit, freeGpus, needNodes);
        if (++c.seen == inWindow[c.group]) continue;
        c.key = queue.orderKey(jobAt(c.group, c.seen));
        heap.push_back(c);
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
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
    std::sort(m_waitingSpans.begin(), m_waitingSpans.end(),
              [](const WaitingSpan& a, const WaitingSpan& b) { return a.group < b.group; });
    return requested;
}

void Autoscaler::countJob(std::uint32_t job, const GroupFit& fit, std::vector<long long>& freeGpus,
                          std::vector<double>& needNodes) {
    const PlacementRequest& req = fit.req;
    for (std::size_t p = 0; p < m_pools.size(); ++p) {
        const PoolFit& pool = fit.pools[p];
        if (pool.podsPerNode <= 0) continue;  // not for it, or its quota does not admit it
        // Whole-GPU pods fit now up to the free GPUs not spoken for and the free shape.
        long long fitNow = 0;
        if (req.wholeGpusOnly()) {
            fitNow = std::min(fit.freeNowPods, freeGpus[pool.model] / std::max(1, req.gpusPerPod));
            fitNow = std::min<long long>(fitNow, req.pods);
            freeGpus[pool.model] -= fitNow * req.gpusPerPod;
        }
        if (fitNow >= req.pods) return;  // waits for a reservation, not for capacity
        const double newNodes =
            std::ceil(static_cast<double>(req.pods - fitNow) / pool.podsPerNode);
        if (!withinPool(p, newNodes)) continue;  // never fits
        needNodes[p] += newNodes;
        m_waiting.emplace_back(job, static_cast<int>(p));
        return;
    }
}

std::size_t Autoscaler::windowShare(const JobQueue& queue, int group) {
    // Its jobs among the first kMaxScan in queue order: all of them when the queue is no
    // longer; else the most m such that its m-th job's place in the whole queue — m plus the
    // other groups' jobs before it — is within kMaxScan (each look: one count per group).
    const auto& groups = queue.groups();
    const JobQueue::Group& g = groups[group];
    if (queue.size() <= kMaxScan) return g.live;
    auto place = [&](std::size_t m) {  // of its (m+1)-th job, 1-based
        const JobQueue::OrderKey key = queue.orderKey(g.jobs[queue.positionOfLive(g, m)]);
        std::size_t before = m;
        for (std::size_t o = 0; o < groups.size(); ++o)
            if (static_cast<int>(o) != group && groups[o].live > 0)
                before += queue.liveBeforeKey(groups[o], key);
        return before + 1;
    };
    std::size_t lo = 0, hi = g.live;  // its first lo jobs are in; the answer is in [lo, hi]
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (place(mid - 1) <= kMaxScan)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

bool Autoscaler::withinPool(std::size_t pool, double newNodes) const {
    return newNodes <= static_cast<double>(m_pools[pool].nodes.size()) &&
           !(m_def.maxNodes && newNodes > *m_def.maxNodes);
}

std::optional<Autoscaler::Settled> Autoscaler::settledOutcome(
    const GroupFit& fit, const std::vector<long long>& freeGpus) const {
    // Settled when no pool would find any of its pods room in the free GPUs: then countJob
    // takes nothing and answers the same for every job of the group.
    const PlacementRequest& req = fit.req;
    if (req.wholeGpusOnly() && fit.freeNowPods > 0)
        for (std::size_t p = 0; p < m_pools.size(); ++p)
            if (fit.pools[p].podsPerNode > 0 &&
                freeGpus[fit.pools[p].model] >= std::max(1, req.gpusPerPod))
                return std::nullopt;
    for (std::size_t p = 0; p < m_pools.size(); ++p) {
        if (fit.pools[p].podsPerNode <= 0) continue;
        const double newNodes = std::ceil(static_cast<double>(req.pods) / fit.pools[p].podsPerNode);
        if (withinPool(p, newNodes)) return Settled{static_cast<int>(p), newNodes};
    }
    return Settled{};
}

Autoscaler::GroupFit Autoscaler::groupFit(const JobSpec& s, const ClusterState& cluster,
                                          const QuotaLedger& quota) const {
    GroupFit fit;
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
        if (!req.allowsModel(model)) continue;
        const long long podsPerNode =
            podsOnNode(req, cluster, static_cast<int>(*first), Basis::FleetEmpty);
        if (podsPerNode <= 0) continue;
        // Kueue creates no pods for a workload its quota does not admit: nothing to scale for.
        if (!quota.admitsJob(s, m_fleet, model)) continue;
        fit.pools[p] = {model, podsPerNode};
        fit.anyPool = true;
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
    int pool = -1;
    const auto it = std::lower_bound(m_waiting.begin(), m_waiting.end(),
                                     std::pair<std::uint32_t, int>{job, -1});
    if (it != m_waiting.end() && it->first == job) {
        pool = it->second;
    } else if (!m_waitingSpans.empty() && m_queue->contains(job)) {
        // A job of a settled run: its group's spans, by key.
        const int group = m_queue->groupOf(job);
        const JobQueue::OrderKey key = m_queue->orderKey(job);
        auto span = std::lower_bound(m_waitingSpans.begin(), m_waitingSpans.end(), group,
                                     [](const WaitingSpan& s, int g) { return s.group < g; });
        for (; span != m_waitingSpans.end() && span->group == group; ++span)
            if (!(key < span->first) && !(span->last < key)) pool = span->pool;
    }
    if (pool < 0) return std::nullopt;
    const Pool& p = m_pools[pool];
    if (p.coming == 0) return std::nullopt;
    return p.readyS;
}

}  // namespace gpuplan::detail
