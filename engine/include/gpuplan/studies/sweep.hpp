// Parameter sweeps: a scenario, parameters set by JSON pointer (a grid of their
// values, or a list of points) and replications; every (point, replication) run on every
// core, one tidy CSV of runs (a row each: point, parameters, replication, seed, every KPI) and
// a summary per point (each KPI's mean and 95 % interval). A sweep splits into shards that
// run anywhere (a Slurm job array, a Kubernetes Indexed Job) and merge into the very bytes one
// machine would have written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan {

/// A sweep file: {"format": "gpuplan-sweep", "formatVersion": 1, "scenario": FILE (relative
/// to the sweep file), "replications": N, and either "parameters": [{"pointer": "/a/b",
/// "values": [...]}, ...] (every combination, the last parameter varying fastest) or "points":
/// [{"/a/b": v, ...}, ...]; optionally "find": {"kpi": NAME, "atMost": X} (see findSmallest)}.
struct SweepSpec {
    std::string sourceName;  ///< the sweep file, for messages
    std::filesystem::path scenarioFile;
    /// The scenario's JSON when it is not read from scenarioFile (a study in the application
    /// sweeps the document it has open); scenarioFile then only places relative trace files.
    std::string scenarioJson;
    /// The parameters, in column order: a grid's as listed, a list's by name.
    std::vector<std::string> pointers;
    std::vector<std::vector<std::string>> points;  ///< per point, each parameter's JSON text
    int replications = 1;
    std::optional<std::string> findKpi;  ///< "find": the KPI to keep at most findAtMost
    double findAtMost = 0;

    std::size_t runCount() const { return points.size() * static_cast<std::size_t>(replications); }
};

/// Reads a sweep file (strictly, like a scenario: unknown keys, bad pointers, empty value
/// lists and more than 100,000 runs are errors with the file and the JSON pointer).
SweepSpec loadSweepSpec(const std::filesystem::path& file);
SweepSpec parseSweepSpec(std::string_view text, const std::string& sourceName,
                         const std::filesystem::path& baseDir);

/// The sweep's scenario with one point's values set, read and checked as a file is: a value a
/// scenario may not hold is an InputError naming the point and the scenario's place.
/// `scenarioText` is the scenario file's text (read once for many points).
Scenario scenarioAtPoint(const SweepSpec& spec, std::string_view scenarioText, std::size_t point,
                         const Catalog& catalog, const LoadOptions& options);
/// `scenarioText` with each of `valuesJson` (JSON texts) set at its pointer — an existing
/// value, or a new key of an existing object; null removes a key — then read and checked as a
/// file is (traces found beside `scenarioFile`). No such place: an InputError naming
/// `sourceName` and the pointer; a value a scenario may not hold: the reader's, with
/// "(CONTEXT: /a = 1, …)" added. The one rule sweeps and plans set values by.
Scenario scenarioWithValues(std::string_view scenarioText,
                            const std::filesystem::path& scenarioFile,
                            const std::vector<std::string>& pointers,
                            const std::vector<std::string>& valuesJson,
                            const std::string& sourceName, const std::string& context,
                            const Catalog& catalog, const LoadOptions& options);
/// The scenario's text: scenarioJson, or the file's.
std::string sweepScenarioText(const SweepSpec& spec);
/// The same, reading the scenario file.
Scenario scenarioAtPoint(const SweepSpec& spec, std::size_t point, const Catalog& catalog,
                         const LoadOptions& options);

/// One run's row.
struct SweepRun {
    std::size_t run = 0;  ///< point × replications + replication
    std::size_t point = 0;
    int replication = 0;
    std::uint64_t seed = 0;
    /// In the engine's order; NaN where the run measured nothing (read back from runs.csv:
    /// every column of its header, NaN where empty).
    std::vector<std::pair<std::string, double>> kpis;
};

/// K of N (1-based): the runs with run % N == K − 1.
struct Shard {
    int index = 1;
    int count = 1;
};

struct SweepOptions {
    int threads = 0;  ///< 0: every core; the rows do not depend on it
    Shard shard;
    RunOptions run;  ///< its seed is ignored: replication r runs replicationSeed(point's seed, r)
};

/// Runs the sweep's runs (or one shard of them), in parallel. `progress` gets the fraction
/// done, one call at a time. Rows come back in run order. An empty vector when stopped.
std::vector<SweepRun> runSweep(const SweepSpec& spec, const Catalog& catalog,
                               const LoadOptions& loadOptions, const SweepOptions& options,
                               const ProgressFn& progress = {}, std::stop_token stop = {});

/// runs.csv: "run,point,<pointers…>,replication,seed,<KPIs…>", a row per run in run order,
/// numbers written to round-trip exactly, a KPI a run lacks left empty.
std::string sweepRunsCsv(const SweepSpec& spec, const std::vector<SweepRun>& runs);
/// Reads runs.csv back (a shard's or a whole sweep's). Throws InputError with file and line.
std::vector<SweepRun> parseSweepRunsCsv(std::string_view text, const std::string& sourceName,
                                        const SweepSpec& spec);
/// summary.csv: a row per point with the runs it has: "point,<pointers…>,runs,
/// <kpi>_mean,<kpi>_ci95_low,<kpi>_ci95_high,…".
std::string sweepSummaryCsv(const SweepSpec& spec, const std::vector<SweepRun>& runs);
/// Joins shards' runs: every run of the sweep exactly once, else an InputError saying which
/// runs are missing or twice. Returns them in run order.
std::vector<SweepRun> mergeSweepRuns(const SweepSpec& spec,
                                     std::vector<std::vector<SweepRun>> shards);

/// "find": over the single parameter's values (which must make the KPI fall as they grow),
/// the first point whose mean KPI is at most findAtMost, by bisection: a point is run (all its
/// replications) only when the search reaches it. nullopt when even the last point misses.
struct FindResult {
    std::optional<std::size_t> point;  ///< the smallest point that meets the target
    std::vector<std::size_t> probed;   ///< points run, in order
    std::vector<SweepRun> runs;        ///< their runs
};
FindResult findSmallest(const SweepSpec& spec, const Catalog& catalog,
                        const LoadOptions& loadOptions, const SweepOptions& options,
                        const ProgressFn& progress = {}, std::stop_token stop = {});

}  // namespace gpuplan
