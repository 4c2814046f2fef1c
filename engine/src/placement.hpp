// Filter → score → bind for one job: find GPU slots for all of its pods (a gang is
// all-or-nothing) under a placement policy.
//   pack      best fit: each pod goes to the node with the fewest free GPUs that still fit
//             (kube-scheduler's MostAllocated), ties to the lowest node index.
//   spread    each pod goes to the node with the most free GPUs (LeastAllocated).
//   topology  a gang goes to the smallest unit that holds it whole: one node, else the
//             best-fitting rack, else the best-fitting pod (filling its fullest racks first),
//             else the fewest pods; inside a unit pods are packed.
#pragma once

#include <vector>

#include "cluster_state.hpp"
#include "gpuplan/results.hpp"
#include "gpuplan/scenario.hpp"

namespace gpuplan::detail {

struct PlacementRequest {
    int gpusPerPod = 1;
    int pods = 1;
    int gpuModel = -1;  ///< −1 = any model (all pods still share one model)
    PinLevel pinLevel = PinLevel::None;
    int pinIndex = -1;
};

PlacementRequest requestOf(const JobSpec& job);

/// First and one-past-last node index a request may use.
struct NodeRange {
    int begin = 0;
    int end = 0;
};
NodeRange nodeRangeOf(const Fleet& fleet, PinLevel level, int index);

/// Tries to place every pod. On success the chosen slots are occupied in `state`, `out`
/// holds one entry per pod (in placement order) and true is returned; on failure the state
/// is unchanged.
bool tryPlace(const PlacementRequest& request, PlacementPolicy policy, ClusterState& state,
              std::vector<PodPlacement>& out);

/// Releases what tryPlace occupied.
void unplace(ClusterState& state, const std::vector<PodPlacement>& pods);

/// Pods of the request that fit on Ready nodes right now, counting each node's free GPUs
/// (an upper bound that is exact for whole-GPU pods), for the best model.
/// Pods of the request that fit on nodes of one GPU model, counting each node's GPUs by
/// `basis`: free now, as if every bound job ended, or as if every bought node were Ready and
/// empty. Exact for whole-GPU pods; 0 for a model the pin excludes.
long long podCapacityForModel(const PlacementRequest& request, const ClusterState& state, int model,
                              Basis basis = Basis::FreeNow);
/// The best of podCapacityForModel over the models the request allows.
long long bestPodCapacity(const PlacementRequest& request, const ClusterState& state,
                          Basis basis = Basis::FreeNow);

}  // namespace gpuplan::detail
