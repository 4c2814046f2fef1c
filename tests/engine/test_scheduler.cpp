#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {

struct Span {
    double startS, endS;
};

Span spanOf(const Results& r, const std::string& name) {
    const JobRecord& j = r.jobs[jobIndex(r, name)];
    return {j.firstStartS, j.endS};
}

/// One node of 4 GPUs and the backfill example worked out below.
Scenario backfillExample(BackfillMode mode) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = mode;
    s.jobs = {job("J0", 2, 100), job("J1", 4, 100), job("J2", 1, 50), job("J3", 1, 500)};
    return s;
}

}  // namespace

TEST_CASE("EASY backfill lets a short job pass the blocked head but not a long one") {
    // t=0: J0 takes 2 of 4 GPUs. J1 needs all 4: blocked; J0 ends at 100, so J1 is reserved
    //      to start at 100 on the node's 4 GPUs.
    //      J2 (1 GPU, 50 s) ends at 50 ≤ 100: it may use a reserved GPU → starts at 0.
    //      J3 (1 GPU, 500 s) would hold a GPU past 100: the one free GPU is reserved → waits.
    // t=100: J1 starts (J0 and J2 are gone) and ends at 200; t=200: J3 runs 200–700.
    const Results r = test::run(backfillExample(BackfillMode::Easy));
    CHECK(spanOf(r, "J0").startS == 0);
    CHECK(spanOf(r, "J1").startS == 100);
    CHECK(spanOf(r, "J2").startS == 0);
    CHECK(spanOf(r, "J2").endS == 50);
    CHECK(spanOf(r, "J3").startS == 200);
    CHECK(spanOf(r, "J3").endS == 700);
}

TEST_CASE("strict FIFO lets nothing pass the blocked head") {
    // J1 starts at 100 as before; J2 and J3 wait for it: both start at 200.
    const Results r = test::run(backfillExample(BackfillMode::None));
    CHECK(spanOf(r, "J1").startS == 100);
    CHECK(spanOf(r, "J2").startS == 200);
    CHECK(spanOf(r, "J3").startS == 200);
}

TEST_CASE("greedy backfill starts everything that fits and delays the head") {
    // t=0: J0 (2), J2 (1) and J3 (1) fill the node. J1 gets 4 GPUs only when J3 ends at 500.
    const Results r = test::run(backfillExample(BackfillMode::Greedy));
    CHECK(spanOf(r, "J2").startS == 0);
    CHECK(spanOf(r, "J3").startS == 0);
    CHECK(spanOf(r, "J1").startS == 500);
}

TEST_CASE("queue order is priority, then submit time; smallest-first is an option") {
    // One node of 4 GPUs, busy until 100. Three jobs wait; at 100 the node is free again.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = BackfillMode::None;
    s.jobs = {job("busy", 4, 100), job("big-early", 4, 10, 1), job("small-late", 1, 10, 2),
              job("urgent", 4, 10, 3)};
    s.jobs[3].traits.priority = 10;
    SECTION("priority then FIFO: urgent, then big-early, then small-late") {
        const Results r = test::run(s);
        CHECK(spanOf(r, "urgent").startS == 100);
        CHECK(spanOf(r, "big-early").startS == 110);
        CHECK(spanOf(r, "small-late").startS == 120);
    }
    SECTION("priority then smallest first: urgent, then small-late, then big-early") {
        s.scheduler.queueOrder = QueueOrder::PrioritySmallestFirst;
        const Results r = test::run(s);
        CHECK(spanOf(r, "urgent").startS == 100);
        CHECK(spanOf(r, "small-late").startS == 110);
        CHECK(spanOf(r, "big-early").startS == 120);
    }
}

TEST_CASE("a job the fleet can never hold does not block the queue") {
    // 8 GPUs on a 4-GPU fleet can never start; even strict FIFO serves the next job.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = BackfillMode::None;
    s.jobs = {job("too-big", 8, 100, 0, 4), job("small", 1, 100, 1)};
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "too-big")].status == JobStatus::Pending);
    CHECK(spanOf(r, "small").startS == 1);
}

TEST_CASE("a gang starts all of its pods at once") {
    // Two nodes of 4. "half" holds 2 GPUs of node 0 until 100. A gang of 2 pods × 4 needs both
    // nodes whole: it starts at 100, not with one pod at 0.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobs = {job("half", 2, 100), job("gang", 8, 50, 0, 4)};
    const Results r = test::run(s);
    const JobRecord& g = r.jobs[jobIndex(r, "gang")];
    CHECK(g.firstStartS == 100);
    REQUIRE(g.segmentCount == 1);
    CHECK(r.placementOf(r.segments[g.lastSegment]).size() == 2);
}

TEST_CASE("backfill never delays the reserved head in a busy random workload") {
    // Mixed shapes on 4 racks × 4 nodes × 8 GPUs at ~90 % load. The kernel checks after every
    // instant that no GPU slot is bound twice and that no backfill ever took GPUs the head's
    // reservation counted on (it throws otherwise).
    Scenario s = test::smallFleet(4, 4, "n8");
    s.horizonS = 3 * 86400;
    for (auto [name, gpus, rate, mean] :
         {std::tuple{"one", 1.0, 20.0, 3600.0}, std::tuple{"node", 8.0, 2.0, 7200.0},
          std::tuple{"gang", 32.0, 0.3, 10800.0}}) {
        JobClassDef c;
        c.name = name;
        c.traits.team = "t";
        c.arrival.ratePerHour = rate;
        c.gpus.value = gpus;
        c.durationS.kind = DistKind::Exponential;
        c.durationS.mean = mean;
        s.jobClasses.push_back(c);
    }
    for (PlacementPolicy p :
         {PlacementPolicy::Pack, PlacementPolicy::Spread, PlacementPolicy::TopologyAware}) {
        s.scheduler.placement = p;
        Results r;
        REQUIRE_NOTHROW(r = test::run(s));
        CHECK(r.kpi("jobs_started") > 0.9 * r.kpi("jobs_submitted"));
    }
}
