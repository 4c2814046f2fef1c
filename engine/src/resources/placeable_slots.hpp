// The counting behind gpuplan/resources/placeable.hpp, on histograms of Ready nodes by wholly free
// GPUs per (unit, GPU model) at fleet, pod and rack scope: what ClusterState keeps current
// (freeHist) and what SnapshotHistograms builds from a ClusterSnapshot. One code path for the
// series of a run, the table at the scrubber's t and the defragmentation what-if.
//
// Cost, with W = GPUs per node + 1 (the histogram width), M models, R racks, P pods:
// slots at the node or fleet level O(M·W), at the rack level O(R·M·W), at the pod level
// O(P·M·W); the largest gang per level O(M·W) (node, fleet), O(R·M) (rack), O(P·M) (pod) when
// the model's GPUs per node divide into the table's sizes (they do for 1, 2, 4, 8 GPUs per
// node), plus a slot count per size the ladder misses otherwise. With a UnitsByWholeGpus
// index (a run's samples), only units that could change the answer are visited: those with
// at least g whole GPUs of the model for a g-GPU gang's slots, and those with at least two
// nodes' worth for the largest gang (one whole free node anywhere is the ladder's lower part).
#pragma once

#include <span>
#include <vector>

#include "cluster_state.hpp"
#include "gpuplan/resources/placeable.hpp"

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

/// Per level (rack, pod) and GPU model, the units by their whole GPUs of that model, most
/// first: those that could hold g GPUs are a prefix. Built once per fleet (O(R log R)).
class UnitsByWholeGpus {
public:
    UnitsByWholeGpus() = default;
    explicit UnitsByWholeGpus(const Fleet& fleet);
    /// Units of `level` (Rack or Pod) with at least `gpus` whole GPUs of `model`.
    std::span<const int> atLeast(SlotLevel level, int model, int gpus) const;

private:
    struct Row {
        std::vector<int> units;  ///< with any whole GPU of the model, most GPUs first
        std::vector<int> gpus;   ///< their whole GPUs of the model, in the same order
    };
    std::vector<Row> m_rack, m_pod;  ///< per model
};

/// Reads ClusterState's or SnapshotHistograms' free histograms: one interface for both.
/// With `units`, rack and pod walks skip the units that cannot change an answer.
class FreeHistograms {
public:
    FreeHistograms(const Fleet& fleet, const ClusterState& state,
                   const UnitsByWholeGpus* units = nullptr)
        : m_fleet(fleet), m_state(&state), m_units(units), m_width(state.histWidth()) {}
    FreeHistograms(const Fleet& fleet, const SnapshotHistograms& snapshot)
        : m_fleet(fleet), m_snapshot(&snapshot), m_width(snapshot.histWidth()) {}

    const Fleet& fleet() const { return m_fleet; }
    int width() const { return m_width; }
    const int* at(Scope scope, int unit, int model) const {
        return m_state ? m_state->freeHist(scope, unit, model)
                       : m_snapshot->freeHist(scope, unit, model);
    }
    /// Calls f(unit) for each unit of `level` with at least `gpus` whole GPUs of `model`
    /// (racks and pods: every one without the index; the fleet: unit 0).
    template <class F>
    void forUnits(SlotLevel level, int model, int gpus, F&& f) const;

private:
    const Fleet& m_fleet;
    const ClusterState* m_state = nullptr;
    const SnapshotHistograms* m_snapshot = nullptr;
    const UnitsByWholeGpus* m_units = nullptr;
    int m_width;
};

template <class F>
void FreeHistograms::forUnits(SlotLevel level, int model, int gpus, F&& f) const {
    if (level != SlotLevel::Rack && level != SlotLevel::Pod) {
        f(0);
        return;
    }
    if (m_units) {
        for (int unit : m_units->atLeast(level, model, gpus))
            f(unit);
        return;
    }
    const int units =
        static_cast<int>(level == SlotLevel::Rack ? m_fleet.racks.size() : m_fleet.pods.size());
    for (int unit = 0; unit < units; ++unit)
        f(unit);
}

/// The slot counts a run samples besides the largest gangs: 8-GPU gangs on one node
/// (slots_8gpu{node}), 64-GPU gangs inside one rack (slots_64gpu{rack}).
inline constexpr int kSampledNodeSlotGpus = 8;
inline constexpr int kSampledRackSlotGpus = 64;

/// Units a run's sample visits (Simulation::placeableGauges: the largest gang at every level,
/// 64-GPU rack slots) with the index: what the run-cost estimate counts per sample.
std::size_t unitsVisitedPerSample(const Fleet& fleet, const UnitsByWholeGpus& units,
                                  const std::vector<int>& tableSizes);

/// Disjoint slots for a gang of `gangGpus` at `level`, summed over units and models.
long long countSlots(const FreeHistograms& free, SlotLevel level, int gangGpus);
/// The largest gang with a slot at `level` (placeable.hpp); `tableSizes` are checked too.
int largestGang(const FreeHistograms& free, SlotLevel level, const std::vector<int>& tableSizes);
/// The common sizes (1, 2, 4, … 256) the largest model's whole GPUs can hold.
std::vector<int> commonGangSizes(const Fleet& fleet);
/// The whole table.
PlaceableSlots placeableSlots(const FreeHistograms& free, int readyFreeGpus);

}  // namespace gpuplan::detail
