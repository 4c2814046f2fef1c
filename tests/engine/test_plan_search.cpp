// The planner's search (gpuplan/studies/plan_search.hpp) on evaluators whose answer is known:
// bisection finds the smallest passing value of a monotone function, racing stops at two
// replications when every interval is clear of its bound, a range whose top misses is
// infeasible with the closest candidate named, choices are enumerated and the cheapest wins,
// and malformed --target / --vary text is refused with the option and what is wrong.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/studies/plan_search.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// A range "/racks=0..40" whose value v gives a wait of 100 / (v + 1) hours, the same on
/// every replication but for a small alternating noise ±`noise`, and costs v.
PlanEvaluator waitFalls(double noise) {
    return [noise](const PlanCandidate& c, int replication) {
        const double v = static_cast<double>(c[0]);
        const double sign = replication % 2 == 0 ? 1 : -1;
        return PlanEvaluation{{100 / (v + 1) + sign * noise}, v};
    };
}

/// The search over "/racks=0..40" for one target, with waitFalls(noise).
PlanSearchResult searchRacks(const char* target, double noise, PlanSearchOptions options = {}) {
    return searchPlan({parsePlanDimension("/racks=0..40")}, {parsePlanTarget(target)},
                      waitFalls(noise), options);
}

}  // namespace

TEST_CASE("a target reads KPI<=V, KPI>=V and team:NAME:KPI") {
    const PlanTarget a = parsePlanTarget("wait_s_p95<=7200");
    CHECK(a.kpi == "wait_s_p95");
    CHECK(a.team.empty());
    CHECK(a.sense == TargetSense::AtMost);
    CHECK(a.bound == 7200);
    const PlanTarget b = parsePlanTarget("team:research:allocation_share>=0.25");
    CHECK(b.team == "research");
    CHECK(b.kpi == "allocation_share");
    CHECK(b.sense == TargetSense::AtLeast);
    CHECK(b.bound == 0.25);
    for (const char* bad : {"wait_s_p95", "<=5", "wait<=x", "wait<=1e999", "team::wait<=1",
                            "team:research<=1", "wait<=5 "})
        CHECK_THROWS_AS(parsePlanTarget(bad), InputError);
}

TEST_CASE("a dimension reads POINTER=LO..HI or POINTER=a|b|c") {
    const PlanDimension r = parsePlanDimension("/topology/pods/0/racks=1..40");
    CHECK(r.pointer == "/topology/pods/0/racks");
    CHECK(!r.isChoice());
    CHECK(r.lo == 1);
    CHECK(r.hi == 40);
    CHECK(r.size() == 40);
    const PlanDimension c = parsePlanDimension("/topology/pods/0/nodeType=dgx-h100|dgx-b200");
    CHECK(c.isChoice());
    CHECK(c.choices == std::vector<std::string>{"dgx-h100", "dgx-b200"});
    CHECK(c.size() == 2);
    CHECK(test::errorOf([] { parsePlanDimension("/a=9..3"); }) ==
          "--vary: /a=9..3: the range is inverted (9 > 3)");
    for (const char* bad : {"racks=1..4", "/a", "/a=", "/a=1..", "/a=x..4", "/a=only", "/a=b||c",
                            "/a=b|b", "/a=0..9223372036854775807", "/a=0..1000000001", "/a=-1..4"})
        CHECK_THROWS_AS(parsePlanDimension(bad), InputError);
}

TEST_CASE("bisection finds the smallest value that meets a monotone target") {
    // wait = 100 / (v + 1) ≤ 4 ⇔ v + 1 ≥ 25 ⇔ v ≥ 24. Without noise every interval has zero
    // width, so each candidate is decided on its first two replications.
    const PlanSearchResult r = searchRacks("wait<=4", 0);
    REQUIRE(r.feasible);
    CHECK(r.best.candidate == PlanCandidate{24});
    CHECK(r.best.objective.mean == 24);
    CHECK(r.best.replications == 2);
    // The top (40), then bisection over [0, 40]: ⌈log2 41⌉ = 6 more candidates at most, each
    // two replications.
    CHECK(r.evaluated.size() <= 7);
    CHECK(r.evaluations == 2 * static_cast<int>(r.evaluated.size()));
}

TEST_CASE("racing adds replications only where an interval straddles the bound") {
    // Noise ±0.05 alternating (w + 0.05, w − 0.05, w + 0.05, …). Two replications: mean w,
    // s = 0.0707, 95 % half-width t(0.975, 1) · s/√2 = 12.706 · 0.05 = 0.635, so a candidate
    // whose wait is more than 0.635 from 4 is decided in two (the top, 40: wait 2.44).
    // v = 25 (wait 3.846) straddles 4 at two; at three the mean is w + 1/60 = 3.863, s =
    // 0.0577, half-width 4.303 · 0.0577/√3 = 0.143, upper 4.006 > 4; at four mean 3.846,
    // s = 0.0577, half-width 3.182 · 0.0577/2 = 0.092, upper 3.938 ≤ 4: met in four.
    // v = 24 (wait exactly 4) is never below 4 with margin: not met at the most runs.
    PlanSearchOptions options;
    options.maxReplications = 8;
    const PlanSearchResult r = searchRacks("wait<=4", 0.05, options);
    REQUIRE(r.feasible);
    for (const PlanVerdict& v : r.evaluated) {
        const double wait = 100 / (static_cast<double>(v.candidate[0]) + 1);
        if (std::abs(wait - 4) > 0.7) CHECK(v.replications == 2);
        if (v.candidate[0] == 24) {
            CHECK_FALSE(v.met);
            CHECK(v.replications == 8);
        }
    }
    CHECK(r.best.candidate == PlanCandidate{25});
    CHECK(r.best.replications == 4);
    CHECK(r.best.targets[0].high == Approx(3.938).epsilon(0.001));
}

TEST_CASE("a range whose top misses is infeasible, and names the closest candidate") {
    // wait = 100 / (v + 1) ≤ 1 needs v ≥ 99: beyond 0..40. The top, 40, misses least:
    // mean 100/41 = 2.439, past the bound by 1.439 (the bound 1 is the scale).
    const PlanSearchResult r = searchRacks("wait<=1", 0);
    CHECK_FALSE(r.feasible);
    CHECK(r.best.candidate == PlanCandidate{40});
    CHECK(r.best.miss == Approx(100.0 / 41 - 1));
    CHECK(r.evaluated.size() == 1);  // nothing below a failing top is tried
}

TEST_CASE("choices are enumerated and the cheapest passing point wins") {
    // Model "a" halves the wait per rack and costs 3 a rack; model "b" costs 2 a rack.
    //   a: wait = 50 / (v + 1) ≤ 4 ⇔ v ≥ 11.5 → v = 12, cost 36
    //   b: wait = 100 / (v + 1) ≤ 4 ⇔ v ≥ 24 → v = 24, cost 48
    const std::vector<PlanDimension> dims{parsePlanDimension("/model=a|b"),
                                          parsePlanDimension("/racks=0..40")};
    const std::vector<PlanTarget> targets{parsePlanTarget("wait<=4")};
    const PlanEvaluator evaluate = [](const PlanCandidate& c, int) {
        const double v = static_cast<double>(c[1]);
        const bool a = c[0] == 0;
        return PlanEvaluation{{(a ? 50 : 100) / (v + 1)}, (a ? 3 : 2) * v};
    };
    const PlanSearchResult r = searchPlan(dims, targets, evaluate);
    REQUIRE(r.feasible);
    CHECK(r.best.candidate == PlanCandidate{0, 12});
    CHECK(r.best.objective.mean == 36);
}

TEST_CASE("two ranges are each lowered until neither can go lower") {
    // Two kinds of rack adding capacity x + 2y; the target needs x + 2y ≥ 10, written as a
    // shortfall 10 − x − 2y ≤ 0. From the tops (10, 10): x is lowered first, to 0 (0 + 20
    // ≥ 10); then y, to 5 (0 + 2·5 = 10); a second round lowers neither: the point (0, 5).
    const std::vector<PlanDimension> dims{parsePlanDimension("/x=0..10"),
                                          parsePlanDimension("/y=0..10")};
    const std::vector<PlanTarget> targets{parsePlanTarget("shortfall<=0")};
    const PlanEvaluator evaluate = [](const PlanCandidate& c, int) {
        const double capacity = static_cast<double>(c[0] + 2 * c[1]);
        return PlanEvaluation{{10 - capacity}, static_cast<double>(c[0] + c[1])};
    };
    const PlanSearchResult r = searchPlan(dims, targets, evaluate);
    REQUIRE(r.feasible);
    CHECK(r.best.candidate == PlanCandidate{0, 5});
    // One step lower in y was judged, and missed (shortfall 2).
    bool sawBelow = false;
    for (const PlanVerdict& v : r.evaluated)
        if (v.candidate == PlanCandidate{0, 4}) {
            sawBelow = true;
            CHECK_FALSE(v.met);
        }
    CHECK(sawBelow);
}

TEST_CASE("a target at least a value is met by its interval's lower bound") {
    // share = v / 40 ≥ 0.5 ⇔ v ≥ 20.
    const std::vector<PlanDimension> dims{parsePlanDimension("/racks=0..40")};
    const std::vector<PlanTarget> targets{parsePlanTarget("team:research:share>=0.5")};
    const PlanEvaluator evaluate = [](const PlanCandidate& c, int) {
        return PlanEvaluation{{static_cast<double>(c[0]) / 40}, static_cast<double>(c[0])};
    };
    const PlanSearchResult r = searchPlan(dims, targets, evaluate);
    REQUIRE(r.feasible);
    CHECK(r.best.candidate == PlanCandidate{20});
}

TEST_CASE("asking replications in batches changes the runs made, not the verdicts") {
    // The racing case above with batches of 3: a candidate decided at two replications has
    // run a third that is dropped; every verdict, and the runs they use, are the same.
    PlanSearchOptions options;
    options.maxReplications = 8;
    const PlanSearchResult one = searchRacks("wait<=4", 0.05, options);
    options.batchReplications = 3;
    const PlanSearchResult three = searchRacks("wait<=4", 0.05, options);
    REQUIRE(three.evaluated.size() == one.evaluated.size());
    for (std::size_t i = 0; i < one.evaluated.size(); ++i) {
        CHECK(three.evaluated[i].candidate == one.evaluated[i].candidate);
        CHECK(three.evaluated[i].replications == one.evaluated[i].replications);
        CHECK(three.evaluated[i].targets[0].high == one.evaluated[i].targets[0].high);
    }
    CHECK(three.evaluations == one.evaluations);
    CHECK(one.runsExecuted == one.evaluations);
    CHECK(three.runsExecuted > three.evaluations);
}

TEST_CASE("a table of runs made elsewhere gives the search that made them") {
    // Every run of "/racks=0..40" × 5 replications in a table: the search over it asks only
    // runs the table holds and finds what the direct search finds. A run it lacks is named.
    const PlanDimension racks = parsePlanDimension("/racks=0..40");
    const PlanEvaluator direct = waitFalls(0.05);
    PlanRunTable table;
    for (std::size_t i = 0; i < planGridSize({racks}); ++i)
        for (int r = 0; r < 5; ++r)
            table.add(planCandidateAt({racks}, i), r, direct(planCandidateAt({racks}, i), r));
    CHECK(table.size() == 41 * 5);
    const PlanSearchResult fromTable =
        searchPlan({racks}, {parsePlanTarget("wait<=4")}, table.evaluator(), PlanSearchOptions{});
    const PlanSearchResult ran = searchRacks("wait<=4", 0.05);
    CHECK(fromTable.best.candidate == ran.best.candidate);
    CHECK(fromTable.evaluations == ran.evaluations);
    PlanRunTable partial;
    partial.add({40}, 0, direct({40}, 0));
    CHECK_THROWS_WITH(
        searchPlan({racks}, {parsePlanTarget("wait<=4")}, partial.evaluator(), PlanSearchOptions{}),
        "no run of candidate (40), replication 1");
}

TEST_CASE("the grid numbers candidates with the last dimension fastest") {
    const std::vector<PlanDimension> dims{parsePlanDimension("/m=a|b|c"),
                                          parsePlanDimension("/n=1..4")};
    CHECK(planGridSize(dims) == 12);
    CHECK(planCandidateAt(dims, 0) == PlanCandidate{0, 0});
    CHECK(planCandidateAt(dims, 5) == PlanCandidate{1, 1});
    CHECK(planCandidateAt(dims, 11) == PlanCandidate{2, 3});
    CHECK(planValueText(dims[0], 2) == "c");
    CHECK(planValueText(dims[1], 2) == "3");
    // Per choice: the top and one round of bisection per range, ⌈log2 4⌉ + 1 = 3: 3 × 4.
    CHECK(planCandidateBound(dims) == 12);
    // Two ranges of 41, lowered in both orders: 1 + 2 orders × 2 rounds × (7 + 7) = 57 (below
    // the grid's 1,681).
    CHECK(planCandidateBound({parsePlanDimension("/x=0..40"), parsePlanDimension("/y=0..40")}) ==
          57);
}

TEST_CASE("the search stops at its candidate cap with a plan that still meets the targets") {
    PlanSearchOptions options;
    options.maxCandidates = 3;  // the top and two bisection steps
    const PlanSearchResult r = searchRacks("wait<=4", 0, options);
    CHECK(r.capped);
    REQUIRE(r.feasible);
    CHECK(r.evaluated.size() == 3);
    // The top 40, then 20 (wait 4.76: misses), then 30 (3.23: meets): the plan is 30.
    CHECK(r.best.candidate == PlanCandidate{30});
}

TEST_CASE("the baseline is judged first, and wins when it already meets the targets") {
    PlanSearchOptions options;
    options.baseline = PlanCandidate{30};
    const PlanSearchResult r = searchRacks("wait<=4", 0, options);
    REQUIRE(r.baseline);
    CHECK(r.baseline->candidate == PlanCandidate{30});
    CHECK(r.baseline->met);
    CHECK(r.evaluated.front().candidate == PlanCandidate{30});
    CHECK(r.best.candidate == PlanCandidate{24});  // cheaper than standing still at 30
    options.baseline = PlanCandidate{10};
    CHECK_FALSE(searchRacks("wait<=4", 0, options).baseline->met);
}

TEST_CASE("the frontier keeps the candidates nothing beats on cost and every target") {
    // Without noise the racks' waits fall as their cost rises: every candidate judged is on
    // the front (cheaper, or a shorter wait), in cost order.
    const PlanSearchResult r = searchRacks("wait<=4", 0);
    const std::vector<std::size_t> front = planFrontier(r, {parsePlanTarget("wait<=4")});
    CHECK(front.size() == r.evaluated.size());
    for (std::size_t i = 1; i < front.size(); ++i)
        CHECK(r.evaluated[front[i - 1]].objective.mean < r.evaluated[front[i]].objective.mean);
    // A candidate dearer and slower than another is not on it.
    PlanSearchResult two;
    PlanVerdict cheapFast, dearSlow;
    cheapFast.objective.mean = 1;
    cheapFast.targets = {MeanInterval{}};
    cheapFast.targets[0].mean = 2;
    dearSlow.objective.mean = 5;
    dearSlow.targets = {MeanInterval{}};
    dearSlow.targets[0].mean = 3;
    two.evaluated = {dearSlow, cheapFast};
    CHECK(planFrontier(two, {parsePlanTarget("wait<=4")}) == std::vector<std::size_t>{1});
}

TEST_CASE("with two ranges every order of descent is tried, so the order given does not matter") {
    // Capacity x + 2y ≥ 10 (a shortfall 10 − x − 2y ≤ 0) at a cost x + 3y. Lowering x first
    // from the tops (10, 10) ends at (0, 5), cost 15; lowering y first ends at (10, 0), cost
    // 10. The cheaper, (10, 0), is the plan whichever range is given first.
    const auto evaluate = [](bool xFirst) {
        return [xFirst](const PlanCandidate& c, int) {
            const double x = static_cast<double>(c[xFirst ? 0 : 1]);
            const double y = static_cast<double>(c[xFirst ? 1 : 0]);
            return PlanEvaluation{{10 - x - 2 * y}, x + 3 * y};
        };
    };
    const std::vector<PlanTarget> targets{parsePlanTarget("shortfall<=0")};
    const PlanSearchResult xy = searchPlan(
        {parsePlanDimension("/x=0..10"), parsePlanDimension("/y=0..10")}, targets, evaluate(true));
    const PlanSearchResult yx = searchPlan(
        {parsePlanDimension("/y=0..10"), parsePlanDimension("/x=0..10")}, targets, evaluate(false));
    REQUIRE(xy.feasible);
    REQUIRE(yx.feasible);
    CHECK(xy.best.candidate == PlanCandidate{10, 0});
    CHECK(yx.best.candidate == PlanCandidate{0, 10});
    CHECK(xy.best.objective.mean == 10);
    CHECK(yx.best.objective.mean == 10);
}

TEST_CASE("racing stops as soon as one target is missed by its whole interval") {
    // Two targets: "a" is far past its bound on every run (missed at two), "b" straddles its
    // bound. Without the early stop "b" would race on to the most replications.
    const PlanEvaluator evaluate = [](const PlanCandidate&, int replication) {
        return PlanEvaluation{{100, replication % 2 == 0 ? 0.9 : 1.1}, 1};
    };
    PlanSearchOptions options;
    options.maxReplications = 9;
    const PlanSearchResult r =
        searchPlan({parsePlanDimension("/racks=0..3")},
                   {parsePlanTarget("a<=1"), parsePlanTarget("b<=1")}, evaluate, options);
    CHECK_FALSE(r.feasible);
    REQUIRE(r.evaluated.size() == 1);
    CHECK(r.evaluated[0].replications == 2);
}
