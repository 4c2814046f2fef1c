// gpuplan-cli trace: a run as Chrome trace-event JSON for Perfetto or chrome://tracing
// (gpuplan/export/chrome_trace.hpp).
#include <cstdio>
#include <stdexcept>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/export/chrome_trace.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::cli {

const char* const kTraceUsage =
    "usage: gpuplan-cli trace SCENARIO --out TRACE.json [--seed N]\n"
    "\n"
    "Runs SCENARIO and writes its timeline as Chrome trace-event JSON, which Perfetto\n"
    "(ui.perfetto.dev) and chrome://tracing open: a process per node, a thread per GPU (more\n"
    "for a GPU several jobs share at once), a slice per job binding on each GPU it held,\n"
    "instants for preemptions, node failures and spot reclaims, and counters for the\n"
    "allocation and the queue length. Times are microseconds of simulated time.\n"
    "  --out FILE   where to write it (replaced atomically)\n"
    "  --seed N     as for run\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

int traceCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile, outFile;
    RunOptions options;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--seed")) {
            options.seed = args.integer("--seed", 0, UINT64_MAX);
        } else if (args.at("--out")) {
            outFile = args.value("--out");
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (!outFile) throw UsageError{"no --out file given"};
    checkOutputFile("--out", *outFile);
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    const Results results = simulate(scenario, options);
    ChromeTraceCounts counts;
    try {
        counts = saveChromeTrace(results, *outFile);
    } catch (const std::runtime_error& e) {
        throw UsageError{e.what()};
    }
    std::printf("%s: %zu slices (job bindings × GPUs), %zu instants, %zu counter samples\n",
                outFile->string().c_str(), counts.completeEvents, counts.instantEvents,
                counts.counterEvents);
    return kOk;
}

}  // namespace gpuplan::cli
