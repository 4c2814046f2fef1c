// gpuplan-cli import-slurm: a Slurm cluster (scontrol's nodes, sacct's jobs) into a scenario.
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/fleet_import.hpp"
#include "gpuplan/scenario_io.hpp"
#include "gpuplan/slurm_import.hpp"

namespace gpuplan::cli {

const char* const kImportSlurmUsage =
    "usage: gpuplan-cli import-slurm --nodes NODES.txt [--jobs SACCT.txt] --out SCENARIO.json\n"
    "                                [--topology topology.conf] [--gpu-type TYPE=MODEL]...\n"
    "                                [--horizon-days D] [--name NAME]\n"
    "\n"
    "Makes a scenario of a Slurm cluster's GPU nodes and, with --jobs, its accounting replayed\n"
    "as a trace, and writes it atomically to SCENARIO.json, checked as `validate` would. Exit 2\n"
    "with the file and line when an input is wrong or names what gpuplan cannot model; the\n"
    "scenario is then not written. A summary says what was mapped, left out and assumed.\n"
    "\n"
    "  --nodes FILE  `scontrol show node --oneliner` output: one node a line. GPUs from\n"
    "                Gres=gpu:<type>:<n> (else CfgTRES gres/gpu), CPUs from CPUEfctv (else\n"
    "                CPUTot), memory from RealMemory; State IDLE, ALLOCATED, MIXED → Ready,\n"
    "                DRAIN, MAINT → Cordoned, DOWN, FAIL, not responding (*) → Failed, with\n"
    "                the Reason. Nodes without GPUs are left out. Without --topology the\n"
    "                fleet is flat: racks of 32 nodes in name order in one pod.\n"
    "  --topology FILE\n"
    "                Slurm's topology.conf (topology/tree): each leaf switch (SwitchName=…\n"
    "                Nodes=gpu[01-16]) is a rack, the switch above it (Switches=…) its pod.\n"
    "  --jobs FILE   `sacct --parsable2 --allocations --format=JobID,Account,Partition,Submit,\n"
    "                Start,End,State,AllocTRES,ReqTRES,TimelimitRaw` output, replayed from the\n"
    "                first submit: finished jobs run End − Start, jobs running or pending at\n"
    "                the export (its latest timestamp) run their time limit (UNLIMITED: to the\n"
    "                horizon); array tasks are jobs; CPU-only jobs are left out; the team is\n"
    "                the account. The scenario names the file relative to its own folder.\n"
    "  --gpu-type TYPE=MODEL\n"
    "                Slurm GPU type TYPE is catalog GPU model MODEL (repeatable; TYPE gpu for\n"
    "                untyped Gres=gpu:<n>). Without it a type must equal a catalog model's id,\n"
    "                name or product label, ignoring case and '_' vs '-' (nvidia_h100_80gb_hbm3)\n"
    "  --horizon-days D\n"
    "                the simulated time (default: first submit to the export plus a day, or\n"
    "                7 days without --jobs)\n"
    "  --name NAME   the scenario's name (default: \"Slurm import of NODES.txt\")\n"
    "  --out FILE    the scenario to write\n"
    "  --data-dir, --presets, --catalog, --budget-gb, --budget-ops  as for validate\n";

namespace {

/// `file` as the scenario in `outFolder` names it: relative to that folder where one path
/// leads there, else absolute.
std::string pathFromScenario(const std::filesystem::path& file,
                             const std::filesystem::path& outFolder) {
    namespace fs = std::filesystem;
    std::error_code ec1, ec2;
    const fs::path target = fs::weakly_canonical(fs::absolute(file), ec1);
    const fs::path folder = fs::weakly_canonical(fs::absolute(outFolder), ec2);
    if (ec1 || ec2) return fs::absolute(file).generic_string();
    const fs::path relative = target.lexically_relative(folder);
    return relative.empty() ? target.generic_string() : relative.generic_string();
}

std::string plural(long long n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// The replay's lines in the import's summary.
void summarizeJobs(const TraceData& d, const std::string& file, ImportSummary& summary) {
    const TraceRowCounts& c = d.rows;
    summary.mapped.push_back(
        plural(static_cast<long long>(d.jobs.size()), "GPU job", "GPU jobs") + " from " + file +
        " (" + std::to_string(c.finished) + " finished, " + std::to_string(c.running) +
        " running, " + std::to_string(c.pending) + " pending; " +
        plural(c.arrayTasks, "array task", "array tasks") + ") of " +
        plural(static_cast<long long>(d.teams.size()), "team", "teams") + " (accounts)");
    if (c.cpuOnly > 0)
        summary.skipped.push_back(plural(c.cpuOnly, "CPU-only job", "CPU-only jobs"));
    if (c.cancelledBeforeStart > 0)
        summary.skipped.push_back(plural(c.cancelledBeforeStart, "job", "jobs") +
                                  " cancelled before starting");
    if (c.steps > 0)
        summary.skipped.push_back(plural(c.steps, "job step", "job steps") +
                                  " (the allocation line holds the job)");
    if (c.running + c.pending > 0)
        summary.assumptions.push_back(
            "jobs running or pending at the export (its latest timestamp) run for their time "
            "limit (running ones at least as long as they have run)");
    if (c.unlimitedLimits > 0)
        summary.assumptions.push_back(
            plural(c.unlimitedLimits, "running or pending job", "running or pending jobs") +
            " without a time limit (UNLIMITED, Partition_Limit, Unknown) run to the end of the "
            "horizon");
    if (c.noAccount > 0)
        summary.assumptions.push_back(plural(c.noAccount, "job", "jobs") +
                                      " without an account: team \"unknown\"");
    summary.assumptions.push_back(
        "the replay places each job on any GPU model, whatever GPU type it asked for");
}

}  // namespace

int importSlurmCommand(Args& args) {
    namespace fs = std::filesystem;
    CommonOptions common;
    SlurmNodeOptions nodeOptions;
    std::optional<fs::path> nodesFile, jobsFile, topologyFile, out;
    std::optional<double> horizonDays;
    std::string name;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--nodes")) {
            nodesFile = args.value("--nodes");
        } else if (args.at("--topology")) {
            topologyFile = args.value("--topology");
        } else if (args.at("--jobs")) {
            jobsFile = args.value("--jobs");
        } else if (args.at("--out")) {
            out = args.value("--out");
        } else if (args.at("--gpu-type")) {
            nodeOptions.gpuTypeModels.push_back(args.assignment("--gpu-type"));
        } else if (args.at("--horizon-days")) {
            horizonDays = args.positiveNumber("--horizon-days", InputLimits::maxHorizonS / 86400);
        } else if (args.at("--name")) {
            name = args.value("--name");
        } else {
            args.unknown();
        }
    }
    if (!nodesFile) throw UsageError{"--nodes NODES.txt is required"};
    if (!out) throw UsageError{"--out FILE is required"};
    checkOutputFile("--out", *out);

    const Catalog catalog = loadCatalogFor(common);
    ImportedFleet fleet = readSlurmNodes(*nodesFile, catalog, nodeOptions);
    if (topologyFile) readSlurmTopology(*topologyFile, fleet);
    ImportScenarioOptions options;
    options.name = name.empty() ? "Slurm import of " + nodesFile->filename().string() : name;
    options.horizonS = 7 * 86400.0;
    if (jobsFile) {
        const SacctTrace trace = parseSacct(readTextFile(*jobsFile), jobsFile->string());
        TraceDef def;
        def.format = TraceFormat::Sacct;
        def.file = pathFromScenario(*jobsFile, folderOf(*out));
        def.data = trace.data;
        fleet.traces.push_back(def);
        fleet.teams = trace.data->teams;
        summarizeJobs(*trace.data, jobsFile->string(), fleet.summary);
        const double spanS = trace.exportEpochS - trace.firstSubmitEpochS;
        options.horizonS = std::ceil(spanS) + 86400.0;
        if (options.horizonS > InputLimits::maxHorizonS)
            throw InputError(jobsFile->string(), "",
                             "the export spans " + std::to_string(spanS / 86400) +
                                 " days from its first submit, more than the longest horizon "
                                 "(3 × 366 days): export a shorter window (sacct -S … -E …)");
    }
    char days[64];
    if (horizonDays) {
        options.horizonS = *horizonDays * 86400.0;
        std::snprintf(days, sizeof days, "%.2f d", options.horizonS / 86400);
        fleet.summary.mapped.push_back(std::string("horizon ") + days + " (--horizon-days)");
    } else {
        std::snprintf(days, sizeof days, "%.2f d", options.horizonS / 86400);
        fleet.summary.assumptions.push_back(
            std::string("horizon ") + days +
            (jobsFile ? ": from the first submit to the export, plus a day" : "") +
            " (--horizon-days sets it)");
    }
    fleet.source = fleet.source + (jobsFile ? " and sacct (" + jobsFile->string() + ")" : "");

    return writeImportedScenario(importedScenario(fleet, catalog, options), *out, common, catalog);
}

}  // namespace gpuplan::cli
