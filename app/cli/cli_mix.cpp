// gpuplan-cli mix: how much to reserve. The scenario at reserved levels from none to its peak
// demand, the rest on demand (and optionally a spot share), each level's total cost and the
// optimum (gpuplan/economics/buying_mix_sweep.hpp).
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "gpuplan/economics/buying_mix_sweep.hpp"

namespace gpuplan::cli {

const char* const kMixUsage =
    "usage: gpuplan-cli mix SCENARIO [--levels N] [--spot-share F] [--json]\n"
    "\n"
    "Runs SCENARIO with the first R nodes reserved (fleet order) and the rest bought on demand\n"
    "(provisioned for queued jobs, given back when idle: the scenario's \"onDemand\" settings,\n"
    "or at once and after 10 min idle), for R from 0 to the peak demand, and prints each\n"
    "level's total cost and the cheapest (marked *). Needs prices (the scenario's pricing or\n"
    "--pricebook).\n"
    "  --levels N       reserved levels, 2 to 1000 (default 21), evenly from 0 to the peak\n"
    "                   demand in whole nodes\n"
    "  --spot-share F   this share (0..1) of the nodes between the reservation and the peak\n"
    "                   is bought spot (default 0)\n"
    "  --jobs N         levels at a time, 1 to 256 (default: the hardware threads)\n"
    "  --json           {\"levels\": [reserved GPUs], \"cost_usd\": [...],\n"
    "                   \"optimum_reserved_gpus\", \"optimum_cost_usd\", \"reserved_nodes\": "
    "[...],\n"
    "                   \"spot_nodes\": [...], \"wait_s_p95\": [...], \"peak_demand_gpus\"}\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

int mixCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile;
    MixSweepOptions options;
    bool json = false;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--levels")) {
            options.levels = static_cast<int>(args.integer("--levels", 2, 1000));
        } else if (args.at("--spot-share")) {
            const std::string text = args.value("--spot-share");
            char* end = nullptr;
            const double share = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !(share >= 0 && share <= 1))
                throw UsageError{"--spot-share takes a number from 0 to 1, got \"" + text + "\""};
            options.spotShare = share;
        } else if (args.at("--jobs")) {
            options.threads = static_cast<unsigned>(args.integer("--jobs", 1, 256));
        } else if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    if (!scenario.pricing)
        throw UsageError{scenarioFile->string() +
                         " has no prices: give it a \"pricing\" or use --pricebook NAME"};
    MixSweep sweep;
    try {
        sweep = sweepReservedLevels(scenario, options);
    } catch (const std::invalid_argument& e) {
        throw UsageError{e.what()};
    }
    const MixLevel& best = sweep.levels[sweep.optimum];
    if (json) {
        nlohmann::ordered_json root;
        auto column = [&](auto get) {
            nlohmann::ordered_json list = nlohmann::ordered_json::array();
            for (const MixLevel& l : sweep.levels)
                list.push_back(get(l));
            return list;
        };
        root["levels"] = column([](const MixLevel& l) { return l.reservedGpus; });
        root["cost_usd"] = column([](const MixLevel& l) { return l.costUsd; });
        root["optimum_reserved_gpus"] = best.reservedGpus;
        root["optimum_cost_usd"] = best.costUsd;
        root["reserved_nodes"] = column([](const MixLevel& l) { return l.reservedNodes; });
        root["spot_nodes"] = column([](const MixLevel& l) { return l.spotNodes; });
        root["wait_s_p95"] = column([](const MixLevel& l) {
            return std::isfinite(l.waitP95S) ? nlohmann::ordered_json(l.waitP95S)
                                             : nlohmann::ordered_json(nullptr);
        });
        root["peak_demand_gpus"] = sweep.peakDemandGpus;
        std::printf("%s\n", root.dump(2).c_str());
        return kOk;
    }
    std::printf(
        "%s: peak demand %d GPUs (%d nodes); on demand provisioned in %s, given back "
        "after %s idle%s\n",
        scenarioFile->filename().c_str(), sweep.peakDemandGpus, sweep.peakDemandNodes,
        formatSeconds(sweep.onDemand.provisioningDelayS).c_str(),
        formatSeconds(sweep.onDemand.idleTimeoutS).c_str(),
        sweep.onDemandDefaulted ? " (the scenario sets none)" : "");
    std::printf("  %-14s %-14s %-10s %16s %12s\n", "reserved GPUs", "reserved nodes", "spot nodes",
                "cost USD", "wait p95");
    for (std::size_t i = 0; i < sweep.levels.size(); ++i) {
        const MixLevel& l = sweep.levels[i];
        std::printf("%c %-14d %-14d %-10d %16.2f %12s\n", i == sweep.optimum ? '*' : ' ',
                    l.reservedGpus, l.reservedNodes, l.spotNodes, l.costUsd,
                    std::isfinite(l.waitP95S) ? formatSeconds(l.waitP95S).c_str() : "-");
    }
    std::printf("optimum: %d reserved GPUs (%d nodes), $%.2f\n", best.reservedGpus,
                best.reservedNodes, best.costUsd);
    return kOk;
}

}  // namespace gpuplan::cli
