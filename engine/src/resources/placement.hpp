// Filter → score → bind for one job: find GPU slots for all of its pods (a gang is
// all-or-nothing) under a placement policy.
//   pack      best fit: each pod goes to the node with the fewest free GPUs that still fit
//             (kube-scheduler's MostAllocated), ties to the lowest node index.
//   spread    each pod goes to the node with the most free GPUs (LeastAllocated).
//   topology  a gang goes to the smallest unit that holds it whole: one node, else the
//             best-fitting rack, else the best-fitting pod (filling its fullest racks first),
//             else the fewest pods; inside a unit pods are packed.
// A pod that asks a MIG instance takes a free instance of its profile (as the GPU's family
// names it) on a MIG node: pack takes the GPU with the fewest free compute slices that has
// one, spread the most; the lowest such instance on that GPU.
// A pod that asks a share of a GPU (milliGpu < 1000) goes to one GPU whose node shares GPUs
// (MPS or time-slicing) and has room: pack takes the GPU with the least room left that fits
// (a partly used GPU before a free one), spread the one with the most; topology packs.
// CPU and memory per pod filter nodes that declare them (the whole-GPU histograms then give
// an upper bound, and a node is checked before it is chosen).
#pragma once

#include <array>
#include <bit>
#include <vector>

#include "cluster_state.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/run_record.hpp"

namespace gpuplan::detail {

struct PlacementRequest {
    int gpusPerPod = 1;
    int pods = 1;
    int gpuModel = -1;  ///< −1 = any model (all pods still share one model)
    PinLevel pinLevel = PinLevel::None;
    int pinIndex = -1;
    int milliGpu = 1000;  ///< per GPU of a pod; < 1000 = a share of one GPU
    HostDemand host;      ///< per pod
    /// A MIG instance per pod: the profile id per MIG family (JobSpec::migProfileId).
    std::array<std::uint8_t, 4> migProfileId{JobSpec::kNoMig, JobSpec::kNoMig, JobSpec::kNoMig,
                                             JobSpec::kNoMig};

    bool asksMig() const { return std::bit_cast<std::uint32_t>(migProfileId) != 0xFFFFFFFFu; }
    bool sharesGpu() const { return milliGpu < 1000 && !asksMig(); }
    HoldKind holdKind() const {
        return asksMig() ? HoldKind::Mig : sharesGpu() ? HoldKind::Share : HoldKind::Whole;
    }
    bool holdsWholeGpus() const { return holdKind() == HoldKind::Whole; }
    /// Whether the pods may land on GPU model `model` (JobSpec::allowsModel, the same rule).
    bool allowsModel(int model) const { return gpuModel < 0 || gpuModel == model; }
    /// Whole GPUs and no host demand: the histograms answer exactly.
    bool wholeGpusOnly() const { return holdsWholeGpus() && host.none(); }
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

/// Releases what tryPlace occupied (`host`: the request's, per pod).
void unplace(ClusterState& state, const std::vector<PodPlacement>& pods, HostDemand host = {});

/// The share a pod asking `requestedMilli` gets on a node: what it asked under MPS; one
/// replica (1000 / replicas) under time-slicing, which hands out replicas, not fractions.
int shareMilliOn(const FleetNode& node, int requestedMilli);

/// Pods of the request that fit on nodes of one GPU model, counting each node's GPUs by
/// `basis`: free now, as if every bound job ended, or as if every bought node were Ready and
/// empty; 0 for a model the pin excludes. Whole-GPU pods without host demand read the
/// histograms; shares and host demands count node by node (each node: the fewest of what its
/// GPUs, CPU and memory allow), exact per node, an upper bound for a gang of shares.
long long podCapacityForModel(const PlacementRequest& request, const ClusterState& state, int model,
                              Basis basis = Basis::FreeNow);
/// Per GPU model: may a pod of this request start there? A gang keeps to one model, so with
/// any model allowed only those that can hold every pod now are candidates (placement and the
/// defrag what-if both ask this).
std::vector<bool> modelsHoldingGang(const PlacementRequest& request, const ClusterState& state);
/// Pods of the request one node holds by `basis`: the fewest of what its GPUs (whole, shares
/// or MIG instances), CPU and memory allow.
long long podsOnNode(const PlacementRequest& request, const ClusterState& state, int node,
                     Basis basis);
/// The GPU pack (or, `spread`, spread) gives a pod asking part of a GPU — a share, or a MIG
/// instance — now: on a Ready node in `range` with the pod's CPU and memory free, of `model`
/// (−1: any) where `modelsAllowed` (null: all) says so, the least room that fits (most, for
/// spread) — for an instance, the fewest free compute slices among GPUs with a free instance
/// of its profile — then the lowest node and slot. Node −1 when none.
PartialGpuIndex::Found bestPartialGpu(const PlacementRequest& request, const ClusterState& state,
                                      NodeRange range, bool spread, int model,
                                      const std::vector<bool>* modelsAllowed);
/// Does one pod of the request fit now — bestPodCapacity ≥ 1 — without counting them all?
bool onePodFits(const PlacementRequest& request, const ClusterState& state);

/// The best of podCapacityForModel over the models the request allows.
long long bestPodCapacity(const PlacementRequest& request, const ClusterState& state,
                          Basis basis = Basis::FreeNow);

}  // namespace gpuplan::detail
