// Demand history, seasonal-trend forecast and the reservation it implies by the overflow model,
// with the fluid (newsvendor) approximation beside it (gpuplan/economics/demand_forecast.hpp).
#include "gpuplan/economics/demand_forecast.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "gpuplan/core/statistics.hpp"
#include "gpuplan/economics/reserved_overflow.hpp"

namespace gpuplan {

namespace {

double normalCdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

double normalPdf(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}

/// P(D > r) for D ~ Normal(mean, sd); a point mass when sd is 0.
double exceeds(double r, double mean, double sd) {
    if (sd <= 0) return mean > r ? 1.0 : 0.0;
    return 1 - normalCdf((r - mean) / sd);
}

/// E[(D − r)+] for D ~ Normal(mean, sd).
double expectedShortfall(double r, double mean, double sd) {
    if (sd <= 0) return std::max(0.0, mean - r);
    const double z = (r - mean) / sd;
    return sd * normalPdf(z) + (mean - r) * (1 - normalCdf(z));
}

/// The fluid formula's hourly cost at R: c_r·R + c_od·mean over the hours of E[(D_h − R)+].
double fluidUsdPerHour(const DemandForecast& f, double r, double usdReserved, double usdOnDemand) {
    double onDemand = 0;
    for (std::size_t h = 0; h < f.meanGpus.size(); ++h)
        onDemand += expectedShortfall(r, f.meanGpus[h], f.sdGpus[h]);
    return usdReserved * r + usdOnDemand * onDemand / static_cast<double>(f.meanGpus.size());
}

/// The newsvendor's quantile over the forecast hours: the R where P(D > R), averaged over the
/// hours, falls to `ratio` (0 when reserving never pays, ratio ≥ 1).
double fluidQuantile(const DemandForecast& f, double ratio) {
    const std::size_t hours = f.meanGpus.size();
    auto shareAbove = [&](double r) {
        double sum = 0;
        for (std::size_t h = 0; h < hours; ++h)
            sum += exceeds(r, f.meanGpus[h], f.sdGpus[h]);
        return sum / static_cast<double>(hours);
    };
    if (ratio >= 1 || !(shareAbove(0) > ratio)) return 0;
    // P(D > R) falls from 1 to 0 as R grows: bisect for the ratio (never below 0 GPUs).
    double lo = 0, hi = 0;
    for (std::size_t h = 0; h < hours; ++h)
        hi = std::max(hi, f.meanGpus[h] + 10 * f.sdGpus[h]);
    for (int i = 0; i < 200 && hi - lo > 1e-9 * std::max(1.0, hi); ++i) {
        const double mid = (lo + hi) / 2;
        (shareAbove(mid) > ratio ? lo : hi) = mid;
    }
    return hi;
}

}  // namespace

DemandHistory demandHistory(const Results& results, double stepS) {
    DemandHistory h;
    h.stepS = stepS;
    // Peakedness: GPU-time-weighted mean job size (compound Poisson: variance ÷ mean of the
    // GPUs in use).
    double gpuSeconds = 0, gpuSquaredSeconds = 0;
    for (const JobRecord& j : results.jobs) {
        const double g = j.spec.gpuEquivalents();
        const double heldS = static_cast<double>(j.spec.startupS) + j.spec.durationS;
        gpuSeconds += g * heldS;
        gpuSquaredSeconds += g * g * heldS;
    }
    if (gpuSeconds > 0) h.serverGpus = gpuSquaredSeconds / gpuSeconds;
    const std::vector<double>& times = results.sampleTimesS;
    std::vector<double> demand(times.size(), 0.0);
    for (const Series& s : results.series)
        if (s.name == "allocated_gpus" || s.name.starts_with("pending_gpus{"))
            for (std::size_t i = 0; i < s.values.size() && i < demand.size(); ++i)
                demand[i] += s.values[i];
    if (times.empty()) return h;
    h.startS = times.front();
    // Samples in [start + k·step, start + (k+1)·step) make step k; the run's horizon ends the
    // last full step.
    const double endS = results.endS > 0 ? results.endS : times.back();
    const auto steps = static_cast<std::size_t>(std::floor((endS - h.startS) / stepS + 1e-9));
    std::vector<double> sum(steps, 0.0);
    std::vector<int> count(steps, 0);
    for (std::size_t i = 0; i < times.size(); ++i) {
        const auto k = static_cast<std::size_t>((times[i] - h.startS) / stepS);
        if (k >= steps) continue;
        sum[k] += demand[i];
        ++count[k];
    }
    for (std::size_t k = 0; k < steps && count[k] > 0; ++k)
        h.gpus.push_back(sum[k] / count[k]);
    return h;
}

DemandForecast forecastDemand(const DemandHistory& history, const DemandForecastOptions& options) {
    const double ratio = options.seasonS / history.stepS;
    const int m = static_cast<int>(std::lround(ratio));
    if (m < 1 || std::abs(ratio - m) > 1e-9)
        throw std::invalid_argument("the season is not a whole number of steps");
    const int n = static_cast<int>(history.gpus.size());
    if (n < 2 * m + 2)
        throw std::invalid_argument("a forecast needs at least two seasons of history (" +
                                    std::to_string(2 * m + 2) + " steps, have " +
                                    std::to_string(n) + ")");
    if (!(options.level > 0 && options.level < 1))
        throw std::invalid_argument("the interval's level is in (0, 1)");
    // Per season position k: the mean time and demand of its steps.
    std::vector<double> tMean(m, 0.0), yMean(m, 0.0);
    std::vector<int> nk(m, 0);
    for (int t = 0; t < n; ++t) {
        tMean[t % m] += t;
        yMean[t % m] += history.gpus[t];
        ++nk[t % m];
    }
    for (int k = 0; k < m; ++k) {
        tMean[k] /= nk[k];
        yMean[k] /= nk[k];
    }
    // The trend: within-season least squares (the exact OLS with a dummy per season step).
    double sxy = 0, sxx = 0;
    for (int t = 0; t < n; ++t) {
        const double dt = t - tMean[t % m];
        sxy += dt * (history.gpus[t] - yMean[t % m]);
        sxx += dt * dt;
    }
    const double slope = sxy / sxx;  // GPUs per step; sxx > 0 as each position has ≥ 2 steps
    auto fitted = [&](double t, int k) { return yMean[k] + slope * (t - tMean[k]); };
    DemandForecast f;
    f.stepS = history.stepS;
    f.startS = history.startS + n * history.stepS;
    f.seasonSteps = m;
    f.level = options.level;
    f.serverGpus = history.serverGpus;
    f.trendGpusPerDay = slope * 86400 / history.stepS;
    double ssr = 0;
    for (int t = 0; t < n; ++t) {
        f.fittedGpus.push_back(fitted(t, t % m));
        const double r = history.gpus[t] - f.fittedGpus.back();
        ssr += r * r;
    }
    const int dof = n - m - 1;
    f.residualSdGpus = std::sqrt(ssr / dof);
    const double tq = studentTQuantile(0.5 + options.level / 2, dof);
    const auto steps = static_cast<int>(std::lround(options.horizonS / history.stepS));
    for (int h = 0; h < steps; ++h) {
        const int t = n + h, k = t % m;
        const double mean = fitted(t, k);
        const double dt = t - tMean[k];
        const double sd = f.residualSdGpus * std::sqrt(1 + 1.0 / nk[k] + dt * dt / sxx);
        f.meanGpus.push_back(mean);
        f.sdGpus.push_back(sd);
        f.lowGpus.push_back(mean - tq * sd);
        f.highGpus.push_back(mean + tq * sd);
    }
    return f;
}

ReservationAdvice reservationFor(const DemandForecast& forecast, double usdPerGpuHourReserved,
                                 double usdPerGpuHourOnDemand) {
    if (!(usdPerGpuHourReserved > 0) || !(usdPerGpuHourOnDemand > 0))
        throw std::invalid_argument("prices must be above 0");
    ReservationAdvice a;
    a.criticalRatio = usdPerGpuHourReserved / usdPerGpuHourOnDemand;
    a.serverGpus = forecast.serverGpus > 0 ? forecast.serverGpus : 1;
    if (forecast.meanGpus.empty()) return a;
    const OverflowModel model{forecast.meanGpus, a.serverGpus, usdPerGpuHourReserved,
                              usdPerGpuHourOnDemand};
    const OverflowLevel best = cheapestOverflowLevel(model);
    a.servers = best.servers;
    a.reservedGpus = best.reservedGpus;
    a.expectedUsdPerHour = best.usdPerHour;
    a.onDemandGpus = best.onDemandGpus;
    // The fluid formula's optimum on the same grid: the whole servers on either side of its
    // quantile (it is convex in R), the fewer on a tie.
    const double quantile = fluidQuantile(forecast, a.criticalRatio);
    const int below = static_cast<int>(std::floor(quantile / a.serverGpus));
    int servers = below;
    double usd = fluidUsdPerHour(forecast, below * a.serverGpus, usdPerGpuHourReserved,
                                 usdPerGpuHourOnDemand);
    const double above = fluidUsdPerHour(forecast, (below + 1) * a.serverGpus,
                                         usdPerGpuHourReserved, usdPerGpuHourOnDemand);
    if (above < usd) {
        servers = below + 1;
        usd = above;
    }
    a.fluid.reservedGpus = servers * a.serverGpus;
    a.fluid.usdPerHour = usd;
    a.fluid.overflowUsdPerHour = overflowLevel(model, servers).usdPerHour;
    return a;
}

}  // namespace gpuplan
