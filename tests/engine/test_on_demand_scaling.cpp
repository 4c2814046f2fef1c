// On-demand nodes that follow demand (OnDemandDef, autoscaler.hpp) and the buying mix by node
// order (BuyingMixDef): queued jobs ask for elastic nodes, Ready provisioningDelayS later;
// a node idle for idleTimeoutS is given back; cloud capacity is paid only while up. Every
// expected number is worked out in the comment above it.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {

/// One rack: "pod-rack-r" (one reserved 8-GPU node), then "pod-rack-d0", "pod-rack-d1" (two
/// on-demand nodes, elastic: 600 s to provision, given back after 600 s idle); 10 h.
/// Jobs a and b of 8 GPUs and 1 h, both at 0.
Scenario reservedPlusElastic(int onDemandNodes = 2) {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 36000;
    NodeGroupDef r = s.pods[0].racks[0].nodes[0];
    r.name = "r";
    NodeGroupDef d = r;
    d.name = "d";
    d.count = onDemandNodes;
    d.buyingClass = BuyingClass::OnDemand;
    s.pods[0].racks[0].nodes = {r, d};
    s.pricing = test::tgPrices();
    s.onDemand = OnDemandDef{600, 600, std::nullopt};
    s.jobs = {job("a", 8, 3600, 0), job("b", 8, 3600, 0)};
    return s;
}

}  // namespace

TEST_CASE("a queued job scales up an on-demand node, which is paid only while up",
          "[autoscale][cost]") {
    // t = 0: a binds on r; b finds nothing Ready and asks for one node: d0, Ready at 600.
    // b waits 600 s, runs 600..4,200 on d0; d0 is idle from 4,200 and given back at 4,800.
    // Paid: r 8 × $2 × 10 h = $160; d0 8 × $5 × (4,800 − 600) / 3,600 h = $46.67; d1 never.
    const Results r = test::run(reservedPlusElastic());
    const std::uint32_t b = jobIndex(r, "b");
    CHECK(r.jobs[b].firstStartS == 600);
    CHECK(r.fleet.nodes[r.placementOf(r.segments[r.jobs[b].lastSegment])[0].node].name ==
          "pod-rack-d0");
    const auto ups = test::nodeChangesBy(r, NodeChangeCause::ScaleUp);
    const auto downs = test::nodeChangesBy(r, NodeChangeCause::ScaleDown);
    REQUIRE(ups.size() == 1);
    CHECK(ups[0].timeS == 600);
    CHECK(r.fleet.nodes[ups[0].node].name == "pod-rack-d0");
    REQUIRE(downs.size() == 1);
    CHECK(downs[0].timeS == 4800);
    CHECK(downs[0].state == NodeState::Provisioning);
    CHECK(r.kpi("cost_usd") == Approx(160 + 8 * 5 * 4200.0 / 3600));
}

TEST_CASE("a job waiting for a scale-up is pending on the provisioning layer", "[autoscale]") {
    // At 300 s, b waits for d0 (Ready at 600): provisioning layer, "Ready in 5 min". To
    // kube-scheduler the cluster is r alone (d0 and d1 are not Nodes until provisioned):
    // "0/1 nodes are available: 1 Insufficient nvidia.com/gpu", no not-ready taint.
    const Results r = test::run(reservedPlusElastic());
    const std::uint32_t b = jobIndex(r, "b");
    bool found = false;
    for (const PendingJob& p : r.pendingAt(300)) {
        if (p.job != b) continue;
        found = true;
        CHECK(p.layer == Layer::Provisioning);
        CHECK_THAT(r.reasonText(p.reason), Catch::Contains("scaling up"));
        CHECK_THAT(r.reasonText(p.reason),
                   Catch::StartsWith("0/1 nodes are available: 1 Insufficient nvidia.com/gpu."));
        CHECK_THAT(r.reasonText(p.reason), !Catch::Contains("not-ready"));
    }
    CHECK(found);
}

TEST_CASE("scale-up stops at the fleet's on-demand nodes", "[autoscale]") {
    // Three 8-GPU jobs at 0 and one on-demand node: a on r, b asks for d0, c can get
    // nothing more (the ceiling) and waits: for r, free at 3,600 (before d0's b ends at 4,200).
    Scenario s = reservedPlusElastic(1);
    s.jobs.push_back(job("c", 8, 3600, 0));
    const Results r = test::run(s);
    CHECK(test::nodeChangesBy(r, NodeChangeCause::ScaleUp).size() == 1);
    CHECK(r.jobs[jobIndex(r, "c")].firstStartS == 3600);
}

TEST_CASE("a job binding on an idle node cancels its scale-down", "[autoscale]") {
    // c (8 GPUs, 1 h) arrives at 4,500 while d0 idles (since 4,200; r is free too, from
    // 3,600, and pack takes r first). Add d (8 GPUs, 1 h) at 4,500 as well: it takes d0 at
    // 4,500, so d0's scale-down planned at 4,800 is stale; d0 idles again from 8,100 and is
    // given back at 8,700.
    Scenario s = reservedPlusElastic();
    s.jobs.push_back(job("c", 8, 3600, 4500));
    s.jobs.push_back(job("d", 8, 3600, 4500));
    const Results r = test::run(s);
    const auto downs = test::nodeChangesBy(r, NodeChangeCause::ScaleDown);
    REQUIRE(downs.size() == 1);
    CHECK(downs[0].timeS == 8700);
    CHECK(test::nodeChangesBy(r, NodeChangeCause::ScaleUp).size() == 1);
}

TEST_CASE("a buying mix buys the first nodes reserved and the rest on demand", "[autoscale]") {
    // Three nodes of one group, all "reserved" in the topology; the mix keeps the first
    // reserved and makes the other two on demand (elastic): the run of the first test case.
    Scenario s = reservedPlusElastic();
    NodeGroupDef all = s.pods[0].racks[0].nodes[0];
    all.name = "n";
    all.count = 3;
    s.pods[0].racks[0].nodes = {all};
    s.buyingMix = BuyingMixDef{1, 0};
    const Results r = test::run(s);
    CHECK(r.fleet.nodes[0].buyingClass == BuyingClass::Reserved);
    CHECK(r.fleet.nodes[1].buyingClass == BuyingClass::OnDemand);
    CHECK(r.fleet.nodes[1].elastic);
    CHECK(r.fleet.nodes[1].usdPerGpuHour == 5.0);
    CHECK(r.jobs[jobIndex(r, "b")].firstStartS == 600);
    CHECK(r.kpi("cost_usd") == Approx(160 + 8 * 5 * 4200.0 / 3600));
    // Spot in the middle: node1 spot (always up, $1.50), node2 on demand. b takes node1 at
    // once: nothing scales; paid 8 × $2 × 10 + 8 × $1.50 × 10 = $280.
    s.buyingMix = BuyingMixDef{1, 1};
    const Results withSpot = test::run(s);
    CHECK(withSpot.jobs[jobIndex(withSpot, "b")].firstStartS == 0);
    CHECK(test::nodeChangesBy(withSpot, NodeChangeCause::ScaleUp).empty());
    CHECK(withSpot.kpi("cost_usd") == Approx(280));
}

TEST_CASE("on-demand and buying-mix settings out of place are refused", "[autoscale][input]") {
    auto refusal = [](const Scenario& s) -> std::string {
        try {
            (void)parseScenario(scenarioToJson(s), "mix.json", test::testCatalog());
        } catch (const InputError& e) {
            return e.what();
        }
        return "(accepted)";
    };
    Scenario tooMany = reservedPlusElastic();
    tooMany.buyingMix = BuyingMixDef{3, 1};  // 4 nodes of 3
    CHECK_THAT(refusal(tooMany), Catch::Contains("/buyingMix") && Catch::Contains("3 nodes"));
    Scenario unpriced = reservedPlusElastic();
    unpriced.pricing->gpuModels[0].of(BuyingClass::Spot).reset();
    unpriced.buyingMix = BuyingMixDef{1, 1};
    CHECK_THAT(refusal(unpriced), Catch::Contains("/buyingMix") && Catch::Contains("spot"));
    // A round trip keeps both.
    Scenario good = reservedPlusElastic();
    good.buyingMix = BuyingMixDef{2, 0};
    const Scenario back = parseScenario(scenarioToJson(good), "mix.json", test::testCatalog());
    CHECK(back.onDemand == good.onDemand);
    CHECK(back.buyingMix == good.buyingMix);
}

TEST_CASE("the on-demand ceiling caps the nodes up or coming at once", "[autoscale]") {
    // Three elastic nodes, a ceiling of two, four 8-GPU one-hour jobs at 0. t = 0: a binds on
    // r; b, c and d ask for three nodes, the ceiling grants d0 and d1 (Ready at 600): b and c
    // run 600..4,200 there. d waits for r, free when a ends at 3,600. Without the ceiling d2
    // comes too and d starts at 600.
    Scenario s = reservedPlusElastic(3);
    s.jobs = {job("a", 8, 3600, 0), job("b", 8, 3600, 0), job("c", 8, 3600, 0),
              job("d", 8, 3600, 0)};
    SECTION("ceiling 2") {
        s.onDemand->maxNodes = 2;
        const Results r = test::run(s);
        CHECK(test::nodeChangesBy(r, NodeChangeCause::ScaleUp).size() == 2);
        CHECK(r.jobs[jobIndex(r, "d")].firstStartS == 3600);
        CHECK(r.kpi("on_demand_scale_ups") == 2);
    }
    SECTION("no ceiling") {
        const Results r = test::run(s);
        CHECK(test::nodeChangesBy(r, NodeChangeCause::ScaleUp).size() == 3);
        CHECK(r.jobs[jobIndex(r, "d")].firstStartS == 600);
    }
    SECTION("written and read back") {
        s.onDemand->maxNodes = 2;
        CHECK(parseScenario(scenarioToJson(s), "again.json", test::testCatalog()) == s);
    }
}

TEST_CASE("scale-up counts the first 4,096 queued jobs, in queue order across shapes",
          "[autoscale]") {
    // 7,000 on-demand one-GPU nodes (n1), none up; 300 s to provision. From t = 0, 0.001 s
    // apart, alternately a job of 1 GPU and one of 2 pods × 1 GPU: 5,000 jobs, two shapes
    // whose jobs interleave in the queue. The autoscaler counts the first 4,096 in queue order
    // (Autoscaler::kMaxScan): 2,048 of each, asking 2,048 × 1 + 2,048 × 2 = 6,144 nodes — not
    // the 2,500 + 5,000 = 7,500 all 5,000 would ask, which the 7,000 nodes could not give.
    // At the sample at 60 s nothing is up yet, and the pending reasons say how many nodes are
    // coming: 6,144 (counting every job would ask 7,500 and get the 7,000 there are).
    Scenario s = test::smallFleet(1, 1, "n1");
    s.horizonS = 120;
    s.pods[0].racks[0].nodes[0].count = 7000;
    s.pods[0].racks[0].nodes[0].buyingClass = BuyingClass::OnDemand;
    s.onDemand = OnDemandDef{300, 600, std::nullopt};
    JobClassDef one = test::jobClass("one", 1, 0, 3600);
    one.arrival.process = ArrivalProcess::List;
    JobClassDef two = test::jobClass("two", 2, 0, 3600);
    two.arrival.process = ArrivalProcess::List;
    two.traits.gpusPerPod = 1;
    for (int i = 0; i < 2500; ++i) {
        one.arrival.timesS.push_back(0.002 * i);
        two.arrival.timesS.push_back(0.002 * i + 0.001);
    }
    s.jobClasses = {one, two};
    const Results r = test::run(s);
    REQUIRE(r.sampleTimesS[1] == 60);
    REQUIRE(r.pendingAtSample(1).size() == 5000);
    int told = 0;
    for (const PendingEntry& e : r.pendingAtSample(1))
        told += r.reasons[e.reason].find("(6144 coming in all)") != std::string::npos;
    CHECK(told == 5000);
}
