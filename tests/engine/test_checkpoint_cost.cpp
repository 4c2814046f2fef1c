// What checkpoints cost (JobTraitsDef::checkpointCostS, checkpoint_policy.hpp): each pauses
// progress for its cost after every interval of work, so a job of work D takes D + cost ×
// (ceil(D / interval) − 1) of progress; an evicted job keeps the work of its last completed
// checkpoint. Checkpoint time is held but not useful; Young's and Daly's intervals weigh it
// against the work failures waste. Every expected number is worked out in the comment above it.
#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include <algorithm>
#include <cmath>

#include "gpuplan/economics/checkpoint_advice.hpp"
#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "scheduling/checkpoints.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

TEST_CASE("progress counts the work and the checkpoints written on the way", "[checkpoints]") {
    const CheckpointPolicy hourly{3600, 60};
    // 36,000 s of work: checkpoints after hours 1..9, none at the end: 9 × 60 = 540 s more.
    CHECK(hourly.checkpointsBefore(36000) == 9);
    CHECK(hourly.wallWorkS(36000) == 36540);
    // 36,001 s: a 10th checkpoint at 36,000 before the last second.
    CHECK(hourly.checkpointsBefore(36001) == 10);
    // Saved 10,800 s = three checkpoints: 10,800 + 3 × 60 of progress got there.
    CHECK(hourly.wallToSavedS(10800) == 10980);
    // No cost: progress is work.
    CHECK(CheckpointPolicy{3600, 0}.wallWorkS(36000) == 36000);
}

TEST_CASE("an eviction keeps the last completed checkpoint", "[checkpoints]") {
    using detail::checkpointOutcome;
    const CheckpointPolicy hourly{3600, 60};
    // A cycle is 3,600 s of work and 60 s writing: 3,660 s.
    // 3,630 s in: the first checkpoint is half written, nothing is saved, all 3,630 are lost.
    auto o = checkpointOutcome(hourly, 0, 3630, 36000);
    CHECK(o.savedS == 0);
    CHECK(o.overheadS == 0);
    CHECK(o.lostS == 3630);
    CHECK(o.workS == 3600);  // the 30 s past the hour were writing, not work
    // 3,660 s in: written; saved 3,600, 60 s of overhead, nothing lost.
    o = checkpointOutcome(hourly, 0, 3660, 36000);
    CHECK(o.savedS == 3600);
    CHECK(o.overheadS == 60);
    CHECK(o.lostS == 0);
    // Resuming from 3,600 saved (progress 3,660 from the start), 8,000 s more reach 11,660:
    // floor(11,660 / 3,660) = 3 checkpoints, two of them this binding's: saved 10,800,
    // overhead 120, lost 8,000 − 7,200 − 120 = 680.
    o = checkpointOutcome(hourly, 3600, 8000, 36000);
    CHECK(o.savedS == 10800);
    CHECK(o.overheadS == 120);
    CHECK(o.lostS == Approx(680));
    // Work done: 10,800 saved + the 680 s into the fourth cycle.
    CHECK(o.workS == Approx(11480));
    // From 5,000 s saved off the grid (a checkpoint on a spot notice: one periodic checkpoint
    // on the way, progress position 5,060), 2,500 s more reach 7,560: the periodic
    // checkpoint at 7,200 of work completes at 2 × 3,660 = 7,320; saved 7,200, overhead 60,
    // lost 2,500 − 2,200 − 60 = 240, work 7,200 + 240 = 7,440 (5,000 + 2,500 − 60).
    o = checkpointOutcome(hourly, 5000, 2500, 36000);
    CHECK(o.savedS == 7200);
    CHECK(o.overheadS == 60);
    CHECK(o.lostS == Approx(240));
    CHECK(o.workS == Approx(7440));
}

namespace {

/// The 10 h job of test_checkpoints.cpp (4 GPUs, 600 s startup, two 4-GPU nodes), saving
/// every hour at 60 s a checkpoint; node0 fails at 13,200 s when `fails`.
Scenario tenHourJob(bool fails) {
    Scenario s = test::smallFleet(1, 2, "n4");
    JobDef a = job("a", 4, 36000);
    a.traits.startupS = 600;
    a.traits.checkpointIntervalS = 3600;
    a.traits.checkpointCostS = 60;
    s.jobs = {a};
    if (fails) s.nodeEvents = {{13200, "pod-rack-node0", NodeState::Failed}};
    return s;
}

}  // namespace

TEST_CASE("checkpoints lengthen a run and are not useful work", "[checkpoints]") {
    // 600 s startup, then 36,540 s of progress (36,000 work + 9 × 60): ends at 37,140.
    // Allocated 4 × 37,140 = 148,560 GPU-s; useful 4 × 36,000 = 144,000; checkpointing
    // 4 × 540 = 2,160 GPU-s = 0.6 GPU-h.
    const Results r = test::run(tenHourJob(false));
    const std::uint32_t a = jobIndex(r, "a");
    CHECK(r.jobs[a].endS == 37140);
    CHECK(r.kpi("gpu_hours_useful") == Approx(40.0));
    CHECK(r.kpi("gpu_hours_checkpointing") == Approx(0.6));
    CHECK(r.kpi("goodput") == Approx(144000.0 / 148560.0));
    // A run whose jobs pay nothing for checkpoints lists no such KPI.
    Scenario free = tenHourJob(false);
    free.jobs[0].traits.checkpointCostS = 0;
    CHECK(test::run(free).findKpi("gpu_hours_checkpointing") == nullptr);
}

TEST_CASE("a failure loses the progress since the last completed checkpoint", "[checkpoints]") {
    // Progress from 600 to 13,200: 12,600 s. floor(12,600 / 3,660) = 3 checkpoints: saved
    // 10,800, overhead 180, lost 12,600 − 10,800 − 180 = 1,620.
    // Restart on node1 at 13,200: startup 600, then 36,540 − 10,980 = 25,560 of progress
    // (six more checkpoints, 360 s): ends at 13,200 + 600 + 25,560 = 39,360.
    // Allocated 4 × 39,360 = 157,440 GPU-s = useful 144,000 + lost 4 × 1,620 = 6,480
    // + checkpointing 4 × 540 = 2,160 + startups 4 × 1,200 = 4,800.
    const Results r = test::run(tenHourJob(true));
    const std::uint32_t a = jobIndex(r, "a");
    REQUIRE(r.jobs[a].segmentCount == 2);
    CHECK(r.interruptionsOf(a).lostWorkS == Approx(1620));
    CHECK(r.jobs[a].endS == 39360);
    CHECK(r.kpi("gpu_hours_lost") == Approx(6480.0 / 3600));
    CHECK(r.kpi("gpu_hours_checkpointing") == Approx(2160.0 / 3600));
    CHECK(r.kpi("gpu_hours_useful") == Approx(40.0));
    CHECK(r.kpi("gpu_hours_allocated") == Approx(157440.0 / 3600));
}

TEST_CASE("Young's and Daly's intervals", "[checkpoints]") {
    // δ = 300 s, M = 10 h = 36,000 s: Young √(2 × 300 × 36,000) = √21,600,000 = 4,647.58.
    CHECK(youngIntervalS(300, 36000) == Approx(4647.58).epsilon(1e-6));
    // Daly: x = δ / 2M = 1/240; √x = 0.0645497; 1 + √x / 3 + x / 9 = 1.0219795;
    // 4,647.58 × 1.0219795 − 300 = 4,449.73.
    CHECK(dalyIntervalS(300, 36000) == Approx(4449.73).epsilon(1e-5));
    // A checkpoint dearer than twice the MTBF: Daly says checkpoint every MTBF.
    CHECK(dalyIntervalS(80000, 36000) == 36000);
    // A job on one 8-GPU node of Llama 3's GPUs: 50,677 GPU-h / 8 = 6,334.6 h between
    // interruptions.
    CHECK(jobMtbfS(FailureDef::kLlama3MtbfGpuHours, 8) / 3600 == Approx(6334.6).epsilon(1e-4));
}

TEST_CASE("a run advises Young's and Daly's intervals from the nodes its jobs ran on",
          "[checkpoints]") {
    // Two 4-GPU nodes, per-GPU MTBF 40 GPU-h: the 4-GPU job on one node is interrupted every
    // 40 / 4 = 10 h = 36,000 s. Its 300 s checkpoints: Young 4,647.58 s, Daly 4,449.73 s
    // (as worked out above).
    Scenario s = test::smallFleet(1, 2, "n4");
    JobDef a = job("a", 4, 36000);
    a.traits.checkpointIntervalS = 3600;
    a.traits.checkpointCostS = 300;
    s.jobs = {a};
    s.failures = FailureDef{40, 60};
    const Results r = test::run(s);
    const auto one = checkpointAdviceOf(r, jobIndex(r, "a"));
    REQUIRE(one);
    CHECK(one->source == "a");
    CHECK(one->gpusExposed == 4);
    CHECK(one->mtbfS == Approx(36000));
    CHECK(one->youngS == Approx(4647.58).epsilon(1e-6));
    CHECK(one->dalyS == Approx(4449.73).epsilon(1e-5));
    CHECK(one->configured.intervalS == 3600);
    const auto all = checkpointAdvice(r);
    REQUIRE(all.size() == 1);
    CHECK(all[0].youngS == one->youngS);
    // Without random failures there is nothing to weigh a checkpoint against.
    s.failures.reset();
    CHECK(checkpointAdvice(test::run(s)).empty());
}

TEST_CASE("goodput over checkpoint intervals peaks within 15 % of Young's", "[checkpoints]") {
    // 16 nodes of 8 GPUs, each running one endless 8-GPU job, for a year. Per-GPU MTBF 80
    // GPU-h: each node (and its job) fails every M = 80 / 8 = 10 h = 36,000 s, about 876
    // times a year, 14,000 in all; repairs take a minute; a restart costs nothing. A
    // checkpoint costs δ = 300 s: Young's interval √(2δM) = 4,647.6 s. The expected goodput,
    // τ / (τ + δ) less the work lost (about (τ + δ) / 2M), is 0.854, 0.871, 0.876, 0.876,
    // 0.875, 0.868, 0.845 at 0.5, 0.7, 0.85, 1, 1.15, 1.4 and 2 × Young's interval (exact for
    // exponential failures: τ / (M (e^((τ+δ)/M) − 1)), at most 0.0063 between the neighbours
    // of the band), so the best of these must lie in the band 0.85..1.15. The same seed draws
    // the same failures for every interval, so the comparison is paired.
    const double costS = 300, nodeMtbfS = 36000;
    const double youngS = youngIntervalS(costS, nodeMtbfS);
    const std::vector<double> factors = {0.5, 0.7, 0.85, 1.0, 1.15, 1.4, 2.0};
    std::vector<double> goodput;
    for (double f : factors) {
        Scenario s = test::smallFleet(1, 16, "n8");
        s.horizonS = 365 * 86400.0;
        s.sampleIntervalS = 86400;
        s.failures = FailureDef{nodeMtbfS / 3600 * 8, 60};
        for (int i = 0; i < 16; ++i) {
            JobDef j = job("j" + std::to_string(i), 8, 1e9);
            j.traits.checkpointIntervalS = f * youngS;
            j.traits.checkpointCostS = costS;
            s.jobs.push_back(j);
        }
        goodput.push_back(test::run(s).kpi("goodput"));
    }
    const auto best = std::max_element(goodput.begin(), goodput.end()) - goodput.begin();
    INFO("goodput at 0.5..2 × Young: " << goodput[0] << " " << goodput[1] << " " << goodput[2]
                                       << " " << goodput[3] << " " << goodput[4] << " "
                                       << goodput[5] << " " << goodput[6]);
    CHECK(factors[best] >= 0.85);
    CHECK(factors[best] <= 1.15);
    // And the curve's ends are clearly worse: too frequent pays δ too often, too rare loses
    // too much work.
    CHECK(goodput.front() < goodput[static_cast<std::size_t>(best)] - 0.01);
    CHECK(goodput.back() < goodput[static_cast<std::size_t>(best)] - 0.01);
}

TEST_CASE("a checkpoint cost without an interval is refused", "[checkpoints][input]") {
    // Written from a scenario whose job pays 60 s a checkpoint but never writes one.
    Scenario s = tenHourJob(false);
    s.jobs[0].traits.checkpointIntervalS = 0;
    const std::string text = scenarioToJson(s);
    try {
        (void)parseScenario(text, "cost.json", test::testCatalog());
        FAIL("accepted a checkpoint cost with no interval");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("/jobs/0/checkpointCostS") != std::string::npos);
        CHECK(std::string(e.what()).find("checkpointIntervalS") != std::string::npos);
    }
}

TEST_CASE("the timeline's checkpoint marks fall where the engine wrote them", "[checkpoints]") {
    // A 10 h job of 4 GPUs, 600 s startup, a checkpoint every hour of work costing 60 s; node0
    // fails at 13,200 s and the job restarts on node1 at once.
    //   Binding 0: progress from 600 s; checkpoint m ends at 600 + m × 3,660:
    //     4,260, 7,920, 11,580 (the 4th, at 15,240, is past the failure).
    //   Saved: 3 × 3,600 = 10,800 s of work, which sits at 10,800 + 3 × 60 = 10,980 s of
    //   progress time. Binding 1: progress from 13,800; checkpoint m ends at
    //   13,800 + (m × 3,660 − 10,980) for m = 4…9 (none at the end, m = 10):
    //     17,460, 21,120, 24,780, 28,440, 32,100, 35,760; it completes at
    //     13,800 + (36,000 + 9 × 60 − 10,980) = 39,360.
    Scenario s = test::smallFleet(1, 2, "n4");
    JobDef a = job("a", 4, 36000);
    a.traits.startupS = 600;
    a.traits.checkpointIntervalS = 3600;
    a.traits.checkpointCostS = 60;
    s.jobs = {a};
    s.nodeEvents = {{13200, "pod-rack-node0", NodeState::Failed}};
    const Results r = test::run(s);
    REQUIRE(r.segments.size() == 2);
    CHECK(r.segments[0].savedWorkS == 0);
    CHECK(r.segments[1].savedWorkS == 10800);
    CHECK(r.segments[1].endS == Approx(39360));
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(r.checkpointTimesS(0, -inf, inf, 100) == std::vector<double>{4260, 7920, 11580});
    CHECK(r.checkpointTimesS(1, -inf, inf, 100) ==
          std::vector<double>{17460, 21120, 24780, 28440, 32100, 35760});
    // A window, and a cap: only what a frame shows.
    CHECK(r.checkpointTimesS(1, 20000, 30000, 100) == std::vector<double>{21120, 24780, 28440});
    CHECK(r.checkpointTimesS(1, 20000, 30000, 2) == std::vector<double>{21120, 24780});
}
