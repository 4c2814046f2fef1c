// gpuplan-cli import-slurm: a Slurm cluster (scontrol's nodes, sacct's jobs) into a scenario.
#include <filesystem>
#include <optional>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/import/fleet_import.hpp"
#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

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
    "                the account; a job whose ReqTRES asks gres/gpu:<type> runs on that type's\n"
    "                model only (mapped as the nodes' types, --gpu-type included). The\n"
    "                scenario names the file relative to its own folder.\n"
    "  --gpu-type TYPE=MODEL\n"
    "                Slurm GPU type TYPE is catalog GPU model MODEL (repeatable; TYPE gpu for\n"
    "                untyped Gres=gpu:<n>), for nodes and jobs. Without it a type must equal a\n"
    "                catalog model's id, name or product label, ignoring case and '_' vs '-'\n"
    "                (nvidia_h100_80gb_hbm3); one that matches several (h100) is refused\n"
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

}  // namespace

int importSlurmCommand(Args& args) {
    namespace fs = std::filesystem;
    CommonOptions common;
    SlurmImportOptions options;
    std::optional<fs::path> nodesFile, jobsFile, topologyFile, out;
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
            options.nodes.gpuTypeModels.push_back(args.assignment("--gpu-type"));
        } else if (args.at("--horizon-days")) {
            options.horizonS =
                args.positiveNumber("--horizon-days", InputLimits::maxHorizonS / 86400) * 86400;
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
    SlurmImport slurm = importSlurmFiles(catalog, *nodesFile, jobsFile, topologyFile, options);
    // The scenario names the export relative to its own folder where one path leads there.
    for (TraceDef& t : slurm.fleet.traces)
        t.file = pathFromScenario(*jobsFile, folderOf(*out));
    ImportScenarioOptions scenario;
    scenario.name = name.empty() ? "Slurm import of " + nodesFile->filename().string() : name;
    scenario.horizonS = slurm.horizonS;
    return writeImportedScenario(importedScenario(slurm.fleet, catalog, scenario), *out, common,
                                 catalog);
}

}  // namespace gpuplan::cli
