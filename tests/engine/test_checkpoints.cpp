// Checkpoints and lost work (engine/src/scheduling/checkpoints.hpp, Simulation::evict): an evicted
// job keeps floor(work done / interval) · interval of its work, counted in ideal seconds over all
// its bindings, loses the rest, and its next binding runs startup + (duration − kept) ·
// slowdown. Every expected number is worked out from those rules in the comment above it.
#include <catch2/catch.hpp>

#include "scheduling/checkpoints.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;
using test::segmentsOf;

namespace {

std::vector<std::string> nodesOf(const Results& r, const RunSegment& seg) {
    std::vector<std::string> nodes;
    for (const PodPlacement& p : r.placementOf(seg))
        nodes.push_back(r.fleet.nodes[p.node].name);
    return nodes;
}

/// A 10 h job of 4 GPUs with a 600 s startup (its restart time), on two 4-GPU nodes; node0,
/// where it starts, fails after 3.5 h of progress (at 600 + 12,600 = 13,200 s).
Scenario tenHourJobWhoseNodeFails(double checkpointIntervalS) {
    Scenario s = test::smallFleet(1, 2, "n4");
    JobDef a = job("a", 4, 36000);
    a.traits.startupS = 600;
    a.traits.checkpointIntervalS = checkpointIntervalS;
    s.jobs = {a};
    s.nodeEvents = {{13200, "pod-rack-node0", NodeState::Failed}};
    return s;
}

}  // namespace

TEST_CASE("the work kept is the last checkpoint's", "[checkpoints]") {
    // floor(12,600 / 3,600) = 3 checkpoints: 10,800 s.
    CHECK(detail::checkpointedWorkS(12600, 3600, 36000) == 10800);
    // No checkpoints, or no work: nothing kept.
    CHECK(detail::checkpointedWorkS(12600, 0, 36000) == 0);
    CHECK(detail::checkpointedWorkS(0, 3600, 36000) == 0);
    // Evicted a hair before the 2nd checkpoint by rounding (wall ÷ slowdown): it was taken,
    // and what is kept is never more than what was done.
    CHECK(detail::checkpointedWorkS(7199.999999999999, 3600, 36000) == 7199.999999999999);
    // Just short of it for real: only the first.
    CHECK(detail::checkpointedWorkS(7199, 3600, 36000) == 3600);
    // Never more than the job's work (an interval longer than the job saves nothing).
    CHECK(detail::checkpointedWorkS(36000, 3600, 36000) == 36000);
    CHECK(detail::checkpointedWorkS(5000, 40000, 36000) == 0);
}

TEST_CASE("a job evicted 3.5 h into 10 h loses 0.5 h with hourly checkpoints, 3.5 h without",
          "[checkpoints]") {
    SECTION("checkpoint every hour") {
        // Progress from 600 to 13,200: 12,600 s done, 3 checkpoints kept = 10,800 s, lost
        // 1,800 s (0.5 h). It restarts at once on node1: startup 600 + (36,000 − 10,800) =
        // 25,800 s, so it ends at 13,200 + 25,800 = 39,000.
        // Allocated: 4 GPUs × 13,200 + 4 × 25,800 = 4 × 39,000 = 156,000 GPU-s.
        // Useful: 4 × (12,600 − 1,800) + 4 × 25,200 = 4 × 36,000 = 144,000 GPU-s.
        // goodput = 144,000 / 156,000 = 12/13; lost 4 × 1,800 = 7,200 GPU-s = 2 GPU-h.
        const Results r = test::run(tenHourJobWhoseNodeFails(3600));
        const std::uint32_t a = jobIndex(r, "a");
        const auto segs = segmentsOf(r, a);
        REQUIRE(segs.size() == 2);
        CHECK(segs[0]->end == SegmentEnd::Evicted);
        CHECK(segs[0]->endS == 13200);
        CHECK(segs[0]->lostWorkS == 1800);
        CHECK(segs[1]->startS == 13200);
        CHECK(segs[1]->lostWorkS == 0);
        CHECK(nodesOf(r, *segs[1]) == std::vector<std::string>{"pod-rack-node1"});
        CHECK(r.jobs[a].endS == 39000);
        CHECK(r.jobs[a].status == JobStatus::Completed);
        CHECK(r.kpi("goodput") == Approx(12.0 / 13.0));
        CHECK(r.kpi("gpu_hours_lost") == Approx(2.0));
        CHECK(r.kpi("gpu_hours_useful") == Approx(40.0));  // 144,000 / 3,600
        CHECK(r.kpi("gpu_hours_allocated") == Approx(156000.0 / 3600));
        // The inspector's numbers: one restart, 1,800 s lost = 7,200 GPU-s, every hour.
        const JobInterruptions ji = r.interruptionsOf(a);
        CHECK(ji.restarts == 1);
        CHECK(ji.lostWorkS == 1800);
        CHECK(ji.lostGpuS == 7200);
        CHECK(r.checkpointIntervalS(a) == 3600);
    }
    SECTION("no checkpoints") {
        // All 12,600 s (3.5 h) are lost and the rerun is 600 + 36,000: ends at 49,800.
        // Allocated 4 × 49,800 = 199,200 GPU-s; useful still 4 × 36,000 = 144,000;
        // lost 4 × 12,600 = 50,400 GPU-s = 14 GPU-h.
        const Results r = test::run(tenHourJobWhoseNodeFails(0));
        const std::uint32_t a = jobIndex(r, "a");
        const auto segs = segmentsOf(r, a);
        REQUIRE(segs.size() == 2);
        CHECK(segs[0]->lostWorkS == 12600);
        CHECK(r.jobs[a].endS == 49800);
        CHECK(r.kpi("goodput") == Approx(144000.0 / 199200.0));
        CHECK(r.kpi("gpu_hours_lost") == Approx(14.0));
        CHECK(r.interruptionsOf(a).lostWorkS == 12600);
        CHECK(r.checkpointIntervalS(a) == 0);
    }
}

TEST_CASE("jobs.csv lists each job's lost work and checkpoint interval", "[checkpoints]") {
    // The hourly case above: one eviction, which lost 1,800 s; checkpoints every 3,600 s.
    const Results r = test::run(tenHourJobWhoseNodeFails(3600));
    const auto row = test::jobsCsvRow(r, 0);
    auto field = [&](const std::string& name) {
        const auto it = row.find(name);
        return it == row.end() ? std::string("(no column)") : it->second;
    };
    CHECK(field("name") == "a");
    CHECK(field("evictions") == "1");
    CHECK(field("lost_work_s") == "1800");
    CHECK(field("checkpoint_interval_s") == "3600");
}

TEST_CASE("an evicted gang goes back whole, every pod with the same kept work", "[checkpoints]") {
    // Three 4-GPU nodes; a gang of 8 GPUs in pods of 4 (10,000 s, checkpoint every 1,000 s)
    // packs onto node0 and node1. Node1 fails at 4,500: both pods leave; the job kept 4,000 s
    // and lost 500. It restarts at once on node0 + node2 with 6,000 s to do: ends at 10,500.
    // Lost: 8 GPUs × 500 s = 4,000 GPU-s = 10/9 GPU-h.
    Scenario s = test::smallFleet(1, 3, "n4");
    JobDef g = job("g", 8, 10000, 0, 4);
    g.traits.checkpointIntervalS = 1000;
    s.jobs = {g};
    s.nodeEvents = {{4500, "pod-rack-node1", NodeState::Failed}};
    const Results r = test::run(s);
    const std::uint32_t j = jobIndex(r, "g");
    const auto segs = segmentsOf(r, j);
    REQUIRE(segs.size() == 2);
    CHECK(nodesOf(r, *segs[0]) == std::vector<std::string>{"pod-rack-node0", "pod-rack-node1"});
    CHECK(segs[0]->end == SegmentEnd::Evicted);
    CHECK(segs[0]->lostWorkS == 500);
    CHECK(nodesOf(r, *segs[1]) == std::vector<std::string>{"pod-rack-node0", "pod-rack-node2"});
    CHECK(r.jobs[j].endS == 10500);
    CHECK(r.interruptionsOf(j).lostGpuS == 4000);
    CHECK(r.kpi("gpu_hours_lost") == Approx(10.0 / 9.0));
}

TEST_CASE("checkpoints count the job's work over all its bindings", "[checkpoints]") {
    // A 10 h job of 4 GPUs, checkpoint every hour, on three 4-GPU nodes.
    //   node0 fails at 12,600 (3.5 h done): kept 3 h = 10,800 s, lost 1,800 s.
    //   On node1 from 12,600; it fails at 22,320 after 9,720 s more (2.7 h): 6.2 h done in
    //   all, kept floor(6.2) = 5 h = 18,000 s (not 6 h: the lost 0.5 h is not work done),
    //   lost 20,520 − 18,000 = 2,520 s (0.7 h).
    //   On node2 from 22,320 with 36,000 − 18,000 = 18,000 s to do: ends at 40,320.
    Scenario s = test::smallFleet(1, 3, "n4");
    JobDef a = job("a", 4, 36000);
    a.traits.checkpointIntervalS = 3600;
    s.jobs = {a};
    s.nodeEvents = {{12600, "pod-rack-node0", NodeState::Failed},
                    {22320, "pod-rack-node1", NodeState::Failed}};
    const Results r = test::run(s);
    const std::uint32_t j = jobIndex(r, "a");
    const auto segs = segmentsOf(r, j);
    REQUIRE(segs.size() == 3);
    CHECK(segs[0]->lostWorkS == 1800);
    CHECK(segs[1]->lostWorkS == 2520);
    CHECK(nodesOf(r, *segs[2]) == std::vector<std::string>{"pod-rack-node2"});
    CHECK(r.jobs[j].endS == 40320);
    const JobInterruptions ji = r.interruptionsOf(j);
    CHECK(ji.restarts == 2);
    CHECK(ji.lostWorkS == 4320);  // 1,800 + 2,520
    CHECK(r.interruptionsByJob()[j].lostWorkS == 4320);
    CHECK(r.kpi("gpu_hours_lost") == Approx(4.0 * 4320 / 3600));
}

TEST_CASE("a slowed binding keeps its work in ideal seconds", "[checkpoints]") {
    // Two racks of one 8-GPU node; blockers (no checkpoints) pinned to 4 GPUs of each node,
    // so the 8-GPU job (pods of 4, topology sensitivity 0.1) runs across racks at slowdown
    // 1 + 0.1·(450/50 − 1) = 1.8 (as in test_pins_slowdown). It has 10,000 s of work and a
    // checkpoint every 1,000 s, and starts at 1.
    //   rack1's node fails at 4,501: 4,500 wall s ÷ 1.8 = 2,500 s of work, kept 2,000, lost
    //   500 (ideal seconds; 900 s of wall time). Counting wall time it would keep 4,000.
    //   The node is back at 5,001; block-b (queued first) and the job restart there, the job
    //   across racks at 1.8 again with 8,000 s to do: ends at 5,001 + 14,400 = 19,401
    //   (keeping 4,000 would end it at 5,001 + 10,800 = 15,801).
    // Lost: the job's 8 × 500 GPU-s and block-b's 4 × 4,501 (all of its work): 22,004 GPU-s.
    Scenario s = test::smallFleet(2, 1, "n8");
    s.jobs = {job("block-a", 4, 100000), job("block-b", 4, 100000), job("split", 8, 10000, 1, 4)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack0-node"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack1-node"};
    s.jobs[2].traits.topologySensitivity = 0.1;
    s.jobs[2].traits.checkpointIntervalS = 1000;
    s.nodeEvents = {{4501, "pod-rack1-node", NodeState::Failed},
                    {5001, "pod-rack1-node", NodeState::Ready}};
    const Results r = test::run(s);
    const std::uint32_t j = jobIndex(r, "split");
    const auto segs = segmentsOf(r, j);
    REQUIRE(segs.size() == 2);
    CHECK(segs[0]->slowdown == Approx(1.8));
    CHECK(segs[0]->lostWorkS == Approx(500));
    CHECK(segs[1]->startS == 5001);
    CHECK(segs[1]->slowdown == Approx(1.8));
    CHECK(r.jobs[j].endS == Approx(19401));
    CHECK(r.interruptionsOf(jobIndex(r, "block-b")).lostWorkS == 4501);
    CHECK(r.kpi("gpu_hours_lost") == Approx(22004.0 / 3600));
}

TEST_CASE("an evicted share keeps its checkpoints, and its speed changes count from there",
          "[checkpoints]") {
    // Two 1-GPU nodes, time-sliced in 2 replicas (each pod holds 0.5 GPU). a and b ask 0.6
    // GPU at 100 % SM activity; a (10,000 s, checkpoint every 1,000 s) lands on node0, b
    // (6,500 s, pinned) on node1; each alone at full speed.
    //   node0 fails at 3,500: a did 3,500 s, kept 3,000, lost 500 (0.5 GPU × 500 = 250
    //   GPU-s). a restarts on node1 beside b: D = 0.6 + 0.6 = 1.2, both at 1/1.2.
    //   b had 3,000 s left: 3,600 s at 1.2, it ends at 7,100. By then a did 3,600 / 1.2 =
    //   3,000 s more; it has 10,000 − 3,000 − 3,000 = 4,000 left, alone at full speed: ends at
    //   11,100 (without its kept work it would end at 14,100).
    //   a's second binding: (11,100 − 3,500) wall s for 7,000 s of work, slowdown 7,600/7,000.
    // Allocated: a 0.5 × 11,100 + b 0.5 × 7,100 = 9,100 GPU-s. Useful: a 0.5 × 10,000 (its
    // kept 3,000 and its last 7,000) + b 0.5 × 6,500 = 8,250: goodput 8,250 / 9,100.
    Scenario s = test::smallFleet(1, 2, "n1");
    GpuSharingDef sliced;
    sliced.mode = SharingMode::TimeSlicing;
    sliced.timeSliceReplicas = 2;
    s.pods[0].racks[0].nodes[0].sharing = sliced;
    JobDef a = job("a", 1, 10000), b = job("b", 1, 6500);
    for (JobDef* j : {&a, &b}) {
        j->traits.gpuMilli = 600;
        j->traits.smActivity = 1.0;
    }
    a.traits.checkpointIntervalS = 1000;
    b.traits.pin = {PinLevel::Node, "pod-rack-node1"};
    s.jobs = {a, b};
    s.nodeEvents = {{3500, "pod-rack-node0", NodeState::Failed}};
    const Results r = test::run(s);
    const std::uint32_t ja = jobIndex(r, "a");
    const auto segs = segmentsOf(r, ja);
    REQUIRE(segs.size() == 2);
    CHECK(nodesOf(r, *segs[0]) == std::vector<std::string>{"pod-rack-node0"});
    CHECK(segs[0]->lostWorkS == Approx(500));
    CHECK(nodesOf(r, *segs[1]) == std::vector<std::string>{"pod-rack-node1"});
    CHECK(r.jobs[jobIndex(r, "b")].endS == Approx(7100));
    CHECK(r.jobs[ja].endS == Approx(11100));
    CHECK(segs[1]->slowdown == Approx(7600.0 / 7000));
    CHECK(r.interruptionsOf(ja).lostGpuS == Approx(250));
    CHECK(r.kpi("gpu_hours_lost") == Approx(250.0 / 3600));
    CHECK(r.kpi("goodput") == Approx(8250.0 / 9100));
}

TEST_CASE("an MPS client evicted by its neighbour's crashes resumes from its checkpoints",
          "[checkpoints][mps-fault]") {
    // As in test_gpu_memory_sharing: on one MPS GPU, b (0.4 GPU, 40 GB over its 32 GB limit)
    // crash-loops and crashes at 30, 70, 120, 190, 300, 490 and 820 s, each time evicting a
    // (0.5 GPU, 1 h at full speed), which rebinds at once. Now a checkpoints every 60 s:
    //   binding   work  in all  kept  lost
    //   0–30       30     30      0    30
    //   30–70      40     40      0    40
    //   70–120     50     50      0    50
    //   120–190    70     70     60    10
    //   190–300   110    170    120    50
    //   300–490   190    310    300    10
    //   490–820   330    630    600    30
    // From 820 it has 3,600 − 600 = 3,000 s left: ends at 3,820 (4,420 without checkpoints).
    // Lost 220 s in all, on 0.5 GPU: 110 GPU-s.
    Scenario s = test::smallFleet(1, 1, "n1");
    s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
    JobDef a = job("a", 1, 3600), b = job("b", 1, 3600);
    a.traits.gpuMilli = 500;
    a.traits.checkpointIntervalS = 60;
    b.traits.gpuMilli = 400;
    b.traits.memoryGbPerGpu = 40;
    s.jobs = {a, b};
    const Results r = test::run(s);
    const std::uint32_t ja = jobIndex(r, "a");
    std::vector<float> lost;
    for (const RunSegment* seg : segmentsOf(r, ja))
        if (seg->end == SegmentEnd::Evicted) lost.push_back(seg->lostWorkS);
    CHECK(lost == std::vector<float>{30, 40, 50, 10, 50, 10, 30});
    CHECK(r.jobs[ja].endS == 3820);
    CHECK(r.interruptionsOf(ja).restarts == 7);
    CHECK(r.interruptionsOf(ja).lostGpuS == 110);
    CHECK(r.kpi("gpu_hours_lost") == Approx(110.0 / 3600));
}

TEST_CASE("a restarted job backfills by the work it has left, not its whole duration",
          "[checkpoints]") {
    // Two 4-GPU nodes. r (4 GPUs, 10,000 s) and l (4 GPUs, 12,000 s) start at 0 on node0 and
    // node1. h (8 GPUs, 1,000 s, priority 10) arrives at 100 and waits at the head of the
    // queue. node0 fails at 8,500 (r evicted) and is back at 8,600: h still cannot start, and
    // EASY reserves both nodes for it at 12,000, when l ends.
    Scenario s = test::smallFleet(1, 2, "n4");
    JobDef r = job("r", 4, 10000), l = job("l", 4, 12000), h = job("h", 8, 1000, 100);
    h.traits.priority = 10;
    s.nodeEvents = {{8500, "pod-rack-node0", NodeState::Failed},
                    {8600, "pod-rack-node0", NodeState::Ready}};
    SECTION("checkpoint every 1,000 s") {
        // r kept 8,000 s: at 8,600 it needs 2,000 s, ends at 10,600 ≤ 12,000, so it may use
        // node0 before h's start. h starts at 12,000 as reserved.
        r.traits.checkpointIntervalS = 1000;
        s.jobs = {r, l, h};
        const Results res = test::run(s);
        CHECK(res.jobs[jobIndex(res, "r")].endS == 10600);
        CHECK(res.jobs[jobIndex(res, "h")].firstStartS == 12000);
    }
    SECTION("no checkpoints") {
        // r needs all 10,000 s again: it would end at 18,600 on GPUs h needs at 12,000, so it
        // waits for h (12,000 to 13,000) and ends at 23,000.
        s.jobs = {r, l, h};
        const Results res = test::run(s);
        CHECK(res.jobs[jobIndex(res, "h")].firstStartS == 12000);
        CHECK(res.jobs[jobIndex(res, "r")].endS == 23000);
    }
}
