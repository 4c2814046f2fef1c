// What the fleet costs (engine/src/cost_meter.*): a hand-built run on two 8-GPU "n8" nodes of
// the test GPU "tg", each figure worked out to the cent in a comment.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One rack: node "pod-rack-a" reserved, node "pod-rack-b" on demand; 10 h.
/// a (8 GPUs, 2 h, SM activity 0.5) at 0 lands on a (pack: the first of two empty nodes);
/// b (8 GPUs, 1 h, SM activity 1) at 1 h finds a busy and lands on b. Node b fails at 5 h.
Scenario twoGroups() {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 36000;
    NodeGroupDef a = s.pods[0].racks[0].nodes[0];
    a.name = "a";
    NodeGroupDef b = a;
    b.name = "b";
    b.buyingClass = BuyingClass::OnDemand;
    s.pods[0].racks[0].nodes = {a, b};
    s.pricing = test::tgPrices();
    JobDef ja = test::job("ja", 8, 7200, 0);
    ja.traits.smActivity = 0.5;
    JobDef jb = test::job("jb", 8, 3600, 3600);
    jb.traits.smActivity = 1.0;
    s.jobs = {ja, jb};
    s.nodeEvents = {{18000, "pod-rack-b", NodeState::Failed}};
    return s;
}

double seriesAt(const Results& r, const std::string& name, double timeS) {
    const Series* series = r.findSeries(name);
    REQUIRE(series);
    return series->values.at(*r.sampleAt(timeS));
}

}  // namespace

TEST_CASE("a two-group run costs what its nodes' prices say, to the cent", "[cost]") {
    // Paid: reserved a, 8 GPUs × $2 × 10 h = $160 whatever happens; on-demand b, 8 × $5 × 5 h
    // = $200, not billed once failed. cost_usd = $360.
    // Held: ja 8 × $2 × 2 h = $32; jb 8 × $5 × 1 h = $40: $72. Busy SMs: ja 0.5 × $32 = $16,
    // jb 1 × $40 = $40: $56. So idle unallocated $360 − $72 = $288, idle allocated $72 − $56 =
    // $16, idle in all $360 − $56 = $304.
    // GPU-hours allocated 16 + 8 = 24, all useful: $360 / 24 = $15 per allocated or useful
    // GPU-hour. Reserved GPU-hours held 16 of 80 paid: 0.2. Break-even $2 / $5 = 0.4.
    const Results r = test::run(twoGroups());
    REQUIRE(r.jobs[test::jobIndex(r, "jb")].firstStartS == 3600);
    CHECK(r.fleet
              .nodes[r.placementOf(r.segments[r.jobs[test::jobIndex(r, "jb")].lastSegment])[0].node]
              .name == "pod-rack-b");
    CHECK(r.kpi("cost_usd") == Approx(360.00).margin(0.005));
    CHECK(r.kpi("idle_unallocated_usd") == Approx(288.00).margin(0.005));
    CHECK(r.kpi("idle_allocated_usd") == Approx(16.00).margin(0.005));
    CHECK(r.kpi("idle_cost_usd") == Approx(304.00).margin(0.005));
    CHECK(r.kpi("usd_per_allocated_gpu_h") == Approx(15.00).margin(0.005));
    CHECK(r.kpi("usd_per_useful_gpu_h") == Approx(15.00).margin(0.005));
    CHECK(r.kpi("reserved_commitment_utilization") == Approx(0.2));
    CHECK(r.kpi("breakeven_utilization") == Approx(0.4));
    // Chargeback: team t's jobs held $72.
    REQUIRE(r.teamKpis.size() == 1);
    CHECK(r.teamKpis[0].costUsd == Approx(72.00).margin(0.005));
    CHECK(r.costUsdOf(r.segments[r.jobs[test::jobIndex(r, "jb")].lastSegment]) ==
          Approx(40.00).margin(0.005));
    // The rate by class: reserved $16/h all along, on demand $40/h until the failure.
    CHECK(seriesAt(r, "cost_rate_usd_per_h{reserved}", 600) == Approx(16));
    CHECK(seriesAt(r, "cost_rate_usd_per_h{reserved}", 30000) == Approx(16));
    CHECK(seriesAt(r, "cost_rate_usd_per_h{on-demand}", 600) == Approx(40));
    CHECK(seriesAt(r, "cost_rate_usd_per_h{on-demand}", 18000) == 0);
    CHECK_FALSE(r.findSeries("cost_rate_usd_per_h{spot}"));  // no spot node

    SECTION("committed capacity is paid for while failed") {
        // b reserved at its own $3/GPU-h: 8 × $3 × 10 h = $240 though it fails at 5 h; with
        // a's $160, $400. jb's hour on it: 8 × $3 = $24, ja's $32: held $56.
        Scenario s = twoGroups();
        s.pods[0].racks[0].nodes[1].buyingClass = BuyingClass::Reserved;
        s.pods[0].racks[0].nodes[1].usdPerGpuHour = 3.0;
        const Results rc = test::run(s);
        CHECK(rc.kpi("cost_usd") == Approx(400.00).margin(0.005));
        CHECK(rc.kpi("idle_unallocated_usd") == Approx(344.00).margin(0.005));
        // Break-even over the reserved GPUs: (8 × 2 + 8 × 3) / (16 × 5) = 0.5.
        CHECK(rc.kpi("breakeven_utilization") == Approx(0.5));
    }
    SECTION("capacity still to be delivered costs nothing until it is Ready") {
        // b spot, provisioning until 4 h, then Ready until its failure at 5 h: 8 × $1.50 ×
        // 1 h = $12. jb (at 1 h) waits for a: it starts at 2 h on a and ends at 3 h, before b
        // is there. a: $160 + $12 = $172; held ja $32 + jb $16 = $48.
        Scenario s = twoGroups();
        NodeGroupDef& b = s.pods[0].racks[0].nodes[1];
        b.buyingClass = BuyingClass::Spot;
        b.state = NodeState::Provisioning;
        b.readyAtS = 14400;
        const Results rd = test::run(s);
        CHECK(rd.jobs[test::jobIndex(rd, "jb")].firstStartS == 7200);
        CHECK(rd.kpi("cost_usd") == Approx(172.00).margin(0.005));
        CHECK(rd.kpi("idle_unallocated_usd") == Approx(124.00).margin(0.005));
    }
    SECTION("without pricing, no cost KPIs and no cost series") {
        Scenario s = twoGroups();
        s.pricing.reset();
        const Results ru = test::run(s);
        CHECK(std::isnan(ru.kpi("cost_usd")));
        CHECK_FALSE(ru.findSeries("cost_rate_usd_per_h{reserved}"));
        CHECK(std::isnan(ru.teamKpis.at(0).costUsd));
    }
}

TEST_CASE("shares and MIG instances are charged by their share", "[cost]") {
    // One 1-GPU "n1" node, time-sliced into 4 replicas, reserved at $2/GPU-h; 1 h. Two pods
    // asking 0.25 GPU each for the hour, SM activity 1 (d = 0.25 each, D = 0.5: full speed):
    // each holds a 250-milli replica, $0.50 of the $2 hour; occupied the same (min(0.25,
    // 0.25)). Paid $2, held $1, busy $1: idle unallocated $1, idle allocated $0.
    Scenario s = test::smallFleet(1, 1, "n1");
    s.horizonS = 3600;
    GpuSharingDef sharing;
    sharing.mode = SharingMode::TimeSlicing;
    sharing.timeSliceReplicas = 4;
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    s.pricing = test::tgPrices();
    for (const char* name : {"s1", "s2"}) {
        JobDef j = test::job(name, 1, 3600, 0);
        j.traits.gpuMilli = 250;
        j.traits.smActivity = 1.0;
        s.jobs.push_back(j);
    }
    const Results r = test::run(s);
    CHECK(r.kpi("cost_usd") == Approx(2.00).margin(0.005));
    CHECK(r.kpi("idle_unallocated_usd") == Approx(1.00).margin(0.005));
    CHECK(r.kpi("idle_allocated_usd") == Approx(0.00).margin(0.005));
    CHECK(r.teamKpis.at(0).costUsd == Approx(1.00).margin(0.005));
}
