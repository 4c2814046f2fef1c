// Replications and paired comparisons (gpuplan/studies/replications.hpp): an M/M/c queue's mean
// wait against Erlang C, intervals that narrow with more runs, the same answer on any number of
// threads, and a scenario compared with itself differing by exactly nothing.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "gpuplan/studies/replications.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One node of 4 GPUs (c = 4), 1-GPU jobs, Poisson arrivals at 18 an hour, exponential run
/// times of mean 600 s: M/M/4 with a = λ/µ = 3, ρ = 0.75, served first come first served.
///   Σ_{k<4} a^k/k! = 1 + 3 + 9/2 + 27/6 = 13;  a^c/c! · c/(c − a) = (81/24) · 4 = 13.5
///   Erlang C = 13.5 / 26.5 = 0.50943;  Wq = C / (cµ − λ) = 0.50943 · 600 s = 305.66 s
Scenario mm4(double horizonS) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = horizonS;
    s.sampleIntervalS = 3600;
    s.seed = 7;
    JobClassDef c = test::jobClass("mm4", 1, 18, 600);
    c.durationS.kind = DistKind::Exponential;
    c.durationS.mean = 600;
    s.jobClasses = {c};
    return s;
}

ReplicationOptions quick(int replications, int threads = 0) {
    ReplicationOptions o;
    o.replications = replications;
    o.threads = threads;
    o.run.checkInvariants = false;
    o.run.diagnosePending = false;
    return o;
}

}  // namespace

TEST_CASE("replication seeds: the scenario's own first, then distinct", "[replications]") {
    CHECK(replicationSeed(42, 0) == 42);
    std::set<std::uint64_t> seeds;
    for (int i = 0; i < 1000; ++i)
        seeds.insert(replicationSeed(42, i));
    CHECK(seeds.size() == 1000);
    CHECK(replicationSeed(42, 5) == replicationSeed(42, 5));
}

TEST_CASE("an M/M/4 mean wait over 30 replications brackets Erlang C", "[replications]") {
    // 30 runs of 60 days (~26,000 jobs each). A run's mean wait scatters by several percent
    // (waits are correlated in time), so one run is a guess; 30 give a 95 % interval of a few
    // percent that must hold Wq = 305.66 s. The first 5 of the 30 seeds alone give a wider
    // one: the half-width goes as t(0.975, n − 1)·s/√n (2.776/√5 = 1.24 against
    // 2.045/√30 = 0.37, for about the same s).
    const double erlangWaitS = 13.5 / 26.5 * 600;
    const Replications thirty = runReplications(mm4(60 * 86400.0), quick(30));
    const Replications five = runReplications(mm4(60 * 86400.0), quick(5));
    const MeanInterval wait30 = thirty.findKpi("wait_s_mean")->interval;
    const MeanInterval wait5 = five.findKpi("wait_s_mean")->interval;
    CHECK(wait30.n == 30);
    CHECK(wait30.low <= erlangWaitS);
    CHECK(wait30.high >= erlangWaitS);
    CHECK(wait30.halfWidth() < 0.06 * erlangWaitS);
    CHECK(wait30.halfWidth() < wait5.halfWidth());
    // The first five replications are the same runs in both.
    for (int i = 0; i < 5; ++i)
        CHECK(five.fingerprints[i] == thirty.fingerprints[i]);
    // Allocation: ρ = 0.75 within its own interval's reach.
    const MeanInterval allocation = thirty.findKpi("allocation_mean")->interval;
    CHECK(allocation.mean == Approx(0.75).epsilon(0.02));
    // The bands hold every sample of every series; replication 0 is kept whole.
    REQUIRE(thirty.first);
    CHECK(thirty.first->fingerprint == thirty.fingerprints[0]);
    REQUIRE_FALSE(thirty.series.empty());
    CHECK(thirty.series[0].mean.size() == thirty.sampleTimesS.size());
}

TEST_CASE("replications give the same answer on one thread and on two", "[replications]") {
    const Scenario s = mm4(10 * 86400.0);
    const Replications one = runReplications(s, quick(6, 1));
    const Replications two = runReplications(s, quick(6, 2));
    CHECK(one.fingerprints == two.fingerprints);
    REQUIRE(one.kpis.size() == two.kpis.size());
    for (std::size_t k = 0; k < one.kpis.size(); ++k) {
        const MeanInterval& a = one.kpis[k].interval;
        const MeanInterval& b = two.kpis[k].interval;
        CHECK(one.kpis[k].name == two.kpis[k].name);
        CHECK(((a.mean == b.mean && a.low == b.low && a.high == b.high) ||
               (std::isnan(a.mean) && std::isnan(b.mean))));
    }
}

TEST_CASE("paired comparisons: nothing against itself, a real change is significant",
          "[replications]") {
    // The same scenario on the same seeds: every run pair is identical, so each difference
    // is exactly 0 with a zero-width interval, and nothing is significant.
    const Scenario s = mm4(10 * 86400.0);
    const PairedComparison same = comparePaired(s, s, quick(8));
    REQUIRE_FALSE(same.kpis.empty());
    for (const KpiDifference& d : same.kpis) {
        if (d.difference.n == 0) continue;  // a KPI the runs could not measure
        CHECK(d.difference.mean == 0);
        CHECK(d.difference.low == 0);
        CHECK(d.difference.high == 0);
        CHECK_FALSE(d.significant());
    }
    // A second node (8 GPUs, ρ = 0.375): Σ_{k<8} 3^k/k! = 19.846, 3^8/8! · 8/5 = 0.2604, so
    // Erlang C(8, 3) = 0.2604 / 20.106 = 0.01295 and Wq falls to 0.01295 · 600 / 5 = 1.55 s:
    // the wait drops by ~300 s in every pair.
    Scenario bigger = s;
    bigger.pods[0].racks[0].nodes[0].count = 2;
    const PairedComparison more = comparePaired(s, bigger, quick(8));
    const auto wait = std::find_if(more.kpis.begin(), more.kpis.end(),
                                   [](const KpiDifference& d) { return d.name == "wait_s_mean"; });
    REQUIRE(wait != more.kpis.end());
    CHECK(wait->significant());
    CHECK(wait->difference.mean < -200);
    CHECK(wait->candidate.mean < 4);
}

TEST_CASE("each team's KPIs over replications, and their paired differences", "[replications]") {
    // One node of 4 GPUs for 3 h; team a's job (4 GPUs, 1 h) and team b's (4 GPUs, 1 h) both
    // come at t = 0; FIFO runs a's first, so b's waits 1 h:
    //   a: wait 0, 4 GPU-h, share 4 / (4 GPUs × 3 h) = 1/3;  b: wait 3,600 s, 4 GPU-h, 1/3.
    // No randomness: the three replications are the same run, so each team's interval is the
    // value itself. With a second node b starts at once too: b's wait falls by 3,600 s in every
    // pair, each share to 4 / 24 = 1/6, and a's wait stays 0.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 3 * 3600.0;
    s.sampleIntervalS = 600;
    s.teams = {TeamDef{"a", ""}, TeamDef{"b", ""}, TeamDef{"idle", ""}};
    s.jobs = {test::job("a1", 4, 3600), test::job("b1", 4, 3600)};
    s.jobs[0].traits.team = "a";
    s.jobs[1].traits.team = "b";
    Scenario bigger = s;
    bigger.pods[0].racks[0].nodes[0].count = 2;
    const PairedComparison c = comparePaired(s, bigger, quick(3));
    REQUIRE(c.baseline.teams.size() == 3);
    // A team without jobs held nothing: 0 GPU-hours in every run, and no wait to count.
    const TeamEstimates* idle = c.baseline.findTeam("idle");
    REQUIRE(idle);
    CHECK(idle->findKpi("gpu_hours_allocated")->interval.mean == 0);
    CHECK(idle->findKpi("gpu_hours_allocated")->interval.n == 3);
    CHECK(idle->findKpi("wait_s_p50")->interval.n == 0);
    const TeamEstimates* a = c.baseline.findTeam("a");
    const TeamEstimates* b = c.baseline.findTeam("b");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->findKpi("wait_s_p50")->interval.mean == 0);
    CHECK(b->findKpi("wait_s_p50")->interval.mean == 3600);
    CHECK(b->findKpi("wait_s_p95")->interval.mean == 3600);
    CHECK(b->findKpi("gpu_hours_allocated")->interval.mean == Approx(4));
    CHECK(b->findKpi("gpu_hours_allocated")->unit == "gpu_h");
    CHECK(b->findKpi("jobs_completed")->interval.mean == 1);
    CHECK(b->findKpi("jobs_waiting_at_end")->interval.mean == 0);
    const MeanInterval share = a->findKpi("allocation_share")->interval;
    CHECK(share.n == 3);
    CHECK(share.mean == Approx(1 / 3.0));
    CHECK(share.low == Approx(1 / 3.0));
    CHECK(share.high == Approx(1 / 3.0));
    CHECK(a->findKpi("cost_usd") == nullptr);  // unpriced: no chargeback
    const auto waitB = pairedTeamDifference(c.baseline, c.candidate, "b", "wait_s_p50");
    REQUIRE(waitB);
    CHECK(waitB->mean == -3600);
    CHECK(waitB->excludesZero());
    const auto waitA = pairedTeamDifference(c.baseline, c.candidate, "a", "wait_s_p50");
    REQUIRE(waitA);
    CHECK(waitA->mean == 0);
    CHECK_FALSE(waitA->excludesZero());
    CHECK(pairedTeamDifference(c.baseline, c.candidate, "a", "allocation_share")->mean ==
          Approx(1 / 6.0 - 1 / 3.0));
    CHECK_FALSE(pairedTeamDifference(c.baseline, c.candidate, "nobody", "wait_s_p50"));

    // With randomness, replication i's values are run i's own team KPIs.
    const Scenario random = mm4(2 * 86400.0);
    const Replications r = runReplications(random, quick(3));
    REQUIRE(r.teams.size() == 1);
    for (int i = 0; i < 3; ++i) {
        RunOptions options;
        options.seed = replicationSeed(random.seed, i);
        options.diagnosePending = false;
        const Results one = simulate(random, options);
        REQUIRE(one.teamKpis.size() == 1);
        CHECK(r.teams[0].team == one.teamKpis[0].name);
        CHECK(r.teams[0].findKpi("wait_s_p95")->values[i] == one.teamKpis[0].waitP95S);
        CHECK(r.teams[0].findKpi("gpu_hours_allocated")->values[i] == one.teamKpis[0].gpuHours);
    }
}

TEST_CASE("replications after the first make no pending lists, and lose nothing by it",
          "[replications]") {
    // M/M/4 at 36 an hour (ρ = 1.5): a backlog that grows all run, so every sample lists
    // queued jobs. Each replication's KPIs, fingerprint and series are what simulate() gives
    // on its seed with pending lists made; only the first keeps its list.
    Scenario s = mm4(2 * 86400.0);
    s.jobClasses[0].arrival.ratePerHour = 36;
    ReplicationOptions o = quick(3, 2);
    o.run.diagnosePending = true;
    const Replications r = runReplications(s, o);
    REQUIRE(r.count == 3);
    CHECK_FALSE(r.first->pending.empty());
    std::vector<Results> alone;
    for (int i = 0; i < 3; ++i) {
        RunOptions run = o.run;
        run.seed = r.seeds[i];
        alone.push_back(simulate(s, run));
        CHECK(alone.back().fingerprint == r.fingerprints[i]);
        for (const KpiEstimate& k : r.kpis) {
            const double v = alone.back().kpi(k.name);
            CHECK(((v == k.values[i]) || (std::isnan(v) && std::isnan(k.values[i]))));
        }
    }
    for (const SeriesBand& band : r.series) {
        const Series* one = alone[0].findSeries(band.name);
        REQUIRE(one);
        for (std::size_t k = 0; k < band.mean.size(); ++k) {
            double sum = 0;
            for (const Results& a : alone)
                sum += a.findSeries(band.name)->values[k];
            CHECK(band.mean[k] == Approx(sum / 3).margin(1e-12));
        }
    }
}
