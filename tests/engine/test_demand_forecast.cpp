// Demand forecasting and the reservation it implies (lesson 6.4): a seasonal-trend least-squares
// fit, its prediction interval, and the newsvendor's critical ratio. Expected numbers are
// worked out in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "gpuplan/demand_forecast.hpp"
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

TEST_CASE("forecast: the reservation is the newsvendor's critical fractile", "[forecast]") {
    DemandForecast f;
    SECTION("one Normal hour: R = mean + sd × Φ⁻¹(1 − ratio)") {
        f.meanGpus = {100};
        f.sdGpus = {10};
        // Ratio 0.5: the median, 100 GPUs.
        CHECK(reservationFor(f, 1, 2).reservedGpus == Approx(100).margin(1e-6));
        // Ratio 0.158655 = 1 − Φ(1): one sd above, 110 GPUs.
        CHECK(reservationFor(f, 0.158655254, 1).reservedGpus == Approx(110).margin(1e-4));
        // Reserving costs as much as on demand: reserve nothing.
        CHECK(reservationFor(f, 3, 3).reservedGpus == 0);
    }
    SECTION("hours of known demand: reserve what is used at least (1 − ratio) of the hours") {
        // 100 hours needing 0, 1, …, 99 GPUs. Reserved $1, on demand $4: ratio 0.25, so R is
        // the level exceeded in 25 % of the hours: demand > R for the 25 hours 75 … 99 → R = 74.
        for (int h = 0; h < 100; ++h) {
            f.meanGpus.push_back(h);
            f.sdGpus.push_back(0);
        }
        const ReservationAdvice a = reservationFor(f, 1, 4);
        CHECK(a.criticalRatio == 0.25);
        CHECK(a.reservedGpus == Approx(74).margin(1e-6));
        // Cost at R = 74: 74 reserved + 4 × (1 + 2 + … + 25) / 100 = 74 + 4 × 3.25 = 87.
        CHECK(a.expectedUsdPerHour == Approx(87).margin(1e-6));
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
}

TEST_CASE("forecast: too short a history is refused", "[forecast]") {
    CHECK_THROWS_WITH(forecastDemand(synthetic(1, 0), {}),
                      Catch::Contains("at least two seasons of history"));
    DemandForecastOptions weekly;
    weekly.seasonS = 604800;
    CHECK_THROWS(forecastDemand(synthetic(10, 0), weekly));
    CHECK_THROWS_WITH(reservationFor({}, 0, 1), Catch::Contains("above 0"));
}
