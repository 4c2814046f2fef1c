// Demand forecasting and the reservation it implies (lesson 6.4): a seasonal-trend least-squares
// fit, its prediction interval, the overflow model's reservation and the fluid (newsvendor)
// approximation's beside it. Expected numbers are worked out in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "gpuplan/economics/demand_forecast.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// 100 + 2 GPUs a day + 20·sin(2π·hour/24), hourly, `days` long, plus Normal(0, sd) noise.
DemandHistory synthetic(int days, double sd, std::uint64_t seed = 1) {
    DemandHistory h;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, sd);
    for (int t = 0; t < days * 24; ++t)
        h.gpus.push_back(100 + 2.0 * t / 24 + 20 * std::sin(2 * std::numbers::pi * (t % 24) / 24) +
                         (sd > 0 ? noise(rng) : 0));
    return h;
}

}  // namespace

TEST_CASE("forecast: a noise-free season and trend are recovered exactly", "[forecast]") {
    const DemandForecast f = forecastDemand(synthetic(14, 0), {});
    CHECK(f.seasonSteps == 24);
    CHECK(f.trendGpusPerDay == Approx(2.0).margin(1e-9));
    CHECK(f.residualSdGpus == Approx(0).margin(1e-9));
    // Hour 14·24 + 6 is 6 h into day 14: 100 + 2 × (342 / 24) + 20 × sin(π/2) = 148.5.
    REQUIRE(f.meanGpus.size() == 7 * 24);
    CHECK(f.meanGpus[6] == Approx(148.5).margin(1e-9));
    CHECK(f.highGpus[6] == Approx(148.5).margin(1e-9));  // no residual: no width
    CHECK(f.startS == 14 * 86400.0);
}

TEST_CASE("forecast: the 95 % prediction interval holds about 95 % of new hours", "[forecast]") {
    // Fit 28 days with σ = 5, then draw the next 7 days from the same model with other noise:
    // 168 hours, each inside its interval with probability 0.95; the count is Binomial(168,
    // 0.95), mean 159.6, sd √(168·0.95·0.05) = 2.8, so [151, 168] is more than 3 sd wide.
    const DemandHistory past = synthetic(28, 5, 11);
    const DemandForecast f = forecastDemand(past, {});
    CHECK(f.residualSdGpus == Approx(5).epsilon(0.1));
    CHECK(f.trendGpusPerDay == Approx(2.0).margin(0.1));
    const DemandHistory future = synthetic(35, 5, 99);
    int inside = 0;
    for (int h = 0; h < 168; ++h) {
        const double y = future.gpus[28 * 24 + h];
        inside += y >= f.lowGpus[h] && y <= f.highGpus[h];
    }
    CHECK(inside >= 151);
}

TEST_CASE("forecast: the reservation is the overflow model's, the fluid one's beside it",
          "[forecast]") {
    DemandForecast f;
    SECTION("whole-node demand: 15 nodes, where the fluid formula picks 13") {
        // One hour of 80 GPUs in whole-node jobs (servers of 8): a = 10 Erlangs, $1 reserved,
        // $5 on demand. The overflow model's cheapest level is 15 nodes, $134.60 an hour
        // (worked in test_reserved_overflow.cpp). The fluid formula, D ~ Normal(80, 8·√10 =
        // 25.298) as a Poisson(10) count of 8-GPU nodes: its quantile P(D > R) = 0.2 is
        // 80 + 0.841621 × 25.298 = 101.29 GPUs, between 12 and 13 nodes; with E[(D − R)+] =
        // sd·φ(z) − (R − mean)·(1 − Φ(z)):
        //   R =  96: z = 0.63246, E = 4.0464 → 96 + 5 × 4.0464 = 116.23
        //   R = 104: z = 0.94868, E = 2.3219 → 104 + 5 × 2.3219 = 115.61   its pick
        // There the overflow model expects 8 × (13 + 5 × 10 × B(13, 10) = 0.843389) = 137.74:
        // the fluid formula is 1 − 115.61 / 137.74 = 16.1 % low.
        f.meanGpus = {80};
        f.sdGpus = {8 * std::sqrt(10.0)};
        f.serverGpus = 8;
        const ReservationAdvice a = reservationFor(f, 1, 5);
        CHECK(a.criticalRatio == 0.2);
        CHECK(a.servers == 15);
        CHECK(a.reservedGpus == 120);
        CHECK(a.expectedUsdPerHour == Approx(134.5987782).epsilon(1e-8));
        CHECK(a.onDemandGpus == Approx(80 * 0.0364969455).epsilon(1e-8));
        CHECK(a.fluid.reservedGpus == 104);
        CHECK(a.fluid.usdPerHour == Approx(115.6095).epsilon(1e-5));
        CHECK(a.fluid.overflowUsdPerHour == Approx(137.7355451).epsilon(1e-8));
        CHECK(a.fluid.biasFraction() == Approx(0.16064).epsilon(1e-4));
    }
    SECTION("the fluid level is the newsvendor's quantile, on whole servers") {
        // One Normal hour, servers of 1 GPU: R = mean + sd × Φ⁻¹(1 − ratio).
        f.meanGpus = {100};
        f.sdGpus = {10};
        // Ratio 0.5: the median, 100 GPUs.
        CHECK(reservationFor(f, 1, 2).fluid.reservedGpus == 100);
        // Ratio 0.158655 = 1 − Φ(1): one sd above, 110 GPUs.
        CHECK(reservationFor(f, 0.158655254, 1).fluid.reservedGpus == 110);
        // Reserving costs as much as on demand: reserve nothing, by either.
        CHECK(reservationFor(f, 3, 3).reservedGpus == 0);
        CHECK(reservationFor(f, 3, 3).fluid.reservedGpus == 0);
    }
    SECTION("hours of known demand: the fluid level is used at least (1 − ratio) of the hours") {
        // 100 hours needing 0, 1, …, 99 GPUs. Reserved $1, on demand $4: ratio 0.25, so the
        // fluid R is the level exceeded in 25 % of the hours: demand > R for the 25 hours
        // 75 … 99 → R = 74, costing 74 + 4 × (1 + 2 + … + 25) / 100 = 74 + 4 × 3.25 = 87 (R = 75
        // costs 75 + 4 × 3 = 87 too: the fewer on a tie). The overflow model reserves more:
        // hours offered just under 74 GPUs still turn a share B(74, a) > 0 of their jobs away
        // to on demand, which the fluid formula counts as nothing.
        for (int h = 0; h < 100; ++h) {
            f.meanGpus.push_back(h);
            f.sdGpus.push_back(0);
        }
        const ReservationAdvice a = reservationFor(f, 1, 4);
        CHECK(a.criticalRatio == 0.25);
        CHECK(a.fluid.reservedGpus == 74);
        CHECK(a.fluid.usdPerHour == Approx(87).margin(1e-6));
        CHECK(a.reservedGpus > a.fluid.reservedGpus);
        CHECK(a.fluid.overflowUsdPerHour > a.fluid.usdPerHour);
        CHECK(a.expectedUsdPerHour <= a.fluid.overflowUsdPerHour);
    }
}

TEST_CASE("forecast: a run's demand is allocated plus pending GPUs per hour", "[forecast]") {
    Results r;
    r.endS = 7200;
    for (int i = 0; i < 12; ++i)
        r.sampleTimesS.push_back(600.0 * i);
    r.series.push_back({"allocated_gpus", "gpus", std::vector<double>(12, 8.0)});
    r.series.push_back({"pending_gpus{scheduling}", "gpus", {0, 0, 0, 0, 0, 0, 6, 6, 6, 0, 0, 0}});
    r.series.push_back({"stranded_gpus", "gpus", std::vector<double>(12, 50.0)});  // not demand
    const DemandHistory h = demandHistory(r);
    // Hour 0: 8 each sample; hour 1: 8 + (6 + 6 + 6) / 6 = 11.
    REQUIRE(h.gpus.size() == 2);
    CHECK(h.gpus[0] == 8);
    CHECK(h.gpus[1] == 11);
    CHECK(h.serverGpus == 1);  // no jobs
}

TEST_CASE("forecast: the server size is the demand's peakedness", "[forecast]") {
    // An 8-GPU job for 1 h and a 1-GPU job for 8 h: Σ g²·d = 64 × 1 + 1 × 8 = 72 and Σ g·d =
    // 8 + 8 = 16 GPU-hours, so servers of 72 / 16 = 4.5 GPUs. A 2g MIG job of 1 h adds
    // (2/7)² and 2/7: 72.0816… / 16.2857… = 4.4261.
    Results r;
    JobRecord big, small, mig;
    big.spec.gpus = 8;
    big.spec.gpusPerPod = 8;
    big.spec.durationS = 3600;
    small.spec.durationS = 8 * 3600;
    r.jobs = {big, small};
    CHECK(demandHistory(r).serverGpus == Approx(4.5).epsilon(1e-12));
    mig.spec.durationS = 3600;
    mig.spec.migProfileId[0] = 0;  // a MIG pod: its gpuMilli holds slices ÷ 7
    mig.spec.gpuMilli = 286;
    r.jobs.push_back(mig);
    const double g = 2.0 / 7;
    CHECK(demandHistory(r).serverGpus == Approx((72 + g * g) / (16 + g)).epsilon(1e-12));
}

TEST_CASE("forecast: too short a history is refused", "[forecast]") {
    CHECK_THROWS_WITH(forecastDemand(synthetic(1, 0), {}),
                      Catch::Contains("at least two seasons of history"));
    DemandForecastOptions weekly;
    weekly.seasonS = 604800;
    CHECK_THROWS(forecastDemand(synthetic(10, 0), weekly));
    CHECK_THROWS_WITH(reservationFor({}, 0, 1), Catch::Contains("above 0"));
}
