// Results → JSON and CSV (for gpuplan-cli --out/--csv and the application's exports).
#pragma once

#include <filesystem>
#include <string>

#include "gpuplan/results/results.hpp"

namespace gpuplan {

/// {"kpis": {...}, "kpi_descriptions": {name: "text [unit]"}, "by_team": [...],
/// "by_class": [...], "series": {"time_s": [...], "<metric>": [...]}, "fingerprint": "..."};
/// NaN (e.g. no job started in an interval) is written as null.
std::string resultsToJson(const Results& results);

/// One CSV per series ("time_s,<metric>"), all series in series.csv, and jobs.csv with the
/// per-job records (class, team, requested duration, startup, evictions; for jobs that never
/// started, their layer and reason at the horizon; then the work evictions lost and the
/// checkpoint interval, last so older readers keep their columns). File names replace "{layer}" by
/// "_layer". Writes atomically.
void writeResultsCsv(const Results& results, const std::filesystem::path& folder);

struct Replications;

/// Replications' results: {"replications": N, "confidence", "kpis": {name: mean},
/// "kpis_ci95": {name: [low, high]}, "kpi_descriptions", "series": {"time_s", name: means},
/// "series_ci95": {name: {"low", "high"}}, "runs": [{"seed", "fingerprint"}]}.
std::string replicationsToJson(const Replications& replications);

/// kpis_ci95.csv (kpi, unit, mean, ci95_low, ci95_high, n) and replications.csv (one row
/// per run: replication, seed, fingerprint, every KPI). Writes atomically.
void writeReplicationsCsv(const Replications& replications, const std::filesystem::path& folder);

/// "pending_gpus{workload}" → "pending_gpus_workload".
std::string seriesFileStem(const std::string& metric);

}  // namespace gpuplan
