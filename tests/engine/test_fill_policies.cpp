// The fill policies' scores on hand-built nodes, each worked out from the simulator's formula
// (engine/src/fragmentation/fill_policies.cpp names the file and function of each).
#include <catch2/catch.hpp>
#include <vector>

#include "fragmentation/fill_fragment_memo.hpp"
#include "fragmentation/fill_policies.hpp"

using namespace gpuplan;
using namespace gpuplan::detail;

namespace {

FillShape share(std::int64_t cpuMilli, int milli) {
    return FillShape{{cpuMilli, milli, 1, kAnyGpuModel}, 0};
}
FillShape whole(std::int64_t cpuMilli, int gpus) {
    return FillShape{{cpuMilli, 1000, gpus, kAnyGpuModel}, gpus};
}
FillShape cpuOnly(std::int64_t cpuMilli) {
    return FillShape{{cpuMilli, 0, 0, kAnyGpuModel}, -1};
}

// The node of most tests: 4 GPUs with 1000, 1000, 600 and 0 milli free (2,600 in all),
// 32 CPUs free, model 0, holding a share (on GPU 2) and a whole GPU (GPU 3).
const int kFree[] = {1000, 1000, 600, 0};
FillNodeView node(int affinities = 2, bool holdsPodAffinity = true) {
    return FillNodeView{{0, 32000, kFree}, affinities, holdsPodAffinity};
}

}  // namespace

TEST_CASE("fill filter: model, CPU and GPUs with room", "[fill]") {
    CHECK(fillFits(node(), share(4000, 500)));         // GPUs 0, 1, 2 have ≥ 500
    CHECK(fillFits(node(), share(4000, 1000)));        // GPUs 0, 1 are wholly free
    CHECK(fillFits(node(), whole(8000, 2)));           // two wholly free GPUs
    CHECK_FALSE(fillFits(node(), whole(8000, 3)));     // only two
    CHECK_FALSE(fillFits(node(), share(32001, 100)));  // 32,001 > 32,000 CPU
    CHECK(fillFits(node(), cpuOnly(32000)));           // exactly the free CPU fits
    FillShape onModel1 = share(1000, 100);
    onModel1.allowedModels = std::uint64_t{1} << 1;
    CHECK_FALSE(fillFits(node(), onModel1));  // the node is model 0
    // A CPU-only pod carries no model, so its (ignored) mask does not matter.
    FillShape cpu = cpuOnly(1000);
    cpu.allowedModels = 0;
    CHECK(fillFits(node(), cpu));
}

TEST_CASE("fill BestFit score", "[fill]") {
    // 0.3 GPU share with 4 CPUs: s = (32,000 − 4,000) ÷ 128,000 · 0.5 + (2,600 − 500) ÷ 8,000
    // · 0.5 = 0.109375 + 0.13125 = 0.240625; (1 − s) · 100 = 75.9375 → 75.
    CHECK(bestFitScore(node(), share(4000, 500)) == 75);
    // Two whole GPUs with 8 CPUs: (24,000 ÷ 128,000) · 0.5 + (600 ÷ 8,000) · 0.5 = 0.09375
    // + 0.0375 = 0.13125; 86.875 → 86.
    CHECK(bestFitScore(node(), whole(8000, 2)) == 86);
}

TEST_CASE("fill DotProd score", "[fill]") {
    // Node (32,000 ÷ 128,000, 2,600 ÷ 8,000) = (0.25, 0.325); pod (4,000 ÷ 128,000, 500 ÷
    // 8,000) = (0.03125, 0.0625); dot = 0.0078125 + 0.0203125 = 0.028125; halved 0.0140625;
    // 100 · (1 − 0.0140625) = 98.59375 → 98.
    CHECK(dotProductScore(node(), share(4000, 500)) == 98);
    // Two whole GPUs, 8 CPUs: (0.25 · 0.0625) + (0.325 · 0.25) = 0.015625 + 0.08125 =
    // 0.096875; halved 0.0484375; 95.15625 → 95: a bigger pod, a lower score.
    CHECK(dotProductScore(node(), whole(8000, 2)) == 95);
}

TEST_CASE("fill GpuPacking score, case by case", "[fill]") {
    // Case 1, a share on a partly used GPU: least free first, GPU 2 (600) takes 500:
    // 100 − ⌊600 · 100 ÷ 1000⌋ ÷ 10 = 100 − 60 ÷ 10 = 94.
    CHECK(gpuPackingScore(node(), share(4000, 500)) == 94);
    // A share of 700 does not fit GPU 2: it takes wholly free GPU 0 (case 2): 50 − 1 = 49.
    CHECK(gpuPackingScore(node(), share(4000, 700)) == 49);
    // Case 2, two whole GPUs on a used node: 50 − 2 = 48.
    CHECK(gpuPackingScore(node(), whole(8000, 2)) == 48);
    // Case 3, every GPU wholly free: 33 − free GPUs: 2 GPUs 31, 8 GPUs 25.
    const int idle2[] = {1000, 1000};
    const int idle8[] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    CHECK(gpuPackingScore(FillNodeView{{0, 16000, idle2}, 0, false}, share(1000, 100)) == 31);
    CHECK(gpuPackingScore(FillNodeView{{0, 16000, idle8}, 0, false}, whole(1000, 8)) == 25);
    // No GPU asked: 0 everywhere.
    CHECK(gpuPackingScore(node(), cpuOnly(1000)) == 0);
}

TEST_CASE("fill GpuClustering score, band by band", "[fill]") {
    // base = 25 · (8,000 − 2,600) ÷ 8,000 = 135,000 ÷ 8,000 = 16 (whole numbers).
    // Only the pod's affinity on the node: 16 + 75 = 91.
    CHECK(gpuClusteringScore(node(1, true), share(1000, 300)) == 91);
    // The pod's affinity among others: 16 + 50 = 66.
    CHECK(gpuClusteringScore(node(2, true), share(1000, 300)) == 66);
    // No GPU pod on the node (the test node's state aside): 16 + 25 = 41.
    CHECK(gpuClusteringScore(node(0, false), share(1000, 300)) == 41);
    // Only other affinities: 16.
    CHECK(gpuClusteringScore(node(2, false), whole(1000, 2)) == 16);
    CHECK(gpuClusteringScore(node(), cpuOnly(1000)) == 0);
}

TEST_CASE("fill GPU choice: best fit and whole GPUs", "[fill]") {
    // The GPU with the least room that fits: 500 goes on GPU 2 (600), 700 on GPU 0 (1000,
    // the lower of two equals).
    CHECK(bestFitSlot(node(), share(1000, 500)) == 2);
    CHECK(bestFitSlot(node(), share(1000, 700)) == 0);
    CHECK(exclusiveGpus(node(), 2) == 0b0011);  // the two lowest wholly free
    const int free[] = {0, 1000, 300, 1000};
    CHECK(exclusiveGpus(FillNodeView{{0, 1000, free}, 0, false}, 1) == 0b0010);
}

TEST_CASE("fill FGD score: the GPU leaving the least fragment", "[fill]") {
    // Target workload: one task, a 600-milli share with 1 CPU (p 1). Node: GPUs 1000 and 600
    // free, 8 CPUs. Before: both GPUs hold 600, nothing is too small: F_n = 0.
    FragmentMemo memo({TaskShape{{1000, 600, 1, kAnyGpuModel}, 1.0}});
    const int free[] = {1000, 600};
    const FillNodeView v{0, 8000, free, 0, false};
    const FillShape pod = share(1000, 300);
    // GPU 0 → (700, 600): both still hold 600, F_n = 0: sigmoid(0) · 100 = 50.
    // GPU 1 → (1000, 300): 300 < 600 is fragment, F_n = 300: sigmoid(−0.3) = 1 ÷ (1 +
    // e^0.3) = 1 ÷ 2.3498588 = 0.42556 → 42. FGD takes GPU 0; best fit would take GPU 1.
    const FillScore s = fgdScore(v, pod, 0.0, memo);
    CHECK(s.score == 50);
    CHECK(s.slot == 0);
    CHECK(bestFitSlot(v, pod) == 1);

    // Whole GPU, 1 CPU, on the same node: it takes GPU 0 → (0, 600); 600 still holds a share:
    // F_n = 0, score 50. With the workload's task a whole GPU (p 1) instead: before, GPU 1
    // (600 < 1000) is fragment, F_n = 600; after, no wholly free GPU is left, so the node
    // cannot host it and all 600 free count: F_n = 600; sigmoid(0) → 50 too.
    CHECK(fgdScore(v, whole(1000, 1), 0.0, memo).score == 50);
    FragmentMemo wholeMemo({TaskShape{{1000, 1000, 1, kAnyGpuModel}, 1.0}});
    CHECK(fgdScore(v, whole(1000, 1), 600.0, wholeMemo).score == 50);
    // A CPU-only pod taking 7.5 of 8 CPUs leaves 500 < 1,000 for the task: the node can no
    // longer host it and every free milli counts: F_n 600 → 1,600; sigmoid(−1) = 0.26894 → 26.
    CHECK(fgdScore(v, cpuOnly(7500), 600.0, wholeMemo).score == 26);
}

TEST_CASE("fill fragment memo: the same F_n for the same state class", "[fill]") {
    // Workload: a whole GPU with 4 CPUs (p .5), a 500 share with 1 CPU (p .5).
    const std::vector<TaskShape> workload = {TaskShape{{4000, 1000, 1, kAnyGpuModel}, 0.5},
                                             TaskShape{{1000, 500, 1, kAnyGpuModel}, 0.5}};
    FragmentMemo memo(workload);
    const int a[] = {1000, 300, 600};
    const int b[] = {600, 1000, 300};  // the same multiset in another order
    // 8 CPUs: the whole GPU fits on GPU 0, 300 + 600 count; the share fits on 1000 and 600,
    // 300 counts: F_n = .5 · 900 + .5 · 300 = 600.
    CHECK(memo.fragment(0, 8000, a) == Approx(600));
    CHECK(memo.fragment(0, 8000, b) == Approx(600));
    // 5 CPUs: the same CPU class (both asks, 1,000 and 4,000, fit): one state.
    CHECK(memo.fragment(0, 5000, a) == Approx(600));
    CHECK(memo.states() == 1);
    // 3 CPUs: the whole-GPU task no longer fits, all 1,900 count: .5 · 1900 + .5 · 300 = 1100.
    CHECK(memo.fragment(0, 3000, a) == Approx(1100));
    CHECK(memo.states() == 2);
    for (std::int64_t cpu : {0, 999, 1000, 3999, 4000, 64000})
        CHECK(memo.fragment(0, cpu, b) == nodeFragment(NodeFree{0, cpu, b}, workload));
}
