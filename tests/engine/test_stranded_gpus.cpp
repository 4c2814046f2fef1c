// stranded_gpus: free GPUs on Ready nodes that no waiting pod can use. A node is no use to any
// waiting pod when it has fewer free GPUs than the smallest pod asks, or less free CPU or host
// memory than the least any waiting pod asks (kube-scheduler's "Insufficient cpu" with GPUs
// idle). Samples every 600 s; the value at 600 s is read while the jobs below stand still.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;

namespace {

double strandedAt(const Results& r, double timeS) {
    for (const Series& s : r.series)
        if (s.name == "stranded_gpus")
            return s.values.at(static_cast<std::size_t>(timeS / r.sampleIntervalS));
    FAIL("no stranded_gpus series");
    return 0;
}

Scenario twoNodes(const std::string& nodeType) {
    Scenario s = test::smallFleet(1, 2, nodeType);
    s.horizonS = 4 * 3600.0;
    s.sampleIntervalS = 600;
    return s;
}

}  // namespace

TEST_CASE("a free GPU is stranded on a node with fewer free GPUs than any waiting pod asks",
          "[stranded]") {
    // Two n4 nodes (4 GPUs). a (3 GPUs) packs onto node 0, b (4) fills node 1; c asks 2 and
    // waits: node 0's 1 free GPU is less than 2, so 1 GPU is stranded until a and b end at 2 h.
    Scenario s = twoNodes("n4");
    s.jobs = {test::job("a", 3, 7200), test::job("b", 4, 7200), test::job("c", 2, 3600)};
    const Results r = test::run(s);
    CHECK(strandedAt(r, 600) == 1);
    // c runs from 2 h to 3 h, alone: nothing waits, nothing is stranded.
    CHECK(strandedAt(r, 9000) == 0);
}

TEST_CASE("free GPUs are stranded on a node whose CPUs every waiting pod needs more of",
          "[stranded]") {
    // Two n4c nodes (4 GPUs, 16 CPUs). a (1 GPU, 12 CPUs) packs onto node 0, leaving 3 GPUs and
    // 4 CPUs; b (4 GPUs) fills node 1. c (1 GPU, 8 CPUs) waits: node 0 has GPUs enough but
    // 4 < 8 CPUs, so its 3 free GPUs are stranded (counting GPUs alone would say 0).
    Scenario s = twoNodes("n4c");
    JobDef a = test::job("a", 1, 7200), b = test::job("b", 4, 7200), c = test::job("c", 1, 3600);
    a.traits.cpuMilliPerPod = 12000;
    c.traits.cpuMilliPerPod = 8000;
    s.jobs = {a, b, c};
    const Results r = test::run(s);
    CHECK(strandedAt(r, 600) == 3);

    SECTION("a waiting pod that asks no CPU can use them: not stranded") {
        JobDef d = test::job("d", 4, 3600);  // 4 GPUs: fits nowhere, but asks no CPU
        s.jobs.push_back(d);
        // The least CPU any waiting pod asks is 0 (d); the smallest pod is c's 1 GPU, and
        // node 0's 3 free GPUs are no fewer: nothing is stranded by this lower bound.
        CHECK(strandedAt(test::run(s), 600) == 0);
    }
}

TEST_CASE("free GPUs are stranded on a node whose host memory every waiting pod needs more of",
          "[stranded]") {
    // Two n4c nodes (4 GPUs, 64 GiB). a (1 GPU, 60 GiB) packs onto node 0, leaving 3 GPUs and
    // 4 GiB; b (4 GPUs) fills node 1; c (1 GPU, 8 GiB) waits: node 0's 3 free GPUs are stranded.
    Scenario s = twoNodes("n4c");
    JobDef a = test::job("a", 1, 7200), b = test::job("b", 4, 7200), c = test::job("c", 1, 3600);
    a.traits.memoryMiBPerPod = 60 * 1024;
    c.traits.memoryMiBPerPod = 8 * 1024;
    s.jobs = {a, b, c};
    CHECK(strandedAt(test::run(s), 600) == 3);
}

TEST_CASE("only Ready nodes strand GPUs: a cordoned node's free GPUs are not counted",
          "[stranded]") {
    // The CPU case above, with node 0 cordoned at 300 s (a keeps running there): at 600 s its
    // 3 free GPUs are out of scheduling altogether, not stranded by a shortage. 0.
    Scenario s = twoNodes("n4c");
    JobDef a = test::job("a", 1, 7200), b = test::job("b", 4, 7200), c = test::job("c", 1, 3600);
    a.traits.cpuMilliPerPod = 12000;
    c.traits.cpuMilliPerPod = 8000;
    s.jobs = {a, b, c};
    s.nodeEvents = {NodeEventDef{300, Fleet::build(s).nodes[0].name, NodeState::Cordoned}};
    CHECK(strandedAt(test::run(s), 600) == 0);
}

TEST_CASE("stranded GPUs are summed over GPU models", "[stranded]") {
    // Rack 0: one n4 node (tg); rack 1: one big8 node (tg-big). a (3 GPUs, tg) leaves 1 free
    // GPU on the n4 node; b (6 GPUs, tg-big) leaves 2 on the big8 node; c (4 GPUs, tg-big)
    // waits, and the smallest waiting pod is 4 GPUs: the 1 + 2 = 3 free GPUs, on a node of
    // each model, are stranded.
    Scenario s = test::smallFleet(1, 1, "n4");
    RackDef bigRack = s.pods[0].racks[0];
    bigRack.name = "big";
    bigRack.nodes[0].nodeType = "big8";
    s.pods[0].racks.push_back(bigRack);
    test::resolveHardware(s);
    s.horizonS = 4 * 3600.0;
    s.sampleIntervalS = 600;
    JobDef a = test::job("a", 3, 7200), b = test::job("b", 6, 7200), c = test::job("c", 4, 3600);
    a.traits.gpuModel = "tg";
    b.traits.gpuModel = "tg-big";
    c.traits.gpuModel = "tg-big";
    s.jobs = {a, b, c};
    CHECK(strandedAt(test::run(s), 600) == 3);
}
