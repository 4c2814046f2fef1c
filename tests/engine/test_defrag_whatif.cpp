// Defragmentation what-if (gpuplan/placeable.hpp defragWhatIf): repacks worked out by hand.
#include <catch2/catch.hpp>

#include "gpuplan/placeable.hpp"
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
        // a keeps its GPUs; b, c, d move.
        CHECK(w.keptJobs == 1);
        REQUIRE(w.moved.size() == 3);
        CHECK(w.unplaced.empty());
        CHECK(r.jobName(w.moved[0].job) == "b");
        CHECK(w.moved[0].gpus == 2);
        CHECK(w.moved[0].doneS == 3600 - 10);
        CHECK(w.moved[0].startupS == 60);
        // Restarted: 2 GPUs × ((3600 − 10) + (3600 − 20) + (3600 − 30) + 3 × 60) s
        //          = 2 × 10,920 s = 21,840 GPU-s = 6.0667 GPU-h.
        CHECK(w.restartedGpuHours == Approx(21840.0 / 3600));
        // After: three whole free nodes (rack0-node1, rack1-node0, rack1-node1).
        CHECK(w.after.freeGpus == 24);
        CHECK(w.after.slotsFor(SlotLevel::Node, 8) == 3);
        // 16 = 2 whole nodes: only rack1 has two → 1; the pod has 3 → ⌊3 / 2⌋ = 1.
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
    // 1 rack × 2 nodes × 8, pack. t=0: P (4, pinned node0) → node0 {0-3}. t=1: U (6, no pin)
    // → the fewest free that fit: node0 has 4, so node1 {0-5}. t=2: Q (4, pinned node0) →
    // node0 {4-7}. Repack, largest first: U → both nodes empty, lowest → node0 {0-5}; P and Q
    // (pinned to node0, 2 free) cannot be placed.
    Scenario s = smallFleet(1, 2, "n8");
    s.jobs = {job("P", 4, 20000, 0), job("U", 6, 20000, 1), job("Q", 4, 20000, 2)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    s.jobs[2].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    const Results r = run(s);
    const DefragWhatIf w = defragWhatIf(r, 100, DefragPolicy::Pack);
    CHECK(w.runningJobs == 3);
    REQUIRE(w.unplaced.size() == 2);
    CHECK(r.jobName(w.unplaced[0]) == "P");
    CHECK(r.jobName(w.unplaced[1]) == "Q");
    REQUIRE(w.moved.size() == 1);
    CHECK(r.jobName(w.moved[0].job) == "U");
    // U: 6 GPUs × (100 − 1) s, no startup = 594 GPU-s.
    CHECK(w.restartedGpuHours == Approx(594.0 / 3600));
    // After: node0 holds U (2 free), node1 is empty: 10 free, one whole node.
    CHECK(w.after.freeGpus == 10);
    CHECK(w.after.largest(SlotLevel::Fleet) == 8);
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
