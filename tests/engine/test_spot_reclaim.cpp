// Spot reclaims (SpotDef, node_events.cpp, Simulation::spotNotice): a spot node is reclaimed
// at the rate its monthly interruption share gives, after a notice (cordoned meanwhile); a
// running job whose checkpoint fits in the notice writes one and loses nothing, any other
// loses its work since its last checkpoint; a new instance is Ready returnS after the reclaim.
// Reclaim times are random: each expectation is derived from the times the run drew (listed
// in Results::nodeChanges) by those rules, or from the rate.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;
using test::segmentsOf;

namespace {

/// One 4-GPU spot node ("pod-rack-s"), reclaimed at 99.9 % a month (mean time to reclaim
/// 30 d / −ln(0.001) = 4.34 d), AWS's 120 s notice, back an hour after each reclaim; 60 days.
/// One job of 4 GPUs and 20 days of work, checkpointing hourly at `checkpointCostS` each.
Scenario spotNodeWithJob(double checkpointCostS) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 60 * 86400.0;
    s.sampleIntervalS = 3600;
    NodeGroupDef& g = s.pods[0].racks[0].nodes[0];
    g.name = "s";
    g.buyingClass = BuyingClass::Spot;
    s.pricing = test::tgPrices();
    s.spot = SpotDef{0.999, 120, 3600};
    JobDef a = job("a", 4, 20 * 86400.0);
    a.traits.checkpointIntervalS = 3600;
    a.traits.checkpointCostS = checkpointCostS;
    s.jobs = {a};
    return s;
}

}  // namespace

TEST_CASE("a reclaim is a notice, a reclaim noticeS later and a return returnS after that",
          "[spot]") {
    const Results r = test::run(spotNodeWithJob(60));
    const auto notices = test::nodeChangesBy(r, NodeChangeCause::SpotNotice);
    const auto reclaims = test::nodeChangesBy(r, NodeChangeCause::SpotReclaim);
    const auto returns = test::nodeChangesBy(r, NodeChangeCause::SpotReturn);
    // 60 days at a mean of 4.34 days up (+ 1 h down) per cycle: about 13.7 reclaims.
    REQUIRE(notices.size() >= 3);
    REQUIRE(reclaims.size() >= notices.size() - 1);
    for (std::size_t i = 0; i < reclaims.size(); ++i) {
        CHECK(notices[i].state == NodeState::Cordoned);
        CHECK(reclaims[i].state == NodeState::Failed);
        CHECK(reclaims[i].timeS == notices[i].timeS + 120);
        if (i < returns.size()) {
            CHECK(returns[i].state == NodeState::Ready);
            CHECK(returns[i].timeS == reclaims[i].timeS + 3600);
        }
    }
}

TEST_CASE("a job whose checkpoint fits in the notice loses nothing", "[spot]") {
    // Checkpoint cost 60 s ≤ 120 s notice: at each notice the job writes a checkpoint of all
    // its work and leaves 60 s later, before the reclaim; its next binding (when the new
    // instance is Ready) does only what was left.
    const Results r = test::run(spotNodeWithJob(60));
    const std::uint32_t a = jobIndex(r, "a");
    const auto notices = test::nodeChangesBy(r, NodeChangeCause::SpotNotice);
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() >= 2);
    for (std::size_t i = 0; i + 1 < segs.size(); ++i) {
        CHECK(segs[i]->end == SegmentEnd::Evicted);
        CHECK(segs[i]->lostWorkS == 0);
        // It left 60 s after a notice.
        bool afterNotice = false;
        for (const NodeStateChange& n : notices)
            afterNotice |= segs[i]->endS == n.timeS + 60;
        CHECK(afterNotice);
    }
    CHECK(r.interruptionsOf(a).lostWorkS == 0);
    CHECK(r.kpi("gpu_hours_lost") == 0);
    // Work is conserved: the job completes with useful GPU-hours = 4 × 20 d × 24 = 1,920
    // (its work, done once), when it completes inside the 60 days.
    if (r.jobs[a].status == JobStatus::Completed) CHECK(r.kpi("gpu_hours_useful") == Approx(1920));
}

TEST_CASE("a job whose checkpoint does not fit loses its work since the last one", "[spot]") {
    // Checkpoint cost 300 s > 120 s notice: it runs on to the reclaim and is evicted there,
    // losing the progress since its last completed hourly checkpoint: with cycles of
    // 3,600 + 300 s from its binding's start, (reclaim − progress start) mod 3,900, less 300 s
    // of a checkpoint being written when that falls in the last 300 s of a cycle... all of it
    // counts as lost: lost = that remainder, below 3,900 s.
    const Results r = test::run(spotNodeWithJob(300));
    const std::uint32_t a = jobIndex(r, "a");
    const auto reclaims = test::nodeChangesBy(r, NodeChangeCause::SpotReclaim);
    const auto segs = segmentsOf(r, a);
    REQUIRE(segs.size() >= 2);
    // The first binding starts at 0 with nothing saved: progress from 0.
    REQUIRE(segs[0]->end == SegmentEnd::Evicted);
    CHECK(segs[0]->endS == reclaims.front().timeS);
    const double expectedLostS = std::fmod(reclaims.front().timeS, 3900.0);
    CHECK(segs[0]->lostWorkS == Approx(expectedLostS).margin(1e-3));
    CHECK(r.interruptionsOf(a).lostWorkS > 0);
}

TEST_CASE("spot savings are net of the work reclaims lost", "[spot][cost]") {
    // spot_savings_usd = spot GPU-hours paid × ($5 on demand − $1.50 spot) − lost GPU-hours
    // on spot × $5. The node is paid while not Failed: 60 days less an hour per reclaim.
    for (double costS : {60.0, 300.0}) {
        const Results r = test::run(spotNodeWithJob(costS));
        double downS = 0;
        const auto reclaims = test::nodeChangesBy(r, NodeChangeCause::SpotReclaim);
        for (const NodeStateChange& c : reclaims)
            downS += std::min(3600.0, r.horizonS - c.timeS);
        const double paidGpuH = 4 * (r.horizonS - downS) / 3600;
        const double lostGpuH = r.kpi("gpu_hours_lost");
        CHECK(r.kpi("cost_usd") == Approx(paidGpuH * 1.5));
        CHECK(r.kpi("spot_savings_usd") == Approx(paidGpuH * (5 - 1.5) - lostGpuH * 5));
        if (costS > 120) CHECK(lostGpuH > 0);
    }
}

TEST_CASE("reclaims come at the rate of the monthly interruption share", "[spot]") {
    // 200 spot nodes for a year, 10 % a month: rate −ln(0.9) per 30 days = 0.10536 per node
    // per 30 d; up time is the year less 1 h per reclaim (negligible: ~1.3 h a node), so
    // reclaims ~ Poisson(200 × 365/30 × 0.10536 × (1 − 1.5e-4)) = Poisson(256.3): sd 16.0.
    // A fixed seed gives one draw; it must lie within 4 sd.
    Scenario s = test::smallFleet(1, 200, "n4");
    s.horizonS = 365 * 86400.0;
    s.sampleIntervalS = 86400;
    s.pods[0].racks[0].nodes[0].buyingClass = BuyingClass::Spot;
    s.spot = SpotDef{0.10, 30, 3600};
    const Results r = test::run(s);
    const double n =
        static_cast<double>(test::nodeChangesBy(r, NodeChangeCause::SpotReclaim).size());
    const double expected = 200 * 365 / 30.0 * -std::log(0.9);
    CHECK(std::abs(n - expected) < 4 * std::sqrt(expected));
    // The same seed draws the same reclaims.
    const Results again = test::run(s);
    CHECK(again.fingerprint == r.fingerprint);
}

TEST_CASE("spot and failures on non-spot nodes: failures keep their draws", "[spot]") {
    // A reserved node's failures come from its own stream: adding spot reclaims to the
    // scenario (which has no spot node) changes nothing.
    Scenario s = test::smallFleet(1, 4, "n4");
    s.horizonS = 30 * 86400.0;
    s.sampleIntervalS = 3600;
    s.failures = FailureDef{2000, 3600};
    const Results before = test::run(s);
    s.spot = SpotDef{0.2, 120, 600};
    const Results after = test::run(s);
    CHECK(after.fingerprint == before.fingerprint);
    CHECK(after.nodeChanges.size() == before.nodeChanges.size());
}

TEST_CASE("spot settings out of range are refused with their place", "[spot][input]") {
    Scenario s = spotNodeWithJob(60);
    s.spot->monthlyInterruptionFraction = 1.0;  // written as is: the reader must refuse it
    try {
        (void)parseScenario(scenarioToJson(s), "spot.json", test::testCatalog());
        FAIL("accepted a monthly interruption share of 1");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("/spot/monthlyInterruptionFraction") != std::string::npos);
    }
    // A round trip keeps every setting.
    Scenario good = spotNodeWithJob(60);
    good.spot = SpotDef{0.05, 30, 900};
    const Scenario back = parseScenario(scenarioToJson(good), "spot.json", test::testCatalog());
    REQUIRE(back.spot);
    CHECK(*back.spot == *good.spot);
}

TEST_CASE("a spot notice reaches the jobs of a node the user cordoned", "[spot]") {
    // As above (60 s checkpoints fit the notice), with the node cordoned at 1,000 s while the
    // job runs on it: the notice changes no state there, yet the job still checkpoints all its
    // work and leaves 60 s after it, losing nothing.
    Scenario s = spotNodeWithJob(60);
    s.nodeEvents = {{1000, "pod-rack-s", NodeState::Cordoned}};
    const Results r = test::run(s);
    const std::uint32_t a = jobIndex(r, "a");
    const auto reclaims = test::nodeChangesBy(r, NodeChangeCause::SpotReclaim);
    REQUIRE(!reclaims.empty());
    const auto segs = segmentsOf(r, a);
    REQUIRE(!segs.empty());
    CHECK(segs[0]->end == SegmentEnd::Evicted);
    CHECK(segs[0]->endS == reclaims.front().timeS - 120 + 60);
    CHECK(segs[0]->lostWorkS == 0);
}
