// Censored waits and the KPIs per team and per job class, on an overloaded node.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;

namespace {

/// One node of 8 GPUs for 10,000 s, FIFO. Team "t" submits explicit jobs, team "u" a class
/// "train" (8 GPUs, 4,000 s) arriving at 1,000 and 9,000:
///   A  t  8 GPUs 4,000 s  submit 0      runs 0–4,000                wait 0
///   B  t  8 GPUs 4,000 s  submit 0      runs 4,000–8,000            wait 4,000
///   C  u  8 GPUs 4,000 s  submit 1,000  runs 8,000–horizon          wait 7,000
///   D  t  4 GPUs 1,000 s  submit 2,000  never starts (8 GPUs busy)  wait ≥ 10,000 − 2,000 = 8,000
///   E  u  8 GPUs 4,000 s  submit 9,000  never starts                wait ≥ 10,000 − 9,000 = 1,000
Scenario overloaded() {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 10000;
    s.teams.push_back(TeamDef{"u", ""});
    s.jobs = {job("A", 8, 4000, 0), job("B", 8, 4000, 0), job("D", 4, 1000, 2000)};
    JobClassDef train;
    train.name = "train";
    train.traits.team = "u";
    train.arrival.process = ArrivalProcess::List;
    train.arrival.timesS = {1000, 9000};
    train.gpus.value = 8;
    train.durationS.value = 4000;
    s.jobClasses = {train};
    return s;
}

const GroupKpis& group(const std::vector<GroupKpis>& groups, const std::string& name) {
    for (const GroupKpis& g : groups)
        if (g.name == name) return g;
    FAIL("no group " << name);
    throw;
}

}  // namespace

TEST_CASE("jobs still waiting at the horizon count in the waits with their wait so far") {
    const Results r = test::run(overloaded());
    REQUIRE(r.jobs[test::jobIndex(r, "B")].firstStartS == 4000);
    REQUIRE(r.jobs[test::jobIndex(r, "D")].firstStartS == -1);
    // Waits, sorted: 0 (A), 1,000 (E, censored), 4,000 (B), 7,000 (C), 8,000 (D, censored).
    // Nearest rank of 5: p50 = ⌈2.5⌉ = 3rd = 4,000; p95 = ⌈4.75⌉ = 5th = 8,000;
    // p99 = 5th = 8,000; mean = 20,000 / 5 = 4,000. Counting only started jobs (0, 4,000,
    // 7,000) would give p95 = 7,000 and mean 3,667: better than the truth.
    CHECK(r.kpi("wait_s_p50") == 4000);
    CHECK(r.kpi("wait_s_p95") == 8000);
    CHECK(r.kpi("wait_s_p99") == 8000);
    CHECK(r.kpi("wait_s_mean") == 4000);
    CHECK(r.kpi("jobs_waiting_at_end") == 2);   // D and E
    CHECK(r.kpi("gpus_waiting_at_end") == 12);  // 4 + 8
    CHECK(r.kpi("jobs_started") == 3);
    CHECK(r.kpi("jobs_completed") == 2);
    // The descriptions say the waits are lower bounds.
    CHECK_THAT(r.findKpi("wait_s_p95")->description, Catch::Contains("lower bound"));
    CHECK_THAT(r.findKpi("jobs_waiting_at_end")->description, Catch::Contains("lower bound"));
}

TEST_CASE("KPIs per team and per job class") {
    const Results r = test::run(overloaded());
    // Provisioned: 8 GPUs × 10,000 s = 80,000 GPU-s, all of it allocated (A, B, then C).
    CHECK(r.kpi("allocation_mean") == 1.0);
    REQUIRE(r.teamKpis.size() == 2);
    REQUIRE(r.classKpis.size() == 2);

    // Team t: A 8 × 4,000 + B 8 × 4,000 = 64,000 GPU-s → share 0.8, 17.78 GPU-h.
    // Waits 0, 4,000, 8,000 (D censored): p50 = ⌈1.5⌉ = 2nd = 4,000, p95 = ⌈2.85⌉ = 3rd = 8,000.
    const GroupKpis& t = group(r.teamKpis, "t");
    CHECK(t.allocationShare == Approx(0.8));
    CHECK(t.gpuHours == Approx(64000.0 / 3600));
    CHECK(t.waitP50S == 4000);
    CHECK(t.waitP95S == 8000);
    CHECK(t.submitted == 3);
    CHECK(t.completed == 2);
    CHECK(t.waitingAtEnd == 1);
    CHECK(t.gpusWaitingAtEnd == 4);

    // Team u: C 8 × (10,000 − 8,000) = 16,000 GPU-s → share 0.2, 4.44 GPU-h.
    // Waits 1,000 (E censored), 7,000: p50 = ⌈1⌉ = 1st = 1,000, p95 = ⌈1.9⌉ = 2nd = 7,000.
    const GroupKpis& u = group(r.teamKpis, "u");
    CHECK(u.allocationShare == Approx(0.2));
    CHECK(u.gpuHours == Approx(16000.0 / 3600));
    CHECK(u.waitP50S == 1000);
    CHECK(u.waitP95S == 7000);
    CHECK(u.completed == 0);
    CHECK(u.waitingAtEnd == 1);
    CHECK(u.gpusWaitingAtEnd == 8);

    // The shares add up to the fleet's allocation.
    CHECK(t.allocationShare + u.allocationShare == Approx(r.kpi("allocation_mean")));

    // Classes: "train" holds C and E (team u's jobs), the explicit jobs are team t's.
    const GroupKpis& train = group(r.classKpis, "train");
    CHECK(train.allocationShare == Approx(0.2));
    CHECK(train.waitP95S == 7000);
    CHECK(train.submitted == 2);
    const GroupKpis& explicitJobs = group(r.classKpis, "(explicit jobs)");
    CHECK(explicitJobs.gpuHours == Approx(64000.0 / 3600));
    CHECK(explicitJobs.waitingAtEnd == 1);
    CHECK(r.jobClassName(test::jobIndex(r, "A")) == "(explicit jobs)");
}
