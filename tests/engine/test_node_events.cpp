#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

TEST_CASE("a failed node evicts its jobs; they queue again and restart from scratch") {
    // Two nodes of 4 GPUs. "a" (4 GPUs, 1000 s) starts on node0 at 0. Node0 fails at 100 and
    // is repaired at 500. "a" restarts on node1 at 100 and ends at 1100. Its first 100 s
    // (4 × 100 GPU-s) were lost: goodput = 4·1000 / (4·100 + 4·1000) = 4000/4400.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.sampleIntervalS = 50;
    s.horizonS = 2000;
    s.jobs = {job("a", 4, 1000)};
    s.nodeEvents = {{100, "pod-rack-node0", NodeState::Failed},
                    {500, "pod-rack-node0", NodeState::Ready}};
    const Results r = test::run(s);
    const JobRecord& a = r.jobs[jobIndex(r, "a")];
    CHECK(a.firstStartS == 0);
    CHECK(a.segmentCount == 2);
    CHECK(a.endS == 1100);
    CHECK(a.status == JobStatus::Completed);
    REQUIRE(r.segments.size() == 2);
    CHECK(r.segments[0].end == SegmentEnd::Evicted);
    CHECK(r.segments[0].endS == 100);
    CHECK(r.fleet.nodes[r.placementOf(r.segments[1])[0].node].name == "pod-rack-node1");
    CHECK(r.kpi("goodput") == Approx(4000.0 / 4400.0));
    // Provisioned GPUs: 8, then 4 while node0 is down (samples at 100..450), then 8 again.
    const Series* provisioned = r.findSeries("provisioned_gpus");
    CHECK(provisioned->values[1] == 8);   // t = 50
    CHECK(provisioned->values[2] == 4);   // t = 100
    CHECK(provisioned->values[9] == 4);   // t = 450
    CHECK(provisioned->values[10] == 8);  // t = 500
    // The node's state at 300 is Failed; at 600 Ready again.
    CHECK(r.stateAt(300).nodeStates[0] == NodeState::Failed);
    CHECK(r.stateAt(600).nodeStates[0] == NodeState::Ready);
}

TEST_CASE("a cordoned node keeps its jobs but takes no new ones") {
    // "a" runs on node0 (2 of 4 GPUs). Node0 is cordoned at 10. "b" (2 GPUs) arrives at 20:
    // pack would choose node0 (2 free), but it is unschedulable, so b lands on node1.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobs = {job("a", 2, 1000), job("b", 2, 100, 20)};
    s.nodeEvents = {{10, "pod-rack-node0", NodeState::Cordoned}};
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "a")].endS == 1000);
    CHECK(r.jobs[jobIndex(r, "a")].segmentCount == 1);
    const JobRecord& b = r.jobs[jobIndex(r, "b")];
    CHECK(b.firstStartS == 20);
    CHECK(r.fleet.nodes[r.placementOf(r.segments[b.lastSegment])[0].node].name == "pod-rack-node1");
}

TEST_CASE("a node event may name a whole rack") {
    Scenario s = test::smallFleet(2, 2, "n4");
    s.nodeEvents = {{0, "pod-rack1", NodeState::Failed}};
    s.jobs = {job("late", 1, 60, 5)};
    const Results r = test::run(s);
    CHECK(r.findSeries("provisioned_gpus")->values[1] == 8);  // 16 minus rack1's 2 × 4
}

TEST_CASE("a node failing at the instant a job completes does not take its work") {
    // The job ends at 1000 exactly when its node fails: releases come first at equal times.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("a", 4, 1000)};
    s.nodeEvents = {{1000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.jobs[0].status == JobStatus::Completed);
    CHECK(r.jobs[0].endS == 1000);
    CHECK(r.kpi("goodput") == 1.0);
}

TEST_CASE("an evicted job that cannot restart is pending, not running") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("a", 4, 5000)};
    s.nodeEvents = {{1000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.jobs[0].status == JobStatus::Pending);
    CHECK(r.kpi("jobs_waiting_at_end") == 1);
    CHECK(r.kpi("jobs_started") == 1);  // it did start once
}

TEST_CASE("a delivery does not revive a node that failed before it arrived") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.pods[0].racks[0].nodes[0].state = NodeState::Provisioning;
    s.pods[0].racks[0].nodes[0].readyAtS = 1000;
    s.nodeEvents = {{500, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.stateAt(2000).nodeStates[0] == NodeState::Failed);
}
