// Results::pendingAt: the jobs waiting at an exact time, not at the last sample before it.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include "gpuplan/export/results_io.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;

namespace {

/// One node of 4 GPUs, samples every 600 s:
///   a  4 GPUs 1,000 s  submit 0      runs 0–1,000
///   b  4 GPUs   500 s  submit 100    waits 100–1,000, runs 1,000–1,500
///   c  2 GPUs   300 s  submit 1,300  waits 1,300–1,500, runs 1,500–1,800 (submitted between
///                                    the samples at 1,200 and 1,800, like a drop)
Scenario betweenSamples() {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 3000;
    s.jobs = {job("a", 4, 1000, 0), job("b", 4, 500, 100), job("c", 2, 300, 1300)};
    return s;
}

std::vector<std::string> names(const Results& r, const std::vector<PendingJob>& rows) {
    std::vector<std::string> out;
    for (const PendingJob& p : rows)
        out.push_back(r.jobName(p.job));
    return out;
}

}  // namespace

TEST_CASE("pending at t: a job that started after the last sample is not listed") {
    const Results r = test::run(betweenSamples());
    // At 1,100 b runs (since 1,000); the sample at 600 still had it waiting.
    CHECK(names(r, r.pendingAt(1100)).empty());
    CHECK(r.pendingAtSample(1).size() == 1);
    // At 1,000 exactly b binds: not waiting. Just before, it is.
    CHECK(names(r, r.pendingAt(1000)).empty());
    CHECK(names(r, r.pendingAt(999.5)) == std::vector<std::string>{"b"});
}

TEST_CASE("pending at t: waits are measured at t, not at the sample") {
    const Results r = test::run(betweenSamples());
    // At 900, b has waited 900 − 100 = 800 s (the sample at 600 would say 500 s).
    const auto rows = r.pendingAt(900);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].waitingS == 800);
    CHECK(rows[0].layer == Layer::Scheduling);
    CHECK(rows[0].diagnosedAtS == 600);  // the sample is the latest diagnosis
}

TEST_CASE("pending at t: a job submitted between samples has its own diagnosis") {
    const Results r = test::run(betweenSamples());
    // c arrives at 1,300 while b holds all 4 GPUs: diagnosed at 1,300, waiting 100 s at 1,400.
    const auto rows = r.pendingAt(1400);
    REQUIRE(names(r, rows) == std::vector<std::string>{"c"});
    CHECK(rows[0].waitingS == 100);
    CHECK(rows[0].diagnosedAtS == 1300);
    CHECK(rows[0].layer == Layer::Scheduling);
    CHECK(r.reasonText(rows[0].reason) ==
          "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. Scheduling: 0 of 4 Ready GPUs "
          "in the fleet are free and the job asks 2 GPUs; running jobs hold the rest.");
    // The snapshot the fleet view draws uses the same list.
    CHECK(r.stateAt(1400).pending.size() == 1);
    CHECK(names(r, r.pendingAt(1500)).empty());  // c binds at 1,500
}

TEST_CASE("pending at t: a generated job queued between samples has its layer at once") {
    // As betweenSamples, plus a class "gen" job of 4 GPUs, 600 s, arriving at 1,300 with c.
    // Generated jobs come first at equal submit times, so FIFO runs gen 1,500–2,100 (after b)
    // and c 2,100–2,400. Generated jobs get their exact layer when queued and the full
    // reason at the next sample (within its list); explicit ones (c) the full reason at once.
    Scenario s = betweenSamples();
    JobClassDef gen;
    gen.name = "gen";
    gen.traits.team = "t";
    gen.arrival.process = ArrivalProcess::List;
    gen.arrival.timesS = {1300};
    gen.gpus.value = 4;
    gen.durationS.value = 600;
    s.jobClasses = {gen};
    const Results r = test::run(s);
    REQUIRE(r.jobs[test::jobIndex(r, "c")].firstStartS == 2100);
    const auto rows = r.pendingAt(1400);
    REQUIRE(names(r, rows) == std::vector<std::string>{"gen-0", "c"});
    CHECK(rows[0].layer == Layer::Scheduling);
    CHECK(rows[0].diagnosedAtS == 1300);
    CHECK(r.reasonText(rows[0].reason) ==
          "Scheduling: could not start when it was queued (detailed reasons are taken at "
          "samples).");
    CHECK_THAT(r.reasonText(rows[1].reason), Catch::StartsWith("0/1 nodes are available"));
    // c still waits at 1,700 (reason from its queueing) and at 1,900 (from the sample at 1,800).
    CHECK(r.pendingAt(1700).at(0).diagnosedAtS == 1300);
    const auto at1900 = r.pendingAt(1900);
    REQUIRE(names(r, at1900) == std::vector<std::string>{"c"});
    CHECK(at1900[0].diagnosedAtS == 1800);
    CHECK(at1900[0].waitingS == 600);  // 1,900 − 1,300
}

TEST_CASE("pending at t: a job starting up is listed in the workload layer until it runs") {
    // One node of 4 GPUs; "s" binds at 100 and starts up for 120 s (workload layer) until 220.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 3000;
    JobDef j = job("s", 4, 500, 100);
    j.traits.startupS = 120;
    s.jobs = {j};
    const Results r = test::run(s);
    const auto rows = r.pendingAt(150);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].layer == Layer::Workload);
    CHECK(rows[0].diagnosedAtS == 100);  // recorded at the bind, no sample between
    CHECK_THAT(r.reasonText(rows[0].reason), Catch::StartsWith("Workload: ContainerCreating"));
    CHECK(r.pendingAt(220).empty());
}

TEST_CASE("pending at t: an evicted job waits again from the eviction, diagnosed then") {
    // One node of 4 GPUs fails at 1,000 under "a" (4 GPUs, 5,000 s from 0): "a" waits again
    // from 1,000 to the end, in the provisioning layer (its node is not Ready).
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 3000;
    s.jobs = {job("a", 4, 5000)};
    s.nodeEvents = {{1000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.pendingAt(999).empty());
    const auto rows = r.pendingAt(1100);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].diagnosedAtS == 1000);
    CHECK(rows[0].layer == Layer::Provisioning);
    CHECK(rows[0].waitingS == 1100);       // since its submit at 0
    CHECK(r.pendingAt(3000).size() == 1);  // still waiting at the horizon
}

TEST_CASE("pending at t: a generated job left out of a capped sample says so, not a promise") {
    // One node of 4 GPUs held by "a" for the whole run; samples every 600 s; at most 1 pending
    // entry per sample. Queued in FIFO order: gen-0 (100), gen-1 (200), x (explicit, 300).
    // The sample at 600 lists gen-0 only and leaves 2 out (gen-1, x). gen-1's reason before it
    // is the placeholder; after it, that it was left out at d0 00:10 (600 s). x keeps the full
    // reason it got when it was queued.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 3000;
    s.jobs = {job("a", 4, 3000, 0), job("x", 4, 600, 300)};
    JobClassDef gen;
    gen.name = "gen";
    gen.traits.team = "t";
    gen.arrival.process = ArrivalProcess::List;
    gen.arrival.timesS = {100, 200};
    gen.gpus.value = 4;
    gen.durationS.value = 600;
    s.jobClasses = {gen};
    RunOptions o;
    o.checkInvariants = true;
    o.maxPendingEntriesPerSample = 1;
    const Results r = simulate(s, o);
    REQUIRE(r.pendingOmitted.at(1) == 2);

    const auto at300 = r.pendingAt(300);
    REQUIRE(names(r, at300) == std::vector<std::string>{"gen-0", "gen-1", "x"});
    CHECK(r.reasonText(at300[1].reason) ==
          "Scheduling: could not start when it was queued (detailed reasons are taken at "
          "samples).");
    CHECK(at300[1].diagnosedAtS == 200);

    const auto at700 = r.pendingAt(700);
    REQUIRE(names(r, at700) == std::vector<std::string>{"gen-0", "gen-1", "x"});
    CHECK(at700[0].diagnosedAtS == 600);  // in the sample's list: the detailed reason
    CHECK_THAT(r.reasonText(at700[0].reason), Catch::StartsWith("0/1 nodes are available"));
    CHECK(at700[1].layer == Layer::Scheduling);  // the layer found when it was queued
    CHECK(at700[1].diagnosedAtS == 600);
    CHECK(r.reasonText(at700[1].reason) ==
          "Not diagnosed in detail: beyond the limit on detailed reasons at the last sample "
          "(the first in queue order get one); the layer is the one found when it was queued.");
    CHECK(at700[2].diagnosedAtS == 300);  // explicit: its own full reason, with its time
    CHECK_THAT(r.reasonText(at700[2].reason), Catch::StartsWith("0/1 nodes are available"));
    // At the horizon (what jobs.csv reports) the last sample, at 2,400, says so; every sample
    // that left jobs out shares the one text (bounded however many samples there are).
    const auto atEnd = r.pendingAt(3000);
    REQUIRE(atEnd.size() == 3);
    CHECK(atEnd[1].diagnosedAtS == 2400);
    CHECK(atEnd[1].reason == at700[1].reason);
}

TEST_CASE("pending at t: the sample in force is the last taken at or before t") {
    // Samples every 1.4 s are taken at k·1.4; the 4th, 3·1.4, is 4.199999999999999 in binary,
    // and 4.199999999999999 / 1.4 = 2.9999999999999996: dividing would pick the 3rd (2.8).
    // "a" holds the one node 0–10 s, so "b" (submitted at 0) waits; each sample lists it.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 1.4;
    s.horizonS = 14;
    s.jobs = {job("a", 4, 10, 0), job("b", 4, 2, 0)};
    const Results r = test::run(s);
    const double fourthS = r.sampleTimesS.at(3);
    REQUIRE(fourthS == 3 * 1.4);
    CHECK(r.sampleAt(fourthS) == std::optional<std::size_t>(3));
    CHECK(r.sampleAt(std::nextafter(fourthS, 0.0)) == std::optional<std::size_t>(2));
    CHECK(r.sampleAt(-1) == std::nullopt);
    CHECK(r.sampleAt(1e9) == std::optional<std::size_t>(r.sampleTimesS.size() - 1));
    const auto rows = r.pendingAt(fourthS);
    REQUIRE(names(r, rows) == std::vector<std::string>{"b"});
    CHECK(rows[0].diagnosedAtS == fourthS);
}

TEST_CASE("pending at t: the indexed query lists exactly the spans open at t") {
    // Many spans (Poisson arrivals on a small fleet, with a node failure so some jobs are
    // evicted and wait twice): compare with a plain scan of every span at many times.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 20000;
    s.sampleIntervalS = 900;
    s.jobClasses = {test::jobClass("gen", 2, 60, 500)};
    s.nodeEvents = {{5000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    REQUIRE(r.pendingSpans.size() > 10 * StabbingIndex::kBlock);
    for (double t = 0; t <= s.horizonS; t += 137) {
        std::vector<std::uint32_t> expected, got;
        for (const PendingSpan& span : r.pendingSpans)
            if (span.startS <= t && t < span.endS) expected.push_back(span.job);
        std::sort(expected.begin(), expected.end());
        for (const PendingJob& p : r.pendingAt(t))
            got.push_back(p.job);
        CHECK(got == expected);
    }
}

namespace {

/// Rack "rack" of two 1-GPU nodes: node-mig cut "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb" (7 compute
/// slices) and node-mps under MPS (whole pods and milli-GPU shares). Samples every 60 s for
/// 1,200 s (20 samples); strict FIFO: nothing passes a blocked head.
Scenario migAndMps() {
    Scenario s = test::smallFleet(1, 1, "n1");
    s.horizonS = 1200;
    s.scheduler.backfill = BackfillMode::None;
    NodeGroupDef& mig = s.pods[0].racks[0].nodes[0];
    mig.name = "node-mig";
    mig.sharing.mode = SharingMode::Mig;
    mig.sharing.migLayout = "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb";
    NodeGroupDef mps = mig;
    mps.name = "node-mps";
    mps.sharing = GpuSharingDef{};
    mps.sharing.mode = SharingMode::Mps;
    s.pods[0].racks[0].nodes.push_back(mps);
    return s;
}

JobDef instance(const std::string& name, const std::string& profile) {
    JobDef j = job(name, 1, 10000);
    j.traits.migProfile = profile;
    return j;
}

JobDef share(const std::string& name, int milli) {
    JobDef j = job(name, 1, 10000);
    j.traits.gpuMilli = milli;
    return j;
}

double pendingAt(const Results& r, const std::string& layer, std::size_t sample) {
    return r.findSeries("pending_gpus{" + layer + "}")->values.at(sample);
}

}  // namespace

TEST_CASE("pending GPUs: a waiting 2g MIG instance is exactly 2/7 of a GPU", "[pending]") {
    // "holder" takes the node's only 2g.20gb instance for 10,000 s; "waiter" asks another
    // 2g.20gb and waits the whole run (scheduling layer: the instance is busy). A 2g instance
    // is 2 of the GPU's 7 compute slices: 2/7 = 0.285714…, not the 0.286 of its rounded
    // 286 milli-GPU. Counted as 2 × 1,000 units of 1/7,000 GPU, one division gives the double
    // nearest 2/7, as allocated_gpus gives the holder's.
    Scenario s = migAndMps();
    s.jobs = {instance("holder", "2g.20gb"), instance("waiter", "2g.20gb")};
    const Results r = test::run(s);
    REQUIRE(r.sampleTimesS.size() == 20);
    for (std::size_t k = 0; k < r.sampleTimesS.size(); ++k) {
        INFO("sample " << k);
        CHECK(pendingAt(r, "scheduling", k) == 2.0 / 7);
        CHECK(pendingAt(r, "reservation", k) == 0);
        CHECK(pendingAt(r, "provisioning", k) == 0);
        CHECK(pendingAt(r, "workload", k) == 0);
        CHECK(r.findSeries("allocated_gpus")->values[k] == 2.0 / 7);
    }
    // The mean over 20 samples: 20 × 2,000 units ÷ (7,000 × 20) = 2/7 again, not 0.286.
    CHECK(r.kpi("pending_gpus_mean") == 2.0 / 7);
    CHECK(r.kpi("gpus_waiting_at_end") == 2.0 / 7);
    // The CSV holds the same double: the shortest text that reads back as it (ten significant
    // digits, 0.2857142857, would read back as another number). JSON writes it so already.
    namespace fs = std::filesystem;
    const fs::path dir = test::scratchPath("gpuplan-pending-2g");
    fs::remove_all(dir);
    writeResultsCsv(r, dir);
    const test::Rows rows = test::parseCsv(readTextFile(dir / "pending_gpus_scheduling.csv"));
    REQUIRE(rows.size() == 21);
    CHECK(rows[1] == std::vector<std::string>{"0", "0.2857142857142857"});
    CHECK(std::stod(rows[1][1]) == 2.0 / 7);
    const test::Rows all = test::parseCsv(readTextFile(dir / "series.csv"));
    const auto column = std::find(all[0].begin(), all[0].end(), "pending_gpus{scheduling}");
    REQUIRE(column != all[0].end());
    CHECK(std::stod(all[1][column - all[0].begin()]) == 2.0 / 7);
    fs::remove_all(dir);
}

TEST_CASE("pending GPUs: instances and shares sum exactly", "[pending]") {
    // "holder" takes the 3g.40gb instance; "head" asks another 3g and blocks the queue (no
    // backfill), so every job behind it waits too, though each would fit now. Waiting, in
    // units of 1/7,000 GPU (an instance its compute slices × 1,000, a share its milli × 7):
    //   head 3g 3,000 + 1g 1,000 + 2g 2,000 + 300 milli 2,100 + 450 milli 3,150 + 1 GPU 7,000
    //   = 18,250 units = 73/28 GPU = 2.607142857…
    // The old milli-GPU sum, 429 + 143 + 286 + 300 + 450 + 1,000 = 2,608, said 2.608; adding
    // the GPU-equivalents as doubles (3/7 + 1/7 + …) need not give the double nearest 73/28.
    Scenario s = migAndMps();
    s.jobs = {
        instance("holder", "3g.40gb"), instance("head", "3g.40gb"), instance("one", "1g.10gb"),
        instance("two", "2g.20gb"),    share("s300", 300),          share("s450", 450),
        job("whole", 1, 10000)};
    const Results r = test::run(s);
    const double expected = 73.0 / 28;
    for (std::size_t k = 0; k < r.sampleTimesS.size(); ++k) {
        INFO("sample " << k);
        const double total = pendingAt(r, "reservation", k) + pendingAt(r, "provisioning", k) +
                             pendingAt(r, "scheduling", k) + pendingAt(r, "workload", k);
        CHECK(total == Approx(expected).epsilon(1e-15));
        CHECK(pendingAt(r, "scheduling", k) == expected);  // all of it: ready capacity exists
    }
    CHECK(r.kpi("pending_gpus_mean") == expected);
    CHECK(r.kpi("gpus_waiting_at_end") == expected);
}
