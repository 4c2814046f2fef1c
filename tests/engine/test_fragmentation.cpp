#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>

#include "gpuplan/model/openb.hpp"
#include "resources/fragmentation.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

TaskShape task(std::int64_t cpuMilli, int gpuMilli, int numGpu, double p,
               std::uint64_t allowed = kAnyGpuModel) {
    return TaskShape{{cpuMilli, gpuMilli, numGpu, allowed}, p};
}

// The workload of most tests: one whole GPU with 2 CPUs (p .5), 0.3 of a GPU with 1 CPU
// (p .3), a CPU-only task with 1 CPU (p .2).
const TaskShape kWhole = task(2000, 1000, 1, 0.5);
const TaskShape kShare = task(1000, 300, 1, 0.3);
const TaskShape kCpuOnly = task(1000, 0, 0, 0.2);
const TaskShape kWorkload[] = {kWhole, kShare, kCpuOnly};

OpenbPod pod(std::int64_t cpuMilli, int numGpu, int gpuMilli, std::vector<std::string> spec = {},
             std::int64_t memoryMiB = 1024) {
    OpenbPod p;
    p.name = "p";
    p.cpuMilli = cpuMilli;
    p.memoryMiB = memoryMiB;
    p.numGpu = numGpu;
    p.gpuMilli = gpuMilli;
    p.gpuSpec = std::move(spec);
    return p;
}

}  // namespace

TEST_CASE("fragmentation: a node's fragment, case by case", "[fragmentation]") {
    // Free: GPU 0 whole (1000), GPU 1 half (500), GPU 2 a fifth (200): 1700 milli; 4 CPUs.
    const int free[] = {1000, 500, 200};
    const NodeFree node{0, 4000, free};
    // Whole GPU: GPU 0 takes it, CPU 2000 ≤ 4000: only GPUs below 1000 count, 500 + 200 = 700.
    CHECK(nodeFragment(node, kWhole) == 700);
    // 0.3 GPU: GPUs 0 and 1 fit (≥ 300); GPU 2 (200 < 300) is the fragment: 200.
    CHECK(nodeFragment(node, kShare) == 200);
    // CPU-only: every free milli-GPU counts, whether the CPU fits or not: 1700.
    CHECK(nodeFragment(node, kCpuOnly) == 1700);
    // F_n = .5 · 700 + .3 · 200 + .2 · 1700 = 350 + 60 + 340 = 750.
    CHECK(nodeFragment(node, kWorkload) == Approx(750).epsilon(1e-12));
    // Exactly enough CPU, exactly enough GPU share: it fits (≥ on both, as in frag.go).
    CHECK(nodeFragment(NodeFree{0, 2000, free}, kWhole) == 700);
    CHECK(nodeFragment(node, task(4000, 500, 1, 1)) == 200);  // 500 fits; only 200 counts
    CHECK(nodeFragment(node, task(4001, 500, 1, 1)) == 1700);
}

TEST_CASE("fragmentation: a CPU-starved node counts all its free GPU", "[fragmentation]") {
    // The same GPUs with 0.5 CPU free: neither GPU task fits (CPU 2000 and 1000 > 500), so each
    // counts all 1700; the CPU-only task counts all 1700 anyway. F_n = 1700.
    const int free[] = {1000, 500, 200};
    const NodeFree node{0, 500, free};
    CHECK(nodeFragment(node, kWhole) == 1700);
    CHECK(nodeFragment(node, kShare) == 1700);
    CHECK(nodeFragment(node, kCpuOnly) == 1700);
    CHECK(nodeFragment(node, kWorkload) == Approx(1700).epsilon(1e-12));
    // A CPU-only task asking more CPU than is free: still all free GPU (XRLackCPU).
    CHECK(nodeFragment(node, task(64000, 0, 0, 1)) == 1700);
}

TEST_CASE("fragmentation: a GPU model the task does not allow", "[fragmentation]") {
    const int free[] = {1000, 500, 200};
    // Models 0 = "T4", 1 = "G2". A whole-GPU task allowed on G2 only.
    const TaskShape onG2 = task(1000, 1000, 1, 1, std::uint64_t{1} << 1);
    CHECK(nodeFragment(NodeFree{0, 4000, free}, onG2) == 1700);  // a T4 node: all 1700
    CHECK(nodeFragment(NodeFree{1, 4000, free}, onG2) == 700);   // a G2 node: 500 + 200
    // A task naming only models the cluster lacks (mask 0) fits nowhere.
    CHECK(nodeFragment(NodeFree{1, 4000, free}, task(1000, 1000, 1, 1, 0)) == 1700);
    // A node without GPUs has no fragment, whatever the task.
    CHECK(nodeFragment(NodeFree{-1, 4000, {}}, onG2) == 0);
    CHECK(nodeFragment(NodeFree{-1, 4000, {}}, kWorkload) == 0);
}

TEST_CASE("fragmentation: multi-GPU whole tasks need that many fully free GPUs",
          "[fragmentation]") {
    // Eight GPUs: five fully free (0, 1, 2, 5, 7), and 400, 0, 600 free: 6000 milli in all.
    const int free[] = {1000, 1000, 1000, 400, 0, 1000, 600, 1000};
    const NodeFree node{0, 32000, free};
    // 2 and 4 GPUs fit on the five free ones; the partly used GPUs are the fragment:
    // 400 + 0 + 600 = 1000.
    CHECK(nodeFragment(node, task(8000, 1000, 2, 1)) == 1000);
    CHECK(nodeFragment(node, task(8000, 1000, 4, 1)) == 1000);
    // 8 GPUs: only 5 fully free, so it cannot be hosted: all 6000 count.
    CHECK(nodeFragment(node, task(8000, 1000, 8, 1)) == 6000);
    // Shares: 500 fits on six GPUs (the five and 600); 400 + 0 = 400 is the fragment.
    // 700 fits on the five; 400 + 0 + 600 = 1000. 600 fits on 600 exactly: 400.
    CHECK(nodeFragment(node, task(1000, 500, 1, 1)) == 400);
    CHECK(nodeFragment(node, task(1000, 700, 1, 1)) == 1000);
    CHECK(nodeFragment(node, task(1000, 600, 1, 1)) == 400);
}

TEST_CASE("fragmentation: ratio and amount on a two-node cluster", "[fragmentation]") {
    // Node A as above: F_A = 750, free 1700, 3 GPUs.
    // Node B: two GPUs with 300 and 0 free, 8 CPUs. Whole GPU: none free → all 300. 0.3 GPU:
    // 300 fits exactly, the other GPU has 0 free → 0. CPU-only: 300.
    // F_B = .5 · 300 + .3 · 0 + .2 · 300 = 150 + 60 = 210.
    const int freeA[] = {1000, 500, 200};
    const int freeB[] = {300, 0};
    const NodeFree nodes[] = {{0, 4000, freeA}, {1, 8000, freeB}};
    CHECK(nodeFragment(nodes[1], kWorkload) == Approx(210).epsilon(1e-12));
    const ClusterFragmentation c = clusterFragmentation(nodes, kWorkload);
    // F = 750 + 210 = 960; free 1700 + 300 = 2000; 5 GPUs.
    CHECK(c.fragmentMilli == Approx(960).epsilon(1e-12));
    CHECK(c.freeMilli == 2000);
    CHECK(c.totalGpus == 5);
    // ratio = 100 · 960 / 2000 = 48 %; amount = 100 · 960 / (1000 · 5) = 19.2 %.
    CHECK(c.ratioPercent() == Approx(48).epsilon(1e-12));
    CHECK(c.amountPercent() == Approx(19.2).epsilon(1e-12));
    // Nothing free: both 0 (the simulator would divide 0 by 0).
    const int none[] = {0, 0};
    const NodeFree full[] = {{0, 0, none}};
    CHECK(clusterFragmentation(full, kWorkload).ratioPercent() == 0);
    CHECK(clusterFragmentation(full, kWorkload).amountPercent() == 0);
}

TEST_CASE("fragmentation: the target workload groups, sorts, cuts and renormalises",
          "[fragmentation]") {
    // 13 pods in 6 groups (memory is not part of the key; a CPU-only pod's gpu_spec is ignored):
    //   A: 1 CPU, 1 whole GPU          × 5 (two of them with other memory)
    //   B: 2 CPUs, 0.3 GPU             × 3
    //   C: 0.5 CPU, CPU-only           × 2 (one with a gpu_spec)
    //   F: 4 CPUs, 2 whole GPUs        × 1
    //   D: 1 CPU, 1 whole GPU, T4 only × 1
    //   E: 1 CPU, 1 whole GPU, G2 only × 1
    // The three groups of one pod tie; the simulator's order puts more CPU first (F), then
    // for equal shapes the gpu_spec in descending byte order ("T4" > "G2"): F, D, E.
    std::vector<OpenbPod> pods;
    for (int i = 0; i < 5; ++i)
        pods.push_back(pod(1000, 1, 1000, {}, 1024 * (i % 3 + 1)));
    for (int i = 0; i < 3; ++i)
        pods.push_back(pod(2000, 1, 300));
    pods.push_back(pod(500, 0, 0));
    pods.push_back(pod(500, 0, 0, {"T4"}));
    pods.push_back(pod(1000, 1, 1000, {"G2"}));
    pods.push_back(pod(4000, 2, 1000));
    pods.push_back(pod(1000, 1, 1000, {"T4"}));
    const std::vector<std::string> models = {"G2", "T4"};

    const auto groups = taskGroups(pods, models);
    REQUIRE(groups.size() == 6);
    CHECK(groups[0].count == 5);
    CHECK(groups[1].count == 3);
    CHECK(groups[1].shape.gpuMilli == 300);
    CHECK(groups[2].count == 2);
    CHECK(groups[2].shape.numGpu == 0);
    CHECK(groups[2].shape.allowedModels == kAnyGpuModel);
    CHECK(groups[3].shape.numGpu == 2);
    CHECK(groups[4].gpuSpec == "T4");
    CHECK(groups[4].shape.allowedModels == 2);  // bit 1: T4
    CHECK(groups[5].gpuSpec == "G2");
    CHECK(groups[5].shape.allowedModels == 1);
    CHECK(groups[0].shape.probability == Approx(5.0 / 13));

    // 95 % of 13 is 12.35: after A B C F D (12 pods) E is needed too: all six, p = count / 13.
    CHECK(targetWorkload(pods, models).size() == 6);
    // 90 % is 11.7: A B C F D cover 12; E is left out and the rest renormalised to 12 pods.
    const auto w = targetWorkload(pods, models, 0.9);
    REQUIRE(w.size() == 5);
    CHECK(w[0].probability == Approx(5.0 / 12).epsilon(1e-12));
    CHECK(w[1].probability == Approx(3.0 / 12).epsilon(1e-12));
    CHECK(w[4].allowedModels == 2);
    CHECK(std::accumulate(w.begin(), w.end(), 0.0, [](double s, const TaskShape& t) {
              return s + t.probability;
          }) == Approx(1).epsilon(1e-12));
    // A spec written in another order (or with a repeat) is another group, as in the simulator.
    pods.push_back(pod(1000, 1, 1000, {"T4", "G2"}));
    pods.push_back(pod(1000, 1, 1000, {"G2", "T4"}));
    const auto more = taskGroups(pods, models);
    CHECK(more.size() == 8);
    CHECK(std::count_if(more.begin(), more.end(),
                        [](const TaskGroup& g) { return g.shape.allowedModels == 3; }) == 2);
    CHECK_THROWS_AS(targetWorkload(pods, models, 0), std::invalid_argument);
    CHECK_THROWS_AS(targetWorkload(pods, models, 1.5), std::invalid_argument);
}

TEST_CASE("fragmentation: the GPU model list of a node list", "[fragmentation]") {
    std::vector<OpenbNode> nodes(5);
    const char* models[] = {"G2", "T4", "G2", "", "P100"};
    for (int i = 0; i < 5; ++i) {
        nodes[i].model = models[i];
        nodes[i].gpus = *models[i] ? 2 : 0;
    }
    CHECK(gpuModelNames(nodes) == std::vector<std::string>{"G2", "T4", "P100"});
}

TEST_CASE("fragmentation: the target workload of the real default trace", "[fragmentation]") {
    const fs::path dir = test::presetDataDir() / "openb";
    INFO("the openb trace is expected in " << dir.string() << " (the shared data folder)");
    REQUIRE(fs::exists(dir / "openb_pod_list_default.csv"));
    const auto models = gpuModelNames(readOpenbNodes(dir / "openb_node_list_gpu_node.csv"));
    CHECK(models ==
          std::vector<std::string>{"P100", "G3", "V100M32", "V100M16", "G2", "T4", "A10"});
    const auto pods = readOpenbPods(dir / "openb_pod_list_default.csv");
    // scheduling.md section 10: 35 of 91 groups. They hold 7,766 of 8,152 pods (95.3 %).
    CHECK(taskGroups(pods, models).size() == 91);
    const auto w = targetWorkload(pods, models);
    CHECK(w.size() == 35);
    double sum = 0;
    for (const TaskShape& t : w)
        sum += t.probability;
    CHECK(sum == Approx(1).epsilon(1e-12));
    CHECK(w[0].probability ==
          Approx(static_cast<double>(taskGroups(pods, models)[0].count) / 7766).epsilon(1e-12));
    // The gpuspec05 list ties at the cut: groups 53, 54 and 55 hold 11 pods each, and 53 of
    // 200 groups are taken. The simulator's order takes the one with the most CPU: 18.708 CPUs,
    // a whole T4 (ascending order would have taken 11.4 CPUs, CPU-only).
    const auto spec = readOpenbPods(dir / "openb_pod_list_gpuspec05.csv");
    CHECK(taskGroups(spec, models).size() == 200);
    const auto ws = targetWorkload(spec, models);
    REQUIRE(ws.size() == 53);
    CHECK(ws.back().cpuMilli == 18708);
    CHECK(ws.back().gpuMilli == 1000);
    CHECK(ws.back().allowedModels == std::uint64_t{1} << 5);  // T4
}
