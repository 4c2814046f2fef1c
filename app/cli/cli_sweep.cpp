// gpuplan-cli sweep: parameter sweeps with replications, split into shards and merged
// (gpuplan/studies/sweep.hpp).
#include <chrono>
#include <cstdio>
#include <fstream>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace gpuplan::cli {

const char* const kSweepUsage =
    "usage: gpuplan-cli sweep SPEC.json --out DIR [--shard K/N] [--threads K] [--find]\n"
    "       gpuplan-cli sweep merge SHARD_DIR... --out DIR\n"
    "\n"
    "Runs every point of a sweep (a scenario with parameters set by JSON pointer: a grid of\n"
    "their values, or a list of points) times its replications, in parallel, and writes into\n"
    "DIR: runs.csv (a row per run: run, point, each parameter, replication, seed, every KPI),\n"
    "summary.csv (a row per point: each KPI's mean and 95 % interval), spec.json (the sweep)\n"
    "and run-info.json (the scenario's, the catalog's and gpuplan's fingerprints, which\n"
    "`sweep merge` requires to agree). Replication r of every point runs the same seed\n"
    "(common random numbers).\n"
    "  --shard K/N  only the runs with run % N == K - 1 (a Slurm array task, a Kubernetes\n"
    "               Indexed Job pod); `sweep merge` then joins the N shard folders into the\n"
    "               very files one machine writes\n"
    "  --threads K  threads (default: every core); the files do not depend on it\n"
    "  --find       bisect the single parameter's values for the first point whose mean KPI\n"
    "               is at most the spec's \"find\": {\"kpi\", \"atMost\"} (the KPI must fall as "
    "the\n"
    "               values grow); runs only the points the search reaches\n"
    "  Options of run: --data-dir, --presets, --catalog, --budget-gb, --budget-ops\n"
    "\n"
    "SPEC.json: {\"format\": \"gpuplan-sweep\", \"formatVersion\": 1, \"scenario\": FILE,\n"
    "  \"replications\": N, \"parameters\": [{\"pointer\": \"/horizonS\", \"values\": [...]}]\n"
    "  or \"points\": [{\"/a\": 1, \"/b\": 2}, ...], optionally \"find\"}\n";

namespace {

/// What a shard's runs depend on besides the sweep file: shards run against another scenario
/// text, catalog or build must not merge into what one machine would have written.
std::string runInfo(const SweepSpec& spec, const CommonOptions& common) {
    return "{\"gpuplan\": \"" GPUPLAN_VERSION "\", \"scenarioFnv64\": \"" +
           fnv64(sweepScenarioText(spec)) + "\", \"catalogFnv64\": \"" + catalogFnv64(common) +
           "\"}\n";
}

void writeOutputs(const std::filesystem::path& dir, const std::string& specText,
                  const std::string& info, const SweepSpec& spec,
                  const std::vector<SweepRun>& runs) {
    writeFileAtomic(dir / "spec.json", specText);
    writeFileAtomic(dir / "run-info.json", info);
    writeFileAtomic(dir / "runs.csv", sweepRunsCsv(spec, runs));
    writeFileAtomic(dir / "summary.csv", sweepSummaryCsv(spec, runs));
}

int mergeCommand(Args& args) {
    std::vector<std::filesystem::path> shards;
    std::optional<std::filesystem::path> outDir;
    while (!args.done()) {
        if (args.at("--out")) {
            outDir = args.value("--out");
        } else if (args.peek().starts_with("-")) {
            args.unknown();
        } else {
            shards.emplace_back(args.take());
        }
    }
    if (shards.empty()) throw UsageError{"sweep merge needs the shards' folders"};
    if (!outDir) throw UsageError{"no --out folder given"};
    // Every shard carries the sweep it ran; they must be the same one.
    const std::string specText = readTextFile(shards.front() / "spec.json");
    const SweepSpec spec =
        parseSweepSpec(specText, (shards.front() / "spec.json").string(), shards.front());
    const std::string info = readTextFile(shards.front() / "run-info.json");
    std::vector<std::vector<SweepRun>> runs;
    for (const auto& dir : shards) {
        if (readTextFile(dir / "spec.json") != specText)
            throw InputError((dir / "spec.json").string(), "",
                             "another sweep than " + (shards.front() / "spec.json").string());
        if (readTextFile(dir / "run-info.json") != info)
            throw InputError((dir / "run-info.json").string(), "",
                             "ran another scenario, catalog or gpuplan than " +
                                 (shards.front() / "run-info.json").string() +
                                 " (its runs would not be the ones one machine runs)");
        const std::filesystem::path file = dir / "runs.csv";
        runs.push_back(parseSweepRunsCsv(readTextFile(file), file.string(), spec));
    }
    const std::vector<SweepRun> merged = mergeSweepRuns(spec, std::move(runs));
    prepareOutputFolder("--out", *outDir);
    writeOutputs(*outDir, specText, info, spec, merged);
    std::printf("merged %zu shards: %zu runs of %zu points into %s\n", shards.size(), merged.size(),
                spec.points.size(), outDir->string().c_str());
    return kOk;
}

}  // namespace

int sweepCommand(Args& args) {
    if (!args.done() && args.peek() == "merge") {
        args.take();
        return mergeCommand(args);
    }
    CommonOptions common;
    std::optional<std::filesystem::path> specFile, outDir;
    SweepOptions options;
    bool find = false;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--out")) {
            outDir = args.value("--out");
        } else if (args.at("--shard")) {
            options.shard = parseShard(args.value("--shard"));
        } else if (args.at("--threads")) {
            options.threads = static_cast<int>(args.integer("--threads", 1, 1024));
        } else if (args.at("--find")) {
            args.flag("--find");
            find = true;
        } else {
            args.scenario(specFile);
        }
    }
    if (!specFile) throw UsageError{"no sweep file given"};
    if (!outDir) throw UsageError{"no --out folder given"};
    if (common.priceBook) throw UsageError{"--pricebook does not go with sweep (set /pricing)"};
    const std::string specText = readTextFile(*specFile);
    const SweepSpec spec = parseSweepSpec(specText, specFile->string(), folderOf(*specFile));
    if (find && !spec.findKpi) throw UsageError{"--find needs the sweep's \"find\""};
    if (find && options.shard.count > 1) throw UsageError{"--find does not split into shards"};
    prepareOutputFolder("--out", *outDir);
    const Catalog catalog = loadCatalogFor(common);
    const LoadOptions load = loadOptionsFor(common);
    options.run.checkInvariants = false;
    const auto start = std::chrono::steady_clock::now();
    if (find) {
        const FindResult found =
            findSmallest(spec, catalog, load, options, progressBar(spec.points.size()));
        writeOutputs(*outDir, specText, runInfo(spec, common), spec, found.runs);
        std::printf("probed %zu of %zu points (%d replications each)\n", found.probed.size(),
                    spec.points.size(), spec.replications);
        if (found.point)
            std::printf("smallest: %s = %s (point %zu): mean %s <= %g\n", spec.pointers[0].c_str(),
                        spec.points[*found.point][0].c_str(), *found.point, spec.findKpi->c_str(),
                        spec.findAtMost);
        else
            std::printf("no point keeps mean %s <= %g (the last, %s = %s, misses)\n",
                        spec.findKpi->c_str(), spec.findAtMost, spec.pointers[0].c_str(),
                        spec.points.back()[0].c_str());
        return kOk;
    }
    const std::vector<SweepRun> runs =
        runSweep(spec, catalog, load, options, progressBar(spec.runCount() / options.shard.count));
    writeOutputs(*outDir, specText, runInfo(spec, common), spec, runs);
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%zu runs (%zu points × %d replications%s) in %.2f s into %s\n", runs.size(),
                spec.points.size(), spec.replications,
                options.shard.count > 1 ? (", shard " + std::to_string(options.shard.index) + "/" +
                                           std::to_string(options.shard.count))
                                              .c_str()
                                        : "",
                wallS, outDir->string().c_str());
    return kOk;
}

}  // namespace gpuplan::cli
