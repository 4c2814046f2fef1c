// Elastic jobs (JobTraitsDef::elasticMaxGpus, simulation_elastic.cpp): a job starts at its
// own size, grows by whole pods into idle capacity when nothing waits, gives the growth back
// when a queued job needs it, and goes on smaller when a node under its growth fails. Work
// scales with the pods held; each resize restarts its pods (startupS) and keeps its work.
// Every number below is worked out from those rules in the comments.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;
using test::segmentsOf;

namespace {

/// Two 4-GPU nodes in one rack (8 GPUs). "a": 4 GPUs (one pod of 4), elastic up to 8, eight
/// hours of work at its own size (4 × 8 = 32 GPU-hours). A grow waits for an hour with
/// nothing queued and no resize of the job (the window has a test of its own), and pays for
/// a 600 s restart within it: (3,600 − 600) × 2 ≥ (3,600 + 600) × 1.
Scenario elasticPair(double startupS = 0) {
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 86400;
    s.sampleIntervalS = 600;
    s.scheduler.elasticGrowAfterIdleS = 3600;
    JobDef a = job("a", 4, 8 * 3600.0);
    a.traits.elasticMaxGpus = 8;
    a.traits.startupS = startupS;
    s.jobs = {a};
    return s;
}

int podsOf(const RunSegment* seg) {
    return static_cast<int>(seg->placementCount);
}

}  // namespace

TEST_CASE("an elastic job grows into idle capacity and ends sooner by its pace", "[elastic]") {
    const Results r = test::run(elasticPair());
    const std::uint32_t a = jobIndex(r, "a");
    // Bound at 0 on one pod, grown at once to two (the grow replaces the zero-length first
    // binding): 28,800 s of work at twice the pace ends at 14,400 s.
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() == 1);
    CHECK(podsOf(segs[0]) == 2);
    CHECK(segs[0]->slowdown == Approx(0.5));
    CHECK(r.jobs[a].endS == Approx(14400));
    CHECK(r.jobs[a].slowdown == Approx(1.0));  // the placement's own slowdown: one rack
    CHECK(r.kpi("elastic_grows") == 1);
    CHECK(r.kpi("elastic_shrinks") == 0);
    // 8 GPUs × 4 h, all useful.
    CHECK(r.kpi("gpu_hours_allocated") == Approx(32.0));
    CHECK(r.kpi("gpu_hours_useful") == Approx(32.0));
    // The team held what the job held: its grown 8 GPUs, not the 4 it asked, for 4 h.
    double teamGpuHours = 0;
    for (const GroupKpis& g : r.teamKpis)
        teamGpuHours += g.gpuHours;
    CHECK(teamGpuHours == Approx(32.0));
}

TEST_CASE("a queued job takes the growth back; the elastic job keeps its work and regrows",
          "[elastic]") {
    Scenario s = elasticPair();
    s.jobs.push_back(job("b", 4, 2 * 3600.0, 3600));
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a"), b = jobIndex(r, "b");
    // t = 3,600: "a" did 3,600 s × 2 = 7,200 s of its work on 8 GPUs; "b" fits only on the
    // growth, so "a" shrinks to its own pod and "b" starts at once. "b" ends at 10,800; by
    // then "a" did 7,200 more at pace 1 (14,400 in all) and grows again: the 14,400 left
    // take 7,200 s at pace 2, so it ends at 18,000 (fixed at 4 GPUs it would end at 28,800).
    CHECK(r.jobs[b].firstStartS == Approx(3600));
    CHECK(r.jobs[b].endS == Approx(10800));
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() == 3);
    CHECK(segs[0]->end == SegmentEnd::Resized);
    CHECK(segs[0]->endS == Approx(3600));
    CHECK(podsOf(segs[0]) == 2);
    CHECK(podsOf(segs[1]) == 1);
    CHECK(segs[1]->endS == Approx(10800));
    CHECK(segs[1]->end == SegmentEnd::Resized);
    CHECK(podsOf(segs[2]) == 2);
    CHECK(segs[2]->end == SegmentEnd::Completed);
    CHECK(r.jobs[a].endS == Approx(18000));
    CHECK(r.kpi("elastic_grows") == 2);
    CHECK(r.kpi("elastic_shrinks") == 1);
    // jobs.csv: its most GPUs and its two resizes; "b" is fixed at 4.
    CHECK(test::jobsCsvRow(r, a).at("max_gpus") == "8");
    CHECK(test::jobsCsvRow(r, a).at("resizes") == "2");
    CHECK(test::jobsCsvRow(r, b).at("max_gpus") == "4");
    // A resize is no restart and loses nothing.
    CHECK(r.interruptionsOf(a).restarts == 0);
    CHECK(r.interruptionsOf(a).lostWorkS == 0);
    // Allocated: "a" 8 × 3,600 + 4 × 7,200 + 8 × 7,200 = 115,200 GPU-s, "b" 4 × 7,200 =
    // 28,800: 144,000 GPU-s = 40 GPU-h, all of it useful ("a"'s 32 GPU-h of work and "b"'s 8).
    CHECK(r.kpi("gpu_hours_allocated") == Approx(40.0));
    CHECK(r.kpi("gpu_hours_useful") == Approx(40.0));
}

TEST_CASE("a queued job takes a job's whole growth; the rest regrows after the window",
          "[elastic]") {
    // Three 4-GPU nodes, a 600 s window; "a" (4, elastic to 12) grows at once to three pods,
    // pace 3. "b" (4 GPUs, two hours) at 3,600 needs one node: "a" gives back all its growth
    // (one restart; a pod at a time would restart it at every arrival) and by then did
    // 10,800 s of work. At 4,200 (the window after its shrink) it grows into the idle node:
    // 600 more at pace 1 (11,400), then pace 2 until "b" ends at 10,800 (13,200 more,
    // 24,600), then three pods again: the 4,200 left take 1,400 s, it ends at 12,200.
    Scenario s = test::smallFleet(1, 3, "n4");
    s.horizonS = 86400;
    s.scheduler.elasticGrowAfterIdleS = 600;
    JobDef a = job("a", 4, 8 * 3600.0);
    a.traits.elasticMaxGpus = 12;
    s.jobs = {a, job("b", 4, 2 * 3600.0, 3600)};
    const Results r = test::run(s);
    const auto segs = segmentsOf(r, jobIndex(r, "a"));
    REQUIRE(segs.size() == 4);
    CHECK(podsOf(segs[0]) == 3);
    CHECK(podsOf(segs[1]) == 1);
    CHECK(segs[1]->endS == Approx(4200));
    CHECK(podsOf(segs[2]) == 2);
    CHECK(podsOf(segs[3]) == 3);
    CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(12200));
    CHECK(r.jobs[jobIndex(r, "b")].firstStartS == Approx(3600));
    CHECK(r.kpi("elastic_shrinks") == 1);
    CHECK(r.kpi("elastic_grows") == 3);
}

TEST_CASE("a higher-priority job takes the growth, not the whole elastic job", "[elastic]") {
    // As above with priority preemption on and "b" at priority 10: the growth is given back
    // before the pass, so "b" fits without preempting "a" (which would lose all its work).
    Scenario s = elasticPair();
    s.scheduler.preemption = PreemptionMode::Priority;
    JobDef b = job("b", 4, 2 * 3600.0, 3600);
    b.traits.priority = 10;
    s.jobs.push_back(b);
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "b")].firstStartS == Approx(3600));
    CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(18000));
    for (const RunSegment& seg : r.segments)
        CHECK(seg.end != SegmentEnd::Preempted);
}

TEST_CASE("growth waits for the idle window after a resize", "[elastic]") {
    // A 600 s window, and "b" needs the growth for only 300 s (3,600 to 3,900). "a" grows as
    // it starts (nothing restarts), does 7,200 s of work by 3,600 and gives the growth to
    // "b". Free again at 3,900, the growth waits for the window after its shrink: 4,200. By
    // then "a" did 7,200 + 600 = 7,800, and the 21,000 left take 10,500 s at pace 2: it ends
    // at 14,700. With a 1 s window it grows when "b" ends, at 3,900, and ends at 3,900 +
    // 21,300 / 2 = 14,550.
    Scenario s = elasticPair();
    s.jobs.push_back(job("b", 4, 300, 3600));
    SECTION("600 s window") {
        s.scheduler.elasticGrowAfterIdleS = 600;
        const Results r = test::run(s);
        const std::uint32_t a = jobIndex(r, "a");
        const auto segs = segmentsOf(r, a);
        REQUIRE(segs.size() == 3);
        CHECK(segs[1]->endS == Approx(4200));
        CHECK(podsOf(segs[2]) == 2);
        CHECK(r.jobs[a].endS == Approx(14700));
    }
    SECTION("a 1 s window") {
        s.scheduler.elasticGrowAfterIdleS = 1;
        const Results r = test::run(s);
        CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(14550));
    }
}

TEST_CASE("a growth that could not pay for its restarts within the window waits", "[elastic]") {
    // Startup 600 s, window 900 s. As it starts, growing restarts nothing: (900 − 0) × 2 =
    // 1,800 ≥ (900 + 600) × 1 = 1,500, so "a" grows then. Shrunk for "b" at 3,600, a regrow
    // would do (900 − 600) × 2 = 600 against 1,500 were it reclaimed a window later: it
    // stays at its size. It started up until 600 and did 6,000 s at pace 2 by 3,600, then
    // starts up again until 4,200: the 22,800 left at pace 1 end at 27,000.
    Scenario s = elasticPair(600);
    s.scheduler.elasticGrowAfterIdleS = 900;
    s.jobs.push_back(job("b", 4, 2 * 3600.0, 3600));
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a");
    CHECK(r.kpi("elastic_grows") == 1);
    CHECK(r.kpi("elastic_shrinks") == 1);
    CHECK(r.jobs[a].endS == Approx(27000));
}

TEST_CASE("every resize restarts the elastic job's pods", "[elastic]") {
    Scenario s = elasticPair(600);
    s.jobs.push_back(job("b", 4, 2 * 3600.0, 3600));
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a");
    // Grown at 0: starts up until 600, then works at pace 2: by 3,600 it did 6,000 s. Shrunk:
    // starts up until 4,200, then pace 1; at 10,800 it did 6,000 + 6,600 = 12,600, 16,200
    // left: fixed it would end at 27,000; grown it ends at 10,800 + 600 + 8,100 = 19,500,
    // sooner, so it grows.
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() == 3);
    CHECK(segs[1]->endS == Approx(10800));
    CHECK(r.jobs[a].endS == Approx(19500));
    // Allocated to "a": 8 × 3,600 + 4 × 7,200 + 8 × 8,700 = 127,200 GPU-s = its work,
    // 115,200, and three startups, 8 × 600 + 4 × 600 + 8 × 600 = 12,000. "b": 28,800 useful.
    CHECK(r.kpi("gpu_hours_allocated") == Approx((127200.0 + 28800) / 3600));
    CHECK(r.kpi("gpu_hours_useful") == Approx((115200.0 + 28800) / 3600));
}

TEST_CASE("an elastic job grows only when that ends it sooner", "[elastic]") {
    // Two racks of two 4-GPU nodes. "a" (4, elastic to 8) takes rack0's node0 and "f" (4,
    // fixed, a day) node1 (pack, ties to the lowest node): the only room to grow is in rack1.
    // 8 GPUs fit in a rack, so the pod tier crossed is slower: with the rack uplinks 3:1
    // oversubscribed it has a third of the bandwidth (Fleet::slowdown: 1 + sensitivity × 2).
    Scenario s = test::smallFleet(2, 2, "n4");
    s.horizonS = 86400;
    s.fabric.rackUplinkOversubscription = 3;
    JobDef a = job("a", 4, 8 * 3600.0);
    a.traits.elasticMaxGpus = 8;
    s.jobs = {a, job("f", 4, 86400)};
    SECTION("fully communication-bound: 3x slower at twice the pods, it stays") {
        s.jobs[0].traits.topologySensitivity = 1;
        const Results r = test::run(s);
        CHECK(r.kpi("elastic_grows") == 0);
        CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(28800));
    }
    SECTION("a quarter communication: 1.5x slower at twice the pods, it grows") {
        s.jobs[0].traits.topologySensitivity = 0.25;
        const Results r = test::run(s);
        // 28,800 s of work at slowdown 1.5 ÷ pace 2 = 0.75: ends at 21,600.
        CHECK(r.kpi("elastic_grows") == 1);
        CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(21600));
        CHECK(r.jobs[jobIndex(r, "a")].slowdown == Approx(1.5));
    }
}

TEST_CASE("a node failing under the growth shrinks the job onto its other pods", "[elastic]") {
    Scenario s = elasticPair();
    s.jobs[0].traits.checkpointIntervalS = 2500;
    s.nodeEvents = {{3600, "pod-rack-node1", NodeState::Failed}};
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a");
    // Grown at 0 (pod on node0, growth on node1). At 3,600 it did 7,200 s of its work, saved
    // at checkpoints every 2,500: 5,000 kept, 2,200 lost. It goes on at once on node0 alone
    // (no queueing) with 23,800 left at pace 1: ends at 27,400.
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() == 2);
    CHECK(segs[0]->end == SegmentEnd::Evicted);
    CHECK(segs[0]->lostWorkS == Approx(2200));
    CHECK(segs[1]->startS == Approx(3600));
    CHECK(podsOf(segs[1]) == 1);
    CHECK(r.fleet.nodes[r.placements[segs[1]->placementBegin].node].name == "pod-rack-node0");
    CHECK(r.jobs[a].endS == Approx(27400));
    // One restart; its lost work in GPU-seconds at the job's own size: 2,200 × 4.
    CHECK(r.interruptionsOf(a).restarts == 1);
    CHECK(r.interruptionsOf(a).lostGpuS == Approx(8800));
    // Allocated 8 × 3,600 + 4 × 23,800 = 124,000 GPU-s = useful 115,200 + lost 8,800.
    CHECK(r.kpi("gpu_hours_allocated") == Approx(124000.0 / 3600));
    CHECK(r.kpi("gpu_hours_useful") == Approx(115200.0 / 3600));
}

TEST_CASE("a failure leaves the job on the pods it keeps, or evicts it below its size",
          "[elastic]") {
    SECTION("its own pod's node fails: the growth holds its size") {
        Scenario s = elasticPair();
        s.nodeEvents = {{3600, "pod-rack-node0", NodeState::Failed}};
        const Results r = test::run(s);
        const std::uint32_t a = jobIndex(r, "a");
        // Its own pod went to node0 (pack, ties to the lowest node), the growth to node1: one
        // pod is its size, so it goes on there at once, losing all 7,200 s (no checkpoints):
        // 28,800 from 3,600 ends at 32,400.
        const auto segs = segmentsOf(r, a);
        REQUIRE(segs.size() == 2);
        CHECK(segs[0]->lostWorkS == Approx(7200));
        CHECK(segs[1]->startS == Approx(3600));
        CHECK(r.fleet.nodes[r.placements[segs[1]->placementBegin].node].name == "pod-rack-node1");
        CHECK(r.jobs[a].endS == Approx(32400));
    }
    SECTION("not grown: evicted whole, queued, restarted where room frees") {
        Scenario s = elasticPair();
        s.jobs.push_back(job("b", 4, 2 * 3600.0));
        s.nodeEvents = {{3600, "pod-rack-node0", NodeState::Failed}};
        const Results r = test::run(s);
        const std::uint32_t a = jobIndex(r, "a");
        // "a" on node0 and "b" on node1 from 0: no room to grow. node0 fails at 3,600: "a"
        // queues until "b" ends at 7,200, then starts over on node1 (node0 is down, nothing to
        // grow into): 7,200 + 28,800 = 36,000.
        const auto segs = segmentsOf(r, a);
        REQUIRE(segs.size() == 2);
        CHECK(segs[0]->end == SegmentEnd::Evicted);
        CHECK(segs[1]->startS == Approx(7200));
        CHECK(r.jobs[a].endS == Approx(36000));
        CHECK(r.kpi("elastic_grows") == 0);
    }
}

TEST_CASE("resizes stop at the run's budget of GPU holds", "[elastic]") {
    // Growing "a" to two pods of 4 GPUs records 2 placements and 2 × 4 = 8 GPU holds (one
    // timeline interval per GPU). A budget of 7 holds refuses it at 0 (a budget counted in
    // placements, 2 ≤ 7, would not), so it runs at its own size and ends at 28,800; the KPI
    // says when resizes stopped. 8 holds let it grow (ends at 14,400, as above).
    RunOptions options;
    options.checkInvariants = true;
    options.maxElasticResizeGpuHolds = 7;
    const Results r = simulate(elasticPair(), options);
    CHECK(r.kpi("elastic_grows") == 0);
    CHECK(r.kpi("elastic_resizes_stopped_at_s") == 0);
    CHECK(std::isnan(test::run(elasticPair()).kpi("elastic_resizes_stopped_at_s")));
    CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(28800));
    options.maxElasticResizeGpuHolds = 8;
    const Results grown = simulate(elasticPair(), options);
    CHECK(std::isnan(grown.kpi("elastic_resizes_stopped_at_s")));
    CHECK(grown.jobs[jobIndex(grown, "a")].endS == Approx(14400));
}

TEST_CASE("a job that can never start here does not hold growth back", "[elastic]") {
    // "x" asks 12 GPUs of a fleet of 8: queued for the whole run, it waits for nodes, not for
    // room, so "a" still grows at once and ends at 14,400 as in the first case.
    Scenario s = elasticPair();
    s.jobs.push_back(job("x", 12, 3600));
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "x")].firstStartS < 0);
    CHECK(r.kpi("elastic_grows") == 1);
    CHECK(r.jobs[jobIndex(r, "a")].endS == Approx(14400));
}

TEST_CASE("a node the growth leaves while it drains finishes draining", "[elastic]") {
    // Three nodes: "a" (4, elastic to 12) grows at 0 onto node1 and node2 (its own pod on
    // node0). node2 starts draining at 1,000 (its pod runs on). At 2,000 "b" needs a node: "a"
    // gives back all its growth, "b" takes node1, and node2, empty now, has drained:
    // Repairing at 2,000.
    Scenario s = test::smallFleet(1, 3, "n4");
    s.horizonS = 86400;
    s.scheduler.elasticGrowAfterIdleS = 3600;
    JobDef a = job("a", 4, 8 * 3600.0);
    a.traits.elasticMaxGpus = 12;
    s.jobs = {a, job("b", 4, 3600, 2000)};
    s.nodeEvents = {{1000, "pod-rack-node2", NodeState::Draining}};
    const Results r = test::run(s);
    const auto drained = test::nodeChangesBy(r, NodeChangeCause::DrainDone);
    REQUIRE(drained.size() == 1);
    CHECK(r.fleet.nodes[drained[0].node].name == "pod-rack-node2");
    CHECK(drained[0].timeS == 2000);
    CHECK(r.jobs[jobIndex(r, "b")].firstStartS == Approx(2000));
}

TEST_CASE("a spot notice under the growth leaves the job on its other pods, nothing lost",
          "[elastic]") {
    // Two nodes: "s" a spot node (reclaimed at random), "r" reserved. "a" (4, elastic to 8)
    // grows onto both at 0. At each notice on "s", the growth there is given back at once
    // and the job keeps all its work (a resize, not an eviction): no work is ever lost.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 20 * 86400.0;
    s.scheduler.elasticGrowAfterIdleS = 3600;
    s.pods[0].racks[0].nodes[0].count = 1;
    NodeGroupDef spot = s.pods[0].racks[0].nodes[0];
    spot.name = "s";
    spot.buyingClass = BuyingClass::Spot;
    s.pods[0].racks[0].nodes.push_back(spot);
    s.pricing = test::tgPrices();
    s.spot = SpotDef{0.999, 120, 3600};
    JobDef a = job("a", 4, 10 * 86400.0);
    a.traits.elasticMaxGpus = 8;
    s.jobs = {a};
    const Results r = test::run(s);
    REQUIRE(!test::nodeChangesBy(r, NodeChangeCause::SpotNotice).empty());
    const std::uint32_t ai = jobIndex(r, "a");
    CHECK(r.interruptionsOf(ai).restarts == 0);
    CHECK(r.kpi("gpu_hours_lost") == 0);
    CHECK(r.kpi("elastic_shrinks") == 0);  // not for a queued job: off the node
    bool resized = false;
    for (const RunSegment* seg : segmentsOf(r, ai))
        resized |= seg->end == SegmentEnd::Resized && seg->placementCount == 2;
    CHECK(resized);
}

TEST_CASE("elastic jobs are written and read back", "[elastic]") {
    const Scenario s = elasticPair();
    const std::string text = scenarioToJson(s);
    CHECK(text.find("\"elastic\"") != std::string::npos);
    CHECK(parseScenario(text, "again.json", test::testCatalog()) == s);
}
