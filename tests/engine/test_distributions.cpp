#include <catch2/catch.hpp>
#include <cmath>

#include "gpuplan/model/workload.hpp"
#include "model/random.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using detail::Rng;

TEST_CASE("the random stream is fixed by its seed") {
    Rng a(5), b(5), c(6);
    for (int i = 0; i < 100; ++i) {
        const auto x = a.next();
        CHECK(x == b.next());
        CHECK(x != c.next());
    }
}

TEST_CASE("distributions have the moments they promise") {
    Rng rng(11);
    const int n = 400000;
    DistributionDef d;
    SECTION("exponential: mean 50 (standard error 50/√n = 0.08)") {
        d.kind = DistKind::Exponential;
        d.mean = 50;
        double sum = 0;
        for (int i = 0; i < n; ++i)
            sum += detail::sample(d, rng);
        CHECK(sum / n == Approx(50).epsilon(0.01));
    }
    SECTION("lognormal: median 100, σ 0.5, so mean 100·e^(σ²/2) = 113.3") {
        d.kind = DistKind::Lognormal;
        d.median = 100;
        d.sigma = 0.5;
        double sum = 0;
        int below = 0;
        for (int i = 0; i < n; ++i) {
            const double v = detail::sample(d, rng);
            sum += v;
            below += v < 100;
        }
        CHECK(sum / n == Approx(100 * std::exp(0.125)).epsilon(0.01));
        CHECK(below / double(n) == Approx(0.5).epsilon(0.01));
    }
    SECTION("empirical: weights 1:3 give the second value 75 % of the time") {
        d.kind = DistKind::Empirical;
        d.values = {2, 8};
        d.weights = {1, 3};
        int eights = 0;
        for (int i = 0; i < n; ++i)
            eights += detail::sample(d, rng) == 8;
        CHECK(eights / double(n) == Approx(0.75).epsilon(0.01));
        CHECK(detail::meanOf(d) == Approx(6.5));  // (2·1 + 8·3) / 4
    }
    SECTION("min and max clamp") {
        d.kind = DistKind::Uniform;
        d.low = 0;
        d.high = 10;
        d.min = 2;
        d.max = 5;
        for (int i = 0; i < 1000; ++i) {
            const double v = detail::sample(d, rng);
            REQUIRE(v >= 2);
            REQUIRE(v <= 5);
        }
    }
}

TEST_CASE("arrival processes") {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 100 * 86400.0;
    JobClassDef c;
    c.name = "c";
    c.traits.team = "t";
    c.gpus.value = 1;
    c.durationS.value = 60;
    SECTION("Poisson: 10/h for 100 days ≈ 24,000 jobs (σ = √24000 ≈ 155)") {
        c.arrival.ratePerHour = 10;
        s.jobClasses = {c};
        const auto w = generateWorkload(s, Fleet::build(s));
        CHECK(w.jobs.size() == Approx(24000).margin(800));
    }
    SECTION("diurnal: rate 10·(1 + 0.8 cos(2π(h − 14)/24)); peak hour ≈ 9× the trough hour") {
        // At 14:00 the rate is 18/h, at 02:00 it is 2/h.
        c.arrival.process = ArrivalProcess::Diurnal;
        c.arrival.ratePerHour = 10;
        c.arrival.amplitude = 0.8;
        c.arrival.peakHourOfDay = 14;
        s.jobClasses = {c};
        const auto w = generateWorkload(s, Fleet::build(s));
        int peak = 0, trough = 0;
        for (const JobSpec& j : w.jobs) {
            const int hour = static_cast<int>(std::fmod(j.submitS / 3600, 24));
            peak += hour == 14;
            trough += hour == 2;
        }
        CHECK(w.jobs.size() == Approx(24000).margin(800));  // the daily mean is unchanged
        // An hour-long bin averages the cosine: (24/2π)·sin(2π/24) = 0.98862, so the 14:00 bin
        // gets 10·(1 + 0.8·0.98862) = 17.909/h → 1791 in 100 days, the 02:00 bin
        // 10·(1 − 0.79089) = 2.091/h → 209 (σ ≈ √209 ≈ 14).
        CHECK(peak == Approx(1791).epsilon(0.1));
        CHECK(trough == Approx(209).epsilon(0.25));
    }
    SECTION("explicit list, with times past the horizon dropped") {
        c.arrival.process = ArrivalProcess::List;
        c.arrival.timesS = {5, 1, 200 * 86400.0};
        s.jobClasses = {c};
        const auto w = generateWorkload(s, Fleet::build(s));
        REQUIRE(w.jobs.size() == 2);
        CHECK(w.jobs[0].submitS == 1);
        CHECK(w.jobs[1].submitS == 5);
    }
}

TEST_CASE("sampled job sizes stay within the validated bounds") {
    // Median 20,000 GPUs with σ = 5 draws values far beyond 100,000: they are clamped.
    Scenario s = test::smallFleet(1, 1, "n8");
    JobClassDef c;
    c.name = "wild";
    c.traits.team = "t";
    c.arrival.ratePerHour = 50;
    c.gpus.kind = DistKind::Lognormal;
    c.gpus.median = 20000;
    c.gpus.sigma = 5;
    c.durationS.kind = DistKind::Lognormal;
    c.durationS.median = 1e9;
    c.durationS.sigma = 5;
    s.jobClasses = {c};
    const Workload w = generateWorkload(s, Fleet::build(s));
    REQUIRE(w.jobs.size() > 500);
    for (const JobSpec& j : w.jobs) {
        REQUIRE(j.gpus >= 1);
        REQUIRE(j.gpus <= 100000);
        REQUIRE(j.durationS <= 1e10);
    }
}

TEST_CASE("automatic pod size: the largest divisor that fits a node") {
    CHECK(automaticGpusPerPod(1, 8) == 1);
    CHECK(automaticGpusPerPod(8, 8) == 8);
    CHECK(automaticGpusPerPod(16, 8) == 8);
    CHECK(automaticGpusPerPod(12, 8) == 6);  // 2 pods of 6
    CHECK(automaticGpusPerPod(7, 4) == 1);   // a prime above the node size: 7 pods of 1
}
