// The reserved-level sweep (buying_mix_sweep.hpp): costs per level and the optimum, against
// the newsvendor's quantile on a demand whose distribution is known. Here every hour's jobs
// start together and end together, so no job runs on demand while a reserved node is free and
// the fluid formula is exact; with Poisson arrivals it is not (test_reserved_overflow.cpp).
#include <catch2/catch.hpp>

#include <random>

#include "gpuplan/economics/buying_mix_sweep.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;

namespace {

/// 16 nodes of 8 GPUs; every hour for `hours` hours, D one-node jobs (8 GPUs, exactly 1 h)
/// start together, D uniform on 0..16 (drawn with a fixed seed). They all end at the next
/// hour, just before the next ones start, so the demand in nodes is D_k through hour k.
/// On demand: provisioned at once, given back the moment it idles.
Scenario hourlyUniformDemand(int hours) {
    Scenario s = test::smallFleet(1, 16, "n8");
    s.horizonS = hours * 3600.0;
    s.sampleIntervalS = 1800;
    s.pricing = test::tgPrices();
    s.onDemand = OnDemandDef{0, 0, std::nullopt};
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int> demand(0, 16);
    for (int h = 0; h < hours; ++h) {
        const int d = demand(rng);
        for (int i = 0; i < d; ++i)
            s.jobs.push_back(
                job("h" + std::to_string(h) + "-" + std::to_string(i), 8, 3600, h * 3600.0));
    }
    return s;
}

/// Nodes the scenario's jobs ask for, hour by hour (each job is one node for one hour).
std::vector<int> demandByHour(const Scenario& s) {
    std::vector<int> demand(static_cast<std::size_t>(s.horizonS / 3600), 0);
    for (const JobDef& j : s.jobs)
        ++demand[static_cast<std::size_t>(j.submitS / 3600)];
    return demand;
}

}  // namespace

TEST_CASE("each level costs its reservation plus the demand above it on demand", "[mix]") {
    // 24 hours of the hourly demand; at R reserved nodes an hour costs 8 × ($2 × R + $5 ×
    // (D_k − R)+) — instant provisioning, given back when idle — summed over the hours.
    const Scenario s = hourlyUniformDemand(24);
    const std::vector<int> demand = demandByHour(s);
    MixSweepOptions options;
    options.levels = 17;
    const MixSweep sweep = sweepReservedLevels(s, options);
    REQUIRE_FALSE(sweep.stopped);
    CHECK(sweep.peakDemandNodes == *std::max_element(demand.begin(), demand.end()));
    CHECK(sweep.peakDemandGpus == 8 * sweep.peakDemandNodes);
    for (const MixLevel& level : sweep.levels) {
        double expected = 0;
        for (int d : demand)
            expected +=
                8 * (2.0 * level.reservedNodes + 5.0 * std::max(0, d - level.reservedNodes));
        INFO("reserved nodes " << level.reservedNodes);
        CHECK(level.costUsd == Approx(expected));
        CHECK(level.reservedGpus == 8 * level.reservedNodes);
    }
}

TEST_CASE("a fixed number of spot nodes at every level", "[mix]") {
    // Two spot nodes ($1.50, always up: no reclaims) beside R reserved, the rest on demand:
    // the fill order puts an hour's D jobs on reserved, then spot, then on demand, so an hour
    // costs 8 × ($2 R + $1.50 S + $5 (D − R − S)+) with S = min(2, 16 − R).
    const Scenario s = hourlyUniformDemand(24);
    const std::vector<int> demand = demandByHour(s);
    MixSweepOptions options;
    options.levels = 17;
    options.spotNodes = 2;
    const MixSweep sweep = sweepReservedLevels(s, options);
    for (const MixLevel& level : sweep.levels) {
        const int spot = std::min(2, 16 - level.reservedNodes);
        CHECK(level.spotNodes == spot);
        double expected = 0;
        for (int d : demand)
            expected += 8 * (2.0 * level.reservedNodes + 1.5 * spot +
                             5.0 * std::max(0, d - level.reservedNodes - spot));
        INFO("reserved nodes " << level.reservedNodes);
        CHECK(level.costUsd == Approx(expected));
    }
}

TEST_CASE("the optimum reservation is the newsvendor quantile", "[mix]") {
    // D uniform on 0..16 nodes; reserved ÷ on-demand price = 2 / 5 = 0.4. The expected cost
    // per hour, 8 × (2R + 5 E[(D − R)+]), falls while P(D > R) = (16 − R) / 17 > 0.4, that is
    // up to R = 9 (7/17 = 0.41); at R = 10 it is 6/17 = 0.35. Optimum: 10 nodes (80 GPUs).
    // From 2,000 hours of draws P(D > 9) is known to ±0.011, so the sampled optimum is 9 or
    // 10; 11 costs 8 × (2 − 5 × 6/17) = $2.35 an hour more than 10, far outside the noise.
    const Scenario s = hourlyUniformDemand(2000);
    MixSweepOptions options;
    options.levels = 17;
    const MixSweep sweep = sweepReservedLevels(s, options);
    REQUIRE(sweep.peakDemandNodes == 16);
    REQUIRE(sweep.levels.size() == 17);  // one node a step
    const int optimum = sweep.levels[sweep.optimum].reservedNodes;
    CHECK(optimum >= 9);
    CHECK(optimum <= 11);
    // The same sweep on one thread: the same costs.
    options.threads = 1;
    const MixSweep serial = sweepReservedLevels(s, options);
    for (std::size_t i = 0; i < sweep.levels.size(); ++i)
        CHECK(serial.levels[i].costUsd == sweep.levels[i].costUsd);
}

TEST_CASE("a sweep without prices or with bad options is refused", "[mix]") {
    Scenario s = hourlyUniformDemand(4);
    MixSweepOptions options;
    options.levels = 1;
    CHECK_THROWS_WITH(sweepReservedLevels(s, options), Catch::Contains("levels"));
    s.pricing.reset();
    CHECK_THROWS_WITH(sweepReservedLevels(s), Catch::Contains("prices"));
}
