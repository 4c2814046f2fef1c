// gpuplan-cli run / validate.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/economics/checkpoint_advice.hpp"
#include "gpuplan/export/results_io.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::cli {

const char* const kRunUsage =
    "usage: gpuplan-cli run SCENARIO [--seed N] [--by team|class] [--out results.json]\n"
    "                        [--csv DIR]\n"
    "\n"
    "Simulates SCENARIO and prints a KPI table. Waits count jobs still waiting at the end\n"
    "with their wait so far (a lower bound); jobs_waiting_at_end says how many.\n"
    "  --seed N         use seed N (0 to 18446744073709551615) instead of the scenario's\n"
    "  --replications N run N seeds derived from the scenario's (the first is its own; default:\n"
    "                   the scenario's \"replications\", 1 = one plain run) and\n"
    "                   print each KPI's mean and 95 % confidence interval (Student t);\n"
    "                   --out then holds the means in \"kpis\", the intervals in\n"
    "                   \"kpis_ci95\" and \"replications\": N, and --csv adds kpis_ci95.csv\n"
    "                   and replications.csv (a row per run)\n"
    "  --threads K      run replications on K threads (default: every core); the answer\n"
    "                   does not depend on it\n"
    "  --by team|class  also print the KPIs per team or per job class\n"
    "  --out FILE       write {\"kpis\", \"kpi_descriptions\", \"by_team\", \"by_class\",\n"
    "                   \"series\", \"fingerprint\"} as JSON\n"
    "  --csv DIR        write one CSV per series, series.csv and jobs.csv into DIR\n"
    "                   (created when missing)\n"
    "  --data-dir DIR   also look for trace files in DIR (repeatable)\n"
    "  --presets DIR    presets folder (default: installed or the checkout's presets/)\n"
    "  --catalog FILE   hardware catalog (default: PRESETS/catalog/catalog.json)\n"
    "  --pricebook FILE price the fleet with this book (a name alone: PRESETS/pricebooks/)\n"
    "                   instead of the scenario's pricing; costs appear with prices\n"
    "  --budget-gb GB   refuse a scenario whose run would need more memory (default 8)\n"
    "  --budget-ops N   refuse a scenario whose run would take more work units (default\n"
    "                   2e9, about two minutes on a 2-core machine)\n";

const char* const kValidateUsage =
    "usage: gpuplan-cli validate SCENARIO [--data-dir DIR] [--presets DIR] [--catalog FILE]\n"
    "                                     [--budget-gb GB] [--budget-ops N]\n"
    "\n"
    "Checks SCENARIO: exit 0, a one-line summary and the run's estimated cost if it is good;\n"
    "exit 2 and the error (file, JSON pointer or line, what is wrong) on stderr if not. A\n"
    "scenario whose run would exceed the budget (memory, work) is refused the same way, so\n"
    "anything that validates finishes. Options as for run.\n";

namespace {

/// The KPIs of each team or job class, one row each; teams with quotas add the quota's
/// columns (means over the samples, GPU-equivalents) and their preemptions.
void printGroups(const char* title, const std::vector<GroupKpis>& groups) {
    const bool quota = std::any_of(groups.begin(), groups.end(), [](const GroupKpis& g) {
        return !std::isnan(g.nominalGpus) || g.preemptions > 0;
    });
    std::printf("\n%-24s %10s %10s %12s %12s %10s %12s", title, "alloc", "GPU-h", "wait p50",
                "wait p95", "completed", "waiting end");
    // Preemption health: jobs preempted too often, and jobs that waited too long at a stretch.
    const bool health = quota || std::any_of(groups.begin(), groups.end(), [](const GroupKpis& g) {
                            return g.thrashingJobs > 0 || g.starvedJobs > 0;
                        });
    const bool priced = std::any_of(groups.begin(), groups.end(),
                                    [](const GroupKpis& g) { return !std::isnan(g.costUsd); });
    if (quota)
        std::printf(" %9s %9s %9s %9s %9s", "nominal", "used", "borrowed", "lent", "preempted");
    if (health) std::printf(" %9s %9s", "thrashing", "starved");
    if (priced) std::printf(" %12s", "cost USD");
    std::printf("\n");
    auto cell = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, std::isnan(v) ? "-" : "%.1f", v);
        return std::string(buf);
    };
    for (const GroupKpis& g : groups) {
        char share[32];
        std::snprintf(share, sizeof share, "%.2f %%", 100 * g.allocationShare);
        std::printf("%-24s %10s %10.1f %12s %12s %10d %12d", g.name.c_str(), share, g.gpuHours,
                    formatSeconds(g.waitP50S).c_str(), formatSeconds(g.waitP95S).c_str(),
                    g.completed, g.waitingAtEnd);
        if (quota)
            std::printf(" %9s %9s %9s %9s %9d", cell(g.nominalGpus).c_str(),
                        cell(g.usedGpusMean).c_str(), cell(g.borrowedGpusMean).c_str(),
                        cell(g.lentGpusMean).c_str(), g.preemptions);
        if (health) std::printf(" %9d %9d", g.thrashingJobs, g.starvedJobs);
        if (priced) std::printf(" %12.2f", g.costUsd);
        std::printf("\n");
    }
    std::printf(
        "(alloc: share of the fleet's provisioned GPU-hours; waits include jobs still "
        "waiting at the end, as lower bounds%s%s%s)\n",
        quota ? "; nominal, used, borrowed, lent: quota GPU-equivalents, used and the rest "
                "averaged over the samples; - = no quota"
              : "",
        health ? "; thrashing: jobs preempted scheduler.thrashingPreemptions times or more; "
                 "starved: jobs that waited longer than scheduler.starvationWaitS at a stretch"
               : "",
        priced ? "; cost USD: chargeback, what its jobs held at the held GPUs' prices" : "");
}

/// What each trace's replay leaves out or simplifies (openb pod lists), never silently.
void printTraceRows(const Scenario& scenario) {
    for (const TraceDef& t : scenario.traces)
        if (t.data)
            if (const std::string rows = describeTraceRows(*t.data); !rows.empty())
                std::printf("trace %s: %s\n", t.file.c_str(), rows.c_str());
}

/// Each job source that pays for checkpoints: its interval beside Young's and Daly's for the
/// run's failure rate (a planner compares the three; none without random failures).
void printCheckpointAdvice(const Results& results) {
    const auto advice = checkpointAdvice(results);
    if (advice.empty()) return;
    std::printf("\n%-24s %10s %8s %8s %10s %10s %10s\n", "checkpoints of", "interval", "cost",
                "GPUs", "MTBF", "Young", "Daly");
    for (const CheckpointAdvice& a : advice)
        std::printf("%-24s %10s %8s %8.1f %10s %10s %10s\n", a.source.c_str(),
                    formatSeconds(a.configured.intervalS).c_str(),
                    formatSeconds(a.configured.costS).c_str(), a.gpusExposed,
                    formatSeconds(a.mtbfS).c_str(), formatSeconds(a.youngS).c_str(),
                    formatSeconds(a.dalyS).c_str());
}

}  // namespace

int runCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile, outFile, csvDir;
    std::string by;
    RunOptions options;
    ReplicationOptions replicated;
    replicated.replications = 0;  // not asked for: one plain run
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--seed")) {
            options.seed = args.integer("--seed", 0, UINT64_MAX);
        } else if (args.at("--replications")) {
            replicated.replications = static_cast<int>(args.integer("--replications", 1, 10000));
        } else if (args.at("--threads")) {
            replicated.threads = static_cast<int>(args.integer("--threads", 1, 1024));
        } else if (args.at("--by")) {
            by = args.value("--by");
            if (by != "team" && by != "class")
                throw UsageError{"--by takes team or class, got \"" + by + "\""};
        } else if (args.at("--out")) {
            outFile = args.value("--out");
        } else if (args.at("--csv")) {
            csvDir = args.value("--csv");
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    // Fail before a long run, not after it; the --csv folder is created once the scenario
    // loaded, so a bad scenario leaves nothing behind.
    if (outFile) checkOutputFile("--out", *outFile);
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    if (csvDir) prepareOutputFolder("--csv", *csvDir);
    // The scenario may ask for replications itself; --replications overrides it.
    if (replicated.replications == 0 && scenario.replications > 1 && !options.seed)
        replicated.replications = scenario.replications;
    if (replicated.threads > 0 && replicated.replications == 0)
        throw UsageError{"--threads goes with --replications (one run uses one thread)"};
    if (replicated.replications > 0) {
        if (options.seed)
            throw UsageError{
                "--seed and --replications do not go together "
                "(replications derive their seeds from the scenario's)"};
        if (!by.empty()) throw UsageError{"--by does not go with --replications"};
        checkReplicationsBudget(scenario, replicated.replications, *scenarioFile, common);
        return runReplicated(scenario, *scenarioFile, replicated, outFile, csvDir);
    }

    const auto start = std::chrono::steady_clock::now();
    const Results results = simulate(scenario, options);
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::printf("%s — %d nodes, %d GPUs, %zu jobs, %.1f days simulated in %.3f s (%llu events)\n",
                scenario.name.empty() ? scenarioFile->filename().c_str() : scenario.name.c_str(),
                static_cast<int>(results.fleet.nodes.size()), results.fleet.totalGpus,
                results.jobs.size(), scenario.horizonS / 86400, wallS,
                static_cast<unsigned long long>(results.eventCount));
    printTraceRows(scenario);
    std::printf("%-26s %-14s %s\n", "kpi", "value", "what it measures");
    for (const Kpi& k : results.kpis)
        std::printf("%-26s %-14s %s\n", k.name.c_str(), formatKpi(k.value, k.unit).c_str(),
                    k.description.c_str());
    std::printf("%-26s %s\n", "fingerprint", results.fingerprintHex().c_str());
    if (by == "team") printGroups("team", results.teamKpis);
    if (by == "class") printGroups("class", results.classKpis);
    printCheckpointAdvice(results);
    if (outFile) writeFileAtomic(*outFile, resultsToJson(results));
    if (csvDir) writeResultsCsv(results, *csvDir);
    return kOk;
}

int validateCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile;
    while (!args.done()) {
        if (args.common(common)) continue;
        args.scenario(scenarioFile);
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    const Fleet fleet = Fleet::build(scenario);
    std::printf(
        "ok: %s — %zu pods, %zu racks, %zu nodes, %d GPUs, %zu job classes, %zu jobs, %zu traces\n",
        scenarioFile->string().c_str(), fleet.pods.size(), fleet.racks.size(), fleet.nodes.size(),
        fleet.totalGpus, scenario.jobClasses.size(), scenario.jobs.size(), scenario.traces.size());
    printTraceRows(scenario);
    const RunCost cost = estimateRunCost(scenario, fleet);
    std::printf(
        "estimated run: about %.0f jobs, %.0f events, %.0f MB, %.3g work units (budget %.0f MB, "
        "%.3g)\n",
        cost.jobs, cost.events, cost.memoryBytes / (1 << 20), cost.workOps,
        common.budget.memoryBytes / (1 << 20), common.budget.workOps);
    return kOk;
}

}  // namespace gpuplan::cli
