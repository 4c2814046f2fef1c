// Memory on a shared GPU and the MPS fault domain (engine/src/resources/shared_gpus.hpp): OOM under
// time-slicing, MPS client memory limits, a crash-looping MPS client taking its neighbours
// down, and determinism with all of it. The test catalog's GPU "tg" has 80 GB of HBM.
#include <catch2/catch.hpp>

#include <algorithm>

#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

Scenario oneSharedGpu(SharingMode mode) {
    Scenario s = test::smallFleet(1, 1, "n1");
    s.pods[0].racks[0].nodes[0].sharing.mode = mode;
    s.pods[0].racks[0].nodes[0].sharing.timeSliceReplicas = 2;
    return s;
}

JobDef share(const std::string& name, int milli, double memoryGb, double submitS = 0) {
    JobDef j = test::job(name, 1, 3600, submitS);
    j.traits.gpuMilli = milli;
    j.traits.memoryGbPerGpu = memoryGb;
    return j;
}

/// Every reason the run recorded for a job (at samples and between them).
std::vector<std::string> reasonsOf(const Results& r, std::uint32_t job) {
    std::vector<std::string> out;
    for (const TimedDiagnosis& d : r.jobDiagnoses)
        if (d.entry.job == job) out.push_back(r.reasons[d.entry.reason]);
    return out;
}

bool anyContains(const std::vector<std::string>& texts, const std::string& part) {
    return std::any_of(texts.begin(), texts.end(),
                       [&](const std::string& t) { return t.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("Time-slicing has no memory isolation: the pod that overfills HBM is OOM-killed",
          "[interference][memory]") {
    // Two 50 GB jobs on an 80 GB GPU with 2 replicas. a binds at 0 and runs its hour. b
    // binds at 10: 50 + 50 = 100 GB > 80 GB, its allocation fails: it crash-loops (bound, no
    // progress) for crashLoopHoldS(0) = 7 attempts × 30 s + back-offs 10 + 20 + 40 + 80 +
    // 160 + 300 = 820 s, and fails at 830.
    Scenario s = oneSharedGpu(SharingMode::TimeSlicing);
    s.jobs = {share("a", 500, 50), share("b", 500, 50, 10)};
    const Results r = test::run(s);
    const auto a = test::jobIndex(r, "a"), b = test::jobIndex(r, "b");
    CHECK(r.jobs[a].status == JobStatus::Completed);
    CHECK(r.jobs[a].endS == 3600);
    CHECK(r.jobs[b].status == JobStatus::Failed);
    CHECK(r.jobs[b].endS == 830);
    CHECK(r.segments[r.jobs[b].lastSegment].crashLoop);
    // The workload layer says why, as for other crash loops.
    const std::vector<PendingJob> pending = r.pendingAt(20);
    const auto row = std::find_if(pending.begin(), pending.end(),
                                  [&](const PendingJob& p) { return p.job == b; });
    REQUIRE(row != pending.end());
    CHECK(row->layer == Layer::Workload);
    CHECK(r.reasons[row->reason].find("OOMKilled: 2 pods on time-sliced GPU") != std::string::npos);
    CHECK(r.reasons[row->reason].find("need 100 GB of 80 GB") != std::string::npos);
}

TEST_CASE("Pods that fit the HBM together share a time-sliced GPU", "[interference][memory]") {
    // 40 + 40 = 80 GB ≤ 80 GB: both run.
    Scenario s = oneSharedGpu(SharingMode::TimeSlicing);
    s.jobs = {share("a", 500, 40), share("b", 500, 40)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "a")].status == JobStatus::Completed);
    CHECK(r.jobs[test::jobIndex(r, "b")].status == JobStatus::Completed);
}

TEST_CASE("An MPS client past its memory limit is OOM-killed", "[interference][memory]") {
    // The default limit is the HBM × the client's share: 0.4 × 80 = 32 GB. b needs 40 GB: it
    // crash-loops though the GPU's memory would hold it; a (0.5, 40 GB ≤ 40 GB) runs.
    // With the limit set to 48 GB for every client, b fits (40 ≤ 48; 80 GB in all).
    Scenario s = oneSharedGpu(SharingMode::Mps);
    s.jobs = {share("a", 500, 40), share("b", 400, 40, 3600)};
    SECTION("default limit: HBM × share") {
        const Results r = test::run(s);
        const auto b = test::jobIndex(r, "b");
        CHECK(r.jobs[test::jobIndex(r, "a")].status == JobStatus::Completed);
        CHECK(r.jobs[b].status == JobStatus::Failed);
        CHECK(anyContains(reasonsOf(r, b), "past its MPS client memory limit of 32 GB"));
    }
    SECTION("a set limit") {
        s.pods[0].racks[0].nodes[0].sharing.mpsMemoryLimitGb = 48;
        const Results r = test::run(s);
        CHECK(r.jobs[test::jobIndex(r, "b")].status == JobStatus::Completed);
    }
}

TEST_CASE("A crash-looping MPS client takes every other client on its GPU down at each crash",
          "[interference][mps-fault]") {
    // a (0.5 GPU, 1 h) binds at 0; b (0.4 GPU, 40 GB > its 32 GB limit) binds at 0 too and
    // crash-loops. Its attempts run 30 s each with back-offs 10, 20, 40, 80, 160, 300 s, so
    // it crashes at 30, 70, 120, 190, 300, 490 and 820 s (the last ends it: Failed).
    // Each crash ends every MPS client on the GPU: a is evicted from scratch and, the GPU
    // having room, bound again at once; 7 crashes, 8 bindings. Its last binding starts at
    // 820 s and runs the full hour: it completes at 4,420 s.
    Scenario s = oneSharedGpu(SharingMode::Mps);
    s.jobs = {share("a", 500, 0), share("b", 400, 40)};
    const Results r = test::run(s);
    const auto a = test::jobIndex(r, "a"), b = test::jobIndex(r, "b");
    CHECK(r.jobs[b].status == JobStatus::Failed);
    CHECK(r.jobs[b].endS == 820);
    CHECK(r.jobs[a].segmentCount == 8);
    CHECK(r.jobs[a].endS == 4420);
    std::vector<double> evictions;
    for (const RunSegment& seg : r.segments)
        if (seg.job == a && seg.end == SegmentEnd::Evicted) evictions.push_back(seg.endS);
    CHECK(evictions == std::vector<double>{30, 70, 120, 190, 300, 490, 820});
    CHECK(anyContains(reasonsOf(r, a),
                      "MPS fault on " + r.fleet.nodes[0].name + " GPU 0 from job b"));
}

TEST_CASE("A crash loop under time-slicing ends no neighbour", "[interference][mps-fault]") {
    // The fault domain is MPS's: time-sliced pods are separate processes and contexts. b
    // needs 90 GB, more than the HBM: it crash-loops; a runs its hour once.
    Scenario s = oneSharedGpu(SharingMode::TimeSlicing);
    s.jobs = {share("a", 500, 0), share("b", 500, 90)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "a")].segmentCount == 1);
    CHECK(r.jobs[test::jobIndex(r, "a")].endS == 3600);
}

TEST_CASE("Sharing runs are deterministic, with interference, OOM and faults",
          "[interference][determinism]") {
    // A rack of MPS nodes and one of time-sliced nodes, shares of every size with memory
    // needs that sometimes overfill: the same seed gives the same fingerprint, and the run
    // keeps every invariant (test::run checks them after every event).
    Scenario s = test::smallFleet(1, 2, "n4");
    NodeGroupDef& mps = s.pods[0].racks[0].nodes[0];
    mps.sharing.mode = SharingMode::Mps;
    mps.sharing.mpsComputeCapPct = 40;
    NodeGroupDef ts = mps;
    ts.name = "ts";
    ts.sharing = GpuSharingDef{.mode = SharingMode::TimeSlicing, .timeSliceReplicas = 3};
    s.pods[0].racks[0].nodes.push_back(ts);
    s.horizonS = 6 * 3600;
    JobClassDef c = test::jobClass("c", 1, 30, 1800);
    c.traits.gpuMilli = 500;
    c.traits.smActivity = 0.9;
    c.traits.memoryGbPerGpu = 30;
    JobClassDef big = test::jobClass("big", 1, 4, 1800);
    big.traits.gpuMilli = 500;
    big.traits.memoryGbPerGpu = 45;  // past an MPS client's 40 GB
    s.jobClasses = {c, big};
    const Results r1 = test::run(s);
    const Results r2 = test::run(s);
    CHECK(r1.fingerprint == r2.fingerprint);
    CHECK(r1.eventCount == r2.eventCount);
    // The run exercised what it claims: some share slowed, some crash-looped.
    CHECK(std::any_of(r1.jobs.begin(), r1.jobs.end(),
                      [](const JobRecord& j) { return j.slowdown > 1.01f; }));
    CHECK(std::any_of(r1.segments.begin(), r1.segments.end(),
                      [](const RunSegment& seg) { return seg.crashLoop; }));
}

TEST_CASE("Mixed fleets keep every invariant under sharing, failures and every policy",
          "[interference][invariants]") {
    // Whole, MPS (capped) and time-sliced nodes; shares, gangs of shares and whole jobs with
    // startups, memory that sometimes overfills, a node failing and coming back. test::run
    // checks after every event that each running share's slowdown is the one its GPUs give
    // (recomputed from the bound jobs), that occupancy ≤ allocation, and the GPU books.
    const auto policy =
        GENERATE(PlacementPolicy::Pack, PlacementPolicy::Spread, PlacementPolicy::TopologyAware);
    const auto backfill = GENERATE(BackfillMode::Easy, BackfillMode::Greedy);
    const std::uint64_t seed = GENERATE(1u, 2u);
    Scenario s = test::smallFleet(1, 2, "n4");
    s.seed = seed;
    s.horizonS = 12 * 3600;
    s.scheduler.placement = policy;
    s.scheduler.backfill = backfill;
    NodeGroupDef& mps = s.pods[0].racks[0].nodes[0];
    mps.name = "mps";
    mps.sharing = GpuSharingDef{.mode = SharingMode::Mps, .mpsClients = 4, .mpsComputeCapPct = 30};
    NodeGroupDef ts = mps;
    ts.name = "ts";
    ts.sharing = GpuSharingDef{.mode = SharingMode::TimeSlicing, .timeSliceReplicas = 3};
    NodeGroupDef whole = mps;
    whole.name = "whole";
    whole.sharing = GpuSharingDef{};
    s.pods[0].racks[0].nodes = {mps, ts, whole};
    JobClassDef small = test::jobClass("small", 1, 20, 1800);
    small.traits.gpuMilli = 300;
    small.traits.smActivity = 0.9;
    small.traits.memoryGbPerGpu = 25;
    small.traits.startupS = 120;
    JobClassDef gang = test::jobClass("gang", 3, 3, 2400);
    gang.traits.gpuMilli = 600;
    gang.traits.gpusPerPod = 1;
    gang.traits.memoryGbPerGpu = 40;
    JobClassDef wide = test::jobClass("wide", 4, 2, 3600);
    s.jobClasses = {small, gang, wide};
    s.nodeEvents = {{3 * 3600, "pod-rack-mps0", NodeState::Failed},
                    {4 * 3600, "pod-rack-mps0", NodeState::Ready}};
    test::resolveHardware(s);
    const Results r = test::run(s);
    CHECK(r.eventCount > 100);
}
