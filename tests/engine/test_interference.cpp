// Pods sharing a GPU under MPS or time-slicing (engine/src/resources/shared_gpus.hpp): SM demand
// and processor-sharing slowdown, MPS compute caps, what occupancy shows. The test catalog's GPU
// "tg" has 80 GB of HBM; node "n1" has one.
#include <catch2/catch.hpp>

#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

Scenario oneSharedGpu(GpuSharingDef sharing) {
    Scenario s = test::smallFleet(1, 1, "n1");
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    return s;
}

GpuSharingDef timeSliced(int replicas) {
    GpuSharingDef d;
    d.mode = SharingMode::TimeSlicing;
    d.timeSliceReplicas = replicas;
    return d;
}

JobDef share(const std::string& name, int milli, double smActivity, double durationS,
             double submitS = 0) {
    JobDef j = test::job(name, 1, durationS, submitS);
    j.traits.gpuMilli = milli;
    j.traits.smActivity = smActivity;
    return j;
}

const JobRecord& rec(const Results& r, const std::string& name) {
    return r.jobs[test::jobIndex(r, name)];
}

double seriesAt(const Results& r, const std::string& series, double timeS) {
    return r.findSeries(series)->values[*r.sampleAt(timeS)];
}

}  // namespace

TEST_CASE("Shares whose SM demands sum to at most the GPU run at full speed", "[interference]") {
    SECTION("D = 0.7") {
        // Two 0.5-GPU jobs on a 2-replica GPU, 80 % and 60 % active: d = 0.8 × 0.5 = 0.4 and
        // 0.6 × 0.5 = 0.3, D = 0.7 ≤ 1: no slowdown, both end after their hour.
        Scenario s = oneSharedGpu(timeSliced(2));
        s.jobs = {share("a", 500, 0.8, 3600), share("b", 500, 0.6, 3600)};
        const Results r = test::run(s);
        CHECK(rec(r, "a").endS == 3600);
        CHECK(rec(r, "b").endS == 3600);
        CHECK(rec(r, "a").slowdown == 1);
    }
    SECTION("D = 1.0 exactly, and occupancy counts each pod at most what it holds") {
        // Shares asked 0.6 and 0.5 at 100 % and 80 % activity: d = 0.6 and 0.4, D = 1.0, not
        // above the GPU: full speed. Each holds a replica, 500 milli-GPU. Occupied SMs per
        // pod are min(d, held): min(0.6, 0.5) + min(0.4, 0.5) = 0.9 of the one GPU, under
        // the allocation of 1.0.
        Scenario s = oneSharedGpu(timeSliced(2));
        s.jobs = {share("a", 600, 1.0, 3600), share("b", 500, 0.8, 3600)};
        const Results r = test::run(s);
        CHECK(rec(r, "a").endS == 3600);
        CHECK(rec(r, "b").endS == 3600);
        CHECK(seriesAt(r, "allocation", 60) == Approx(1.0));
        CHECK(seriesAt(r, "occupancy", 60) == Approx(0.9));
    }
}

TEST_CASE("A time-slice replica shows at most its replica as occupied", "[interference]") {
    // One pod asking 0.9 GPU at 100 % on a 2-replica GPU, alone: it keeps d = 0.9 of the SMs
    // busy, at full speed (D = 0.9), but holds one replica, 0.5 GPU: allocation 0.5, and
    // occupancy min(0.9, 0.5) = 0.5, not 0.9 (occupancy ≤ allocation).
    Scenario s = oneSharedGpu(timeSliced(2));
    s.jobs = {share("a", 900, 1.0, 3600)};
    const Results r = test::run(s);
    CHECK(rec(r, "a").endS == 3600);
    CHECK(seriesAt(r, "allocation", 60) == Approx(0.5));
    CHECK(seriesAt(r, "occupancy", 60) == Approx(0.5));
}

TEST_CASE("Oversubscribed SMs slow every pod; a leaving neighbour moves the others' ends",
          "[interference]") {
    // Three 0.5-GPU jobs, 100 % active, on a 4-replica GPU: d = 0.5 each, D = 1.5 > 1, so each
    // runs at 1 / 1.5 = 2/3 speed. a and b have 3 h of work (10,800 s), c 2,400 s.
    //   c ends at 2,400 × 1.5 = 3,600 s (one hour).
    //   a by then: 3,600 / 1.5 = 2,400 s of work (0.667 h); 8,400 s (2.333 h) remain.
    //   After c leaves D = 1.0: full speed, so a and b end at 3,600 + 8,400 = 12,000 s.
    //   Their mean slowdown: 12,000 s progressing for 10,800 s of work = 1.111…; c's is 1.5.
    // Occupancy: each pod holds a replica, 250 milli-GPU, and demands 0.5: it counts
    // min(0.5, 0.25) = 0.25 at its speed: 3 × 0.25 / 1.5 = 0.5 before c leaves,
    // 2 × 0.25 / 1 = 0.5 after. Allocation: 0.75, then 0.5.
    Scenario s = oneSharedGpu(timeSliced(4));
    s.jobs = {share("a", 500, 1.0, 10800), share("b", 500, 1.0, 10800), share("c", 500, 1.0, 2400)};
    const Results r = test::run(s);
    CHECK(rec(r, "c").endS == Approx(3600));
    CHECK(rec(r, "c").slowdown == Approx(1.5));
    CHECK(rec(r, "a").endS == Approx(12000));
    CHECK(rec(r, "b").endS == Approx(12000));
    CHECK(rec(r, "a").slowdown == Approx(12000.0 / 10800));
    CHECK(r.segments[rec(r, "a").lastSegment].slowdown == Approx(12000.0 / 10800));
    CHECK(r.segments[rec(r, "a").lastSegment].endS == Approx(12000));
    CHECK(rec(r, "a").segmentCount == 1);  // one segment per binding, not one per speed
    CHECK(seriesAt(r, "occupancy", 60) == Approx(0.5));
    CHECK(seriesAt(r, "allocation", 60) == Approx(0.75));
    CHECK(seriesAt(r, "occupancy", 3660) == Approx(0.5));
    CHECK(seriesAt(r, "allocation", 3660) == Approx(0.5));
}

TEST_CASE("A pod joining late slows the pods already running from then on", "[interference]") {
    // a: 0.6 GPU, 100 % active, 2 h of work, alone from 0: full speed. b: the same, joins at
    // 1 h: D = 0.6 + 0.6 = 1.2, both at 1/1.2.
    //   a at 1 h has 3,600 s done; 3,600 s remain at 1.2: ends at 3,600 + 4,320 = 7,920 s.
    //   b: 7,200 s of work; by 7,920 s it did 4,320 / 1.2 = 3,600 s; then alone, the other
    //   3,600 s at full speed: ends at 11,520 s. Mean: (11,520 − 3,600) / 7,200 = 1.1.
    Scenario s = oneSharedGpu(timeSliced(2));
    s.jobs = {share("a", 600, 1.0, 7200), share("b", 600, 1.0, 7200, 3600)};
    const Results r = test::run(s);
    CHECK(rec(r, "a").endS == Approx(7920));
    CHECK(rec(r, "b").endS == Approx(11520));
    CHECK(rec(r, "a").slowdown == Approx(7920.0 / 7200));
    CHECK(rec(r, "b").slowdown == Approx(1.1));
}

TEST_CASE("A pod starting up demands no SMs until it runs", "[interference]") {
    // b binds at 0 but starts up for 1,800 s. a (0.6, 100 %, 1 h) runs alone until then:
    // 1,800 s of work. Then D = 1.2: the other 1,800 s take 2,160 s, so a ends at 3,960 s.
    Scenario s = oneSharedGpu(timeSliced(2));
    JobDef b = share("b", 600, 1.0, 7200);
    b.traits.startupS = 1800;
    s.jobs = {share("a", 600, 1.0, 3600), b};
    const Results r = test::run(s);
    CHECK(rec(r, "a").endS == Approx(3960));
}

TEST_CASE("An MPS client's compute cap binds a demand above it", "[interference]") {
    // Cap 25 % of the SMs per client. a: 0.5 GPU at 80 %: d = 0.4, served 0.25: it runs at
    // 0.25 / 0.4 of its speed, slowdown 1.6, and its hour of work takes 5,760 s. b: 0.4 GPU at
    // 50 %: d = 0.2 ≤ 0.25, unaffected. D = 0.25 + 0.2 = 0.45 ≤ 1: no processor sharing.
    GpuSharingDef mps;
    mps.mode = SharingMode::Mps;
    mps.mpsComputeCapPct = 25;
    Scenario s = oneSharedGpu(mps);
    s.jobs = {share("a", 500, 0.8, 3600), share("b", 400, 0.5, 3600)};
    const Results r = test::run(s);
    CHECK(rec(r, "a").endS == Approx(5760));
    CHECK(rec(r, "a").slowdown == Approx(1.6));
    CHECK(rec(r, "b").endS == Approx(3600));
    CHECK(rec(r, "b").slowdown == 1);
}

TEST_CASE("Under MPS without caps, shares never oversubscribe the SMs", "[interference]") {
    // MPS shares sum to at most 1000 milli-GPU and smActivity ≤ 1, so D ≤ 1: 0.5 + 0.5 at
    // 100 % is D = 1.0, both at full speed (CUDA's default cap is 100 %).
    GpuSharingDef mps;
    mps.mode = SharingMode::Mps;
    Scenario s = oneSharedGpu(mps);
    s.jobs = {share("a", 500, 1.0, 3600), share("b", 500, 1.0, 3600)};
    const Results r = test::run(s);
    CHECK(rec(r, "a").endS == 3600);
    CHECK(rec(r, "b").endS == 3600);
}

TEST_CASE("A gang of shares advances at its slowest pod's pace", "[interference]") {
    // Node n4 with 2 replicas per GPU. x: one 0.6-GPU pod, 100 % active, 2 h, lands on GPU 0
    // (pack: every GPU is empty, ties to slot 0). g: two pods of 0.6, 100 %, 1 h, queued
    // after x at the same instant: pack puts its first pod on GPU 0 (the least room that still
    // fits), its second on GPU 1 (GPU 0 has no replica left). GPU 0: D = 1.2; GPU 1: D = 0.6.
    //   g runs at its slowest pod's pace, 1/1.2: 3,600 s of work end at 4,320 s.
    //   x: 4,320 / 1.2 = 3,600 s done by then, 3,600 s left alone: ends at 7,920 s.
    GpuSharingDef ts = timeSliced(2);
    Scenario s = test::smallFleet(1, 1, "n4");
    s.pods[0].racks[0].nodes[0].sharing = ts;
    JobDef g = share("g", 600, 1.0, 3600);
    g.gpus = 2;
    g.traits.gpusPerPod = 1;
    s.jobs = {share("x", 600, 1.0, 7200), g};
    const Results r = test::run(s);
    const ClusterSnapshot at = r.stateAt(60);
    REQUIRE(at.occupantsOf(0).size() == 2);
    REQUIRE(at.occupantsOf(1).size() == 1);
    CHECK(rec(r, "g").endS == Approx(4320));
    CHECK(rec(r, "x").endS == Approx(7920));
}
