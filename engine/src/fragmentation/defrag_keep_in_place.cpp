#include "defrag_keep_in_place.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <string>
#include <tuple>

namespace gpuplan::detail {

namespace {

/// A pod the repack put on a node: (job, index in its `after`).
struct PodRef {
    std::uint32_t job;
    std::uint32_t pod;
};

enum class Level { Pod, Rack, Node };

class KeepInPlace {
public:
    KeepInPlace(const Fleet& fleet, std::span<const NodeState> states,
                std::vector<RepackedJob>& jobs)
        : m_fleet(fleet), m_jobs(jobs), m_podsOn(fleet.nodes.size()) {
        const std::size_t nodes = fleet.nodes.size();
        m_fixedNode.assign(nodes, false);
        m_fixedRack.assign(fleet.racks.size(), false);
        m_fixedPod.assign(fleet.pods.size(), false);
        for (std::uint32_t j = 0; j < jobs.size(); ++j)
            for (std::uint32_t p = 0; p < jobs[j].after.size(); ++p) {
                const std::uint32_t node = jobs[j].after[p].node;
                m_podsOn[node].push_back({j, p});
                const FleetNode& info = fleet.nodes[node];
                switch (jobs[j].pinLevel) {
                    case PinLevel::Node:
                        m_fixedNode[node] = true;
                        break;
                    case PinLevel::Rack:
                        m_fixedRack[info.rack] = true;
                        break;
                    case PinLevel::Pod:
                        m_fixedPod[info.pod] = true;
                        break;
                    case PinLevel::None:
                        break;
                }
            }
        // A MIG node's instances sit at fixed slices: it keeps its contents, and so its rack
        // and pod stay where they are (their contents could only move with it).
        for (std::size_t n = 0; n < nodes; ++n) {
            if (fleet.nodes[n].sharing.mode == SharingMode::Mig) m_fixedNode[n] = true;
            if (m_fixedNode[n]) m_fixedRack[fleet.nodes[n].rack] = true;
        }
        for (std::size_t r = 0; r < fleet.racks.size(); ++r)
            if (m_fixedRack[r]) m_fixedPod[fleet.racks[r].pod] = true;
        kinds(states);
        m_nodeTo.resize(nodes);
        std::iota(m_nodeTo.begin(), m_nodeTo.end(), 0);
    }

    void run(SwapFrom top) {
        // Pods of one kind swap contents, then racks of one kind inside each pod's target,
        // then nodes of one kind inside each rack's target.
        std::vector<int> podTo(m_fleet.pods.size());
        std::iota(podTo.begin(), podTo.end(), 0);
        std::vector<int> movablePods;
        for (int p = 0; p < static_cast<int>(m_fleet.pods.size()); ++p)
            if (!m_fixedPod[p] && top == SwapFrom::Pods) movablePods.push_back(p);
        match(Level::Pod, movablePods, movablePods, m_podKind, podTo);

        std::vector<int> rackTo(m_fleet.racks.size());
        std::iota(rackTo.begin(), rackTo.end(), 0);
        for (int p = 0; p < static_cast<int>(m_fleet.pods.size()); ++p) {
            if (top == SwapFrom::Nodes) break;
            std::vector<int> from = movableRacks(p), to = movableRacks(podTo[p]);
            match(Level::Rack, from, to, m_rackKind, rackTo);
        }
        for (int r = 0; r < static_cast<int>(m_fleet.racks.size()); ++r) {
            std::vector<int> from = movableNodes(r), to = movableNodes(rackTo[r]);
            match(Level::Node, from, to, m_nodeKind, m_nodeTo);
        }
        rewrite();
    }

private:
    /// Kind ids: nodes alike (type, model, sharing, state at t), racks of the same nodes'
    /// kinds, pods of the same racks' kinds.
    void kinds(std::span<const NodeState> states) {
        using NodeKey =
            std::tuple<int, int, int, std::int64_t, std::int64_t, int, int, int, std::string, int>;
        std::map<NodeKey, int> nodeKinds;
        for (std::size_t n = 0; n < m_fleet.nodes.size(); ++n) {
            const FleetNode& f = m_fleet.nodes[n];
            std::string migLayouts = f.sharing.migLayout;  // every GPU's, in order
            for (const MigLayoutRun& run : f.sharing.migLayouts)
                migLayouts += "|" + std::to_string(run.gpus) + ":" + run.layout;
            const NodeKey key{f.nodeType,
                              f.gpuModel,
                              f.gpus,
                              f.cpuMilli,
                              f.memoryMiB,
                              static_cast<int>(f.sharing.mode),
                              f.sharing.mpsClients,
                              f.sharing.timeSliceReplicas,
                              migLayouts,
                              static_cast<int>(states[n])};
            m_nodeKind.push_back(
                nodeKinds.emplace(key, static_cast<int>(nodeKinds.size())).first->second);
        }
        std::map<std::vector<int>, int> rackKinds;
        for (const FleetRack& rack : m_fleet.racks) {
            std::vector<int> key(m_nodeKind.begin() + rack.firstNode,
                                 m_nodeKind.begin() + rack.firstNode + rack.nodeCount);
            std::sort(key.begin(), key.end());
            m_rackKind.push_back(
                rackKinds.emplace(key, static_cast<int>(rackKinds.size())).first->second);
        }
        std::map<std::vector<int>, int> podKinds;
        for (const FleetPod& pod : m_fleet.pods) {
            std::vector<int> key(m_rackKind.begin() + pod.firstRack,
                                 m_rackKind.begin() + pod.firstRack + pod.rackCount);
            std::sort(key.begin(), key.end());
            m_podKind.push_back(
                podKinds.emplace(key, static_cast<int>(podKinds.size())).first->second);
        }
    }

    std::vector<int> movableRacks(int pod) const {
        std::vector<int> racks;
        const FleetPod& p = m_fleet.pods[pod];
        for (int r = p.firstRack; r < p.firstRack + p.rackCount; ++r)
            if (!m_fixedRack[r]) racks.push_back(r);
        return racks;
    }

    std::vector<int> movableNodes(int rack) const {
        std::vector<int> nodes;
        const FleetRack& r = m_fleet.racks[rack];
        for (int n = r.firstNode; n < r.firstNode + r.nodeCount; ++n)
            if (!m_fixedNode[n]) nodes.push_back(n);
        return nodes;
    }

    int unitOf(Level level, std::uint32_t node) const {
        const FleetNode& f = m_fleet.nodes[node];
        return level == Level::Pod ? f.pod : level == Level::Rack ? f.rack : static_cast<int>(node);
    }

    /// Nodes of a unit, for the contents it holds.
    std::pair<int, int> nodesOf(Level level, int unit) const {
        if (level == Level::Pod)
            return {m_fleet.pods[unit].firstNode,
                    m_fleet.pods[unit].firstNode + m_fleet.pods[unit].nodeCount};
        if (level == Level::Rack)
            return {m_fleet.racks[unit].firstNode,
                    m_fleet.racks[unit].firstNode + m_fleet.racks[unit].nodeCount};
        return {unit, unit + 1};
    }

    /// Units `from` (their contents, as repacked) go to units `to` of the same kind, as
    /// many of each kind on both sides: greedily the pairs with the most GPU-seconds at stake
    /// of jobs that were in the target unit before, then a unit to itself where free, then in
    /// order.
    void match(Level level, const std::vector<int>& from, const std::vector<int>& to,
               const std::vector<int>& kindOf, std::vector<int>& out) {
        std::map<int, std::pair<std::vector<int>, std::vector<int>>> byKind;
        for (int u : from)
            byKind[kindOf[u]].first.push_back(u);
        for (int u : to)
            byKind[kindOf[u]].second.push_back(u);
        for (auto& [kind, sides] : byKind) {
            const auto& [src, dst] = sides;
            const int m = static_cast<int>(src.size());
            if (m == 0 || static_cast<int>(dst.size()) != m) continue;  // alike by construction
            std::map<int, int> dstIndex;
            for (int b = 0; b < m; ++b)
                dstIndex[dst[b]] = b;
            // Sparse: (a, b) → GPUs, only where some job was (a whole fleet in one rack has
            // thousands of nodes of one kind).
            // A repacked node's contents all go to one node: it counts towards a target unit
            // with its best node there (the stake of the jobs that were on that node).
            std::vector<std::pair<std::pair<int, int>, double>> parts;
            std::map<std::uint32_t, double> toNode;  // scratch: original node → stake
            for (int a = 0; a < m; ++a) {
                const auto [first, last] = nodesOf(level, src[a]);
                for (int node = first; node < last; ++node) {
                    toNode.clear();
                    for (const PodRef& ref : m_podsOn[node]) {
                        const RepackedJob& job = m_jobs[ref.job];
                        const double stake =
                            std::popcount(job.after[ref.pod].gpuMask) * job.secondsAtStake;
                        for (const PodPlacement& was : job.before)
                            toNode[was.node] += stake;
                    }
                    std::map<int, double> best;  // target unit index → its best node's stake
                    for (const auto& [was, stake] : toNode)
                        if (const auto it = dstIndex.find(unitOf(level, was)); it != dstIndex.end())
                            best[it->second] = std::max(best[it->second], stake);
                    for (const auto& [b, stake] : best)
                        parts.push_back({{a, b}, stake});
                }
            }
            std::sort(parts.begin(), parts.end());
            std::vector<std::tuple<double, int, int>> pairs;  // (−GPU-seconds, a, b)
            for (std::size_t i = 0; i < parts.size();) {
                double w = 0;
                const std::pair<int, int> ab = parts[i].first;
                for (; i < parts.size() && parts[i].first == ab; ++i)
                    w += parts[i].second;
                if (w > 0) pairs.emplace_back(-w, ab.first, ab.second);
            }
            std::sort(pairs.begin(), pairs.end());
            std::vector<int> chosen(m, -1);
            std::vector<bool> taken(m, false);
            for (const auto& [negWeight, a, b] : pairs)
                if (chosen[a] < 0 && !taken[b]) {
                    chosen[a] = b;
                    taken[b] = true;
                }
            for (int a = 0; a < m; ++a)
                if (chosen[a] < 0 && src[a] == dst[a] && !taken[a]) {
                    chosen[a] = a;
                    taken[a] = true;
                }
            for (int a = 0, b = 0; a < m; ++a) {
                if (chosen[a] >= 0) continue;
                while (taken[b])
                    ++b;
                chosen[a] = b;
                taken[b] = true;
            }
            for (int a = 0; a < m; ++a)
                out[src[a]] = dst[chosen[a]];
        }
    }

    /// Every pod at once: the node its contents went to, then its GPUs there.
    void rewrite() {
        std::vector<std::vector<PodPlacement>> rewritten(m_jobs.size());
        for (std::size_t j = 0; j < m_jobs.size(); ++j)
            rewritten[j] = m_jobs[j].after;
        for (std::size_t node = 0; node < m_podsOn.size(); ++node) {
            if (m_podsOn[node].empty()) continue;
            const int target = m_nodeTo[node];
            const std::vector<int> slotMap = renumberGpus(static_cast<int>(node), target);
            for (const PodRef& ref : m_podsOn[node]) {
                PodPlacement& pod = rewritten[ref.job][ref.pod];
                pod.node = static_cast<std::uint32_t>(target);
                if (slotMap.empty()) continue;  // a MIG node keeps its GPUs
                std::uint64_t mask = 0;
                for (std::uint64_t m = pod.gpuMask; m != 0; m &= m - 1)
                    mask |= std::uint64_t{1} << slotMap[std::countr_zero(m)];
                pod.gpuMask = mask;
            }
        }
        for (std::size_t j = 0; j < m_jobs.size(); ++j)
            m_jobs[j].after = std::move(rewritten[j]);
    }

    /// GPU slot on `target` for each slot of `node` (empty for a MIG node): a pod takes the
    /// GPUs its job held there (same kind and count) if still unclaimed — a shared GPU goes
    /// where one of its shares was — and the other GPUs follow in order.
    std::vector<int> renumberGpus(int node, int target) const {
        if (m_fleet.nodes[node].sharing.mode == SharingMode::Mig) return {};
        const int gpus = m_fleet.nodes[node].gpus;
        std::vector<int> map(gpus, -1);
        std::uint64_t claimed = 0, mapped = 0;
        for (const PodRef& ref : m_podsOn[node]) {
            const RepackedJob& job = m_jobs[ref.job];
            const PodPlacement& pod = job.after[ref.pod];
            if ((pod.gpuMask & mapped) != 0) continue;  // a GPU it shares is placed already
            for (const PodPlacement& was : job.before) {
                if (static_cast<int>(was.node) != target || was.isWhole() != pod.isWhole() ||
                    was.milliGpu != pod.milliGpu ||
                    std::popcount(was.gpuMask) != std::popcount(pod.gpuMask) ||
                    (was.gpuMask & claimed) != 0)
                    continue;
                std::uint64_t from = pod.gpuMask, to = was.gpuMask;
                for (; from != 0; from &= from - 1, to &= to - 1)
                    map[std::countr_zero(from)] = std::countr_zero(to);
                claimed |= was.gpuMask;
                mapped |= pod.gpuMask;
                break;
            }
        }
        for (int slot = 0, next = 0; slot < gpus; ++slot) {
            if (map[slot] >= 0) continue;
            while (claimed >> next & 1u)
                ++next;
            map[slot] = next;
            claimed |= std::uint64_t{1} << next;
        }
        return map;
    }

    const Fleet& m_fleet;
    std::vector<RepackedJob>& m_jobs;
    std::vector<std::vector<PodRef>> m_podsOn;  ///< per node, as the repack placed them
    std::vector<bool> m_fixedNode, m_fixedRack, m_fixedPod;  ///< contents stay where placed
    std::vector<int> m_nodeKind, m_rackKind, m_podKind;
    std::vector<int> m_nodeTo;  ///< per node: where its contents go
};

}  // namespace

void keepInPlace(const Fleet& fleet, std::span<const NodeState> states,
                 std::vector<RepackedJob>& jobs, SwapFrom from) {
    KeepInPlace(fleet, states, jobs).run(from);
}

}  // namespace gpuplan::detail
