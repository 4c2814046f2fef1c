// GPUs that hand out parts of themselves — MIG instances, MPS or time-slicing shares — on
// Ready nodes, bucketed by what pack and spread order them by, so that placing a pod finds
// its GPU without walking the fleet (placement.cpp), and a backlog of such pods costs a few
// bucket looks a try instead of every GPU.
//
// A pool is one GPU model's GPUs shared one way (MIG; MPS; time-slicing with one replica
// count), numbered in fleet order (node, then slot). In its pool a GPU sits in one bucket per
// kind of pod it can take one more of, at its rank:
//   MIG      a kind per profile of the model's family with a free instance on the GPU,
//            ranked by the GPU's free compute slices (1–7);
//   shares   one kind (a GPU not held whole, below its client or replica limit), ranked by
//            its room, 1000 − the milli-GPU its shares hold (1–1000).
// ClusterState says where each GPU belongs after every change to it (set); the index only
// keeps the buckets.
#pragma once

#include <cstdint>
#include <vector>

#include "core/index_set.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan::detail {

class PartialGpuIndex {
public:
    struct Pool {
        int model = 0;
        SharingMode mode = SharingMode::Whole;
        int replicas = 0;                       ///< time-slicing's replica count (0 for the others)
        int kinds = 0;                          ///< MIG: the family's profiles; shares: 1
        MigFamily family = MigFamily::Gpu80GB;  ///< MIG pools: the model's
        int maxRank = 0;                        ///< 7 (free compute slices) or 1000 (room)
    };
    /// A GPU found: node, slot and its rank; node −1 when none.
    struct Found {
        int node = -1;
        int slot = -1;
        int rank = 0;
    };

    PartialGpuIndex() = default;
    explicit PartialGpuIndex(const Fleet& fleet);

    int poolCount() const { return static_cast<int>(m_pools.size()); }
    const Pool& pool(int p) const { return m_pools[p].def; }
    /// The pool of a node's GPUs (−1: whole GPUs only).
    int poolOf(int node) const { return m_poolOfNode.empty() ? -1 : m_poolOfNode[node]; }
    /// A MIG profile's kind in the pools of its family (its place in migProfiles(family)).
    static int migKind(MigFamily family, int profileId);

    /// Where a GPU belongs: it can take one more pod of each kind whose bit is set (bit k =
    /// kind k; 0 = none), at `rank`.
    struct Entry {
        std::uint32_t kinds = 0;
        int rank = 0;
        bool operator==(const Entry&) const = default;
    };
    void set(int node, int slot, Entry entry);
    /// Test builds: the GPU is listed as `entry` says, in every bucket it should be.
    bool holds(int node, int slot, Entry entry) const;
    /// Test builds: the buckets hold as many GPUs as are listed, and name their ranks.
    bool countsAgree() const;

    /// Pack's GPU for a pod of `kind` in pool `p` — the least rank ≥ minRank, then the lowest
    /// node and slot — or spread's (`most`: the greatest rank ≥ minRank, then the lowest node
    /// and slot), among nodes in [nodeBegin, nodeEnd) that `nodeOk` accepts.
    template <class NodeOk>
    Found first(int p, int kind, int minRank, bool most, int nodeBegin, int nodeEnd,
                const NodeOk& nodeOk) const {
        const PoolBooks& pool = m_pools[p];
        const std::uint32_t lo = localBound(pool, nodeBegin), hi = localBound(pool, nodeEnd);
        if (lo >= hi) return {};
        const KindBooks& k = pool.kinds[kind];
        const int maxRank = pool.def.maxRank;
        for (std::uint32_t r = most ? k.ranksDown.next(0) : k.ranksUp.next(minRank);
             r != IndexSet::npos; r = most ? k.ranksDown.next(r + 1) : k.ranksUp.next(r + 1)) {
            const int rank = most ? maxRank - static_cast<int>(r) : static_cast<int>(r);
            if (rank < minRank) break;  // going down past the least that fits
            const IndexSet& bucket = k.byRank[rank];
            for (std::uint32_t g = bucket.next(lo); g != IndexSet::npos && g < hi;) {
                const int at = pool.nodeAt[g];
                const int node = pool.nodes[at];
                if (nodeOk(node)) return {node, static_cast<int>(g - pool.firstLocal[at]), rank};
                g = bucket.next(pool.firstLocal[at + 1]);  // the node's other GPUs too
            }
        }
        return {};
    }

private:
    struct KindBooks {
        std::vector<IndexSet> byRank;         ///< local GPU numbers; allocated at the first member
        std::vector<std::uint8_t> allocated;  ///< per rank
        IndexSet ranksUp;                     ///< ranks with members
        IndexSet ranksDown;                   ///< maxRank − rank, for the greatest first
    };
    struct PoolBooks {
        Pool def;
        std::vector<int> nodes;                 ///< ascending
        std::vector<std::uint32_t> firstLocal;  ///< per node of the pool, and one past the last
        std::vector<int> nodeAt;                ///< per local GPU: its node's place in `nodes`
        std::vector<KindBooks> kinds;
    };
    /// Local number of the pool's first GPU on a node ≥ `node`.
    static std::uint32_t localBound(const PoolBooks& pool, int node);

    std::vector<PoolBooks> m_pools;
    std::vector<int> m_poolOfNode;
    std::vector<std::uint32_t> m_localOfNode;  ///< per node: its first GPU's local number
    /// Per GPU of the fleet: the kinds it is listed under, and at which rank.
    std::vector<std::uint32_t> m_kindsOfGpu;
    std::vector<std::uint16_t> m_rankOfGpu;
    std::vector<int> m_firstGpu;  ///< per node, into the per-GPU arrays
};

}  // namespace gpuplan::detail
