// Defragmentation what-if (gpuplan/resources/placeable.hpp defragWhatIf): repacks worked out by
// hand.
#include <catch2/catch.hpp>

#include "gpuplan/resources/placeable.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::test;

namespace {

/// 2 racks × 2 nodes × 8 GPUs; four 2-GPU jobs submitted at 0, 10, 20, 30 s, spread by the
/// scheduler onto one node each (spread: the most free GPUs, ties to the lowest node):
/// a → rack0-node0 {0,1}, b → rack0-node1, c → rack1-node0, d → rack1-node1.
/// b, c and d take 60 s to start up.
Results scatteredRun() {
    Scenario s = smallFleet(2, 2, "n8");
    s.scheduler.placement = PlacementPolicy::Spread;
    s.jobs = {job("a", 2, 20000, 0), job("b", 2, 20000, 10), job("c", 2, 20000, 20),
              job("d", 2, 20000, 30)};
    for (int i = 1; i < 4; ++i)
        s.jobs[i].traits.startupS = 60;
    return run(s);
}

}  // namespace

TEST_CASE("defrag: four scattered 2-GPU jobs repack onto one node") {
    const Results r = scatteredRun();
    for (DefragPolicy policy : {DefragPolicy::Pack, DefragPolicy::BestFit, DefragPolicy::Fgd}) {
        INFO(toString(policy));
        const DefragWhatIf w = defragWhatIf(r, 3600, policy);
        CHECK(w.runningJobs == 4);
        // Before: 6 free on every node. No node, rack or pod has 8 free GPUs on one node.
        CHECK(w.before.freeGpus == 24);
        CHECK(w.before.slotsFor(SlotLevel::Node, 8) == 0);
        CHECK(w.before.slotsFor(SlotLevel::Fleet, 8) == 0);
        for (int l = 0; l < kSlotLevelCount; ++l)
            CHECK(w.before.largestGangGpus[l] == 6);
        // Repack, all 2 GPUs, in start order: a, b, c, d. Pack takes the node with the fewest
        // free GPUs that fit (ties: lowest node); BestFit the least residual; FGD sees no
        // fragment for a 2-GPU workload on whole free GPUs, so equal scores and the lowest
        // node: each puts a, b, c, d on rack0-node0 at GPUs {0,1}, {2,3}, {4,5}, {6,7}.
        // The four nodes are alike, so the node holding all four can be any of them, and its
        // GPUs renumbered: one job can stay, best the one with the most at stake per GPU —
        // run time so far + startup paid again: a 3600 s, b 3590 + 60 = 3650 s,
        // c 3580 + 60 = 3640 s, d 3570 + 60 = 3630 s. b stays; a, c and d move.
        CHECK(w.keptJobs == 1);
        REQUIRE(w.moved.size() == 3);
        CHECK(w.unplaced.empty());
        CHECK(r.jobName(w.moved[0].job) == "a");
        CHECK(r.jobName(w.moved[1].job) == "c");
        CHECK(r.jobName(w.moved[2].job) == "d");
        CHECK(w.moved[0].gpus == 2);
        CHECK(w.moved[0].doneS == 3600);
        CHECK(w.moved[0].startupS == 0);
        CHECK(w.moved[1].doneS == 3600 - 20);
        CHECK(w.moved[1].startupS == 60);
        // Restarted: 2 GPUs × (3600 + 3640 + 3630) s = 2 × 10,870 GPU-s = 6.0389 GPU-h.
        CHECK(w.restartedGpuHours == Approx(21740.0 / 3600));
        // After: three whole free nodes (b's node holds all four; which one does not change
        // any count: racks of 2 nodes, one pod).
        CHECK(w.after.freeGpus == 24);
        CHECK(w.after.slotsFor(SlotLevel::Node, 8) == 3);
        // 16 = 2 whole nodes: only the rack without b has two → 1; the pod has 3 → ⌊3 / 2⌋ = 1.
        CHECK(w.after.slotsFor(SlotLevel::Rack, 16) == 1);
        CHECK(w.after.slotsFor(SlotLevel::Pod, 16) == 1);
        CHECK(w.after.largest(SlotLevel::Node) == 8);
        CHECK(w.after.largest(SlotLevel::Rack) == 16);
        CHECK(w.after.largest(SlotLevel::Pod) == 24);  // 3 whole nodes in the pod
        CHECK(w.after.largest(SlotLevel::Fleet) == 24);
    }
}

TEST_CASE("defrag: spread re-places the scattered jobs where they are, nothing restarts") {
    // Spread repacks a → rack0-node0 {0,1}, then b, c, d each onto the next node with 8 free:
    // exactly the GPUs they hold, so every job is kept and the table does not change.
    const Results r = scatteredRun();
    const DefragWhatIf w = defragWhatIf(r, 3600, DefragPolicy::Spread);
    CHECK(w.keptJobs == 4);
    CHECK(w.moved.empty());
    CHECK(w.restartedGpuHours == 0);
    CHECK(w.after.slotCounts == w.before.slotCounts);
    CHECK(w.after.largestGangGpus == w.before.largestGangGpus);
}

TEST_CASE("defrag: a pinned job the repack leaves no room for is reported, not dropped") {
    // One rack: node "a" (8 × tg) and node "b" (8 × tg-big), pack. t=0: P (4, pinned a) → a
    // {0-3}. t=1: U (6, any model) → the only node with 6 free: b {0-5}. t=2: Q (4, pinned a)
    // → a {4-7}. Repack, largest first: U → both nodes have 8 free, the first model (tg) wins
    // the tie → a {0-5}; P and Q (pinned to a, 2 free) cannot be placed. a and b are not
    // alike (other GPU model), so no renumbering moves U back, and the second try fails too.
    Scenario s = smallFleet(1, 1, "n8");
    NodeGroupDef a = s.pods[0].racks[0].nodes[0];
    a.name = "a";
    NodeGroupDef b = a;
    b.name = "b";
    b.nodeType = "big8";
    s.pods[0].racks[0].nodes = {a, b};
    resolveHardware(s);
    s.jobs = {job("P", 4, 20000, 0), job("U", 6, 20000, 1), job("Q", 4, 20000, 2)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-a"};
    s.jobs[2].traits.pin = {PinLevel::Node, "pod-rack-a"};
    const Results r = run(s);
    REQUIRE(r.fleet.nodes[r.placementOf(r.segments[r.jobs[jobIndex(r, "U")].lastSegment])[0].node]
                .name == "pod-rack-b");
    const DefragWhatIf w = defragWhatIf(r, 100, DefragPolicy::Pack);
    CHECK(w.runningJobs == 3);
    REQUIRE(w.unplaced.size() == 2);
    CHECK(r.jobName(w.unplaced[0]) == "P");
    CHECK(r.jobName(w.unplaced[1]) == "Q");
    REQUIRE(w.moved.size() == 1);
    CHECK(r.jobName(w.moved[0].job) == "U");
    // U: 6 GPUs × (100 − 1) s, no startup = 594 GPU-s.
    CHECK(w.restartedGpuHours == Approx(594.0 / 3600));
    // After: a holds U (2 free), b is empty: 10 free; the largest gang is b's 8 (tg-big).
    CHECK(w.after.freeGpus == 10);
    CHECK(w.after.largest(SlotLevel::Node) == 8);
    CHECK(w.after.slotsFor(SlotLevel::Node, 2) == 1 + 4);
}

TEST_CASE("defrag: identical nodes and GPUs are renumbered so that jobs stay where they are") {
    // 1 rack × 2 nodes × 8, pack. t=0: Z (2) → node0 {0,1}; t=1: Y (4) → node0 {2-5} (6 free,
    // the fewest that fit); t=2: X (8) → node1. The repack, largest first: X → node0, Y →
    // node1 {0-3}, Z → node1 {4,5}: every job elsewhere. The nodes are alike, so contents swap
    // (X's node to node1, where X was: 8 GPUs; Y and Z's to node0: 6) and node0's GPUs are
    // renumbered (Y {0-3} → {2-5}, Z {4,5} → {0,1}): all three keep their GPUs.
    Scenario s = smallFleet(1, 2, "n8");
    s.jobs = {job("Z", 2, 20000, 0), job("Y", 4, 20000, 1), job("X", 8, 20000, 2)};
    const Results r = run(s);
    for (DefragPolicy policy : {DefragPolicy::Pack, DefragPolicy::BestFit, DefragPolicy::Fgd}) {
        INFO(toString(policy));
        const DefragWhatIf w = defragWhatIf(r, 100, policy);
        CHECK(w.runningJobs == 3);
        CHECK(w.keptJobs == 3);
        CHECK(w.moved.empty());
        CHECK(w.restartedGpuHours == 0);
        CHECK(w.after.slotCounts == w.before.slotCounts);
        CHECK(w.after.freeGpus == 2);
    }
}

TEST_CASE("defrag: racks and pods alike swap contents too") {
    // 2 racks (then 2 pods) of one 8-GPU node each, pack. t=0: Y (4) → the first node {0-3};
    // t=1: X (8) → the second. The repack, largest first: X → the first node, Y → the second
    // {0-3}. Nodes in different racks never swap, but the two racks (pods) are alike: their
    // contents swap back and both jobs keep their GPUs.
    for (bool pods : {false, true}) {
        INFO((pods ? "pods" : "racks"));
        Scenario s = smallFleet(pods ? 1 : 2, 1, "n8");
        if (pods) s.pods[0].count = 2;
        s.jobs = {job("Y", 4, 20000, 0), job("X", 8, 20000, 1)};
        const Results r = run(s);
        const DefragWhatIf w = defragWhatIf(r, 100, DefragPolicy::Pack);
        CHECK(w.keptJobs == 2);
        CHECK(w.moved.empty());
        CHECK(w.after.slotCounts == w.before.slotCounts);
    }
}

TEST_CASE("defrag: a stop request ends the repack, marked as stopped") {
    const Results r = scatteredRun();
    std::stop_source stop;
    stop.request_stop();
    std::vector<double> progress;
    const DefragWhatIf w = defragWhatIf(
        r, 3600, DefragPolicy::Fgd, [&](double f) { progress.push_back(f); }, stop.get_token());
    CHECK(w.stopped);
    CHECK(w.moved.empty());
    CHECK(progress.empty());
    // Not stopped: progress runs from 0 to 1.
    const DefragWhatIf full =
        defragWhatIf(r, 3600, DefragPolicy::Fgd, [&](double f) { progress.push_back(f); });
    CHECK_FALSE(full.stopped);
    REQUIRE(progress.size() >= 2);
    CHECK(progress.front() == 0);
    CHECK(progress.back() == 1);
}
