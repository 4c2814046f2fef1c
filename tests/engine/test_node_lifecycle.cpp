// Draining, repairing and hot spares (NodeState::Draining / Repairing, FailureDef::
// hotSpareNodes): a draining node takes no new pods, keeps its running ones and goes to
// Repairing when the last leaves; a repairing node holds nothing; a hot spare waits Cordoned
// and takes a failed node's place at once, and the failed node, repaired, becomes the spare.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {

std::string nodeOf(const Results& r, std::uint32_t job) {
    return r.fleet.nodes[r.placementOf(r.segments[r.jobs[job].lastSegment])[0].node].name;
}

bool hasChange(const Results& r, double timeS, const std::string& node, NodeState state,
               NodeChangeCause cause) {
    for (const NodeStateChange& c : r.nodeChanges)
        if (c.timeS == timeS && r.fleet.nodes[c.node].name == node && c.state == state &&
            c.cause == cause)
            return true;
    return false;
}

}  // namespace

TEST_CASE("a draining node finishes its jobs, takes no new ones, then is repaired", "[lifecycle]") {
    // Two 8-GPU nodes. a (8 GPUs, 2 h) at 0 on node0. node0 drains from 1 h: a runs on to
    // 2 h (not evicted), then node0 goes to Repairing; b (8 GPUs, 1 h) at 1 h goes to node1;
    // c (8 GPUs, 1 h) at 1.5 h finds node1 busy and node0 draining: it waits for b (2 h).
    // node0 is back Ready at 3 h.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.jobs = {job("a", 8, 7200, 0), job("b", 8, 3600, 3600), job("c", 8, 3600, 5400)};
    s.nodeEvents = {{3600, "pod-rack-node0", NodeState::Draining},
                    {10800, "pod-rack-node0", NodeState::Ready}};
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a"), b = jobIndex(r, "b"), c = jobIndex(r, "c");
    CHECK(r.jobs[a].endS == 7200);
    CHECK(r.jobs[a].segmentCount == 1);
    CHECK(r.jobs[a].status == JobStatus::Completed);
    CHECK(nodeOf(r, b) == "pod-rack-node1");
    CHECK(r.jobs[c].firstStartS == 7200);
    CHECK(nodeOf(r, c) == "pod-rack-node1");
    CHECK(hasChange(r, 3600, "pod-rack-node0", NodeState::Draining, NodeChangeCause::Scheduled));
    CHECK(hasChange(r, 7200, "pod-rack-node0", NodeState::Repairing, NodeChangeCause::DrainDone));
    CHECK(hasChange(r, 10800, "pod-rack-node0", NodeState::Ready, NodeChangeCause::Scheduled));
}

TEST_CASE("an empty node drains at once; a repairing node evicts what it held", "[lifecycle]") {
    // node1 is empty at 1 h: Draining then Repairing at the same instant. a on node0 is
    // evicted when node0 goes to Repairing at 2 h, and queues (node1 repairing too) until
    // node1 is Ready at 3 h: it restarts there from scratch (no checkpoints), ends at 3 h + 4 h.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.jobs = {job("a", 8, 4 * 3600.0, 0)};
    s.horizonS = 86400;
    s.nodeEvents = {{3600, "pod-rack-node1", NodeState::Draining},
                    {7200, "pod-rack-node0", NodeState::Repairing},
                    {10800, "pod-rack-node1", NodeState::Ready}};
    const Results r = test::run(s);
    CHECK(hasChange(r, 3600, "pod-rack-node1", NodeState::Repairing, NodeChangeCause::DrainDone));
    const std::uint32_t a = jobIndex(r, "a");
    CHECK(r.jobs[a].segmentCount == 2);
    CHECK(r.interruptionsOf(a).restarts == 1);
    CHECK(r.jobs[a].endS == 10800 + 4 * 3600.0);
    CHECK(nodeOf(r, a) == "pod-rack-node1");
}

TEST_CASE("a hot spare takes a failed node's place; the repaired node becomes the spare",
          "[lifecycle]") {
    // Two 8-GPU nodes, one hot spare: node1 (the last) waits Cordoned. a and b (8 GPUs, 4 h)
    // at 0: a on node0, b waits (the spare is not for work). node0 fails at 1 h: node1 comes
    // in at once and a (first in queue order) restarts there, from scratch: ends 1 h + 4 h.
    // node0 is repaired at 2 h and becomes the spare (Cordoned), so b waits for a: 5 h.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.horizonS = 86400;
    s.failures = FailureDef{1e9, 3600, 1};  // failures so rare that none is drawn
    s.jobs = {job("a", 8, 4 * 3600.0, 0), job("b", 8, 4 * 3600.0, 0)};
    s.nodeEvents = {{3600, "pod-rack-node0", NodeState::Failed},
                    {7200, "pod-rack-node0", NodeState::Ready}};
    const Results r = test::run(s);
    CHECK(r.fleet.nodes[1].spare);
    const std::uint32_t a = jobIndex(r, "a"), b = jobIndex(r, "b");
    CHECK(hasChange(r, 3600, "pod-rack-node1", NodeState::Ready, NodeChangeCause::SpareIn));
    CHECK(hasChange(r, 7200, "pod-rack-node0", NodeState::Cordoned, NodeChangeCause::SpareOut));
    CHECK(nodeOf(r, a) == "pod-rack-node1");
    CHECK(r.jobs[a].endS == 5 * 3600.0);
    CHECK(r.jobs[b].firstStartS == 5 * 3600.0);
    // Without the spare, b starts at once on node1, and a waits for node0's repair (2 h).
    s.failures->hotSpareNodes = 0;
    const Results none = test::run(s);
    CHECK(none.jobs[jobIndex(none, "b")].firstStartS == 0);
    CHECK(none.jobs[jobIndex(none, "a")].endS == 7200 + 4 * 3600.0);
}

TEST_CASE("more hot spares than nodes are refused", "[lifecycle][input]") {
    Scenario s = test::smallFleet(1, 2, "n8");
    s.failures = FailureDef{1e9, 3600, 3};
    try {
        (void)parseScenario(scenarioToJson(s), "spares.json", test::testCatalog());
        FAIL("accepted 3 spares on 2 nodes");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("/failures/hotSpareNodes") &&
                                 Catch::Contains("more than the fleet's 2 nodes"));
    }
    s.failures->hotSpareNodes = 1;
    const Scenario back = parseScenario(scenarioToJson(s), "spares.json", test::testCatalog());
    CHECK(back.failures->hotSpareNodes == 1);
}
