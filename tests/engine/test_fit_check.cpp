#include <catch2/catch.hpp>

#include "gpuplan/fit_check.hpp"
#include "test_support.hpp"

using namespace gpuplan;

TEST_CASE("checkFit judges a pinned job against the fleet alone") {
    // Two racks of two 4-GPU nodes; rack1's nodes are delivered at t = 1000.
    Scenario s = test::smallFleet(2, 2, "n4");
    s.nodeEvents = {{0, "pod-rack1", NodeState::Provisioning},
                    {1000, "pod-rack1", NodeState::Ready}};
    s.jobs = {test::job("busy", 16, 99999)};  // other jobs are ignored

    JobDef j = test::job("drop", 8, 600, 0, 4);
    SECTION("a gang of 2 × 4 on one 4-GPU node can never fit: reservation") {
        j.traits.pin = {PinLevel::Node, "pod-rack0-node0"};
        const FitVerdict v = checkFit(s, j, 0);
        CHECK_FALSE(v.canEverFit);
        CHECK(v.layer == Layer::Reservation);
        CHECK_THAT(v.reason, Catch::Contains("node pod-rack0-node0 holds 1 of the 2 pods"));
    }
    SECTION("the same gang in rack 0 fits the Ready capacity") {
        j.traits.pin = {PinLevel::Rack, "pod-rack0"};
        const FitVerdict v = checkFit(s, j, 0);
        CHECK(v.canEverFit);
        CHECK(v.layer == Layer::Scheduling);
        CHECK(v.reason.empty());
    }
    SECTION("in rack 1 before delivery: provisioning; after: fits") {
        j.traits.pin = {PinLevel::Rack, "pod-rack1"};
        const FitVerdict before = checkFit(s, j, 500);
        CHECK(before.canEverFit);
        CHECK(before.layer == Layer::Provisioning);
        CHECK_THAT(before.reason,
                   Catch::Contains("0 of 8 bought GPUs in rack pod-rack1 are Ready"));
        CHECK(checkFit(s, j, 1000).layer == Layer::Scheduling);
    }
}
