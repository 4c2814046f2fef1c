// Seeded random numbers with our own transforms: std:: distributions differ between standard
// libraries, and the same scenario + seed must give the same fingerprint everywhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::detail {

inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// xoshiro256** (Blackman & Vigna), seeded through splitmix64.
class Rng {
public:
    explicit Rng(std::uint64_t seed) {
        std::uint64_t sm = seed;
        for (auto& word : m_s)
            word = splitmix64(sm);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in 0 … n − 1 (n ≥ 1) without modulo bias: a draw in the incomplete last block
    /// of n values (below 2^64 mod n) is drawn again.
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t reject = (0 - n) % n;  // 2^64 mod n
        for (;;) {
            const std::uint64_t x = next();
            if (x >= reject) return x % n;
        }
    }
    /// Uniform in (0, 1], safe for log().
    double uniformOpen0() { return 1.0 - uniform(); }

    double exponential(double mean) { return -mean * std::log(uniformOpen0()); }

    /// Standard normal by Box–Muller (one value per call keeps the stream simple).
    double normal() {
        const double u1 = uniformOpen0();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

/// Draws one value of a distribution (clamped to its min/max).
double sample(const DistributionDef& dist, Rng& rng);

/// The smallest and largest value `sample` can return (after min/max; ±infinity when
/// unbounded). For an empirical distribution, the range of its values.
std::pair<double, double> rangeOf(const DistributionDef& dist);

/// The distribution's mean before clamping (for validation estimates).
double meanOf(const DistributionDef& dist);

}  // namespace gpuplan::detail
