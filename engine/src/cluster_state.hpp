// Mutable GPU state of the fleet during a run: which GPU slots are free on each node, node
// lifecycle states, and the indexes that make filter/score cheap: per (GPU model, free GPUs)
// bucket of Ready nodes, and histograms of Ready nodes by free GPUs per fleet, pod and rack.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gpuplan/topology.hpp"
#include "index_set.hpp"

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

    /// Binds GPU slots; every slot in `mask` must be free.
    void occupy(int node, std::uint64_t mask);
    /// Frees GPU slots; every slot in `mask` must be taken.
    void release(int node, std::uint64_t mask);
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

    int provisionedGpus() const { return m_provisionedGpus; }  ///< Ready + Cordoned
    /// Peak dense BF16 TFLOP/s of the provisioned GPUs (the MFU denominator).
    double provisionedPeakTflops() const { return m_provisionedPeakTflops; }
    int allocatedGpus() const { return m_allocatedGpus; }
    int readyFreeGpus() const { return m_readyFreeGpus; }
    /// Grows with every node state change: what depends only on node states (the empty-fleet
    /// histograms) can be kept until it moves.
    std::uint64_t stateChanges() const { return m_stateChanges; }
    int nodesInState(int model, NodeState s) const {
        return m_nodesByState[model * 4 + static_cast<int>(s)];
    }

private:
    void indexNode(int node, int sign);  // add (+1) or remove (−1) a Ready node from indexes
    /// A Ready node's free GPUs went from `before` to its count now: one move in the indexes.
    void reindexNode(int node, int before);
    /// Adds `delta` nodes with `count` to the fleet, pod and rack histograms of a basis.
    void count(Basis basis, int node, int count, int delta);
    /// Moves a node from `from` to `to` in the fleet, pod and rack histograms of a basis.
    void moveCount(Basis basis, int node, int from, int to);

    const Fleet* m_fleet;
    int m_models;
    int m_width;
    std::vector<std::uint64_t> m_free;
    std::vector<std::uint8_t> m_freeCount;  ///< popcount of m_free, kept: read on every fit
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
    int m_provisionedGpus = 0;
    double m_provisionedPeakTflops = 0;
    int m_allocatedGpus = 0;
    int m_readyFreeGpus = 0;
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
