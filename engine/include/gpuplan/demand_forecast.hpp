// Forecasting GPU demand to size reservations (lesson 6.4): an hourly demand history, a
// forecast with a prediction interval, and the reserved capacity it implies.
//
// The model is the textbook one a planner can check by hand: demand = level + trend × time +
// a seasonal offset per hour of the season (a day or a week), fitted by least squares (the
// within-season estimator of the trend is the exact OLS of this model), with Gaussian
// residuals. A forecast hour's prediction interval is the regression's: mean ± t(ν) × σ ×
// √(1 + 1/n_k + (t − t̄_k)² / Sxx), ν = n − m − 1 for m seasonal hours.
//
// The reservation: capacity reserved costs usdReserved per GPU-hour whether used or not; demand
// above it is bought on demand at usdOnDemand. The expected cost per hour c_r·R + c_od·E[(D−R)+]
// is least where P(D > R) = c_r / c_od (the newsvendor's critical ratio), with D the demand of
// a forecast hour drawn at random: R is reserved while it is needed at least that share of the
// hours.
#pragma once

#include <vector>

#include "gpuplan/results.hpp"

namespace gpuplan {

/// GPUs wanted per step: allocated plus pending (every layer), the samples' mean per step.
struct DemandHistory {
    double startS = 0;
    double stepS = 3600;
    std::vector<double> gpus;
};

/// A run's demand (series allocated_gpus + pending_gpus{…}) in steps of `stepS`; a step the
/// samples do not fill completely is left out at the end.
DemandHistory demandHistory(const Results& results, double stepS = 3600);

struct DemandForecastOptions {
    double seasonS = 86400;  ///< a day; 604800 for a week (needs ≥ 2 weeks of history)
    double horizonS = 7 * 86400.0;
    double level = 0.95;  ///< of the prediction interval
};

struct DemandForecast {
    double startS = 0;  ///< the first forecast step (the history's end)
    double stepS = 3600;
    std::vector<double> meanGpus, lowGpus, highGpus;  ///< per forecast step
    std::vector<double> sdGpus;      ///< the predictive standard deviation per step
    std::vector<double> fittedGpus;  ///< the model over the history, for drawing
    double trendGpusPerDay = 0;
    double residualSdGpus = 0;
    int seasonSteps = 0;
    double level = 0.95;
};

/// Throws std::invalid_argument when the history is shorter than two seasons plus two steps
/// (the fit would have no residual to measure its error by) or a step is not a whole divisor
/// of the season.
DemandForecast forecastDemand(const DemandHistory& history, const DemandForecastOptions& options);

struct ReservationAdvice {
    double reservedGpus = 0;
    double criticalRatio = 0;  ///< usdReserved ÷ usdOnDemand: P(demand > reserved) at the optimum
    double expectedUsdPerHour = 0;  ///< reserved + expected on-demand, at the optimum
};

/// The reservation minimising the expected hourly cost over the forecast's hours (each hour's
/// demand Normal(mean, sd)). Throws std::invalid_argument for prices that are not positive.
ReservationAdvice reservationFor(const DemandForecast& forecast, double usdPerGpuHourReserved,
                                 double usdPerGpuHourOnDemand);

}  // namespace gpuplan
