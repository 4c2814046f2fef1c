// Error bars for answers taken over several runs: Student's t quantile and the mean of a
// sample with its confidence interval, for replications, paired comparisons and sweeps.
#pragma once

#include <limits>
#include <span>
#include <vector>

namespace gpuplan {

/// P(T ≤ t) for Student's t with `dof` ≥ 1 degrees of freedom.
double studentTCdf(double t, int dof);
/// The t with P(T ≤ t) = p (0 < p < 1) for `dof` ≥ 1 degrees of freedom.
double studentTQuantile(double p, int dof);

struct MeanInterval {
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    double mean = kNaN;
    double low = kNaN;  ///< the confidence interval's bounds; NaN with fewer than two values
    double high = kNaN;
    double stddev = kNaN;  ///< of the values (n − 1 in the denominator)
    int n = 0;             ///< finite values counted

    double halfWidth() const { return (high - low) / 2; }
    /// The interval holds no 0: the mean differs from 0 at the interval's confidence.
    bool excludesZero() const { return low > 0 || high < 0; }
};

/// The mean of the finite values and its two-sided `confidence` interval,
/// mean ± t(1 − (1 − confidence)/2, n − 1) · s / √n. Values that are not finite (a KPI a run
/// could not measure) are left out and not counted.
MeanInterval meanInterval(std::span<const double> values, double confidence = 0.95);

/// meanInterval for many samples at one confidence: each t quantile is found once per
/// sample size (a band over thousands of samples asks the same few).
class ConfidenceIntervals {
public:
    explicit ConfidenceIntervals(double confidence = 0.95);
    MeanInterval of(std::span<const double> values);

private:
    double m_confidence;
    std::vector<double> m_tByDof;  ///< 0 = not yet computed
};

}  // namespace gpuplan
