// gpuplan-cli bench: whole-run engine benchmarks. Each benchmark runs in a child process so
// its peak RSS is its own (wait4's ru_maxrss).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_bench_scenarios.hpp"
#include "cli_common.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "gpuplan/studies/plan_study.hpp"
#include "gpuplan/studies/replications.hpp"

namespace gpuplan::cli {

const char* const kBenchUsage =
    "usage: gpuplan-cli bench [--suite engine|quota|scaling|adversarial|plan|all] [--json] "
    "[--only "
    "NAME]...\n"
    "                         [--repeat N]\n"
    "\n"
    "Runs engine benchmarks, each in its own process, and prints per benchmark the median\n"
    "wall seconds of simulate(), the load time, events/s, µs per job and peak RSS, against\n"
    "their targets:\n"
    "  engine (default):\n"
    "  default_scenario     presets/scenarios/default.json      < 0.05 s\n"
    "  shared_cohort        presets/scenarios/shared-cohort.json (default with quotas,\n"
    "                       fair sharing and preemption)        < 0.05 s\n"
    "  buying_mix           presets/scenarios/buying-mix.json (shared_cohort bought\n"
    "                       reserved, spot and elastic on demand; failures, reclaims,\n"
    "                       checkpoint costs)                   < 0.05 s\n"
    "  daily_tide           presets/scenarios/daily-tide.json (a serving tide, elastic\n"
    "                       training growing into the trough)   < 0.05 s\n"
    "  philly_replay_2048   presets/scenarios/philly-2048.json  < 1 s, >= 5 M events/s\n"
    "  synthetic_100k_gpus  presets/scenarios/synthetic-100k.json (100,000 GPUs,\n"
    "                       ~1,000,000 jobs, 30 days)           < 3 s, >= 1 M events/s, < 2 GB\n"
    "  quota: synthetic-100k shared by 8 teams in one cohort, each with 1/8 of the GPUs as\n"
    "           nominal quota (quota_100k_8teams), and with fair sharing, reclaim and priority\n"
    "           preemption (quota_100k_8teams_fair)                 < 10 s, < 2 GB\n"
    "  scaling: synthetic-100k cut to 4k, 12k, 24k, 48k and 100k GPUs with its load scaled,\n"
    "           as it is (scaling_*) and with 1:1 pod uplinks (scaling_flat_*: no slowdown\n"
    "           for gangs across pods, so every size runs in one regime); each row shows\n"
    "           the regime (allocation, mean queue), and each family whether its cost per\n"
    "           job stays flat (within 1.5x)\n"
    "  adversarial: shapes that once hung or ran out of memory, each grown to the largest\n"
    "           size the default run budget accepts; each must finish within the budget's\n"
    "           time and memory\n"
    "  plan: the planner sizing a one-pool fleet of 1 to 40 racks of 4 DGX H100 for a p95\n"
    "           wait of 10 min, a week of ~150,000 jobs a run, up to 5 replications, every\n"
    "           core (plan_sizing_150k_jobs): the whole search   < 60 s\n"
    "  --json          one JSON object per benchmark instead of a table\n"
    "  --only NAME     run only this benchmark (repeatable; any suite)\n"
    "  --repeat N      runs per benchmark (1 to 1000; default: 15, 3, 1)\n"
    "  --data-dir DIR, --presets DIR, --catalog FILE as for run\n";

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

struct Benchmark {
    std::string name;
    std::string suite;
    std::function<Scenario(const CommonOptions&, const std::filesystem::path& workDir)> load;
    int repeat;
    double targetWallS;
    double targetEventsPerS;  // 0 = none
    double targetRssMb;       // 0 = none
    std::string family = "";  ///< cost per job compared within a family (scaling)
    /// Instead of simulate() `repeat` times: runs the benchmark itself and reports the same
    /// keys (the planner's search).
    std::function<nlohmann::ordered_json(const CommonOptions&, int repeat)> custom = {};
};

/// The planner sizing plan-sizing-150k's rack count (1..40) for a p95 wait of 10 minutes,
/// 5 replications at most, on every core: the median wall time of the whole search.
nlohmann::ordered_json runPlanBenchmark(const CommonOptions& common, int repeat) {
    const auto t0 = Clock::now();
    const Catalog catalog = loadCatalogFor(common);
    PlanQuestion q;
    q.targets = {parsePlanTarget("wait_s_p95<=600")};
    q.dimensions = {parsePlanDimension(kPlanSizingRacks)};
    q.replications = 5;
    LoadOptions load = loadOptionsFor(common);
    const PlanStudy study(planSizingScenarioJson(), "plan-sizing-150k.json", q, catalog, load);
    const double loadS = seconds(t0, Clock::now());
    std::vector<double> walls;
    PlanSearchResult last;
    for (int i = 0; i < repeat; ++i) {
        const auto s = Clock::now();
        last = runPlanStudy(study, 0);
        walls.push_back(seconds(s, Clock::now()));
    }
    std::sort(walls.begin(), walls.end());
    const double median = walls[walls.size() / 2];
    const Scenario top = study.scenarioAt({39});
    const double jobsPerRun = estimateRunCost(top, Fleet::build(top)).jobs;
    const double jobs = jobsPerRun * last.runsExecuted;
    char size[200];
    std::snprintf(size, sizeof size,
                  "racks 1..40, <= 5 replications: %zu candidates, %d runs of ~%.0fk jobs; plan "
                  "%s racks (p95 wait %.0f s)",
                  last.evaluated.size(), last.runsExecuted, jobsPerRun / 1000,
                  planValueText(q.dimensions[0], last.best.candidate[0]).c_str(),
                  last.best.targets.empty() ? 0.0 : last.best.targets[0].mean);
    return {{"name", "plan_sizing_150k_jobs"},
            {"ok", last.feasible},
            {"wall_s", median},
            {"wall_s_min", walls.front()},
            {"load_s", loadS},
            {"runs", repeat},
            {"events", 0},
            {"events_per_s", 0.0},
            {"jobs", static_cast<std::uint64_t>(jobs)},
            {"us_per_job", jobs > 0 ? 1e6 * median / jobs : 0.0},
            {"size", std::string(size)},
            {"allocation", 0.0},
            {"queue_mean", 0.0},
            {"candidates", last.evaluated.size()},
            {"evaluations", last.runsExecuted},
            {"error", last.feasible ? "" : "the search found no plan"}};
}

/// A family's cost per job may spread at most this much from its cheapest to its dearest.
constexpr double kFlatPerJobCost = 1.5;

Benchmark preset(const char* name, const char* file, int repeat, double wallS, double eventsPerS,
                 double rssMb) {
    return {name,
            "engine",
            [file](const CommonOptions& common, const std::filesystem::path&) {
                return loadScenarioFor(presetsDirFor(common) / "scenarios" / file, common);
            },
            repeat,
            wallS,
            eventsPerS,
            rssMb};
}

std::vector<Benchmark> allBenchmarks() {
    std::vector<Benchmark> all = {
        preset("default_scenario", "default.json", 15, 0.05, 0, 0),
        preset("shared_cohort", "shared-cohort.json", 15, 0.05, 0, 0),
        preset("buying_mix", "buying-mix.json", 15, 0.05, 0, 0),
        preset("daily_tide", "daily-tide.json", 15, 0.05, 0, 0),
        preset("philly_replay_2048", "philly-2048.json", 3, 1.0, 5e6, 0),
        preset("synthetic_100k_gpus", "synthetic-100k.json", 1, 3.0, 1e6, 2048),
    };
    for (GeneratedScenario& g : quotaScenarios())
        all.push_back({g.name, "quota", g.build, 1, 10.0, 0, 2048});
    all.push_back({"plan_sizing_150k_jobs", "plan", {}, 1, 60.0, 0, 0, "", runPlanBenchmark});
    for (GeneratedScenario& g : scalingScenarios())
        all.push_back({g.name, "scaling", g.build, 1, 1e9, 0, 0, g.family});
    // What the default budget promises: about budget ÷ 1.5e7 work units per second, its memory.
    const RunBudget budget;
    for (GeneratedScenario& g : adversarialScenarios())
        all.push_back({g.name, "adversarial", g.build, 1, budget.workOps / 1.5e7, 0,
                       budget.memoryBytes / (1 << 20)});
    return all;
}

double orZero(double x) {
    return std::isnan(x) ? 0.0 : x;
}

/// Runs in the child: loads, simulates `repeat` times, returns a JSON report.
nlohmann::ordered_json runOne(const Benchmark& b, int repeat, const CommonOptions& common) {
    if (b.custom) return b.custom(common, repeat);
    const auto t0 = Clock::now();
    char dirTemplate[] = "/tmp/gpuplan-bench-XXXXXX";
    const char* dir = mkdtemp(dirTemplate);
    if (!dir) throw std::runtime_error("cannot create a folder in /tmp");
    struct RemoveDir {
        std::filesystem::path path;
        ~RemoveDir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    } removeDir{dir};
    const Scenario scenario = b.load(common, dir);
    const double loadS = seconds(t0, Clock::now());
    std::vector<double> walls;
    Results last;
    RunOptions options;
    options.checkInvariants = false;
    for (int i = 0; i < repeat; ++i) {
        const auto s = Clock::now();
        if (scenario.replications > 1) {  // as the application and `run` run it
            ReplicationOptions replicated;
            replicated.replications = scenario.replications;
            replicated.run = options;
            last = *runReplications(scenario, replicated).first;
        } else {
            last = simulate(scenario, options);
        }
        walls.push_back(seconds(s, Clock::now()));
    }
    // The estimate the reader held it to, in the budget's seconds (1.5e7 units a second).
    const RunCost cost = estimateRunCost(scenario, Fleet::build(scenario));
    std::sort(walls.begin(), walls.end());
    const double median = walls[walls.size() / 2];
    return {{"name", b.name},
            {"ok", true},
            {"wall_s", median},
            {"wall_s_min", walls.front()},
            {"load_s", loadS},
            {"runs", repeat},
            {"events", last.eventCount},
            {"events_per_s", static_cast<double>(last.eventCount) / median},
            {"jobs", last.jobs.size()},
            {"us_per_job", last.jobs.empty() ? 0.0 : 1e6 * median / last.jobs.size()},
            {"size", b.suite == "engine" ? std::string() : scenario.description},
            // The regime the run was in: a saturated fleet does more work per job.
            {"allocation", orZero(last.kpi("allocation_mean"))},
            {"queue_mean", orZero(last.kpi("queue_length_mean"))},
            {"gpus", last.fleet.totalGpus},
            {"estimate_s", cost.workOps / 1.5e7},
            {"estimate_mb", cost.memoryBytes / (1 << 20)},
            {"fingerprint", last.fingerprintHex()}};
}

nlohmann::ordered_json runInChild(const Benchmark& b, int repeat, const CommonOptions& common) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        std::string text;
        try {
            text = runOne(b, repeat, common).dump();
        } catch (const std::exception& e) {
            text =
                nlohmann::ordered_json{{"name", b.name}, {"ok", false}, {"error", e.what()}}.dump();
        }
        ssize_t written = 0;
        while (written < static_cast<ssize_t>(text.size())) {
            const ssize_t n = write(fds[1], text.data() + written, text.size() - written);
            if (n <= 0) break;
            written += n;
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    nlohmann::ordered_json report =
        text.empty()
            ? nlohmann::ordered_json{{"name", b.name}, {"ok", false}, {"error", "child crashed"}}
            : nlohmann::ordered_json::parse(text);
    report["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return report;
}

std::string formatUs(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

/// The table's last column: what was run and, for generated scenarios, the regime it ran in.
std::string describe(const Benchmark& b, const nlohmann::ordered_json& r) {
    if (b.suite == "engine") return "";
    if (b.suite == "plan") return r.value("size", "");
    char regime[160];
    std::snprintf(regime, sizeof regime, "; allocation %.0f %%, mean queue %.0f",
                  100 * r.value("allocation", 0.0), r.value("queue_mean", 0.0));
    if (b.suite == "adversarial")  // what the estimate promised
        std::snprintf(regime + std::strlen(regime), sizeof regime - std::strlen(regime),
                      "; estimate %.3g s, %.0f MB", r.value("estimate_s", 0.0),
                      r.value("estimate_mb", 0.0));
    return r.value("size", "") + regime;
}

std::string verdict(const Benchmark& b, const nlohmann::ordered_json& r) {
    if (!r.value("ok", false)) return "ERROR";
    bool pass = r["wall_s"].get<double>() < b.targetWallS;
    if (b.targetEventsPerS > 0)
        pass = pass && r["events_per_s"].get<double>() >= b.targetEventsPerS;
    if (b.targetRssMb > 0) pass = pass && r["peak_rss_mb"].get<double>() < b.targetRssMb;
    return pass ? "meets target" : "MISSES target";
}

}  // namespace

int benchCommand(Args& args) {
    CommonOptions common;
    bool json = false;
    std::vector<std::string> only;
    std::string suite = "engine";
    int repeat = 0;
    const std::vector<Benchmark> benchmarks = allBenchmarks();
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else if (args.at("--suite")) {
            suite = args.value("--suite");
            if (suite != "engine" && suite != "quota" && suite != "scaling" &&
                suite != "adversarial" && suite != "plan" && suite != "all")
                throw UsageError{
                    "--suite takes engine, quota, scaling, adversarial, plan or "
                    "all, got \"" +
                    suite + "\""};
        } else if (args.at("--only")) {
            only.push_back(args.value("--only"));
        } else if (args.at("--repeat")) {
            repeat = static_cast<int>(args.integer("--repeat", 1, 1000));
        } else {
            args.unknown();
        }
    }
    for (const std::string& name : only) {
        const bool known = std::any_of(benchmarks.begin(), benchmarks.end(),
                                       [&](const Benchmark& b) { return name == b.name; });
        if (!known) throw UsageError{"unknown benchmark " + name};
    }
    if (!json)
        std::printf("%-30s %9s %9s %10s %9s %9s %7s %8s  %s\n", "benchmark", "wall_s", "load_s",
                    "events/s", "events", "jobs", "us/job", "rss_MB", "target");
    int failures = 0;
    std::map<std::string, std::vector<double>> perJobByFamily;
    for (const Benchmark& b : benchmarks) {
        const bool chosen = only.empty()
                                ? suite == "all" || suite == b.suite
                                : std::find(only.begin(), only.end(), b.name) != only.end();
        if (!chosen) continue;
        const nlohmann::ordered_json r = runInChild(b, repeat > 0 ? repeat : b.repeat, common);
        if (!r.value("ok", false)) ++failures;
        if (json) {
            nlohmann::ordered_json out = r;
            out["verdict"] = verdict(b, r);
            std::printf("%s\n", out.dump().c_str());
        } else if (!r.value("ok", false)) {
            std::printf("%-30s error: %s\n", b.name.c_str(), r.value("error", "?").c_str());
        } else {
            std::printf("%-30s %9.4f %9.4f %10.3g %9llu %9llu %7.2f %8.1f  %s  %s\n",
                        b.name.c_str(), r["wall_s"].get<double>(), r["load_s"].get<double>(),
                        r["events_per_s"].get<double>(),
                        static_cast<unsigned long long>(r["events"].get<std::uint64_t>()),
                        static_cast<unsigned long long>(r["jobs"].get<std::uint64_t>()),
                        r["us_per_job"].get<double>(), r["peak_rss_mb"].get<double>(),
                        verdict(b, r).c_str(), describe(b, r).c_str());
        }
        std::fflush(stdout);
        if (r.value("ok", false) && !b.family.empty())
            perJobByFamily[b.family].push_back(r["us_per_job"].get<double>());
    }
    for (const auto& [family, costs] : perJobByFamily) {
        if (costs.size() < 2) continue;
        const auto [low, high] = std::minmax_element(costs.begin(), costs.end());
        const double spread = *high / std::max(*low, 1e-12);
        const std::string line = family + "_*: " + formatUs(*low) + " to " + formatUs(*high) +
                                 " us per job (" + formatUs(spread) + "x): " +
                                 (spread <= kFlatPerJobCost ? "flat within " : "NOT flat within ") +
                                 formatUs(kFlatPerJobCost) + "x";
        if (json)
            std::printf("%s\n", nlohmann::ordered_json{{"name", family + "_*"},
                                                       {"ok", true},
                                                       {"family", family},
                                                       {"us_per_job_min", *low},
                                                       {"us_per_job_max", *high},
                                                       {"spread", spread},
                                                       {"flat", spread <= kFlatPerJobCost}}
                                    .dump()
                                    .c_str());
        else
            std::printf("%s\n", line.c_str());
    }
    return failures ? kBadInput : kOk;
}

}  // namespace gpuplan::cli
