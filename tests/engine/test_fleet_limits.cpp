// The fleet-size rule (checkFleetSize) that the reader, the app's fleet edits and Fleet::build
// share, and the generated-name rule (indexedName).
#include <catch2/catch.hpp>
#include <climits>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

TEST_CASE("Fleet size is counted from the definitions") {
    // 3 pods × (2 racks × 5 n8 nodes + 1 rack × 2 n4 nodes):
    //   nodes = 3 · (10 + 2) = 36, GPUs = 3 · (10 · 8 + 2 · 4) = 3 · 88 = 264.
    Scenario s = test::smallFleet(2, 5, "n8");
    s.pods[0].count = 3;
    RackDef small;
    small.name = "small";
    small.nodes = {NodeGroupDef{}};
    small.nodes[0].count = 2;
    small.nodes[0].nodeType = "n4";
    s.pods[0].racks.push_back(small);
    test::resolveHardware(s);
    const FleetSizeCheck c = checkFleetSize(s);
    CHECK(c.nodes == 36);
    CHECK(c.gpus == 264);
    CHECK(c.refusal.empty());
    CHECK(c.pod == -1);
    const Fleet f = Fleet::build(s);
    CHECK(static_cast<long long>(f.nodes.size()) == c.nodes);
    CHECK(f.totalGpus == c.gpus);
}

TEST_CASE("A fleet past the node limit is refused without being built") {
    // fleet-10k's shape with 100000 pods: 100000 × 10 racks × 25 nodes = 25,000,000 nodes,
    // which Fleet::build would have allocated (> 6 GB) before anything said no.
    Scenario s = test::smallFleet(10, 25, "n8");
    s.pods[0].count = 100000;
    const FleetSizeCheck c = checkFleetSize(s);
    CHECK(c.nodes == 25'000'000);
    CHECK(c.refusal == "the fleet would have 25,000,000 nodes; at most 200,000");
    CHECK_THROWS_WITH(Fleet::build(s), "the fleet would have 25,000,000 nodes; at most 200,000");

    // Just past the limit: 8001 pods × 1 rack × 25 one-GPU nodes = 200,025 nodes.
    Scenario edge = test::smallFleet(1, 25, "n1");
    edge.pods[0].count = 8001;
    CHECK_THROWS_WITH(Fleet::build(edge), "the fleet would have 200,025 nodes; at most 200,000");
    edge.pods[0].count = 8000;  // 200,000 nodes exactly: allowed
    CHECK(checkFleetSize(edge).refusal.empty());
}

TEST_CASE("A fleet past the GPU limit is refused") {
    // 12501 pods × 1 rack × 10 n8 nodes = 125,010 nodes (fine) × 8 = 1,000,080 GPUs (> 1M).
    Scenario s = test::smallFleet(1, 10, "n8");
    s.pods[0].count = 12501;
    const FleetSizeCheck c = checkFleetSize(s);
    CHECK(c.nodes == 125'010);
    CHECK(c.gpus == 1'000'080);
    CHECK(c.refusal == "the fleet would have 1,000,080 GPUs; at most 1,000,000");
    CHECK_THROWS_WITH(Fleet::build(s), "the fleet would have 1,000,080 GPUs; at most 1,000,000");
}

TEST_CASE("The size check names the first node group past a limit and never overflows") {
    // Pod 0 is small (1 × 1 × 1 node); pod 1's first group alone is INT_MAX³ nodes, which
    // overflows 64 bits unless the count saturates.
    Scenario s = test::smallFleet(1, 1, "n8");
    PodDef huge = s.pods[0];
    huge.name = "huge";
    huge.count = INT_MAX;
    huge.racks[0].count = INT_MAX;
    huge.racks[0].nodes[0].count = INT_MAX;
    s.pods.push_back(huge);
    const FleetSizeCheck c = checkFleetSize(s);
    CHECK(c.nodes > InputLimits::maxNodes);
    CHECK(c.gpus > InputLimits::maxGpus);
    CHECK(c.pod == 1);
    CHECK(c.rack == 0);
    CHECK(c.group == 0);
    CHECK(c.refusal.find("nodes; at most 200,000") != std::string::npos);
}

TEST_CASE("Generated names carry an index only when there are several copies") {
    CHECK(indexedName("rack", 1, 0) == "rack");
    CHECK(indexedName("rack", 3, 0) == "rack0");
    CHECK(indexedName("rack", 3, 2) == "rack2");
}
