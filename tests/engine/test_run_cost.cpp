// The run-cost estimate and the budget the reader enforces.
#include <catch2/catch.hpp>

#include "gpuplan/results/gpu_timeline.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "sim/metrics_recorder.hpp"
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

const RunCostPart* partAt(const RunCost& c, const std::string& pointer) {
    for (const RunCostPart& p : c.parts)
        if (p.pointer == pointer) return &p;
    return nullptr;
}

/// `racks` racks of `nodes` 8-GPU nodes each, one pod; 10 h sampled every 600 s; one job.
Scenario racksOf(int racks, int nodes) {
    Scenario s = test::smallFleet(racks, nodes, "n8");
    s.horizonS = 36000;
    s.sampleIntervalS = 600;
    s.jobs = {test::job("a", 1, 60)};
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
    // GPUs held: 360 × 8 + 4 + 4 = 2,888. Racks and pods a sample visits: the rack and the
    // pod (8 GPUs each, two 4-GPU nodes' worth); none has the 64 GPUs of a rack slot.
    CHECK(c.gpuHolds == 2888);
    CHECK(c.unitsPerSample == 2);
    // Work (units in run_cost.cpp: 8 per event or pod, 0.7 per GPU held, 1 per shape per
    // pass, 4 per listed pending entry, 0.02 per rack or pod visited; set-up 9 a node, 2.3 a
    // GPU, 11 a rack or pod):
    //   class     360 jobs × 3 events × 8 + 720 pods × 8 + 2,880 × 0.7   = 16,416
    //   explicit  2 × 3 × 8 + 2 × 8 + 8 × 0.7                            =     69.6
    //   samples   61 × (8 + 3 shapes + 2 × 0.02) + 61 × 362 listed × 4   = 89,001.44
    //   topology  2 × 9 + 8 × 2.3 + 2 × 11                               =     58.4
    //   passes    1,147 events × 3 shapes                                =  3,441
    CHECK(c.workOps == Approx(16416 + 69.6 + 89001.44 + 58.4 + 3441));
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
    budget.workOps = 50000;  // the samples alone cost 89,001 of 108,986 (82 %)
    const std::string excess = budgetExcess(estimateRunCost(s, Fleet::build(s)), budget);
    CHECK_THAT(excess, Catch::StartsWith("the run would take about 1.1e+05 work units"));
    CHECK_THAT(excess, Catch::Contains("most of it from /sampleIntervalS: 61 samples (82 %)"));
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

TEST_CASE("a cohort chain 1,000 deep costs its depth per sample and per quota check") {
    // Cohorts c0 ⊃ c1 ⊃ … ⊃ c999, the team's queue in c999, one job on two 4-GPU nodes, 61
    // samples (10 h every 600 s). Each sample walks the 1,001 cohorts and queues once per GPU
    // model (1 here), not each team's whole tree per cohort.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 36000;
    s.sampleIntervalS = 600;
    s.cohorts.push_back({"c0", "", false, {}, 1});
    for (int i = 1; i < 1000; ++i)
        s.cohorts.push_back({"c" + std::to_string(i), "c" + std::to_string(i - 1), false, {}, 1});
    QuotaDef q;
    q.team = "t";
    q.cohort = "c999";
    q.flavors = {FlavorQuotaDef{"tg", 8, {}, {}}};
    s.quotas = {q};
    s.jobs = {test::job("a", 1, 60)};
    const RunCost c = estimateRunCost(s, Fleet::build(s));
    // A check climbs the queue and its 1,000 cohorts: 1,001 levels.
    CHECK(c.quotaLevels == 1001);
    // Events 3 × 1 + 61 = 64, one shape. Checks: (64 passes + 61 samples) × 1 shape + 3 × 1
    // job (queued, bound, released) = 128. Work at 0.03 a cohort-or-queue cell per sample and
    // 0.021 a level per check:
    //   61 × 1,001 × 0.03 + 128 × 1,001 × 0.021 = 1,831.83 + 2,690.688 = 4,522.518
    const RunCostPart* quota = partAt(c, "/cohorts");
    REQUIRE(quota);
    CHECK(quota->workOps == Approx(4522.518));
    CHECK(quota->what == "1,001 cohorts and queues, 1,001 levels deep");
    // The run: its quota series are what one job of 1 GPU holds for its 60 s.
    RunOptions options;
    options.checkInvariants = true;
    const Results r = simulate(s, options);
    CHECK(r.findSeries("quota_used_gpus{t}")->values[0] == 1);
    CHECK(r.findSeries("quota_used_gpus{t}")->values[1] == 0);
    CHECK(r.findSeries("quota_lent_gpus{t}")->values[0] == 0);
}

TEST_CASE("replications multiply the run, and only the first keeps its pending lists") {
    // "replications": 1000 is estimated as 1,000 runs, not one.
    Scenario s = costed();
    const RunCost one = estimateRunCost(s, Fleet::build(s));
    s.replications = 1000;
    const RunCost all = estimateRunCost(s, Fleet::build(s));
    CHECK(all.runs == 1000);
    // One run: 108,986.44 units (above), of which its pending lists 61 × 362 × 4 = 88,328.
    // The 999 others make no lists: 108,986.44 − 88,328 = 20,658.44 each. Summarising: per
    // run, every series value (61 samples × (the fixed series + the time)) twice over.
    const double seriesValues = 61.0 * (gpuplan::detail::kSeriesCount + 1);  // 23 + 1 today
    CHECK(one.workOps == Approx(108986.44));
    CHECK(all.workOps == Approx(108986.44 + 999 * 20658.44 + 1000 * seriesValues * 2));
    // Memory: the first run kept whole, two more at once without their lists (61 × 362 =
    // 22,082 entries of 12 bytes), and each run's series and 40 KPIs until summarised, then
    // three bands (mean, low, high).
    const double listBytes = 22082.0 * sizeof(PendingEntry);
    CHECK(all.memoryBytes ==
          Approx(one.memoryBytes + 2 * (one.memoryBytes - listBytes) +
                 1000 * (seriesValues * 8 + 40 * (sizeof(Kpi) + 128)) + 3 * seriesValues * 8));
    // 23.7 million units: within the default budget, not within 10 million.
    CHECK(budgetExcess(all, RunBudget{}).empty());
    RunBudget tight;
    tight.workOps = 1e7;
    CHECK_THAT(budgetExcess(all, tight), Catch::Contains("/replications: 1,000 runs"));
}

TEST_CASE("a sample visits only the racks and pods that could change its gang measures") {
    // 8-GPU nodes: the largest rack- or pod-local gang needs a unit of
    // two nodes' worth (16 GPUs) to exceed one free node; a 64-GPU rack slot needs 64.
    //   1,000 one-node racks:   the pod only                          =     1
    //   1,000 two-node racks:   1,000 racks + the pod                 = 1,001
    //   1,000 eight-node racks: 1,000 (gang) + 1,000 (slots) + pod    = 2,001
    CHECK(estimateRunCost(racksOf(1000, 1), Fleet::build(racksOf(1000, 1))).unitsPerSample == 1);
    CHECK(estimateRunCost(racksOf(1000, 2), Fleet::build(racksOf(1000, 2))).unitsPerSample == 1001);
    CHECK(estimateRunCost(racksOf(1000, 8), Fleet::build(racksOf(1000, 8))).unitsPerSample == 2001);
    // And the fleet's set-up: 1,000 one-node racks at 9 a node, 2.3 a GPU, 11 a rack or pod:
    //   1,000 × 9 + 8,000 × 2.3 + 1,001 × 11 = 9,000 + 18,400 + 11,011 = 38,411
    // Samples: 61 × (8 + 1 shape + 1 visit × 0.02) + 61 listed × 4 = 550.22 + 244 = 794.22.
    const Scenario s = racksOf(1000, 1);
    const RunCost c = estimateRunCost(s, Fleet::build(s));
    CHECK(partAt(c, "/topology")->workOps == Approx(38411));
    CHECK(partAt(c, "/sampleIntervalS")->workOps == Approx(794.22));
}

TEST_CASE("elastic resizes are counted up to the run's budget of GPU holds") {
    // A job that may grow to 1,000,000 GPUs. It grows at most once a window (600 s) and gives its
    // growth back at most once a growth: over 10 h, 2 × (36,000 / 600 + 1) = 122 resizes, each
    // recording at most the fleet's GPUs.
    Scenario s = test::smallFleet(1, 2, "n4");  // 8 GPUs
    s.horizonS = 36000;
    s.sampleIntervalS = 600;
    s.jobs = {test::job("a", 4, 36000)};
    s.jobs[0].traits.elasticMaxGpus = 1'000'000;
    RunCost c = estimateRunCost(s, Fleet::build(s));
    // 122 × 8 = 976 GPU holds, 122 resizes (each at least the job's own 4 GPUs: ≤ 244):
    //   memory 976 × (24 + 16) + 122 run segments;  work 976 × 2.5 + 122 × 8 = 3,416
    CHECK(c.resizeGpuHolds == 976);
    const RunCostPart* elastic = partAt(c, "/jobs/0/elastic");
    REQUIRE(elastic);
    CHECK(elastic->memoryBytes == Approx(976.0 * (sizeof(GpuInterval) + sizeof(PodPlacement)) +
                                         122.0 * sizeof(RunSegment)));
    CHECK(elastic->workOps == Approx(3416));
    // On 12,500 such nodes (100,000 GPUs) for a week: 2 × (1,008 + 1) × 100,000 = 201,800,000
    // holds, past the run's 2^25 = 33,554,432: memory at least 33,554,432 × 40 B = 1.25 GiB.
    s = test::smallFleet(1, 12500, "n8");
    s.horizonS = 7 * 86400.0;
    s.sampleIntervalS = 600;
    s.jobs = {test::job("a", 8, 36000)};
    s.jobs[0].traits.elasticMaxGpus = 1'000'000;
    c = estimateRunCost(s, Fleet::build(s));
    CHECK(c.resizeGpuHolds == 33554432);
    CHECK(RunOptions{}.maxElasticResizeGpuHolds == 33554432u);
    CHECK(partAt(c, "/jobs/0/elastic")->memoryBytes >= 33554432.0 * 40);
    RunBudget budget;
    budget.memoryBytes = 1ull << 30;
    CHECK_THAT(budgetExcess(c, budget), Catch::Contains("/jobs/0/elastic: up to 33,554,432 GPU"));
}
