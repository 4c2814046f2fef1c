#include <catch2/catch.hpp>
#include <cmath>

#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One node of 4 GPUs (c = 4), 1-GPU jobs, Poisson arrivals, exponential run times:
/// an M/M/4 queue served first come, first served.
Scenario mmc(double arrivalsPerHour, double meanDurationS, double horizonS) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = horizonS;
    s.sampleIntervalS = 86400;
    s.seed = 2024;
    JobClassDef c;
    c.name = "mmc";
    c.traits.team = "t";
    c.arrival.ratePerHour = arrivalsPerHour;
    c.gpus.value = 1;
    c.durationS.kind = DistKind::Exponential;
    c.durationS.mean = meanDurationS;
    s.jobClasses = {c};
    return s;
}

Results runFast(const Scenario& s) {
    RunOptions o;
    o.checkInvariants = false;
    o.diagnosePending = false;
    return simulate(s, o);
}

}  // namespace

TEST_CASE("M/M/c: the mean wait matches Erlang C within 5 %") {
    // c = 4 servers, mean service 1/µ = 600 s, λ = 18/h = 3/600 s⁻¹, so a = λ/µ = 3 and
    // ρ = a/c = 0.75.
    //   Σ_{k<4} a^k/k! = 1 + 3 + 9/2 + 27/6 = 13
    //   a^c/c! · c/(c − a) = (81/24) · 4/1 = 13.5
    //   Erlang C = 13.5 / (13 + 13.5) = 0.50943
    //   Wq = C / (cµ − λ) = 0.50943 / (4µ − 3µ) = 0.50943 · 600 s = 305.66 s
    // Waits are strongly correlated in time: over two simulated years the mean wait still
    // scatters by about ±3 % between seeds, so eight years (~1.26 M jobs, ±1.5 %) are run.
    const Results r = runFast(mmc(18, 600, 8 * 365 * 86400.0));
    const double expectedWaitS = 13.5 / 26.5 * 600;
    CHECK(r.kpi("jobs_submitted") > 1200000);
    CHECK(r.kpi("wait_s_mean") == Approx(expectedWaitS).epsilon(0.05));
    // The servers are busy a fraction ρ = 0.75 of the time.
    CHECK(r.kpi("allocation_mean") == Approx(0.75).epsilon(0.02));
    // P(wait > 0) is Erlang C itself: 50.9 % of jobs wait…
    int waited = 0, started = 0;
    for (const JobRecord& j : r.jobs) {
        if (j.firstStartS < 0) continue;
        ++started;
        waited += j.waitS() > 0;
    }
    CHECK(waited / double(started) == Approx(13.5 / 26.5).epsilon(0.03));
    // …and waits are exponential with rate cµ − λ = 1/600 s⁻¹ given a wait, so
    // P(W > w) = C·e^(−w/600) = 0.05 at w = 600·ln(C/0.05) = 600·ln(10.19) = 1393 s.
    CHECK(r.kpi("wait_s_p95") == Approx(600 * std::log(13.5 / 26.5 / 0.05)).epsilon(0.08));
}

TEST_CASE("Little's law: mean queue length = arrival rate × mean wait") {
    // L_q = λ W_q for any stable queue; on one sample path the two sides differ only by the
    // jobs still waiting at the horizon. λ is measured as submitted jobs ÷ horizon.
    const double horizonS = 60 * 86400.0;
    const Results r = runFast(mmc(20, 600, horizonS));  // ρ = 20/24 ≈ 0.83
    const double lambdaPerS = r.kpi("jobs_submitted") / horizonS;
    CHECK(r.kpi("queue_length_mean") == Approx(lambdaPerS * r.kpi("wait_s_mean")).epsilon(0.01));
}

TEST_CASE("GPU-seconds are conserved: allocated = Σ job GPUs × bound time") {
    Scenario s = mmc(20, 600, 10 * 86400.0);
    s.pods[0].racks[0].nodes[0].count = 3;
    s.jobClasses[0].gpus.kind = DistKind::Empirical;
    s.jobClasses[0].gpus.values = {1, 2, 4};
    s.jobClasses[0].gpus.weights = {3, 2, 1};
    const Results r = runFast(s);
    double gpuSeconds = 0;
    for (const RunSegment& seg : r.segments)
        gpuSeconds += r.jobs[seg.job].spec.gpus * (seg.endS - seg.startS);
    CHECK(r.kpi("gpu_hours_allocated") * 3600 == Approx(gpuSeconds).epsilon(1e-9));
    // Provisioned: 3 nodes × 4 GPUs × 10 days.
    CHECK(r.kpi("gpu_hours_provisioned") == Approx(12 * 240));
    // Useful work never exceeds what was allocated.
    CHECK(r.kpi("gpu_hours_useful") <= r.kpi("gpu_hours_allocated") * (1 + 1e-12));
}
