#include <catch2/catch.hpp>

#include "gpuplan/scheduling/fit_check.hpp"
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

TEST_CASE("checkFit and the run agree on node states when node events are listed out of order") {
    // Two 4-GPU nodes. "node" fails at 300 and is repaired at 600, but the scenario lists the
    // repair first. In time order it is Ready before 300, Failed from 300 to 600, Ready
    // after. (Applied in list order, the failure would win at every time after 600.)
    // "late" is delivered at 200 and cordoned at 100: the cordon comes first, so the
    // delivery does not make it Ready; it stays Cordoned.
    Scenario s = test::smallFleet(1, 1, "n4");
    NodeGroupDef late = s.pods[0].racks[0].nodes[0];
    late.name = "late";
    late.state = NodeState::Provisioning;
    late.readyAtS = 200;
    s.pods[0].racks[0].nodes.push_back(late);
    s.nodeEvents = {{600, "pod-rack-node", NodeState::Ready},
                    {300, "pod-rack-node", NodeState::Failed},
                    {100, "pod-rack-late", NodeState::Cordoned}};
    const Results r = test::run(s);
    JobDef onNode0 = test::job("drop", 4, 60);
    onNode0.traits.pin = {PinLevel::Node, "pod-rack-node"};
    JobDef onNode1 = onNode0;
    onNode1.traits.pin = {PinLevel::Node, "pod-rack-late"};
    struct Expected {
        double timeS;
        NodeState node0, node1;
    };
    for (const Expected& e : {Expected{50, NodeState::Ready, NodeState::Provisioning},
                              Expected{250, NodeState::Ready, NodeState::Cordoned},
                              Expected{450, NodeState::Failed, NodeState::Cordoned},
                              Expected{700, NodeState::Ready, NodeState::Cordoned}}) {
        INFO("t = " << e.timeS);
        const ClusterSnapshot at = r.stateAt(e.timeS);
        CHECK(at.nodeStates[0] == e.node0);
        CHECK(at.nodeStates[1] == e.node1);
        // The drop check sees the same: a job pinned to a node fits its Ready capacity only
        // when the node is Ready.
        CHECK((checkFit(s, onNode0, e.timeS).layer == Layer::Scheduling) ==
              (e.node0 == NodeState::Ready));
        CHECK((checkFit(s, onNode1, e.timeS).layer == Layer::Scheduling) ==
              (e.node1 == NodeState::Ready));
    }
}
