// Mutable resource state of the fleet during a run (engine/README.md, "Resource model"):
// per GPU, whether it is wholly free, held whole, or shared (milli-GPU in use, clients); per
// node, free CPU and memory and the lifecycle state; and the indexes that make filter/score
// cheap for whole-GPU requests: per (GPU model, wholly free GPUs) bucket of Ready nodes, and
// histograms of Ready nodes by wholly free GPUs per fleet, pod and rack.
//
// Invariant: a GPU's bit in freeMask(node) is set exactly when nothing holds any of it (no
// whole holder, no share). A shared GPU is therefore never counted as free by the whole-GPU
// indexes, and whole-GPU requests see the same state they saw before GPUs could be shared.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/index_set.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/pod_placement.hpp"
#include "gpuplan/model/topology.hpp"
#include "partial_gpu_index.hpp"

namespace gpuplan::detail {

/// Per (unit, GPU model) histograms of nodes by a small count (free GPUs or size).
class UnitHistograms {
public:
    UnitHistograms() = default;
    UnitHistograms(int units, int models, int maxCount)
        : m_models(models),
          m_width(maxCount + 1),
          m_counts(static_cast<std::size_t>(units) * models * (maxCount + 1), 0) {}

    const int* at(int unit, int model) const { return &m_counts[offset(unit, model)]; }
    void add(int unit, int model, int count, int delta) {
        m_counts[offset(unit, model) + count] += delta;
    }
    /// Where (unit, model)'s row starts, for moveInRow.
    std::size_t rowOffset(int unit, int model) const { return offset(unit, model); }
    /// One node of the row at `row` moves from count `from` to count `to`.
    void moveInRow(std::size_t row, int from, int to) {
        --m_counts[row + from];
        ++m_counts[row + to];
    }
    int width() const { return m_width; }

private:
    std::size_t offset(int unit, int model) const {
        return (static_cast<std::size_t>(unit) * m_models + model) * m_width;
    }
    int m_models = 0;
    int m_width = 1;
    std::vector<int> m_counts;
};

/// How many pods of `gpusPerPod` fit on the nodes a histogram (by free GPUs) describes.
inline long long podCapacity(const int* hist, int width, int gpusPerPod) {
    // f / gpusPerPod counted up as f grows: no division per bucket (this runs on every try).
    long long pods = 0;
    int podsPerNode = 1, pastMultiple = 0;
    for (int f = gpusPerPod; f < width; ++f) {
        pods += static_cast<long long>(hist[f]) * podsPerNode;
        if (++pastMultiple == gpusPerPod) {
            pastMultiple = 0;
            ++podsPerNode;
        }
    }
    return pods;
}

enum class Scope { Fleet, Pod, Rack };

/// Host resources one pod takes on its node (zero = asks none).
struct HostDemand {
    std::int64_t cpuMilli = 0;
    std::int64_t memoryMiB = 0;
    bool none() const { return cpuMilli == 0 && memoryMiB == 0; }
};

/// What a histogram counts nodes by.
enum class Basis {
    FreeNow,     ///< Ready nodes, by free GPUs now
    ReadyEmpty,  ///< Ready nodes, by GPUs per node (as if every job ended)
    FleetEmpty,  ///< every node whatever its state, by GPUs per node (as if bought and healthy)
};

class ClusterState {
public:
    explicit ClusterState(const Fleet& fleet);

    const Fleet& fleet() const { return *m_fleet; }
    int nodeCount() const { return static_cast<int>(m_free.size()); }

    std::uint64_t freeMask(int node) const { return m_free[node]; }
    int freeGpus(int node) const { return m_freeCount[node]; }
    NodeState state(int node) const { return m_state[node]; }
    bool schedulable(int node) const { return m_state[node] == NodeState::Ready; }

    /// Binds whole GPU slots; every slot in `mask` must be wholly free.
    void occupy(int node, std::uint64_t mask);
    /// Frees whole GPU slots; every slot in `mask` must be held whole.
    void release(int node, std::uint64_t mask);
    /// Binds what a pod holds: whole slots, a share of one slot or a MIG instance, and
    /// its host resources. Throws std::logic_error on anything given twice or past capacity.
    void occupy(const PodPlacement& pod, HostDemand host);
    void release(const PodPlacement& pod, HostDemand host);

    /// One pod that holds something, for checkAgainst.
    using HeldPod = std::pair<PodPlacement, HostDemand>;
    /// Test builds: every book (free slots, shares, CPU, memory, allocated GPU-equivalents,
    /// the whole-GPU indexes) agrees with what `held` holds; throws std::logic_error if not.
    void checkAgainst(std::span<const HeldPod> held) const;

    /// Milli-GPU in use on a GPU: 0 when wholly free, the shares' sum when shared; a GPU held
    /// whole reads 1000.
    int usedMilli(int node, int slot) const {
        if (m_free[node] >> slot & 1u) return 0;
        const int used = m_shareMilli[m_firstGpu[node] + slot];
        return used > 0 ? used : 1000;
    }
    /// Shares on a GPU (0 when free or held whole).
    int shareClients(int node, int slot) const { return m_shareClients[m_firstGpu[node] + slot]; }
    /// A MIG node's GPU: its instances, and which of them pods hold (bit i = instance i).
    const MigLayout& migLayout(int node, int slot) const {
        return m_migLayout[m_firstGpu[node] + slot];
    }
    std::uint8_t migTaken(int node, int slot) const { return m_migTaken[m_firstGpu[node] + slot]; }
    /// The MIG family of a node's GPUs, if it is a MIG node.
    std::optional<MigFamily> migFamily(int node) const {
        return m_fleet->nodes[node].sharing.mode == SharingMode::Mig
                   ? std::optional<MigFamily>(m_migLayout[m_firstGpu[node]].family())
                   : std::nullopt;
    }
    /// Dynamic MIG: GPUs (index node's first GPU + slot) of dynamic MIG nodes with no
    /// instance held and not being re-cut, whatever the node's state; the re-cut candidates.
    const IndexSet& idleDynamicMigGpus() const { return m_idleDynamicMig; }
    int firstGpu(int node) const { return m_firstGpu[node]; }
    /// Re-cuts an idle GPU of a dynamic MIG node (no instance held): `layout` replaces its
    /// instances; `inService` false while it is being reconfigured (then it must be empty and
    /// leaves the re-cut candidates). Throws std::logic_error on a GPU with instances held.
    void setMigLayout(int node, int slot, const MigLayout& layout, bool inService);
    /// Shares of `milli` one more GPU could take, by its node's sharing mode: as it is now, or
    /// (`empty`) as if nothing held it. The one rule of what a share may hold: shareFits,
    /// the partial-GPU index, placement's capacity counts and the defrag what-if all read it.
    /// Time-slicing hands out replicas, not milli-GPU (a replica is 1000 / replicas of the GPU
    /// whatever the pod asked), so only the replica count limits it.
    int sharesThatFit(int node, int slot, int milli, bool empty = false) const {
        const GpuSharingDef& sharing = m_fleet->nodes[node].sharing;
        if (sharing.mode == SharingMode::Whole || sharing.mode == SharingMode::Mig) return 0;
        const int clients = empty ? 0 : shareClients(node, slot);
        const int used = empty ? 0 : usedMilli(node, slot);
        if (used > 0 && clients == 0) return 0;  // held whole
        if (sharing.mode == SharingMode::TimeSlicing) return sharing.timeSliceReplicas - clients;
        return std::min(sharing.mpsClients - clients, (1000 - used) / milli);
    }
    /// Can one more share of `milli` go on this GPU?
    bool shareFits(int node, int slot, int milli) const {
        return sharesThatFit(node, slot, milli) > 0;
    }
    std::int64_t freeCpuMilli(int node) const { return m_freeCpuMilli[node]; }
    std::int64_t freeMemoryMiB(int node) const { return m_freeMemoryMiB[node]; }
    /// Does the node have the host resources a pod asks for (undeclared resources always do)?
    bool hostFits(int node, HostDemand host) const {
        return host.none() || ((host.cpuMilli <= m_freeCpuMilli[node]) &&
                               (host.memoryMiB <= m_freeMemoryMiB[node]));
    }
    void setState(int node, NodeState state);

    /// Ready nodes of `model` with exactly `free` free GPUs.
    const IndexSet& bucket(int model, int free) const { return m_buckets[model * m_width + free]; }
    /// Histogram of the nodes of `model` in a unit (fleet: unit 0), counted by `basis`.
    const int* hist(Basis basis, Scope scope, int unit, int model) const {
        return m_hist[static_cast<int>(basis)][static_cast<int>(scope)].at(unit, model);
    }
    const int* freeHist(Scope scope, int unit, int model) const {
        return hist(Basis::FreeNow, scope, unit, model);
    }
    int histWidth() const { return m_width; }

    int provisionedGpus() const { return m_provisionedGpus; }  ///< Ready, Cordoned, Draining
    /// Peak dense BF16 TFLOP/s of the provisioned GPUs (the MFU denominator).
    double provisionedPeakTflops() const { return m_provisionedPeakTflops; }
    /// Allocated GPU-equivalents (a 300 milli-GPU share counts 0.3, a 3g instance 3/7).
    double allocatedGpus() const { return gpusOfUnits(m_allocatedUnits); }
    /// GPU-equivalents are kept in 1/7000 of a GPU: whole GPUs, milli-GPU shares and MIG
    /// compute slices (sevenths) all count exactly.
    /// Allocated milli-GPU, exact without MIG instances (a 1g instance is 142.857…).
    std::int64_t allocatedMilliGpu() const { return m_allocatedUnits / unitsOfMilliGpu(1); }
    /// Wholly free GPUs on Ready nodes.
    int readyFreeGpus() const { return m_readyFreeGpus; }
    /// GPUs on Ready nodes that take shares or instances beside what holds them: shared GPUs
    /// and every GPU of a MIG node (an upper bound on where a share or instance could go).
    int readyPartialGpus() const { return m_readyPartialGpus; }
    /// GPUs of Ready nodes that can take one more MIG instance or share, by what pack and
    /// spread order them by (placement reads it instead of walking every GPU).
    const PartialGpuIndex& partialIndex() const { return m_partial; }
    /// Nodes with at least one shared GPU, whatever their state (the fragmentation gauge walks
    /// them; the histograms describe the rest).
    const IndexSet& sharedNodes() const { return m_sharedNodes; }
    /// Grows with every node state change: what depends only on node states (the empty-fleet
    /// histograms) can be kept until it moves.
    std::uint64_t stateChanges() const { return m_stateChanges; }
    /// Nodes Draining, all models (the kernel looks for drained nodes only when some are).
    int drainingNodes() const { return m_drainingNodes; }
    /// On-demand nodes that follow demand (FleetNode::elastic): those in any state but
    /// Provisioning (bought: up, coming up through a node event, or down), and those
    /// Provisioning (unbought: what the autoscaler may request).
    int elasticNodesBought() const { return m_elasticBought; }
    int elasticNodesUnbought() const { return m_elasticNodes - m_elasticBought; }
    int nodesInState(int model, NodeState s) const {
        return m_nodesByState[model * kNodeStateCount + static_cast<int>(s)];
    }

private:
    void indexNode(int node, int sign);  // add (+1) or remove (−1) a Ready node from indexes
    /// A Ready node's free GPUs went from `before` to its count now: one move in the indexes.
    void reindexNode(int node, int before);
    /// Adds `delta` nodes with `count` to the fleet, pod and rack histograms of a basis.
    void count(Basis basis, int node, int count, int delta);
    /// Moves a node from `from` to `to` in the fleet, pod and rack histograms of a basis.
    void moveCount(Basis basis, int node, int from, int to);
    void takeHost(int node, HostDemand host, int sign);
    void occupyShare(int node, int slot, int milli);
    void releaseShare(int node, int slot, int milli);
    void occupyMig(const PodPlacement& pod, int sign);
    /// A node's GPUs that count in readyPartialGpus when it is Ready.
    int partialGpus(int node) const;
    /// Where a GPU of a MIG or sharing node belongs in the partial-GPU index now.
    PartialGpuIndex::Entry partialEntry(int node, int slot) const;
    /// Tells the partial-GPU index where a GPU of a MIG or sharing node belongs now.
    void reindexPartial(int node, int slot);
    void reindexPartialNode(int node);
    /// Whole GPUs taken or given back on a sharing node: those GPUs take shares or not.
    void reindexPartialSlots(int node, std::uint64_t mask) {
        if (m_partial.poolOf(node) < 0) return;
        for (; mask != 0; mask &= mask - 1)
            reindexPartial(node, std::countr_zero(mask));
    }

    const Fleet* m_fleet;
    int m_models;
    int m_width;
    std::vector<std::uint64_t> m_free;
    std::vector<std::uint8_t> m_freeCount;      ///< popcount of m_free, kept: read on every fit
    std::vector<int> m_firstGpu;                ///< per node, into the per-GPU arrays
    std::vector<std::uint16_t> m_shareMilli;    ///< per GPU: shares' sum; 0 = not shared
    std::vector<std::uint16_t> m_shareClients;  ///< per GPU: shares on it
    IndexSet m_sharedNodes;
    PartialGpuIndex m_partial;  ///< built last in the constructor (empty before)
    /// Per GPU, MIG nodes only (empty when the fleet has none): layout and instances taken.
    std::vector<MigLayout> m_migLayout;
    std::vector<std::uint8_t> m_migTaken;
    IndexSet m_idleDynamicMig;                 ///< per GPU, see idleDynamicMigGpus
    std::vector<std::uint8_t> m_migRecutting;  ///< per GPU of MIG nodes: being re-cut
    /// Per node; a node that does not declare a resource has "unlimited" (INT64_MAX / 4).
    std::vector<std::int64_t> m_freeCpuMilli, m_freeMemoryMiB;
    /// Per node: its GPU model and its rows in the fleet, pod and rack histograms (the same
    /// offsets in every basis), kept compact so an index move reads no FleetNode.
    struct NodeRows {
        std::uint32_t model;
        std::array<std::uint32_t, 3> row;  ///< by Scope
    };
    std::vector<NodeRows> m_rows;
    std::vector<NodeState> m_state;
    std::vector<IndexSet> m_buckets;
    /// [basis][scope]; a node counts in the fleet's, its pod's and its rack's histogram.
    std::array<std::array<UnitHistograms, 3>, 3> m_hist;
    std::vector<int> m_nodesByState;
    int m_drainingNodes = 0;
    int m_elasticNodes = 0;
    int m_elasticBought = 0;
    int m_provisionedGpus = 0;
    double m_provisionedPeakTflops = 0;
    std::int64_t m_allocatedUnits = 0;
    int m_readyFreeGpus = 0;
    int m_readyPartialGpus = 0;
    std::uint64_t m_stateChanges = 0;
};

/// Set bits of a GPU-slot mask. std::popcount is a library call on the x86-64 baseline
/// (no POPCNT); masks of nodes up to 8 GPUs take one table lookup here.
inline int slotCount(std::uint64_t mask) {
    static constexpr auto kByteCounts = [] {
        std::array<std::uint8_t, 256> t{};
        for (int i = 1; i < 256; ++i)
            t[i] = static_cast<std::uint8_t>((i & 1) + t[i / 2]);
        return t;
    }();
    int n = 0;
    for (; mask != 0; mask >>= 8)
        n += kByteCounts[mask & 0xFF];
    return n;
}

/// The `count` lowest set bits of a free-slot mask: which GPUs a pod (or a hold) takes.
inline std::uint64_t lowestFreeSlots(std::uint64_t freeMask, int count) {
    std::uint64_t taken = 0;
    for (int i = 0; i < count; ++i) {
        const std::uint64_t bit = freeMask & (~freeMask + 1);  // lowest set bit
        taken |= bit;
        freeMask &= ~bit;
    }
    return taken;
}

inline std::uint64_t fullMask(int gpus) {
    return gpus >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << gpus) - 1;
}

}  // namespace gpuplan::detail
