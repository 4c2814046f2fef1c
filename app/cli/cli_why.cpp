// gpuplan-cli why: the jobs pending at one time, with layer and reason — the list the
// application shows under "Pending at t" (both read Results::pendingAt).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "cli_common.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::cli {

const char* const kWhyUsage =
    "usage: gpuplan-cli why SCENARIO --at T [--job NAME] [--seed N] [--json]\n"
    "\n"
    "Simulates SCENARIO and prints the jobs pending at time T — waiting in the queue, or\n"
    "bound but not progressing (workload layer) — each with the layer it is blamed on and\n"
    "the reason in kube-scheduler's words, longest waiting first: the application's\n"
    "\"Pending at t\" list. The reason is the latest diagnosis at or before T.\n"
    "  --at T           time since the start: seconds, or a number with s, min, h or d\n"
    "                   (\"5400\", \"90min\", \"1.5h\", \"2d\"); between 0 and the horizon\n"
    "  --job NAME       only this job (e.g. pretrain-3, an explicit job's name)\n"
    "  --seed N         use seed N instead of the scenario's\n"
    "  --json           {\"time_s\", \"pending\": [{\"job\", \"team\", \"gpus\",\n"
    "                   \"gpu_equivalents\", \"layer\", \"waiting_s\", \"diagnosed_at_s\",\n"
    "                   \"reason\"}]} instead of a table; gpu_equivalents and the table\n"
    "                   count a 2g MIG instance as 2/7 of a GPU, a 250-milli share as 1/4\n"
    "  --data-dir DIR, --presets DIR, --catalog FILE as for run\n";

namespace {

/// "8", "0.29": whole GPUs as integers, fractions of one (MIG instances, shares) to 2 places.
std::string gpuCount(double gpus) {
    char buf[32];
    if (gpus == std::floor(gpus))
        std::snprintf(buf, sizeof buf, "%.0f", gpus);
    else
        std::snprintf(buf, sizeof buf, "%.2f", gpus);
    return buf;
}

/// "5400", "90min", "1.5h", "2d" → seconds; nullopt unless the whole text is one decimal
/// number (no sign but "-", no hex, no spaces; "5e-400" underflows to 0) and an optional unit.
std::optional<double> parseTime(const std::string& text) {
    const char* const first = text.data();
    const char* const last = first + text.size();
    double value = 0;
    const auto [numberEnd, ec] = std::from_chars(first, last, value, std::chars_format::general);
    if (ec == std::errc::invalid_argument) return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // Too small is 0 s; too large is no time. strtod tells which (the text is a number).
        const double magnitude = std::strtod(std::string(first, numberEnd).c_str(), nullptr);
        if (!(std::fabs(magnitude) < 1)) return std::nullopt;
        value = 0;
    }
    const std::string_view unit(numberEnd, static_cast<std::size_t>(last - numberEnd));
    double scale = 0;
    if (unit.empty() || unit == "s") scale = 1;
    if (unit == "min" || unit == "m") scale = 60;
    if (unit == "h") scale = 3600;
    if (unit == "d") scale = 86400;
    if (scale == 0 || !std::isfinite(value)) return std::nullopt;
    return value * scale;
}

std::optional<std::uint32_t> findJob(const Results& r, const std::string& name) {
    for (std::uint32_t j = 0; j < r.jobs.size(); ++j)
        if (r.jobName(j) == name) return j;
    return std::nullopt;
}

}  // namespace

int whyCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile;
    std::optional<std::string> atText, jobName;
    bool json = false;
    RunOptions options;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--at")) {
            atText = args.value("--at");
        } else if (args.at("--job")) {
            jobName = args.value("--job");
        } else if (args.at("--seed")) {
            options.seed = args.integer("--seed", 0, UINT64_MAX);
        } else if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (!atText) throw UsageError{"--at T is required (e.g. --at 36h)"};
    const std::optional<double> atS = parseTime(*atText);
    if (!atS)
        throw UsageError{"--at: \"" + *atText +
                         "\" is not a time; give seconds or a number with s, min, h or d"};
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    if (*atS < 0 || *atS > scenario.horizonS) {
        std::fprintf(stderr, "gpuplan-cli why: --at %s is outside the run: give 0 to %.0f s (%s)\n",
                     atText->c_str(), scenario.horizonS, formatSeconds(scenario.horizonS).c_str());
        return kBadInput;
    }

    const Results results = simulate(scenario, options);
    std::vector<PendingJob> rows = results.pendingAt(*atS);
    if (jobName) {
        const auto job = findJob(results, *jobName);
        if (!job) {
            std::fprintf(stderr, "gpuplan-cli why: --job: no job named \"%s\" in %s\n",
                         jobName->c_str(), scenarioFile->string().c_str());
            return kBadInput;
        }
        std::erase_if(rows, [&](const PendingJob& p) { return p.job != *job; });
    }
    // Longest waiting first, as the application's list opens.
    std::stable_sort(rows.begin(), rows.end(), [](const PendingJob& a, const PendingJob& b) {
        return a.waitingS > b.waitingS;
    });

    if (json) {
        nlohmann::ordered_json root;
        root["time_s"] = *atS;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const PendingJob& p : rows) {
            const JobSpec& spec = results.jobs[p.job].spec;
            list.push_back({{"job", results.jobName(p.job)},
                            {"team", results.teams[spec.team]},
                            {"gpus", spec.gpus},
                            {"gpu_equivalents", spec.gpuEquivalents()},
                            {"layer", toString(p.layer)},
                            {"token", toString(p.token)},
                            {"waiting_s", p.waitingS},
                            {"diagnosed_at_s", std::isfinite(p.diagnosedAtS)
                                                   ? nlohmann::ordered_json(p.diagnosedAtS)
                                                   : nlohmann::ordered_json(nullptr)},
                            {"reason", results.reasonText(p.reason)}});
        }
        root["pending"] = list;
        std::printf("%s\n", root.dump(1).c_str());
        return kOk;
    }
    // GPU-equivalents, exactly (a 2g MIG instance is 2/7 of a GPU, a 250-milli share 1/4).
    std::int64_t units = 0;
    for (const PendingJob& p : rows)
        units += results.jobs[p.job].spec.gpuUnits();
    std::printf("pending at %s (%.0f s): %zu job(s) asking %s GPUs\n", atText->c_str(), *atS,
                rows.size(), gpuCount(gpusOfUnits(units)).c_str());
    if (rows.empty()) {
        if (jobName) {
            const JobRecord& rec = results.jobs[*findJob(results, *jobName)];
            std::printf("%s is not pending then (submitted at %.0f s, %s at the end).\n",
                        jobName->c_str(), rec.spec.submitS, toString(rec.status));
        }
        return kOk;
    }
    std::printf("%-28s %-14s %6s %-13s %12s  %s\n", "job", "team", "gpus", "layer", "waiting",
                "why it is pending");
    for (const PendingJob& p : rows) {
        const JobSpec& spec = results.jobs[p.job].spec;
        const std::string token =
            p.token == ReasonToken::None ? "" : std::string("[") + toString(p.token) + "] ";
        std::printf("%-28s %-14s %6s %-13s %12s  %s%s\n", results.jobName(p.job).c_str(),
                    results.teams[spec.team].c_str(), gpuCount(spec.gpuEquivalents()).c_str(),
                    toString(p.layer), formatSeconds(p.waitingS).c_str(), token.c_str(),
                    results.reasonText(p.reason).c_str());
    }
    return kOk;
}

}  // namespace gpuplan::cli
