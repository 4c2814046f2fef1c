// Impossible pins are refused when a scenario is read (and so on every edit the application
// checks with validateScenario), judged against the fleet as bought: every node empty and
// healthy, whatever its state at t = 0.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

// One pod of two racks of two 8-GPU "n8" nodes: 16 GPUs per rack, 32 in the pod.
Scenario twoRacksOfTwoN8() {
    Scenario s = test::smallFleet(2, 2, "n8");
    test::resolveHardware(s);
    return s;
}

JobDef pinned(const std::string& name, int gpus, int gpusPerPod, PinLevel level,
              const std::string& target) {
    JobDef j = test::job(name, gpus, 600, 0, gpusPerPod);
    j.traits.pin = {level, target};
    return j;
}

JobClassDef pinnedClass(const std::string& name, DistributionDef gpus, int gpusPerPod,
                        const std::string& rack) {
    JobClassDef c;
    c.name = name;
    c.traits.team = "t";
    c.traits.gpusPerPod = gpusPerPod;
    c.traits.pin = {PinLevel::Rack, rack};
    c.arrival.ratePerHour = 1;
    c.gpus = gpus;
    c.durationS.value = 600;
    return c;
}

DistributionDef uniform(double low, double high) {
    DistributionDef d;
    d.kind = DistKind::Uniform;
    d.low = low;
    d.high = high;
    return d;
}

/// The message validateScenario refuses `s` with, or "" when it accepts it.
std::string refusal(const Scenario& s) {
    try {
        validateScenario(s, test::testCatalog());
    } catch (const InputError& e) {
        return std::string(e.place()) + ": " + e.message();
    }
    return "";
}

}  // namespace

TEST_CASE("a pinned job the target can never hold is refused with the reason") {
    Scenario s = twoRacksOfTwoN8();
    SECTION("more GPUs per pod than the node has: 16 > 8") {
        s.jobs = {pinned("wide", 16, 16, PinLevel::Node, "pod-rack0-node1")};
        CHECK(refusal(s) ==
              "/jobs/0: job \"wide\" can never run on node \"pod-rack0-node1\": it "
              "asks 16 GPUs per pod and the node has 8");
    }
    SECTION("more pods than the rack holds: 4 pods of 8 on two 8-GPU nodes hold 2") {
        s.jobs = {test::job("ok", 1, 60), pinned("gang", 32, 8, PinLevel::Rack, "pod-rack1")};
        CHECK(refusal(s) ==
              "/jobs/1: job \"gang\" can never run on rack \"pod-rack1\": it asks 32 GPUs (4 pods "
              "of 8) and, even empty and healthy, the rack holds 2 such pods (16 GPUs)");
    }
    SECTION("17 GPUs, automatic pods: 17 is prime, so 17 pods of 1; the rack holds 16") {
        s.jobs = {pinned("prime", 17, 0, PinLevel::Rack, "pod-rack0")};
        CHECK_THAT(refusal(s), Catch::EndsWith("it asks 17 GPUs (17 pods of 1) and, even empty "
                                               "and healthy, the rack holds 16 such pods (16 "
                                               "GPUs)"));
    }
    SECTION("a GPU model no node of the target has") {
        s.jobs = {pinned("big", 8, 8, PinLevel::Node, "pod-rack0-node0")};
        s.jobs[0].traits.gpuModel = "tg-big";
        CHECK(refusal(s) ==
              "/jobs/0: job \"big\" can never run on node \"pod-rack0-node0\": it "
              "asks GPU model tg-big and the node has tg");
        s.jobs[0].traits.pin = {PinLevel::Pod, "pod"};
        CHECK_THAT(refusal(s),
                   Catch::EndsWith("it asks GPU model tg-big and no node there has it"));
    }
}

TEST_CASE("a pin the target can hold stays valid, whatever the node states at t = 0") {
    Scenario s = twoRacksOfTwoN8();
    SECTION("exactly the rack: 2 pods of 8 on two 8-GPU nodes") {
        s.jobs = {pinned("fits", 16, 8, PinLevel::Rack, "pod-rack0")};
        CHECK(refusal(s).empty());
    }
    SECTION("a node still Provisioning at t = 0 (delivered later) holds its 8 GPUs") {
        RackDef& rack = s.pods[0].racks[0];
        rack.nodes[0].state = NodeState::Provisioning;
        rack.nodes[0].readyAtS = 3600;
        s.jobs = {pinned("early", 8, 8, PinLevel::Node, "pod-rack0-node0")};
        CHECK(refusal(s).empty());
    }
    SECTION("a node that fails at t = 0 is still bought") {
        s.nodeEvents = {{0, "pod-rack0", NodeState::Failed}};
        s.jobs = {pinned("wait", 16, 8, PinLevel::Rack, "pod-rack0")};
        CHECK(refusal(s).empty());
    }
}

TEST_CASE("a pinned job class is refused only when no size it draws fits") {
    Scenario s = twoRacksOfTwoN8();
    SECTION("24 to 64 GPUs in pods of 8: even the smallest, 3 pods, is more than the rack's 2") {
        s.jobClasses = {pinnedClass("gang", uniform(24, 64), 8, "pod-rack0")};
        CHECK(refusal(s) ==
              "/jobClasses/0: job class \"gang\" can never run on rack "
              "\"pod-rack0\": it draws no size that fits: its smallest job asks 24 "
              "GPUs (3 pods of 8) and, even empty and healthy, the rack holds 2 such "
              "pods (16 GPUs)");
    }
    SECTION("8 to 64 GPUs in pods of 8: the small ones fit") {
        s.jobClasses = {pinnedClass("mixed", uniform(8, 64), 8, "pod-rack0")};
        CHECK(refusal(s).empty());
    }
    SECTION("15 or 16 GPUs, automatic pods: 15 = 3 pods of 5 never fits, 16 = 2 pods of 8 does") {
        s.jobClasses = {pinnedClass("odd", uniform(15, 16), 0, "pod-rack0")};
        CHECK(refusal(s).empty());
    }
}
