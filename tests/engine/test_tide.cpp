// The daily tide (ArrivalProcess::Tide): a serving class's replicas follow
// min + (max − min)(1 + cos(2π(h − peak)/24))/2, and batch work borrows the trough and is
// reclaimed at the peak by priority preemption. Every number is worked out in a comment.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/model/workload.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// Serving: 1 to 5 replicas of 8 GPUs, peak at 14:00, priority 10; two days on eight 8-GPU
/// nodes.
Scenario servingTide() {
    Scenario s = test::smallFleet(1, 8, "n8");
    s.horizonS = 2 * 86400;
    s.sampleIntervalS = 3600;
    JobClassDef serving = test::jobClass("serving", 8, 0, 0);
    serving.arrival.process = ArrivalProcess::Tide;
    serving.arrival.minReplicas = 1;
    serving.arrival.maxReplicas = 5;
    serving.arrival.peakHourOfDay = 14;
    serving.traits.priority = 10;
    s.jobClasses = {serving};
    return s;
}

double allocatedAt(const Results& r, double timeS) {
    return r.findSeries("allocated_gpus")->values.at(*r.sampleAt(timeS));
}

}  // namespace

TEST_CASE("a tide's replicas follow the daily curve", "[tide]") {
    // Replica k ≥ 1 runs while (1 + cos θ)/2 > x_k = (k − 1 + ½)/4: x = 0.125, 0.375, 0.625,
    // 0.875, so half-windows of 24/2π · acos(2x − 1) = 9.24, 6.97, 5.03, 2.76 h around 14:00.
    const auto windows = tideWindows(servingTide().jobClasses[0].arrival, 2 * 86400);
    // Replica 0 all along; four replicas × two days (day −1's and day 2's windows fall
    // outside [0, 48 h)).
    REQUIRE(windows.size() == 1 + 4 * 2);
    CHECK(windows[0] == std::pair<double, double>{0, 2 * 86400});
    const double half1H = 24 / (2 * std::numbers::pi) * std::acos(-0.75);
    CHECK(half1H == Approx(9.2394).epsilon(1e-4));  // acos(−0.75) = 2.41886 rad × 3.81972
    CHECK(windows[1].first == Approx((14 - half1H) * 3600));
    CHECK(windows[1].second == Approx((14 + half1H) * 3600));
    CHECK(windows[2].first == Approx((38 - half1H) * 3600));
    // Allocation on the hour: at 14:00 all 5 replicas (40 GPUs); at 02:00 only the base one
    // (the curve is at its trough, 1); at 09:00 the curve is 1 + 4 × (1 + cos(2π·5/24))/2 =
    // 1 + 4 × 0.629 = 3.52: replicas with x < 0.629, the base and three more: 4 (32 GPUs).
    const Results r = test::run(servingTide());
    CHECK(allocatedAt(r, 14 * 3600) == 40);
    CHECK(allocatedAt(r, 2 * 3600) == 8);
    CHECK(allocatedAt(r, 9 * 3600) == 32);
    CHECK(allocatedAt(r, 24 * 3600 + 14 * 3600) == 40);
}

TEST_CASE("batch work borrows the trough and is reclaimed at the peak", "[tide]") {
    // Eight nodes; the tide wants 1..5 and batch (priority 0, 8 GPUs, 40 h) asks for 7 nodes
    // at 0. At 02:00 the tide holds 1 node, batch 7. As the tide rises, each new replica
    // finds no free node and preempts a batch job (priority preemption on): at 14:00 the
    // tide holds 5 nodes and batch 3. Batch jobs checkpoint hourly, so each preemption
    // loses at most an hour.
    Scenario s = servingTide();
    s.scheduler.preemption = PreemptionMode::Priority;
    JobClassDef batch = test::jobClass("batch", 8, 0, 40 * 3600.0);
    batch.arrival.process = ArrivalProcess::List;
    batch.arrival.timesS = std::vector<double>(7, 0.0);
    batch.traits.checkpointIntervalS = 3600;
    s.jobClasses.push_back(batch);
    const Results r = test::run(s);
    CHECK(allocatedAt(r, 2 * 3600) == 64);
    CHECK(allocatedAt(r, 14 * 3600) == 64);
    int servingAtPeak = 0, batchAtPeak = 0, preempted = 0;
    for (const RunSegment& seg : r.segments) {
        const bool serving = r.jobs[seg.job].spec.sourceIndex == 0;
        if (seg.startS <= 14 * 3600 && seg.endS > 14 * 3600)
            ++(serving ? servingAtPeak : batchAtPeak);
        preempted += !serving && seg.end == SegmentEnd::Preempted;
    }
    CHECK(servingAtPeak == 5);
    CHECK(batchAtPeak == 3);
    CHECK(preempted >= 4);  // four replicas rose into a full fleet on day 0
}

TEST_CASE("a tide class is read and written, and refuses a durationS", "[tide][input]") {
    const Scenario s = servingTide();
    const Scenario back = parseScenario(scenarioToJson(s), "tide.json", test::testCatalog());
    CHECK(back.jobClasses[0].arrival == s.jobClasses[0].arrival);
    std::string text = scenarioToJson(s);
    const auto at = text.find("\"gpus\"");
    text.insert(at, "\"durationS\": {\"kind\": \"fixed\", \"value\": 60}, ");
    CHECK_THROWS_WITH(
        parseScenario(text, "tide.json", test::testCatalog()),
        Catch::Contains("/jobClasses/0/durationS") && Catch::Contains("no durationS"));
    Scenario inverted = servingTide();
    inverted.jobClasses[0].arrival.maxReplicas = 1;
    CHECK_THROWS_WITH(parseScenario(scenarioToJson(inverted), "tide.json", test::testCatalog()),
                      Catch::Contains("/jobClasses/0/arrival/maxReplicas"));
}
