// The fill policies. Each formula is the simulator's (file and function named at each), with
// its constants: MaxNodeScore 100, MaxSpecCpu 128,000 milli-CPU, MaxSpecGpu 8,000 milli-GPU
// (pkg/type/open-gpu-share/utils/const.go). Floating-point steps are done in the simulator's
// order so that truncation to whole scores gives the same ties.
#include "fill_policies.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace gpuplan {

std::string_view fillPolicyKey(FillPolicy p) {
    switch (p) {
        case FillPolicy::Fgd:
            return "fgd";
        case FillPolicy::BestFit:
            return "bestfit";
        case FillPolicy::DotProd:
            return "dotprod";
        case FillPolicy::GpuPacking:
            return "packing";
        case FillPolicy::GpuClustering:
            return "clustering";
        case FillPolicy::Random:
            return "random";
    }
    return "?";
}

std::string_view fillPolicyName(FillPolicy p) {
    switch (p) {
        case FillPolicy::Fgd:
            return "FGD";
        case FillPolicy::BestFit:
            return "BestFit";
        case FillPolicy::DotProd:
            return "DotProd";
        case FillPolicy::GpuPacking:
            return "GpuPacking";
        case FillPolicy::GpuClustering:
            return "GpuClustering";
        case FillPolicy::Random:
            return "Random";
    }
    return "?";
}

std::optional<FillPolicy> parseFillPolicy(std::string_view key) {
    for (FillPolicy p : kFillPolicies)
        if (fillPolicyKey(p) == key) return p;
    return std::nullopt;
}

}  // namespace gpuplan

namespace gpuplan::detail {

namespace {

constexpr int kMaxScore = 100;
constexpr double kMaxSpecCpu = 128000;
constexpr double kMaxSpecGpu = 8000;

int totalFree(const FillNodeView& node) {
    int total = 0;
    for (int r : node.freeMilliPerGpu)
        total += r;
    return total;
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

/// FGD's score of going from F_n `before` to `after`:
/// int64(sigmoid((before − after) / 1000) · 100).
int fgdGain(double before, double after) {
    return static_cast<int>(sigmoid((before - after) / 1000) * kMaxScore);
}

}  // namespace

bool fillFits(const FillNodeView& node, const FillShape& pod) {
    if (pod.numGpu > 0 && !pod.allowsModel(node.gpuModel)) return false;
    if (node.freeCpuMilli < pod.cpuMilli) return false;
    if (pod.numGpu == 0) return true;
    int fitting = 0;
    for (int r : node.freeMilliPerGpu)
        fitting += r >= pod.gpuMilli;
    return fitting >= pod.numGpu;
}

FillScore fgdScore(const FillNodeView& node, const FillShape& pod, double fragmentBefore,
                   FragmentMemo& memo) {
    // fgd_score.go calculateGpuShareFragExtendScore: score = int64(sigmoid((F_n before −
    // F_n after) / 1000) · 100), F_n = utils.NodeGpuShareFragAmountScore over the typical pods.
    std::array<int, 64> after{};
    const std::size_t n = node.freeMilliPerGpu.size();
    std::copy(node.freeMilliPerGpu.begin(), node.freeMilliPerGpu.end(), after.begin());
    const std::span<const int> afterSpan(after.data(), n);
    const std::int64_t cpuAfter = node.freeCpuMilli - pod.cpuMilli;
    if (pod.partial()) {
        // A share: try every GPU it fits on, in index order; keep the best score, the first
        // GPU among equal scores ("gpuId == "" || fragScore > score").
        FillScore best;
        for (std::size_t i = 0; i < n; ++i) {
            if (node.freeMilliPerGpu[i] < pod.gpuMilli) continue;
            after[i] -= pod.gpuMilli;
            const int s =
                fgdGain(fragmentBefore, memo.fragment(node.gpuModel, cpuAfter, afterSpan));
            after[i] += pod.gpuMilli;
            if (best.slot < 0 || s > best.score) best = {s, static_cast<int>(i)};
        }
        return best;
    }
    // Whole GPUs or none: NodeResource.Sub takes the CPU and, least free first (a stable sort),
    // numGpu GPUs with room: for whole GPUs the lowest-numbered wholly free ones.
    std::array<int, 64> order{};
    for (std::size_t i = 0; i < n; ++i)
        order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.begin() + n,
                     [&](int a, int b) { return after[a] < after[b]; });
    int left = pod.numGpu;
    for (std::size_t k = 0; k < n && left > 0; ++k) {
        if (after[order[k]] >= pod.gpuMilli) {
            after[order[k]] -= pod.gpuMilli;
            --left;
        }
    }
    return {fgdGain(fragmentBefore, memo.fragment(node.gpuModel, cpuAfter, afterSpan)), -1};
}

int bestFitScore(const FillNodeView& node, const FillShape& pod) {
    // best_fit_score.go getBestFitScore: s = Σ_i (free_i − request_i) ÷ maxSpec_i · w_i over
    // (CPU, GPU), w = 0.5 each (lower is better); score = int64((1 − s) · 100). Its
    // NormalizeScore maps the scores to 0…100 keeping order and ties, so it picks the same node.
    const double freeVec[] = {static_cast<double>(node.freeCpuMilli),
                              static_cast<double>(totalFree(node))};
    const double reqVec[] = {static_cast<double>(pod.cpuMilli),
                             static_cast<double>(pod.totalMilli())};
    const double maxSpec[] = {kMaxSpecCpu, kMaxSpecGpu};
    const double weights[] = {0.5, 0.5};
    double s = 0;
    for (int i = 0; i < 2; ++i)
        s += (freeVec[i] - reqVec[i]) / maxSpec[i] * weights[i];
    return static_cast<int>((1.0 - s) * kMaxScore);
}

int dotProductScore(const FillNodeView& node, const FillShape& pod) {
    // dot_product_score.go calculateDotProductScore with the experiments' dimExtMethod "merge"
    // and normMethod "max" (utils.GenerateSchedulingMatchGroups): node (free CPU ÷ 128,000,
    // free milli-GPU ÷ 8,000) · pod (CPU ÷ 128,000, milli-GPU ÷ 8,000), halved (÷ the vector
    // length); score = int64(100 · (1 − dot ÷ 2)): the larger the product, the lower the score.
    const double nodeVec[] = {static_cast<double>(node.freeCpuMilli) / kMaxSpecCpu,
                              static_cast<double>(totalFree(node)) / kMaxSpecGpu};
    const double podVec[] = {static_cast<double>(pod.cpuMilli) / kMaxSpecCpu,
                             static_cast<double>(pod.totalMilli()) / kMaxSpecGpu};
    double dot = 0;
    for (int i = 0; i < 2; ++i)
        dot += nodeVec[i] * podVec[i];
    double score = dot / 2;
    score = 1 - score;
    return static_cast<int>(kMaxScore * score);
}

int gpuPackingScore(const FillNodeView& node, const FillShape& pod) {
    // gpu_packing_score.go getPackingScore, from high to low:
    //  1. only partly used GPUs: 100 − Σ_used ⌊free·100/1000⌋ ÷ 10, at least 50;
    //  2. wholly free GPUs on a used node: 50 − (wholly free GPUs used), at least 33;
    //  3. a node whose GPUs are all wholly free: 33 − free GPUs (capped below at that count).
    // A pod without GPU scores 0 everywhere (MinNodeScore).
    if (pod.gpuMilli <= 0) return 0;
    const int n = static_cast<int>(node.freeMilliPerGpu.size());
    int fullyFree = 0;
    for (int r : node.freeMilliPerGpu)
        fullyFree += r == 1000;
    if (fullyFree == n) return std::max(kMaxScore / 3 - fullyFree, fullyFree);
    std::array<int, 64> order{};
    for (int i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.begin() + n, [&](int a, int b) {
        return node.freeMilliPerGpu[a] < node.freeMilliPerGpu[b];
    });
    int left = pod.numGpu, wholeUsed = 0, freeRatioSum = 0;
    for (int k = 0; k < n && left > 0; ++k) {
        const int r = node.freeMilliPerGpu[order[k]];
        if (pod.gpuMilli <= r) {
            --left;
            wholeUsed += r == 1000;
            freeRatioSum += r * 100 / 1000;
        }
    }
    if (left != 0) return 0;  // cannot host it (the filter keeps such nodes out)
    if (wholeUsed > 0) return std::max(kMaxScore / 2 - wholeUsed, kMaxScore / 3);
    return std::max(kMaxScore - freeRatioSum / 10, kMaxScore / 2);
}

int gpuClusteringScore(const FillNodeView& node, const FillShape& pod) {
    // gpu_clustering_score.go Score: base = 25 · (8000 − free milli-GPU) ÷ 8000 (whole
    // numbers), plus 75 on a node holding only the pod's affinity, 50 on one holding it among
    // others, 25 on a node holding no GPU pod, 0 on one holding only other affinities. A pod
    // without GPU scores 0. Clamped to 0…100: only nodes of more than 8 GPUs could leave it.
    if (pod.affinity < 0) return 0;
    const int base = kMaxScore / 4 * (8000 - totalFree(node)) / 8000;
    int band = 0;
    if (node.holdsPodAffinity)
        band = node.affinities == 1 ? kMaxScore * 3 / 4 : kMaxScore * 2 / 4;
    else
        band = node.affinities == 0 ? kMaxScore / 4 : 0;
    return std::clamp(base + band, 0, kMaxScore);
}

FillScore fillScore(FillPolicy policy, const FillNodeView& node, const FillShape& pod,
                    double fragmentBefore, FragmentMemo& memo) {
    switch (policy) {
        case FillPolicy::Fgd:
            return fgdScore(node, pod, fragmentBefore, memo);
        case FillPolicy::BestFit:
            return {bestFitScore(node, pod), -1};
        case FillPolicy::DotProd:
            return {dotProductScore(node, pod), -1};
        case FillPolicy::GpuPacking:
            return {gpuPackingScore(node, pod), -1};
        case FillPolicy::GpuClustering:
            return {gpuClusteringScore(node, pod), -1};
        case FillPolicy::Random:
            break;
    }
    return {0, -1};  // Random draws a node instead (random_score.go PreScore)
}

int bestFitSlot(const FillNodeView& node, const FillShape& pod) {
    int best = -1;
    for (int i = 0; i < static_cast<int>(node.freeMilliPerGpu.size()); ++i) {
        const int r = node.freeMilliPerGpu[i];
        if (r >= pod.gpuMilli && (best < 0 || r < node.freeMilliPerGpu[best])) best = i;
    }
    return best;
}

std::uint64_t exclusiveGpus(const FillNodeView& node, int count) {
    std::uint64_t mask = 0;
    for (int i = 0; i < static_cast<int>(node.freeMilliPerGpu.size()) && count > 0; ++i) {
        if (node.freeMilliPerGpu[i] == 1000) {
            mask |= std::uint64_t{1} << i;
            --count;
        }
    }
    return mask;
}

}  // namespace gpuplan::detail
