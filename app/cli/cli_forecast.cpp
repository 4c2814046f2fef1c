// gpuplan-cli forecast: a run's demand as the history, a forecast of what follows with its
// prediction interval, and the reservation it implies by the overflow model, the fluid
// approximation's beside it (gpuplan/economics/demand_forecast.hpp); --simulate holds both against
// the simulated cost curve of the history (gpuplan/economics/buying_mix_sweep.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "cli_common.hpp"
#include "gpuplan/economics/buying_mix_sweep.hpp"
#include "gpuplan/economics/demand_forecast.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::cli {

const char* const kForecastUsage =
    "usage: gpuplan-cli forecast SCENARIO [--season day|week] [--horizon-days D]\n"
    "                            [--reserved-usd X --on-demand-usd Y] [--simulate]\n"
    "\n"
    "Runs SCENARIO and takes its demand (GPUs allocated plus pending, every layer, per hour)\n"
    "as the history; fits level + trend + a seasonal offset per hour of the season by least\n"
    "squares; prints the forecast for the next D days (default 7) with its 95 % prediction\n"
    "interval, day by day, and the reserved GPUs with the least expected cost when a job that\n"
    "finds the reservation full runs on demand and stays there: the overflow model, each\n"
    "forecast hour an Erlang loss system offered its forecast mean, in servers of the jobs'\n"
    "peakedness (GPUs a job brings at a time). Beside it the fluid approximation\n"
    "c_r·R + c_od·E[(D−R)+] (the newsvendor's: reserve while P(demand > R) > reserved ÷\n"
    "on-demand price) and how much it underestimates the cost at its level. Prices:\n"
    "--reserved-usd and --on-demand-usd per GPU-hour, else the scenario's pricing for its\n"
    "first GPU model.\n"
    "  --season day|week  the seasonal cycle (week needs two weeks of history)\n"
    "  --simulate         also run the history at every reserved level, one node a step (as\n"
    "                     gpuplan-cli mix does), and print the simulated cost curve's cheapest\n"
    "                     level beside the overflow and fluid models' on the same hours\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

namespace {

/// The history's own hours as the models see a forecast: the fit over them as each hour's
/// offered load (an hour's measured demand is that load plus the scatter the Erlang model
/// already draws, so offering it again would count the scatter twice), the residual spread
/// for the fluid formula.
DemandForecast historyAsForecast(const DemandForecast& fit) {
    DemandForecast f = fit;
    f.meanGpus = fit.fittedGpus;
    f.sdGpus.assign(fit.fittedGpus.size(), fit.residualSdGpus);
    return f;
}

/// Every GPU model of the scenario priced at these reserved and on-demand rates.
PricingDef flatPricing(const Scenario& scenario, double reservedUsd, double onDemandUsd) {
    PricingDef p;
    p.book = "gpuplan-cli forecast --reserved-usd --on-demand-usd";
    for (const GpuModel& m : scenario.gpuModels) {
        GpuPriceDef price;
        price.gpuModel = m.id;
        price.of(BuyingClass::Reserved) = reservedUsd;
        price.of(BuyingClass::OnDemand) = onDemandUsd;
        p.gpuModels.push_back(price);
    }
    return p;
}

/// The buying-mix sweep of the scenario's own run, one reserved node a step, against the
/// overflow and fluid models on the same hours (the forecast's fit over them).
void printSimulatedCheck(Scenario scenario, const DemandForecast& fit, double reservedUsd,
                         double onDemandUsd, bool pricesGiven) {
    if (pricesGiven) scenario.pricing = flatPricing(scenario, reservedUsd, onDemandUsd);
    MixSweepOptions options;
    options.levels = std::clamp(static_cast<int>(Fleet::build(scenario).nodes.size()) + 1, 2, 1000);
    MixSweep sweep;
    try {
        sweep = sweepReservedLevels(scenario, options);
    } catch (const std::invalid_argument& e) {
        throw UsageError{std::string("--simulate: ") + e.what()};
    }
    const double hours = scenario.horizonS / 3600;
    // The simulated cost an hour at the level nearest `gpus` (levels are whole nodes).
    auto simulatedUsdPerHour = [&](double gpus) {
        const MixLevel* nearest = &sweep.levels.front();
        for (const MixLevel& l : sweep.levels)
            if (std::abs(l.reservedGpus - gpus) < std::abs(nearest->reservedGpus - gpus))
                nearest = &l;
        return nearest->costUsd / hours;
    };
    const MixLevel& best = sweep.levels[sweep.optimum];
    const ReservationAdvice model =
        reservationFor(historyAsForecast(fit), reservedUsd, onDemandUsd);
    std::printf(
        "simulated on the history (%zu levels, on demand provisioned in %s, given back after "
        "%s idle): cheapest at %d GPUs (%d nodes), $%.0f/h; on the same hours the overflow "
        "model says %.0f GPUs ($%.0f/h by it, $%.0f/h simulated there), the fluid approximation "
        "%.0f GPUs ($%.0f/h by its formula, $%.0f/h simulated there)\n",
        sweep.levels.size(), formatSeconds(sweep.onDemand.provisioningDelayS).c_str(),
        formatSeconds(sweep.onDemand.idleTimeoutS).c_str(), best.reservedGpus, best.reservedNodes,
        best.costUsd / hours, model.reservedGpus, model.expectedUsdPerHour,
        simulatedUsdPerHour(model.reservedGpus), model.fluid.reservedGpus, model.fluid.usdPerHour,
        simulatedUsdPerHour(model.fluid.reservedGpus));
}

}  // namespace

int forecastCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile;
    DemandForecastOptions options;
    std::optional<double> reservedUsd, onDemandUsd;
    bool simulateLevels = false;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--season")) {
            const std::string season = args.value("--season");
            if (season != "day" && season != "week")
                throw UsageError{"--season is day or week, got \"" + season + "\""};
            options.seasonS = season == "day" ? 86400 : 604800;
        } else if (args.at("--horizon-days")) {
            options.horizonS = args.positiveNumber("--horizon-days", 366) * 86400;
        } else if (args.at("--reserved-usd")) {
            reservedUsd = args.positiveNumber("--reserved-usd", 1e4);
        } else if (args.at("--on-demand-usd")) {
            onDemandUsd = args.positiveNumber("--on-demand-usd", 1e4);
        } else if (args.at("--simulate")) {
            args.flag("--simulate");
            simulateLevels = true;
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (reservedUsd.has_value() != onDemandUsd.has_value())
        throw UsageError{"give both --reserved-usd and --on-demand-usd, or neither"};
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    const bool pricesGiven = reservedUsd.has_value();
    if (!reservedUsd && scenario.pricing && !scenario.gpuModels.empty())
        if (const GpuPriceDef* p = scenario.pricing->find(scenario.gpuModels.front().id)) {
            reservedUsd = p->of(BuyingClass::Reserved);
            onDemandUsd = p->of(BuyingClass::OnDemand);
        }
    const Results results = simulate(scenario, RunOptions{});
    const DemandHistory history = demandHistory(results);
    DemandForecast f;
    try {
        f = forecastDemand(history, options);
    } catch (const std::invalid_argument& e) {
        throw InputError(scenarioFile->string(), "/horizonS", e.what());
    }
    std::printf(
        "history: %zu hours, trend %+.2f GPUs/day, residual sd %.2f GPUs, jobs of %.2f GPUs at "
        "a time (peakedness)\n",
        history.gpus.size(), f.trendGpusPerDay, f.residualSdGpus, history.serverGpus);
    std::printf("%-6s %12s %12s %12s %12s\n", "day", "mean", "low 95 %", "high 95 %", "peak");
    for (std::size_t d = 0; d * 24 < f.meanGpus.size(); ++d) {
        double mean = 0, low = 1e300, high = 0, peak = 0;
        const std::size_t end = std::min(f.meanGpus.size(), (d + 1) * 24);
        for (std::size_t h = d * 24; h < end; ++h) {
            mean += f.meanGpus[h] / static_cast<double>(end - d * 24);
            low = std::min(low, f.lowGpus[h]);
            high = std::max(high, f.highGpus[h]);
            peak = std::max(peak, f.meanGpus[h]);
        }
        std::printf("+%-5zu %12.1f %12.1f %12.1f %12.1f\n", d + 1, mean, low, high, peak);
    }
    if (!reservedUsd || !onDemandUsd) {
        std::printf(
            "no reserved and on-demand prices: give --reserved-usd and --on-demand-usd "
            "for the reservation\n");
        return kOk;
    }
    const ReservationAdvice a = reservationFor(f, *reservedUsd, *onDemandUsd);
    std::printf(
        "reserve %.1f GPUs (%d servers of %.2f): overflow model, a job that finds the "
        "reservation full runs on demand and stays there (each forecast hour an Erlang loss "
        "system); expected $%.0f/h, %.1f GPUs on demand on average ($%.2f reserved, $%.2f on "
        "demand)\n",
        a.reservedGpus, a.servers, a.serverGpus, a.expectedUsdPerHour, a.onDemandGpus, *reservedUsd,
        *onDemandUsd);
    std::printf(
        "fluid approximation c_r·R + c_od·E[(D−R)+]: %.1f GPUs, where demand is above R in "
        "%.0f %% of the forecast hours; it expects $%.0f/h there, %.1f %% below the overflow "
        "model's $%.0f/h (it lets jobs move from on demand onto reserved GPUs freed while they "
        "run)\n",
        a.fluid.reservedGpus, 100 * a.criticalRatio, a.fluid.usdPerHour,
        100 * a.fluid.biasFraction(), a.fluid.overflowUsdPerHour);
    if (simulateLevels) printSimulatedCheck(scenario, f, *reservedUsd, *onDemandUsd, pricesGiven);
    return kOk;
}

}  // namespace gpuplan::cli
