// Forecasting GPU demand to size reservations (lesson 6.4): an hourly demand history, a
// forecast with a prediction interval, and the reserved capacity it implies.
//
// The model is the textbook one a planner can check by hand: demand = level + trend × time +
// a seasonal offset per hour of the season (a day or a week), fitted by least squares (the
// within-season estimator of the trend is the exact OLS of this model), with Gaussian
// residuals. A forecast hour's prediction interval is the regression's: mean ± t(ν) × σ ×
// √(1 + 1/n_k + (t − t̄_k)² / Sxx), ν = n − m − 1 for m seasonal hours.
//
// The reservation: capacity reserved costs c_r per GPU-hour whether used or not; a job that
// does not fit in it runs on demand at c_od per GPU-hour, and stays there until it ends. Each
// forecast hour is then an Erlang loss system (gpuplan/economics/reserved_overflow.hpp) offered
// that hour's forecast mean (the modified-offered-load approximation for a demand that varies
// through the day), in servers of the demand's peakedness: the advice is the level with the
// least c_r·R + c_od·(mean over the hours of a_h·B(R/z, a_h/z)). The fluid (newsvendor)
// approximation c_r·R + c_od·E[(D−R)+], least where P(D > R) = c_r ÷ c_od, is given beside
// it with its bias: it lets jobs move from on demand onto reserved capacity freed while they
// run, so it expects too little on demand, and its level is too low where reserving is cheap
// and too high where it is dear.
#pragma once

#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan {

/// GPUs wanted per step: allocated plus pending (every layer), the samples' mean per step.
struct DemandHistory {
    double startS = 0;
    double stepS = 3600;
    std::vector<double> gpus;
    /// The demand's peakedness, GPUs a job brings at a time: Σ g²·d ÷ Σ g·d over the jobs, g
    /// their GPU-equivalents, d their ideal time holding them (startup + run time); 1 without
    /// jobs. The reservation's server size (reserved_overflow.hpp).
    double serverGpus = 1;
};

/// A run's demand (series allocated_gpus + pending_gpus{…}) in steps of `stepS`; a step the
/// samples do not fill completely is left out at the end. Its server size from the run's jobs.
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
    double serverGpus = 1;  ///< the history's (DemandHistory::serverGpus)
};

/// Throws std::invalid_argument when the history is shorter than two seasons plus two steps
/// (the fit would have no residual to measure its error by) or a step is not a whole divisor
/// of the season.
DemandForecast forecastDemand(const DemandHistory& history, const DemandForecastOptions& options);

/// The level the fluid approximation c_r·R + c_od·E[(D − R)+] picks (D_h ~ Normal(mean, sd) per
/// forecast hour: the newsvendor's quantile, P(D > R) = c_r ÷ c_od, on the same grid of whole
/// servers), and what it gets wrong.
struct FluidReservation {
    double reservedGpus = 0;
    double usdPerHour = 0;  ///< what the fluid formula expects at its level
    /// What the overflow model expects at that level: more, as jobs that start on demand stay.
    double overflowUsdPerHour = 0;
    /// How far the fluid formula's cost falls short of the overflow model's at its level.
    double biasFraction() const {
        return overflowUsdPerHour > 0 ? 1 - usdPerHour / overflowUsdPerHour : 0;
    }
};

struct ReservationAdvice {
    /// The overflow model's cheapest level: a whole number of servers of serverGpus.
    double reservedGpus = 0;
    double serverGpus = 1;
    int servers = 0;
    double criticalRatio = 0;       ///< c_r ÷ c_od: the utilisation a reserved GPU breaks even at
    double expectedUsdPerHour = 0;  ///< reserved + on demand at that level, by the overflow model
    double onDemandGpus = 0;        ///< mean GPUs on demand there
    FluidReservation fluid;
};

/// The reservation minimising the expected hourly cost over the forecast's hours by the
/// overflow model (each hour an Erlang loss system offered its forecast mean), with the fluid
/// approximation's beside it. Throws std::invalid_argument for prices that are not positive.
ReservationAdvice reservationFor(const DemandForecast& forecast, double usdPerGpuHourReserved,
                                 double usdPerGpuHourOnDemand);

}  // namespace gpuplan
