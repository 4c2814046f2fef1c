#include <catch2/catch.hpp>

#include <bit>
#include <memory>

#include "resources/cluster_state.hpp"
#include "resources/placement.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::detail;

namespace {

/// One pod, racks R0 = {A, B} and R1 = {C, D}, 4 GPUs per node (indices 0..3).
struct FourNodes {
    Scenario scenario = test::smallFleet(2, 2, "n4");
    Fleet fleet = Fleet::build(scenario);
    ClusterState state{fleet};
    std::vector<PodPlacement> out;

    std::vector<std::uint32_t> nodesOf() const {
        std::vector<std::uint32_t> nodes;
        for (const PodPlacement& p : out)
            nodes.push_back(p.node);
        return nodes;
    }
};

PlacementRequest request(int gpusPerPod, int pods) {
    PlacementRequest r;
    r.gpusPerPod = gpusPerPod;
    r.pods = pods;
    return r;
}

}  // namespace

TEST_CASE("pack takes the fullest node that fits, spread the emptiest") {
    FourNodes f;
    // Free GPUs: A 4, B 2, C 1, D 4.
    f.state.occupy(1, 0b0011);
    f.state.occupy(2, 0b0111);

    SECTION("pack, one pod of 2: B has exactly 2 free") {
        REQUIRE(tryPlace(request(2, 1), PlacementPolicy::Pack, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{1});
        CHECK(f.out[0].gpuMask == 0b1100);  // the lowest free slots of B
        CHECK(f.state.freeGpus(1) == 0);
    }
    SECTION("pack, one pod of 1: C has exactly 1 free") {
        REQUIRE(tryPlace(request(1, 1), PlacementPolicy::Pack, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{2});
    }
    SECTION("pack, two pods of 2: B first, then A (lowest index with 4 free; C has too few)") {
        REQUIRE(tryPlace(request(2, 2), PlacementPolicy::Pack, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{1, 0});
    }
    SECTION("spread, one pod of 2: A, the lowest-indexed node with the most free") {
        REQUIRE(tryPlace(request(2, 1), PlacementPolicy::Spread, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{0});
    }
    SECTION("spread, two pods of 1: A then D (A has 3 left, D still 4)") {
        REQUIRE(tryPlace(request(1, 2), PlacementPolicy::Spread, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{0, 3});
    }
}

TEST_CASE("a gang is all or nothing") {
    FourNodes f;
    // Free: A 4, B 2, C 1, D 4 → only two nodes can take a pod of 4.
    f.state.occupy(1, 0b0011);
    f.state.occupy(2, 0b0111);
    const int allocatedBefore = f.state.allocatedGpus();
    CHECK_FALSE(tryPlace(request(4, 3), PlacementPolicy::Pack, f.state, f.out));
    CHECK(f.out.empty());
    CHECK(f.state.allocatedGpus() == allocatedBefore);
    CHECK(f.state.freeGpus(0) == 4);
    CHECK(f.state.freeGpus(3) == 4);
    CHECK(bestPodCapacity(request(4, 3), f.state) == 2);
}

TEST_CASE("topology-aware placement keeps a gang in one rack where pack splits it") {
    FourNodes f;
    // Free: A 4, B 2 (rack R0), C 4, D 4 (rack R1). A gang of 2 pods × 4 GPUs.
    f.state.occupy(1, 0b0011);
    SECTION("pack: A then C, two racks") {
        REQUIRE(tryPlace(request(4, 2), PlacementPolicy::Pack, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{0, 2});
        CHECK(f.fleet.tierOf(f.nodesOf()) == FabricTier::Pod);
    }
    SECTION("topology: R1 is the only rack with room for both pods") {
        REQUIRE(tryPlace(request(4, 2), PlacementPolicy::TopologyAware, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{2, 3});
        CHECK(f.fleet.tierOf(f.nodesOf()) == FabricTier::Rack);
    }
    SECTION("topology: two pods of 2 share one node when one has room for both") {
        REQUIRE(tryPlace(request(2, 2), PlacementPolicy::TopologyAware, f.state, f.out));
        CHECK(f.nodesOf() == std::vector<std::uint32_t>{0, 0});
        CHECK(f.out[0].gpuMask == 0b0011);
        CHECK(f.out[1].gpuMask == 0b1100);
    }
}

TEST_CASE("pins restrict placement to a node, rack or pod") {
    FourNodes f;
    PlacementRequest r = request(2, 1);
    r.pinLevel = PinLevel::Node;
    r.pinIndex = 3;
    REQUIRE(tryPlace(r, PlacementPolicy::Pack, f.state, f.out));
    CHECK(f.nodesOf() == std::vector<std::uint32_t>{3});

    r.pinLevel = PinLevel::Rack;
    r.pinIndex = 1;  // R1 = {C, D}; pack prefers D now (2 free left)
    REQUIRE(tryPlace(r, PlacementPolicy::Pack, f.state, f.out));
    CHECK(f.nodesOf() == std::vector<std::uint32_t>{3});

    r.gpusPerPod = 4;
    r.pinLevel = PinLevel::Node;
    r.pinIndex = 3;  // D has 0 free now
    CHECK_FALSE(tryPlace(r, PlacementPolicy::Pack, f.state, f.out));
}

TEST_CASE("a node that is not Ready takes no pods") {
    FourNodes f;
    for (int n : {0, 1, 2})
        f.state.setState(n, NodeState::Cordoned);
    CHECK(f.state.readyFreeGpus() == 4);
    CHECK(f.state.provisionedGpus() == 16);  // cordoned nodes are still provisioned
    REQUIRE(tryPlace(request(4, 1), PlacementPolicy::Pack, f.state, f.out));
    CHECK(f.nodesOf() == std::vector<std::uint32_t>{3});
    CHECK_FALSE(tryPlace(request(1, 1), PlacementPolicy::Pack, f.state, f.out));
    f.state.setState(0, NodeState::Failed);
    CHECK(f.state.provisionedGpus() == 12);
}

TEST_CASE("pods that fit a histogram of nodes by free GPUs") {
    // One node with each free count 0..8 (hist[f] = 1), plus a second node with 8 free.
    // Pods of 3: nodes with 3..5 free hold 1 each (3), 6..8 hold 2 each (6 + 2 more for the
    // second 8) = 11. Pods of 1: 0+1+…+8 + 8 = 44. Pods of 8: two nodes. Pods of 9: none.
    const int hist[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    CHECK(gpuplan::detail::podCapacity(hist, 9, 3) == 11);
    CHECK(gpuplan::detail::podCapacity(hist, 9, 1) == 44);
    CHECK(gpuplan::detail::podCapacity(hist, 9, 8) == 2);
    CHECK(gpuplan::detail::podCapacity(hist, 9, 9) == 0);
}

namespace {

/// One rack of two nodes of `type` under MPS (48 clients a GPU), with a 600 milli-GPU share
/// on node 0's GPU 0 and a 300 share on node 1's GPU 2.
struct TwoMpsNodes {
    explicit TwoMpsNodes(const std::string& type) : scenario(test::smallFleet(1, 2, type)) {
        scenario.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
        fleet = Fleet::build(scenario);
        state = std::make_unique<ClusterState>(fleet);
        state->occupy(PodPlacement{.node = 0, .milliGpu = 600, .gpuMask = 0b0001}, {});
        state->occupy(PodPlacement{.node = 1, .milliGpu = 300, .gpuMask = 0b0100}, {});
    }
    Scenario scenario;
    Fleet fleet;
    std::unique_ptr<ClusterState> state;
    std::vector<PodPlacement> out;

    /// (node, slot) of each placed pod.
    std::vector<std::pair<std::uint32_t, int>> gpusOf() const {
        std::vector<std::pair<std::uint32_t, int>> gpus;
        for (const PodPlacement& p : out)
            gpus.push_back({p.node, std::countr_zero(p.gpuMask)});
        return gpus;
    }
};

PlacementRequest shares(int milli, int pods, HostDemand host = {}) {
    PlacementRequest r = request(1, pods);
    r.milliGpu = milli;
    r.host = host;
    return r;
}

}  // namespace

TEST_CASE("a gang of shares takes, pod by pod, the GPU a lone pod would") {
    // Room (1000 − used) per GPU: node 0: 400, 1000, 1000, 1000; node 1: 1000, 1000, 700,
    // 1000. Three pods of 300 milli-GPU.
    SECTION("pack: the least room that fits, then look again") {
        // Pod 1: 400 is the least room ≥ 300 → node 0 GPU 0 (100 left). Pod 2: 100 < 300; the
        // least now is node 1 GPU 2 (700 → 400). Pod 3: node 1 GPU 2 again (400 → 100).
        TwoMpsNodes f("n4");
        REQUIRE(tryPlace(shares(300, 3), PlacementPolicy::Pack, *f.state, f.out));
        using G = std::vector<std::pair<std::uint32_t, int>>;
        CHECK(f.gpusOf() == G{{0, 0}, {1, 2}, {1, 2}});
        CHECK(f.state->usedMilli(0, 0) == 900);
        CHECK(f.state->usedMilli(1, 2) == 900);
    }
    SECTION("spread: the most room, ties to the lowest node and GPU") {
        // 1000 on node 0's GPUs 1–3 and node 1's 0, 1, 3: node 0 GPU 1 (→ 700), then GPU 2,
        // then GPU 3.
        TwoMpsNodes f("n4");
        REQUIRE(tryPlace(shares(300, 3), PlacementPolicy::Spread, *f.state, f.out));
        using G = std::vector<std::pair<std::uint32_t, int>>;
        CHECK(f.gpusOf() == G{{0, 1}, {0, 2}, {0, 3}});
    }
}

TEST_CASE("a gang of shares leaves a node whose CPU it used up") {
    // The same GPUs on n4c nodes (16 CPUs each; the 600 and 300 shares asked none). Pods
    // of 300 milli-GPU and 12 CPUs: one pod a node. Pack: pod 1 on node 0 GPU 0 (400 room);
    // node 0 then has 4 CPUs left, too few, though its GPUs 1–3 have room: pod 2 on node 1
    // GPU 2 (700). A third pod has no node: the gang of 3 does not fit, and nothing stays
    // placed.
    const HostDemand cpu{.cpuMilli = 12000};
    SECTION("two pods fit") {
        TwoMpsNodes f("n4c");
        REQUIRE(tryPlace(shares(300, 2, cpu), PlacementPolicy::Pack, *f.state, f.out));
        using G = std::vector<std::pair<std::uint32_t, int>>;
        CHECK(f.gpusOf() == G{{0, 0}, {1, 2}});
        CHECK(f.state->freeCpuMilli(0) == 4000);
    }
    SECTION("three do not, and nothing is left placed") {
        TwoMpsNodes f("n4c");
        CHECK_FALSE(tryPlace(shares(300, 3, cpu), PlacementPolicy::Pack, *f.state, f.out));
        CHECK(f.out.empty());
        CHECK(f.state->usedMilli(0, 0) == 600);
        CHECK(f.state->usedMilli(1, 2) == 300);
        CHECK(f.state->freeCpuMilli(0) == 16000);
    }
}
