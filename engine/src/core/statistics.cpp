#include "gpuplan/core/statistics.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace gpuplan {

namespace {

/// Φ(x), the standard normal CDF.
double normalCdf(double x) {
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

/// The x with Φ(x) = p, by bisection (Φ is monotone; 200 halvings reach double precision).
double normalQuantile(double p) {
    double lo = -40, hi = 40;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++i) {
        const double mid = (lo + hi) / 2;
        (normalCdf(mid) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

/// Above this many degrees of freedom the quantile's bisection over the exact finite sums gets
/// long; the Cornish-Fisher expansion (three terms, the next is O(ν⁻³)) is then within 1e-10.
constexpr int kExactDofLimit = 4000;

}  // namespace

double studentTCdf(double t, int dof) {
    if (dof < 1) throw std::invalid_argument("Student t needs at least 1 degree of freedom");
    if (std::isnan(t)) return t;
    if (std::isinf(t)) return t > 0 ? 1 : 0;
    // Exact for integer ν (Abramowitz & Stegun 26.7.3 and 26.7.4): with θ = atan(t/√ν),
    // A = P(|T| ≤ |t|) is a finite sum of powers of cos θ.
    const double theta = std::atan(std::abs(t) / std::sqrt(static_cast<double>(dof)));
    const double c2 = std::cos(theta) * std::cos(theta);
    const double s = std::sin(theta);
    double a;
    if (dof % 2 == 1) {
        // A = (2/π)(θ + sin θ cos θ [1 + (2/3)c² + (2·4)/(3·5)c⁴ + … up to c^(ν−3)]).
        double sum = 0, term = 1;
        for (int k = 1; k <= dof - 2; k += 2) {
            sum += term;
            term *= c2 * (k + 1) / (k + 2);
        }
        a = 2 / std::numbers::pi * (theta + (dof > 1 ? s * std::cos(theta) * sum : 0));
    } else {
        // A = sin θ [1 + (1/2)c² + (1·3)/(2·4)c⁴ + … up to c^(ν−2)].
        double sum = 0, term = 1;
        for (int k = 0; k <= dof - 2; k += 2) {
            sum += term;
            term *= c2 * (k + 1) / (k + 2);
        }
        a = s * sum;
    }
    return t >= 0 ? (1 + a) / 2 : (1 - a) / 2;
}

double studentTQuantile(double p, int dof) {
    if (!(p > 0 && p < 1)) throw std::invalid_argument("a quantile needs 0 < p < 1");
    if (dof < 1) throw std::invalid_argument("Student t needs at least 1 degree of freedom");
    if (dof > kExactDofLimit) {
        // Cornish-Fisher: t = z + (z³ + z)/(4ν) + (5z⁵ + 16z³ + 3z)/(96ν²) + …
        const double z = normalQuantile(p), nu = dof;
        return z + (z * z * z + z) / (4 * nu) +
               (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu);
    }
    // The CDF is monotone: bisect on a bracket that holds the quantile (t(0.9999999, 1) is
    // about 3.2e6).
    double lo = -1e9, hi = 1e9;
    for (int i = 0; i < 300 && hi - lo > 1e-13 * std::max(1.0, std::abs(lo)); ++i) {
        const double mid = (lo + hi) / 2;
        (studentTCdf(mid, dof) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

MeanInterval meanInterval(std::span<const double> values, double confidence) {
    return ConfidenceIntervals(confidence).of(values);
}

ConfidenceIntervals::ConfidenceIntervals(double confidence) : m_confidence(confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("a confidence level is between 0 and 1");
}

MeanInterval ConfidenceIntervals::of(std::span<const double> values) {
    MeanInterval m;
    double sum = 0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++m.n;
        }
    if (m.n == 0) return m;
    m.mean = sum / m.n;
    if (m.n < 2) return m;
    double squares = 0;
    for (double v : values)
        if (std::isfinite(v)) squares += (v - m.mean) * (v - m.mean);
    m.stddev = std::sqrt(squares / (m.n - 1));
    const auto dof = static_cast<std::size_t>(m.n - 1);
    if (m_tByDof.size() <= dof) m_tByDof.resize(dof + 1, 0);
    if (m_tByDof[dof] == 0)
        m_tByDof[dof] = studentTQuantile(1 - (1 - m_confidence) / 2, static_cast<int>(dof));
    const double half = m_tByDof[dof] * m.stddev / std::sqrt(m.n);
    m.low = m.mean - half;
    m.high = m.mean + half;
    return m;
}

}  // namespace gpuplan
