// The FGD fragmentation measure (Weng et al., "Beware of Fragmentation", USENIX ATC 2023),
// as the paper defines it (section 3) and its simulator
// (hkust-adsl/kubernetes-scheduler-simulator, pkg/utils/frag.go) computes it.
//
// A target workload is a set of task shapes with probabilities. A node's fragment for one
// shape is the free milli-GPU on it that a task of that shape cannot use; the node's fragment
// is the expectation over the workload, the cluster's the sum over its nodes. Memory is not
// part of the measure. Pure functions on plain views: no cluster class is needed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuplan/model/openb.hpp"

namespace gpuplan {

/// Every GPU model allowed: a task without a GPU-type constraint.
inline constexpr std::uint64_t kAnyGpuModel = ~std::uint64_t{0};

/// What a pod asks, as the fragmentation measure and the fill study's policies read it (the
/// paper's simulator's PodResource, pkg/type/resource.go).
struct PodShape {
    std::int64_t cpuMilli = 0;
    int gpuMilli = 0;  ///< per GPU: 1–999 a partial GPU, 1000 whole GPUs, 0 a CPU-only pod
    int numGpu = 0;
    /// Bit i set: GPU model i (an index into the caller's model list) may host the pod.
    /// kAnyGpuModel when the pod names no model; 0 when it names only models the caller does
    /// not know (it can run nowhere, as in the simulator).
    std::uint64_t allowedModels = kAnyGpuModel;

    /// A model index (−1: a node without GPUs) may host it (utils.IsNodeAccessibleToPodByType).
    bool allowsModel(int gpuModel) const {
        if (allowedModels == kAnyGpuModel) return true;
        return gpuModel >= 0 && gpuModel < 64 && ((allowedModels >> gpuModel) & 1u) != 0;
    }
    bool partial() const { return numGpu == 1 && gpuMilli < 1000; }
    int totalMilli() const { return gpuMilli * numGpu; }
};

/// gpu_spec as a model mask over `gpuModels`: any model when empty, else the named ones the
/// list has (none: 0, the pod fits nowhere). At most 64 models.
std::uint64_t gpuModelMask(std::span<const std::string> spec,
                           std::span<const std::string> gpuModels);

/// One shape of the target workload.
struct TaskShape : PodShape {
    double probability = 0;
};

/// Pods grouped by (cpu_milli, gpu_milli, num_gpu, gpu_spec), with their counts.
struct TaskGroup {
    TaskShape shape;      ///< probability: count ÷ all pods
    std::string gpuSpec;  ///< the models joined by '|', as written (the grouping key)
    std::int64_t count = 0;
};

/// All groups, most pods first. Ties (equal counts) in the simulator's order (frag.go,
/// SortTargetPodInDecreasingCount with TargetPodList.Less): larger cpu_milli first, then
/// larger gpu_milli, larger num_gpu, then gpu_spec in descending byte order. The order decides
/// which groups make the 95 % cut when counts tie there (they do in the gpuspec pod lists).
/// `gpuModels` names the models by index (at most 64; more throws std::invalid_argument).
std::vector<TaskGroup> taskGroups(const std::vector<OpenbPod>& pods,
                                  std::span<const std::string> gpuModels);

/// The target workload M: the commonest groups, taken in taskGroups order until they hold at
/// least `coverage` of all pods (CPU-only pods included), their counts renormalised to
/// probabilities. coverage in (0, 1], else std::invalid_argument. Default trace: 35 of 91.
/// Pass the pod list as read: the simulator builds M before it resamples the arrivals to 130 %
/// of capacity (pkg/simulator/core.go: SetTypicalPods, then TunePodsByNodeTotalResource).
std::vector<TaskShape> targetWorkload(const std::vector<OpenbPod>& pods,
                                      std::span<const std::string> gpuModels,
                                      double coverage = 0.95);

/// The same cut on groups counted elsewhere (a simulation's jobs), sorted by sortTaskGroups;
/// `totalTasks` is what the counts are out of.
std::vector<TaskShape> targetWorkload(std::span<const TaskGroup> groups, std::int64_t totalTasks,
                                      double coverage = 0.95);
/// Orders groups as taskGroups returns them: most tasks first, ties as the simulator.
void sortTaskGroups(std::vector<TaskGroup>& groups);

/// What is free on one node.
struct NodeFree {
    int gpuModel = -1;  ///< index into the model list; -1 for a node without GPUs
    std::int64_t freeCpuMilli = 0;
    std::span<const int> freeMilliPerGpu;  ///< R_g: 0…1000 per GPU
};

/// F_n(m): the node's free milli-GPU that a task of shape m cannot use.
double nodeFragment(const NodeFree& node, const TaskShape& task);
/// F_n = Σ_m p_m · F_n(m).
double nodeFragment(const NodeFree& node, std::span<const TaskShape> workload);

/// The cluster's fragment and what it is measured against.
struct ClusterFragmentation {
    double fragmentMilli = 0;    ///< F = Σ_n F_n
    std::int64_t freeMilli = 0;  ///< Σ_n Σ_g R_g
    std::int64_t totalGpus = 0;
    /// fragmentation_ratio = 100 · F ÷ free milli-GPU (0 when nothing is free).
    double ratioPercent() const;
    /// fragmentation_amount = 100 · F ÷ (1000 · total GPUs) (0 without GPUs).
    double amountPercent() const;
};
ClusterFragmentation clusterFragmentation(std::span<const NodeFree> nodes,
                                          std::span<const TaskShape> workload);

}  // namespace gpuplan
