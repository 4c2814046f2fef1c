// Random node failures (FailureDef, node_events.cpp): drawn at the per-GPU MTBF's rate from
// the scenario's seed, each down for its repair time; a failure ends the jobs on its node,
// which restart from their last checkpoint.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

std::vector<NodeStateChange> failuresOf(const Results& r) {
    std::vector<NodeStateChange> out;
    for (const NodeStateChange& c : r.nodeChanges)
        if (c.state == NodeState::Failed) out.push_back(c);
    return out;
}

}  // namespace

TEST_CASE("nodes fail at the rate of their GPUs over the per-GPU MTBF", "[failures]") {
    // 100 nodes of 8 GPUs for a year (8,760 h), MTBF 8,760 GPU-hours: each node fails at
    // 8 / 8,760 per hour of up time. With 1 h of repair per failure, up time is 1 / (1 +
    // 8/8,760) of the year, so failures per node ~ Poisson(8 × 0.999088) and in all
    // ~ Poisson(799.27): standard deviation 28.3. A fixed seed gives one draw; it must lie
    // within 4 standard deviations (113) of the mean.
    Scenario s = test::smallFleet(1, 100, "n8");
    s.horizonS = 8760 * 3600.0;
    s.sampleIntervalS = 86400;
    s.failures = FailureDef{8760, 3600};
    const Results r = test::run(s);
    const auto failures = failuresOf(r);
    const double expected = 800 / (1 + 8.0 / 8760);
    CHECK(std::abs(static_cast<double>(failures.size()) - expected) < 4 * std::sqrt(expected));
    CHECK(r.kpi("node_failures") == static_cast<double>(failures.size()));
    // Every failure is repaired one hour later (when that is inside the run).
    for (const NodeStateChange& f : failures) {
        if (f.timeS + 3600 >= s.horizonS) continue;
        bool repaired = false;
        for (const NodeStateChange& c : r.nodeChanges)
            repaired |=
                c.node == f.node && c.state == NodeState::Ready && c.timeS == f.timeS + 3600;
        CHECK(repaired);
    }
    SECTION("same seed, same failures; another seed, others") {
        const Results again = test::run(s);
        REQUIRE(failuresOf(again).size() == failures.size());
        CHECK(failuresOf(again).front().timeS == failures.front().timeS);
        Scenario other = s;
        other.seed = s.seed + 1;
        CHECK(failuresOf(test::run(other)).front().timeS != failures.front().timeS);
    }
}

TEST_CASE("a job on a failing node loses only the work since its last checkpoint", "[failures]") {
    // One 8-GPU node, MTBF 400 GPU-hours (a failure every 50 h of up time on average), 2 h
    // repairs, over 60 days. One job of 300 h of work with hourly checkpoints. Walking its
    // segments: work done in a segment is its length (no startup, slowdown 1); at each
    // failure the job keeps floor((saved + done) / 3600) × 3600 and loses the rest; it
    // restarts when the node is repaired, and its useful work adds up to 300 h exactly.
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 60 * 86400.0;
    s.sampleIntervalS = 3600;
    s.failures = FailureDef{400, 7200};
    JobDef j = test::job("long", 8, 300 * 3600.0);
    j.traits.checkpointIntervalS = 3600;
    s.jobs = {j};
    const Results r = test::run(s);
    REQUIRE(failuresOf(r).size() >= 2);  // this seed's draws do interrupt the job
    double savedS = 0;
    double previousEndS = -1;
    for (const RunSegment& seg : r.segments) {
        const double doneS = seg.endS - seg.startS;
        if (previousEndS >= 0) CHECK(seg.startS == previousEndS + 7200);  // the repair
        if (seg.end == SegmentEnd::Evicted) {
            const double keptS = std::floor((savedS + doneS) / 3600) * 3600;
            CHECK(seg.lostWorkS == Approx(savedS + doneS - keptS));
            savedS = keptS;
            previousEndS = seg.endS;
        } else {
            CHECK(seg.end == SegmentEnd::Completed);
            CHECK(savedS + doneS == Approx(300 * 3600.0));
        }
    }
    CHECK(r.jobs[0].status == JobStatus::Completed);
}

TEST_CASE("failures are read strictly and round-trip", "[failures]") {
    static const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    const std::string base = R"({"format": "gpuplan-scenario", "formatVersion": 1, "name": "f",
        "horizonS": 86400, "topology": {"pods": [{"racks": [{"nodes": [{"nodeType": "dgx-h100",
        "count": 2}]}]}]}, "teams": [{"name": "t"}], )";
    auto refusal = [&](const std::string& failures) {
        try {
            parseScenario(base + failures + "}", "f.json", catalog);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(refusal(R"("failures": {"mtbfGpuHours": 1000})"),
               Catch::Contains("/failures: missing required key \"repairS\""));
    CHECK_THAT(refusal(R"("failures": {"repairS": 60, "mtbfGpuHours": 0})"),
               Catch::Contains("/failures/mtbfGpuHours: must be between 1"));
    // 16 GPUs for a day at 1 GPU-hour: 384 failures, fine; 1e6 nodes' worth would not be.
    CHECK(refusal(R"("failures": {"repairS": 60, "mtbfGpuHours": 1})").empty());
    const Scenario s =
        parseScenario(base + R"("failures": {"repairS": 600})" + "}", "f.json", catalog);
    REQUIRE(s.failures);
    CHECK(s.failures->mtbfGpuHours == Approx(50677.0).epsilon(1e-4));  // Llama 3's
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog) == s);
}
