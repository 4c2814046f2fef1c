// Student's t and the confidence interval of a mean (gpuplan/core/statistics.hpp), against
// published table values and samples worked out by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "gpuplan/core/statistics.hpp"

using namespace gpuplan;

TEST_CASE("Student t quantiles match the printed tables", "[statistics]") {
    // Two-sided 95 % (p = 0.975) from any t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
    CHECK(studentTQuantile(0.975, 1) == Approx(12.706).margin(5e-4));
    CHECK(studentTQuantile(0.975, 2) == Approx(4.303).margin(5e-4));
    CHECK(studentTQuantile(0.975, 4) == Approx(2.776).margin(5e-4));
    CHECK(studentTQuantile(0.975, 9) == Approx(2.262).margin(5e-4));
    CHECK(studentTQuantile(0.975, 29) == Approx(2.045).margin(5e-4));
    CHECK(studentTQuantile(0.975, 100) == Approx(1.984).margin(5e-4));
    CHECK(studentTQuantile(0.995, 10) == Approx(3.169).margin(5e-4));
    // ν = 1 is Cauchy: P(T ≤ t) = 1/2 + atan(t)/π, so t(0.9) = tan(0.4π) = 3.0777.
    CHECK(studentTQuantile(0.9, 1) == Approx(std::tan(0.4 * M_PI)).epsilon(1e-9));
    // ν = 2 has a closed form: t(p) = (2p − 1)·√(2 / (4p(1 − p))); t(0.975) = 4.30265.
    CHECK(studentTQuantile(0.975, 2) == Approx(0.95 * std::sqrt(2 / (4 * 0.975 * 0.025))));
    // Symmetric. Near the normal's z = 1.959964 for many degrees of freedom:
    // t ≈ z + (z³ + z)/(4ν) = 1.959964 + 9.48906/16000 = 1.960557 at ν = 4000, on both sides
    // of where the bisection gives way to the expansion.
    CHECK(studentTQuantile(0.025, 7) == Approx(-studentTQuantile(0.975, 7)));
    CHECK(studentTQuantile(0.975, 4000) == Approx(1.960557).epsilon(1e-6));
    CHECK(studentTQuantile(0.975, 4001) == Approx(1.960557).epsilon(1e-6));
    CHECK(studentTQuantile(0.975, 1000000) == Approx(1.959966).epsilon(1e-6));
    CHECK(studentTCdf(0, 5) == 0.5);
    CHECK(studentTCdf(studentTQuantile(0.8, 6), 6) == Approx(0.8).epsilon(1e-12));
    CHECK_THROWS(studentTQuantile(1, 3));
    CHECK_THROWS(studentTQuantile(0.5, 0));
}

TEST_CASE("the mean's interval is mean ± t·s/√n over the finite values", "[statistics]") {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x − 5)² = 9+1+1+1+0+0+4+16 = 32, s = √(32/7) = 2.138,
    // t(0.975, 7) = 2.365, half-width 2.365 · 2.138 / √8 = 1.788.
    const std::vector<double> values = {2, 4, 4, 4, 5, 5, 7, 9, std::nan(""), INFINITY};
    const MeanInterval m = meanInterval(values);
    CHECK(m.n == 8);
    CHECK(m.mean == 5);
    CHECK(m.stddev == Approx(std::sqrt(32.0 / 7)));
    CHECK(m.halfWidth() == Approx(2.3646 * std::sqrt(32.0 / 7) / std::sqrt(8.0)).epsilon(1e-4));
    CHECK(m.excludesZero());
    // One value: a mean, no interval. None: nothing.
    const std::vector<double> one = {3};
    CHECK(meanInterval(one).mean == 3);
    CHECK(std::isnan(meanInterval(one).low));
    CHECK(meanInterval(std::vector<double>{}).n == 0);
    // Identical values: a zero-width interval (a paired difference of a scenario with itself).
    const std::vector<double> zeros = {0, 0, 0, 0};
    CHECK(meanInterval(zeros).low == 0);
    CHECK(meanInterval(zeros).high == 0);
    CHECK_FALSE(meanInterval(zeros).excludesZero());
}
