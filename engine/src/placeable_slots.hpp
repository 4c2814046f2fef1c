// The counting behind gpuplan/placeable.hpp, on histograms of Ready nodes by wholly free GPUs
// per (unit, GPU model) at fleet, pod and rack scope: what ClusterState keeps current
// (freeHist) and what SnapshotHistograms builds from a ClusterSnapshot. One code path for the
// series of a run, the table at the scrubber's t and the defragmentation what-if.
//
// Cost, with W = GPUs per node + 1 (the histogram width), M models, R racks, P pods:
// slots at the node or fleet level O(M·W), at the rack level O(R·M·W), at the pod level
// O(P·M·W); the largest gang per level O(M·W) (node, fleet), O(R·M) (rack), O(P·M) (pod) when
// the model's GPUs per node divide into the table's sizes (they do for 1, 2, 4, 8 GPUs per
// node), plus a slot count per size the ladder misses otherwise.
#pragma once

#include <vector>

#include "cluster_state.hpp"
#include "gpuplan/placeable.hpp"

namespace gpuplan::detail {

/// A gang of G GPUs of one model: k pods of p GPUs, p the largest divisor of G ≤ GPUs per node.
struct GangShape {
    int podGpus = 1;
    int pods = 1;
};
GangShape gangShape(int gangGpus, int gpusPerNode);

/// Free-GPU histograms of the Ready nodes of a snapshot, shaped as ClusterState's FreeNow ones.
class SnapshotHistograms {
public:
    SnapshotHistograms(const Fleet& fleet, const ClusterSnapshot& snapshot);
    const int* freeHist(Scope scope, int unit, int model) const {
        return m_hist[static_cast<int>(scope)].at(unit, model);
    }
    int histWidth() const { return m_width; }
    int readyFreeGpus() const { return m_freeGpus; }

private:
    int m_width = 1;
    int m_freeGpus = 0;
    std::array<UnitHistograms, 3> m_hist;
};

/// Reads ClusterState's or SnapshotHistograms' free histograms: one interface for both.
class FreeHistograms {
public:
    FreeHistograms(const Fleet& fleet, const ClusterState& state)
        : m_fleet(fleet), m_state(&state), m_width(state.histWidth()) {}
    FreeHistograms(const Fleet& fleet, const SnapshotHistograms& snapshot)
        : m_fleet(fleet), m_snapshot(&snapshot), m_width(snapshot.histWidth()) {}

    const Fleet& fleet() const { return m_fleet; }
    int width() const { return m_width; }
    const int* at(Scope scope, int unit, int model) const {
        return m_state ? m_state->freeHist(scope, unit, model)
                       : m_snapshot->freeHist(scope, unit, model);
    }

private:
    const Fleet& m_fleet;
    const ClusterState* m_state = nullptr;
    const SnapshotHistograms* m_snapshot = nullptr;
    int m_width;
};

/// Disjoint slots for a gang of `gangGpus` at `level`, summed over units and models.
long long countSlots(const FreeHistograms& free, SlotLevel level, int gangGpus);
/// The largest gang with a slot at `level` (placeable.hpp); `tableSizes` are checked too.
int largestGang(const FreeHistograms& free, SlotLevel level, const std::vector<int>& tableSizes);
/// The common sizes (1, 2, 4, … 256) the largest model's whole GPUs can hold.
std::vector<int> commonGangSizes(const Fleet& fleet);
/// The whole table.
PlaceableSlots placeableSlots(const FreeHistograms& free, int readyFreeGpus);

}  // namespace gpuplan::detail
