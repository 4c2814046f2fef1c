// The run-cost estimate and the budget the reader enforces.
#include <catch2/catch.hpp>

#include "gpuplan/run_cost.hpp"
#include "gpuplan/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One rack of two 4-GPU nodes; 10 h sampled every 600 s; a class of 8-GPU jobs in pods of 4
/// at 36 per hour (360 jobs); two explicit 4-GPU jobs, one pinned to a node.
Scenario costed() {
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 36000;
    s.sampleIntervalS = 600;
    JobClassDef c = test::jobClass("c", 8, 36, 600);
    c.traits.gpusPerPod = 4;
    s.jobClasses = {c};
    s.jobs = {test::job("a", 4, 60), test::job("b", 4, 60)};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack-node0"};
    return s;
}

}  // namespace

TEST_CASE("the run cost counts jobs, pods, samples, events and shapes as the run makes them") {
    const Scenario s = costed();
    const RunCost c = estimateRunCost(s, Fleet::build(s));
    // Jobs: 36/h × 10 h = 360 from the class + 2 explicit = 362.
    CHECK(c.jobs == 362);
    // Pods: 360 × 8/4 = 720, and 1 each for the explicit jobs (automatic pods of ≤ 4 GPUs).
    CHECK(c.pods == 722);
    // Samples at 0, 600, …, 36,000: 61. Events: 3 per job + samples = 1,086 + 61 = 1,147.
    CHECK(c.samples == 61);
    CHECK(c.events == 1147);
    // Shapes: the class has one size; the two explicit jobs differ by their pin: 3.
    CHECK(c.shapes == 3);
    // Work (units in run_cost.cpp: 8 per event or pod, 1 per shape per pass, 4 per listed
    // pending entry):
    //   class     360 jobs × 3 events × 8 + 720 pods × 8           = 14,400
    //   explicit  2 × 3 × 8 + 2 × 8                                 =     64
    //   samples   61 × (8 + 3 shapes) + 61 × 362 listed × 4         = 88,999
    //   passes    1,147 events × 3 shapes                           =  3,441
    CHECK(c.workOps == Approx(14400 + 64 + 88999 + 3441));
    CHECK(c.memoryBytes > 0);
}

TEST_CASE("the run cost grows with what drives it") {
    Scenario s = costed();
    const RunCost base = estimateRunCost(s, Fleet::build(s));
    s.jobClasses[0].arrival.ratePerHour *= 2;  // 360 more jobs and 720 more pods
    const RunCost doubled = estimateRunCost(s, Fleet::build(s));
    CHECK(doubled.jobs == base.jobs + 360);
    CHECK(doubled.memoryBytes > base.memoryBytes);
    s.jobClasses[0].maxJobs = 10;  // the cap wins: 10 + 2 jobs
    CHECK(estimateRunCost(s, Fleet::build(s)).jobs == 12);
}

TEST_CASE("a scenario over the run budget is refused, naming what costs most") {
    const Scenario s = costed();
    RunBudget budget;
    budget.workOps = 50000;  // the samples alone cost 88,999
    const std::string excess = budgetExcess(estimateRunCost(s, Fleet::build(s)), budget);
    CHECK_THAT(excess, Catch::StartsWith("the run would take about 1.1e+05 work units"));
    CHECK_THAT(excess, Catch::Contains("most of it from /sampleIntervalS: 61 samples (83 %)"));
    CHECK(budgetExcess(estimateRunCost(s, Fleet::build(s)), RunBudget{}).empty());

    // The reader enforces it, at "/", with the same words.
    LoadOptions options;
    options.budget = budget;
    try {
        parseScenario(scenarioToJson(s), "costed.json", test::testCatalog(), options);
        FAIL("accepted a scenario over the budget");
    } catch (const InputError& e) {
        CHECK(e.place() == "/");
        CHECK(e.message() == excess);
    }
    options.budget = RunBudget{};
    CHECK_NOTHROW(parseScenario(scenarioToJson(s), "costed.json", test::testCatalog(), options));
}
