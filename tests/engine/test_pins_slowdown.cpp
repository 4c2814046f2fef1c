#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {
std::vector<std::string> nodesOf(const Results& r, const std::string& name) {
    const JobRecord& j = r.jobs[jobIndex(r, name)];
    std::vector<std::string> nodes;
    for (const PodPlacement& p : r.placementOf(r.segments[j.lastSegment]))
        nodes.push_back(r.fleet.nodes[p.node].name);
    return nodes;
}
}  // namespace

TEST_CASE("pinned placements are honoured") {
    // 2 racks × 2 nodes of 4 GPUs: pod-rack0-node0/1, pod-rack1-node0/1.
    Scenario s = test::smallFleet(2, 2, "n4");
    s.jobs = {job("on-node", 2, 600), job("in-rack", 4, 600), job("in-pod", 4, 600)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack1-node1"};
    s.jobs[1].traits.pin = {PinLevel::Rack, "pod-rack1"};
    s.jobs[2].traits.pin = {PinLevel::Pod, "pod"};
    const Results r = test::run(s);
    // Pack would otherwise put the 2-GPU job on the first node.
    CHECK(nodesOf(r, "on-node") == std::vector<std::string>{"pod-rack1-node1"});
    // In rack 1, node1 has only 2 free left, so the 4-GPU job takes node0 there.
    CHECK(nodesOf(r, "in-rack") == std::vector<std::string>{"pod-rack1-node0"});
    CHECK(nodesOf(r, "in-pod") == std::vector<std::string>{"pod-rack0-node0"});
}

TEST_CASE("a pinned job waits for its node even when others are free") {
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobs = {job("holder", 4, 1000), job("pinned", 4, 100, 10)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "pinned")].firstStartS == 1000);
    CHECK(nodesOf(r, "pinned") == std::vector<std::string>{"pod-rack-node0"});
}

TEST_CASE("a job that fits one node but lands across two racks runs slower") {
    // Two racks of one 8-GPU node. Blockers hold 4 GPUs on each node. A job of 8 GPUs in pods
    // of 4 fits one node (needed tier: NVLink, 450 GB/s per GPU) but can only run as one pod
    // per rack (actual tier: pod spine, 50 GB/s). With topologySensitivity 0.1:
    //   slowdown = 1 + 0.1·(450/50 − 1) = 1.8, so 1000 s of work takes 1800 s.
    Scenario s = test::smallFleet(2, 1, "n8");
    s.jobs = {job("block-a", 4, 10000), job("block-b", 4, 10000), job("split", 8, 1000, 1, 4)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack0-node"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack1-node"};
    s.jobs[2].traits.topologySensitivity = 0.1;
    const Results r = test::run(s);
    const JobRecord& j = r.jobs[jobIndex(r, "split")];
    CHECK(j.firstStartS == 1);
    CHECK(j.slowdown == Approx(1.8));
    CHECK(j.endS == Approx(1801));
    CHECK(r.segments[j.lastSegment].tier == FabricTier::Pod);
    // Useful work is the ideal 8 × 1000 GPU-s; the other 8 × 800 were spent waiting on the
    // network, so goodput = (blockers' 2·4·10000 + 8000) / (80000 + 14400) = 88000/94400.
    CHECK(r.kpi("goodput") == Approx(88000.0 / 94400.0));
}

TEST_CASE("the same job on one node is not slowed") {
    Scenario s = test::smallFleet(2, 1, "n8");
    s.jobs = {job("whole", 8, 1000, 0, 4)};
    s.jobs[0].traits.topologySensitivity = 0.1;
    const Results r = test::run(s);
    CHECK(r.jobs[0].slowdown == 1);
    CHECK(r.jobs[0].endS == 1000);
}

TEST_CASE("a pinned job that cannot fit does not hold back a like one pinned elsewhere") {
    // Pinned jobs are grouped by shape and target: "a" (2 GPUs on node0, held by "holder"
    // until 1,000 s) fails, and "b" (2 GPUs on node1, empty) must still be tried and start
    // at 10: a failure only covers jobs of the same target. Then "c" (3 GPUs on node0) is
    // covered by "a"'s failure and waits too; it starts when "a" has taken 2 of node0's 4 GPUs
    // and finished (1,000 + 100 = 1,100: 3 GPUs do not fit beside "a").
    Scenario s = test::smallFleet(1, 2);
    s.jobs = {job("holder", 4, 1000), job("a", 2, 100, 10), job("b", 2, 100, 10),
              job("c", 3, 100, 10)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    s.jobs[2].traits.pin = {PinLevel::Node, "pod-rack-node1"};
    s.jobs[3].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    const Results r = simulate(s);
    CHECK(r.jobs[jobIndex(r, "a")].firstStartS == 1000);
    CHECK(r.jobs[jobIndex(r, "b")].firstStartS == 10);
    CHECK(r.jobs[jobIndex(r, "c")].firstStartS == 1100);
}
