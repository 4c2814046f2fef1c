// The fill study's placement policies, each as the paper's simulator scores a node
// (hkust-adsl/kubernetes-scheduler-simulator 8f3d641, pkg/simulator/plugin/*_score.go), and
// the GPU each gives a pod on the node it chose (open_gpu_share.go allocateGpuId with the
// experiments' gpuSelMethod, experiments/run_scripts/generate_run_scripts.py: FGD its own
// rule, Random "random", every other "best"). Scores are whole numbers 0…100 as the
// simulator's (Go truncates to int64): that makes ties, which the runner breaks by node order.
// Memory is checked by the caller (it is no part of any score).
#pragma once

#include <cstdint>
#include <span>

#include "fill_fragment_memo.hpp"
#include "gpuplan/fragmentation/fill.hpp"

namespace gpuplan::detail {

/// What a policy reads of a pod: its shape, and GpuClustering's affinity
/// (open-gpu-share utils GetGpuAffinityFromPodAnnotation): 0 = a shared GPU, N = N whole GPUs,
/// −1 = no GPU.
struct FillShape : PodShape {
    int affinity = -1;
};

/// What a policy reads of a node (the simulator's NodeResource): what is free on it, and for
/// GpuClustering the affinities of the pods on it (distinct) and whether the pod's own is
/// among them.
struct FillNodeView : NodeFree {
    int affinities = 0;
    bool holdsPodAffinity = false;
};

/// The filter without memory (Open-Gpu-Share Filter and NodeResourcesFit): GPU model allowed
/// (GPU pods only: a CPU-only pod carries no model annotation), CPU, and numGpu GPUs with at
/// least gpuMilli free each (gpunodeinfo.go AllocateGpuId).
bool fillFits(const FillNodeView& node, const FillShape& pod);

/// A node's score for a pod that fits there; FGD also gives the GPU it would use.
struct FillScore {
    int score = 0;
    int slot = -1;  ///< FGD, partial pod: the GPU chosen; otherwise −1
};

/// FGD (fgd_score.go calculateGpuShareFragExtendScore). `fragmentBefore` is the node's F_n.
FillScore fgdScore(const FillNodeView& node, const FillShape& pod, double fragmentBefore,
                   FragmentMemo& memo);
int bestFitScore(const FillNodeView& node, const FillShape& pod);
int dotProductScore(const FillNodeView& node, const FillShape& pod);
int gpuPackingScore(const FillNodeView& node, const FillShape& pod);
int gpuClusteringScore(const FillNodeView& node, const FillShape& pod);

/// The score of `policy` (not Random, which draws a node instead of scoring).
FillScore fillScore(FillPolicy policy, const FillNodeView& node, const FillShape& pod,
                    double fragmentBefore, FragmentMemo& memo);

/// "best" GPU selection for a partial pod (allocateGpuIdBasedOnBestFit): the GPU with the
/// least free milli that still fits, the lowest index among equals.
int bestFitSlot(const FillNodeView& node, const FillShape& pod);
/// Whole GPUs (simontype AllocateExclusiveGpuId): the lowest-numbered wholly free GPUs.
std::uint64_t exclusiveGpus(const FillNodeView& node, int count);

}  // namespace gpuplan::detail
