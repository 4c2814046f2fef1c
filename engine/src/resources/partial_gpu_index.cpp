#include "partial_gpu_index.hpp"

#include <algorithm>
#include <bit>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::detail {

PartialGpuIndex::PartialGpuIndex(const Fleet& fleet) {
    const int n = static_cast<int>(fleet.nodes.size());
    m_firstGpu.resize(n + 1, 0);
    for (int i = 0; i < n; ++i)
        m_firstGpu[i + 1] = m_firstGpu[i] + fleet.nodes[i].gpus;
    // Pools in order of first appearance; their nodes in fleet order.
    for (int i = 0; i < n; ++i) {
        const FleetNode& node = fleet.nodes[i];
        const SharingMode mode = node.sharing.mode;
        if (mode == SharingMode::Whole) continue;
        Pool def{.model = node.gpuModel,
                 .mode = mode,
                 .replicas = mode == SharingMode::TimeSlicing ? node.sharing.timeSliceReplicas : 0};
        if (mode == SharingMode::Mig) {
            const std::optional<MigFamily> family = migFamilyFor(fleet.gpuModels[node.gpuModel]);
            if (!family) continue;  // ClusterState refuses such a fleet
            def.family = *family;
            def.kinds = static_cast<int>(migProfiles(*family).size());
            def.maxRank = MigLayout::kComputeSlices;
        } else {
            def.kinds = 1;
            def.maxRank = 1000;
        }
        if (m_poolOfNode.empty()) m_poolOfNode.assign(n, -1);
        auto it = std::find_if(m_pools.begin(), m_pools.end(), [&](const PoolBooks& p) {
            return p.def.model == def.model && p.def.mode == def.mode &&
                   p.def.replicas == def.replicas;
        });
        if (it == m_pools.end()) {
            it = m_pools.insert(m_pools.end(), PoolBooks{});
            it->def = def;
        }
        m_poolOfNode[i] = static_cast<int>(it - m_pools.begin());
        it->nodes.push_back(i);
    }
    if (m_pools.empty()) return;
    m_localOfNode.assign(n, 0);
    for (PoolBooks& pool : m_pools) {
        std::uint32_t local = 0;
        for (std::size_t at = 0; at < pool.nodes.size(); ++at) {
            pool.firstLocal.push_back(local);
            m_localOfNode[pool.nodes[at]] = local;
            const int gpus = fleet.nodes[pool.nodes[at]].gpus;
            pool.nodeAt.insert(pool.nodeAt.end(), gpus, static_cast<int>(at));
            local += static_cast<std::uint32_t>(gpus);
        }
        pool.firstLocal.push_back(local);
        pool.kinds.resize(pool.def.kinds);
        for (KindBooks& k : pool.kinds) {
            k.byRank.resize(pool.def.maxRank + 1);
            k.allocated.assign(pool.def.maxRank + 1, 0);
            k.ranksUp.reset(pool.def.maxRank + 1);
            k.ranksDown.reset(pool.def.maxRank + 1);
        }
    }
    m_kindsOfGpu.assign(m_firstGpu[n], 0);
    m_rankOfGpu.assign(m_firstGpu[n], 0);
}

int PartialGpuIndex::migKind(MigFamily family, int profileId) {
    const auto profiles = migProfiles(family);
    for (std::size_t k = 0; k < profiles.size(); ++k)
        if (profiles[k].id == profileId) return static_cast<int>(k);
    return -1;
}

void PartialGpuIndex::set(int node, int slot, Entry entry) {
    std::uint32_t kinds = entry.kinds;
    const int rank = entry.rank;
    const int p = poolOf(node);
    if (p < 0) return;
    PoolBooks& pool = m_pools[p];
    const std::size_t gpu = static_cast<std::size_t>(m_firstGpu[node] + slot);
    const std::uint32_t local = m_localOfNode[node] + static_cast<std::uint32_t>(slot);
    const int maxRank = pool.def.maxRank;
    // Out of the buckets it was in, into those it belongs to now.
    for (std::uint32_t old = m_kindsOfGpu[gpu]; old != 0; old &= old - 1) {
        KindBooks& k = pool.kinds[std::countr_zero(old)];
        const int r = m_rankOfGpu[gpu];
        IndexSet& bucket = k.byRank[r];
        bucket.erase(local);
        if (bucket.empty()) {
            k.ranksUp.erase(static_cast<std::uint32_t>(r));
            k.ranksDown.erase(static_cast<std::uint32_t>(maxRank - r));
        }
    }
    m_kindsOfGpu[gpu] = kinds;
    m_rankOfGpu[gpu] = static_cast<std::uint16_t>(rank);
    for (; kinds != 0; kinds &= kinds - 1) {
        KindBooks& k = pool.kinds[std::countr_zero(kinds)];
        IndexSet& bucket = k.byRank[rank];
        if (!k.allocated[rank]) {  // a room no GPU had yet: most of the 1000 never occur
            bucket.reset(pool.firstLocal.back());
            k.allocated[rank] = 1;
        }
        bucket.insert(local);
        k.ranksUp.insert(static_cast<std::uint32_t>(rank));
        k.ranksDown.insert(static_cast<std::uint32_t>(maxRank - rank));
    }
}

bool PartialGpuIndex::holds(int node, int slot, Entry entry) const {
    const int p = poolOf(node);
    if (p < 0) return entry.kinds == 0;
    const std::size_t gpu = static_cast<std::size_t>(m_firstGpu[node] + slot);
    if (m_kindsOfGpu[gpu] != entry.kinds || (entry.kinds != 0 && m_rankOfGpu[gpu] != entry.rank))
        return false;
    const PoolBooks& pool = m_pools[p];
    const std::uint32_t local = m_localOfNode[node] + static_cast<std::uint32_t>(slot);
    for (std::uint32_t kinds = entry.kinds; kinds != 0; kinds &= kinds - 1) {
        const KindBooks& k = pool.kinds[std::countr_zero(kinds)];
        if (!k.allocated[entry.rank] || !k.byRank[entry.rank].contains(local)) return false;
    }
    return true;
}

bool PartialGpuIndex::countsAgree() const {
    // With every GPU where holds() says, no bucket holds anything else when the members add up.
    std::vector<std::size_t> listed(m_pools.size(), 0);
    for (std::size_t node = 0; node + 1 < m_firstGpu.size(); ++node) {
        const int p = poolOf(static_cast<int>(node));
        if (p < 0) continue;
        for (int gpu = m_firstGpu[node]; gpu < m_firstGpu[node + 1]; ++gpu)
            listed[p] += static_cast<std::size_t>(std::popcount(m_kindsOfGpu[gpu]));
    }
    for (std::size_t p = 0; p < m_pools.size(); ++p) {
        const PoolBooks& pool = m_pools[p];
        std::size_t members = 0;
        for (const KindBooks& k : pool.kinds)
            for (int r = 0; r <= pool.def.maxRank; ++r) {
                const std::uint32_t size = k.allocated[r] ? k.byRank[r].size() : 0;
                members += size;
                const auto ur = static_cast<std::uint32_t>(r);
                if ((size > 0) != k.ranksUp.contains(ur) ||
                    (size > 0) !=
                        k.ranksDown.contains(static_cast<std::uint32_t>(pool.def.maxRank) - ur))
                    return false;
            }
        if (members != listed[p]) return false;
    }
    return true;
}

std::uint32_t PartialGpuIndex::localBound(const PoolBooks& pool, int node) {
    const auto it = std::lower_bound(pool.nodes.begin(), pool.nodes.end(), node);
    return pool.firstLocal[static_cast<std::size_t>(it - pool.nodes.begin())];
}

}  // namespace gpuplan::detail
