// gpuplan-cli forecast: a run's demand as the history, a forecast of what follows with its
// prediction interval, and the reservation it implies (gpuplan/demand_forecast.hpp).
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "cli_common.hpp"
#include "gpuplan/demand_forecast.hpp"
#include "gpuplan/simulate.hpp"

namespace gpuplan::cli {

const char* const kForecastUsage =
    "usage: gpuplan-cli forecast SCENARIO [--season day|week] [--horizon-days D]\n"
    "                            [--reserved-usd X --on-demand-usd Y]\n"
    "\n"
    "Runs SCENARIO and takes its demand (GPUs allocated plus pending, every layer, per hour)\n"
    "as the history; fits level + trend + a seasonal offset per hour of the season by least\n"
    "squares; prints the forecast for the next D days (default 7) with its 95 % prediction\n"
    "interval, day by day, and the reserved GPUs that minimise the expected cost when demand\n"
    "above them is bought on demand: where P(demand > reserved) = reserved ÷ on-demand price\n"
    "(the newsvendor's critical ratio). Prices: --reserved-usd and --on-demand-usd per\n"
    "GPU-hour, else the scenario's pricing for its first GPU model.\n"
    "  --season day|week  the seasonal cycle (week needs two weeks of history)\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

int forecastCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile;
    DemandForecastOptions options;
    std::optional<double> reservedUsd, onDemandUsd;
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
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (reservedUsd.has_value() != onDemandUsd.has_value())
        throw UsageError{"give both --reserved-usd and --on-demand-usd, or neither"};
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
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
    std::printf("history: %zu hours, trend %+.2f GPUs/day, residual sd %.2f GPUs\n",
                history.gpus.size(), f.trendGpusPerDay, f.residualSdGpus);
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
        "reserve %.1f GPUs: needed in more than %.0f %% of the forecast hours "
        "($%.2f reserved ÷ $%.2f on demand); expected $%.0f/h\n",
        a.reservedGpus, 100 * a.criticalRatio, *reservedUsd, *onDemandUsd, a.expectedUsdPerHour);
    return kOk;
}

}  // namespace gpuplan::cli
