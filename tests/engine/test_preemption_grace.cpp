// Preemption with a termination grace period (scheduler.preemptionGraceS, kube's
// terminationGracePeriodSeconds): victims stop working at the notice but hold their GPUs until
// the grace ends; the job that preempted waits (WaitingForPreemptedWorkloads) on a room held
// for it — GPUs and quota — and takes no more victims meanwhile. Each case worked by hand on
// small fleets; runs check every invariant after each event.
#include <catch2/catch.hpp>

#include <map>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

JobDef prioritized(const std::string& name, int gpus, double durationS, double submitS,
                   int priority) {
    JobDef j = test::job(name, gpus, durationS, submitS);
    j.traits.priority = priority;
    return j;
}

std::vector<const RunSegment*> segmentsOf(const Results& r, const std::string& name) {
    return test::segmentsOf(r, test::jobIndex(r, name));
}

std::optional<PendingJob> pendingRow(const Results& r, double timeS, const std::string& name) {
    for (const PendingJob& p : r.pendingAt(timeS))
        if (p.job == test::jobIndex(r, name)) return p;
    return std::nullopt;
}

/// One node. low (priority 0, 8 GPUs, 10 h of work, hourly checkpoints) from 0; high
/// (priority 10, 8 GPUs, 1 h) at 1.5 h = 5,400 s; preemption by priority.
Scenario lowThenHigh(double graceS) {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.scheduler.preemptionGraceS = graceS;
    JobDef low = prioritized("low", 8, 36000, 0, 0);
    low.traits.checkpointIntervalS = 3600;
    s.jobs = {low, prioritized("high", 8, 3600, 5400, 10)};
    return s;
}

}  // namespace

TEST_CASE("a victim holds its GPUs through its grace period while the preemptor waits",
          "[preemption][grace]") {
    // Notice at 5,400 s: low has done 5,400 s of work, its last checkpoint kept 3,600, so
    // 1,800 s are lost — counted at the notice, the grace adds no work. It holds the node
    // until 5,400 + 30 = 5,430 s, when its segment ends Preempted. high starts then and ends
    // at 5,430 + 3,600 = 9,030 s; low restarts at 9,030 s with 36,000 − 3,600 = 32,400 s
    // left and ends at 41,430 s.
    const Results r = test::run(lowThenHigh(30));
    const auto low = segmentsOf(r, "low");
    REQUIRE(low.size() == 2);
    CHECK(low[0]->startS == 0);
    CHECK(low[0]->endS == 5430);
    CHECK(low[0]->end == SegmentEnd::Preempted);
    CHECK(low[0]->lostWorkS == 1800);
    CHECK(low[1]->startS == 9030);
    CHECK(r.jobs[test::jobIndex(r, "low")].endS == 41430);
    CHECK(r.jobs[test::jobIndex(r, "high")].firstStartS == 5430);
    CHECK(r.healthOf(test::jobIndex(r, "low")).preemptions == 1);

    // During the grace high waits with Kueue's token, naming its victim; low is bound, not
    // pending. At 5,430 s low waits, Preempted, and high runs.
    const auto waiting = pendingRow(r, 5415, "high");
    REQUIRE(waiting);
    CHECK(waiting->token == ReasonToken::WaitingForPreemptedWorkloads);
    CHECK(waiting->layer == Layer::Scheduling);
    CHECK_THAT(r.reasonText(waiting->reason),
               Catch::Contains("Pending the preemption of 1 workload(s): low"));
    CHECK_FALSE(pendingRow(r, 5415, "low"));
    const auto requeued = pendingRow(r, 5430, "low");
    REQUIRE(requeued);
    CHECK(requeued->token == ReasonToken::Preempted);
    CHECK_FALSE(pendingRow(r, 5430, "high"));

    // The grace is paid for: allocated 8 × (5,430 + 3,600 + 32,400) GPU-s, useful
    // 8 × (3,600 + 3,600 + 32,400). Instant eviction allocates 8 × 30 fewer.
    CHECK(r.kpi("goodput") == Approx(39600.0 / 41430));
    CHECK(test::run(lowThenHigh(0)).kpi("goodput") == Approx(39600.0 / 41400));
}

TEST_CASE("a job waiting for its victims takes no more meanwhile", "[preemption][grace]") {
    // Three nodes. low1 and low2 (priority 0, 8 GPUs, 10 h) at 0 and 1 s fill node0 and
    // node1; blocker and filler (priority 20, 4 GPUs each) at 2 and 3 s fill node2, filler
    // until 200 s. high (priority 10, 8 GPUs, 1 h) at 100 s gives notice to low2, the most
    // recently admitted of its candidates (priority 20 is above it); grace 600 s. filler's
    // end at 200 s makes a full pass in which high, not fitting the 4 GPUs it frees, is
    // looked at again: it must not preempt low1 too. high starts at 700 s, when low2 leaves
    // node1; low1 is never preempted.
    Scenario s = test::smallFleet(1, 3, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.scheduler.preemptionGraceS = 600;
    s.jobs = {prioritized("low1", 8, 36000, 0, 0), prioritized("low2", 8, 36000, 1, 0),
              prioritized("blocker", 4, 36000, 2, 20), prioritized("filler", 4, 197, 3, 20),
              prioritized("high", 8, 3600, 100, 10)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "high")].firstStartS == 700);
    CHECK(r.healthOf(test::jobIndex(r, "low1")).preemptions == 0);
    const auto low2 = segmentsOf(r, "low2");
    REQUIRE(low2.size() == 2);
    CHECK(low2[0]->endS == 700);
    CHECK(low2[0]->end == SegmentEnd::Preempted);
    // Its pending row at 240 s still says what it waits for, and until when: 700 s, 11 min
    // 40 s, read to the minute.
    const auto waiting = pendingRow(r, 240, "high");
    REQUIRE(waiting);
    CHECK(waiting->token == ReasonToken::WaitingForPreemptedWorkloads);
    CHECK_THAT(r.reasonText(waiting->reason), Catch::Contains("until d0 00:12"));

    SECTION("a node failure ends the grace early; the waiting job may then preempt again") {
        // low2 runs on node1 (pack fills node0 first). node1 fails at 300 s: low2 leaves,
        // still counted preempted (not evicted). high no longer waits for anyone, but node1
        // is down and node2 has 4 GPUs free: it gives notice to low1 at 300 s and starts at
        // 300 + 600 = 900 s.
        s.nodeEvents = {{300, "pod-rack-node1", NodeState::Failed}};
        const Results f = test::run(s);
        const auto l2 = segmentsOf(f, "low2");
        REQUIRE_FALSE(l2.empty());
        CHECK(f.fleet.nodes[f.placementOf(*l2[0])[0].node].name == "pod-rack-node1");
        CHECK(l2[0]->endS == 300);
        CHECK(l2[0]->end == SegmentEnd::Preempted);
        const auto l1 = segmentsOf(f, "low1");
        REQUIRE_FALSE(l1.empty());
        CHECK(l1[0]->endS == 900);
        CHECK(l1[0]->end == SegmentEnd::Preempted);
        CHECK(f.jobs[test::jobIndex(f, "high")].firstStartS == 900);
    }
}

TEST_CASE("a victim still in its grace period when the run ends counts as preempted",
          "[preemption][grace]") {
    // Horizon 5,415 s, in the middle of low's grace (5,400 to 5,430 s): its segment ends at
    // the horizon, Preempted, its lost work already counted; high never started.
    Scenario s = lowThenHigh(30);
    s.horizonS = 5415;
    const Results r = test::run(s);
    const auto low = segmentsOf(r, "low");
    REQUIRE(low.size() == 1);
    CHECK(low[0]->endS == 5415);
    CHECK(low[0]->end == SegmentEnd::Preempted);
    CHECK(low[0]->lostWorkS == 1800);
    CHECK(r.jobs[test::jobIndex(r, "high")].firstStartS == -1);
}

TEST_CASE("a shared GPU's victim stops demanding SMs at its notice", "[preemption][grace]") {
    // One GPU time-sliced into 2 replicas. a (priority 5) and low (priority 0) ask 0.9 GPU
    // at 100 % activity and 3,600 s of work each, from 0: d = 0.9 each, D = 1.8, both at
    // 1/1.8 speed. high (priority 10, the same ask, 3,600 s) at 1,800 s finds no replica
    // free and gives notice to low (lowest priority); grace 600 s.
    //   low by 1,800 s: 1,800 / 1.8 = 1,000 s of work, all lost (no checkpoints); its
    //     segment's mean slowdown 1.8; it holds its replica until 2,400 s.
    //   a: 1,000 s done at 1,800 s; alone on the SMs (D = 0.9) it runs at full speed until
    //     high binds at 2,400 s: 1,600 s done; then D = 1.8 again: 2,000 s left take
    //     3,600 s, a ends at 6,000 s.
    // At 1,860 s the GPU's allocation is both replicas (1.0) but only a occupies SMs:
    // min(0.9, 0.5 held) at full speed = 0.5.
    Scenario s = test::smallFleet(1, 1, "n1");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.scheduler.preemptionGraceS = 600;
    GpuSharingDef sharing;
    sharing.mode = SharingMode::TimeSlicing;
    sharing.timeSliceReplicas = 2;
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    auto share = [](const std::string& name, int priority, double submitS) {
        JobDef j = prioritized(name, 1, 3600, submitS, priority);
        j.traits.gpuMilli = 900;
        j.traits.smActivity = 1.0;
        return j;
    };
    s.jobs = {share("a", 5, 0), share("low", 0, 0), share("high", 10, 1800)};
    const Results r = test::run(s);
    const auto low = segmentsOf(r, "low");
    REQUIRE_FALSE(low.empty());
    CHECK(low[0]->endS == 2400);
    CHECK(low[0]->end == SegmentEnd::Preempted);
    CHECK(low[0]->lostWorkS == Approx(1000));
    CHECK(low[0]->slowdown == Approx(1.8));
    CHECK(r.jobs[test::jobIndex(r, "high")].firstStartS == 2400);
    CHECK(r.jobs[test::jobIndex(r, "a")].endS == Approx(6000));
    const std::size_t at1860 = *r.sampleAt(1860);
    CHECK(r.findSeries("allocation")->values[at1860] == Approx(1.0));
    CHECK(r.findSeries("occupancy")->values[at1860] == Approx(0.5));
}

TEST_CASE("shared-cohort with a 30 s grace: every preemptor starts when its grace ends",
          "[preemption][grace][preset]") {
    // The preset's quotas, reclaim and priority preemption, with kube's default 30 s grace.
    // Invariants are checked after every event (held rooms, victims off the books but still
    // allocated). From the definition: a preempted segment lasts at least its grace (the
    // notice comes after its start), and a job diagnosed WaitingForPreemptedWorkloads at its
    // notice t starts at t + 30 on the room held for it (the preset has no node failures to
    // cut a grace short).
    static const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    Scenario s = loadScenario(test::presetsDir() / "scenarios" / "shared-cohort.json", catalog);
    REQUIRE(s.nodeEvents.empty());
    s.scheduler.preemptionGraceS = 30;
    const Results r = test::run(s);
    int preempted = 0;
    for (const RunSegment& seg : r.segments)
        if (seg.end == SegmentEnd::Preempted) {
            ++preempted;
            CHECK(seg.endS - seg.startS >= 30);
        }
    CHECK(preempted > 100);  // the preset preempts about a thousand times a week
    std::map<std::uint32_t, double> firstNotice;
    for (const TimedDiagnosis& d : r.jobDiagnoses)
        if (d.entry.token == ReasonToken::WaitingForPreemptedWorkloads)
            firstNotice.try_emplace(d.entry.job, d.timeS);
    CHECK(firstNotice.size() > 100);
    for (const auto& [job, noticeS] : firstNotice) {
        bool startedOnTime = false;
        for (const RunSegment& seg : r.segments)
            startedOnTime |= seg.job == job && seg.startS == noticeS + 30;
        CHECK(startedOnTime);
    }
}
