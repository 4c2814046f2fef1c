// gpuplan-cli run --replications and gpuplan-cli compare: KPIs as means with their 95 %
// confidence intervals, and paired differences on common random numbers
// (gpuplan/studies/replications.hpp).
#include <unistd.h>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/export/results_io.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::cli {

const char* const kCompareUsage =
    "usage: gpuplan-cli compare BASELINE CANDIDATE [--replications N] [--threads K]\n"
    "\n"
    "Runs both scenarios on the same N seeds (derived from BASELINE's; common random\n"
    "numbers, so the noise they share cancels) and prints, per KPI, both means and the\n"
    "difference CANDIDATE - BASELINE with its 95 % confidence interval (Student t over the\n"
    "N paired differences). \"significant\" means the interval holds no 0; otherwise the\n"
    "difference may be noise.\n"
    "  --replications N  seeds to run (2 to 10000, default 10)\n"
    "  --threads K       threads (default: every core); the answer does not depend on it\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

namespace {

/// "[63.81 %, 81.68 %]", or "-" without an interval (fewer than two runs).
std::string intervalText(const MeanInterval& m, const std::string& unit) {
    if (!std::isfinite(m.low)) return "-";
    return "[" + formatKpi(m.low, unit) + ", " + formatKpi(m.high, unit) + "]";
}

/// A progress line on a terminal; nothing in a log.
ProgressFn progressLine() {
    if (!isatty(fileno(stderr))) return {};
    return [](double fraction) {
        std::fprintf(stderr, "\r%3.0f %% of the runs done", 100 * fraction);
        if (fraction >= 1) std::fputc('\n', stderr);
    };
}

}  // namespace

int runReplicated(const Scenario& scenario, const std::filesystem::path& scenarioFile,
                  const ReplicationOptions& options,
                  const std::optional<std::filesystem::path>& outFile,
                  const std::optional<std::filesystem::path>& csvDir) {
    const auto start = std::chrono::steady_clock::now();
    const Replications r = runReplications(scenario, options, progressLine());
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s — %d replications (seeds from %llu) in %.3f s\n",
                scenario.name.empty() ? scenarioFile.filename().c_str() : scenario.name.c_str(),
                r.count, static_cast<unsigned long long>(scenario.seed), wallS);
    std::printf("%-26s %-14s %-14s %-31s %s\n", "kpi", "mean", "± (95 %)", "95 % interval",
                "what it measures");
    for (const KpiEstimate& k : r.kpis) {
        const MeanInterval& m = k.interval;
        const std::string interval = intervalText(m, k.unit);
        std::printf("%-26s %-14s %-14s %-31s %s\n", k.name.c_str(),
                    formatKpi(m.mean, k.unit).c_str(),
                    std::isfinite(m.low) ? formatKpi(m.halfWidth(), k.unit).c_str() : "-",
                    interval.c_str(), k.description.c_str());
    }
    if (outFile) writeFileAtomic(*outFile, replicationsToJson(r));
    if (csvDir) {
        writeResultsCsv(*r.first, *csvDir);  // replication 0 in full, as a plain run writes
        writeReplicationsCsv(r, *csvDir);
    }
    return kOk;
}

int compareCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> baselineFile, candidateFile;
    ReplicationOptions options;
    options.replications = 10;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--replications")) {
            options.replications = static_cast<int>(args.integer("--replications", 2, 10000));
        } else if (args.at("--threads")) {
            options.threads = static_cast<int>(args.integer("--threads", 1, 1024));
        } else if (!baselineFile) {
            args.scenario(baselineFile);
        } else {
            args.scenario(candidateFile);
        }
    }
    if (!baselineFile || !candidateFile) throw UsageError{"compare needs two scenarios"};
    const Scenario baseline = loadScenarioFor(*baselineFile, common);
    const Scenario candidate = loadScenarioFor(*candidateFile, common);
    checkReplicationsBudget(baseline, options.replications, *baselineFile, common);
    checkReplicationsBudget(candidate, options.replications, *candidateFile, common);
    const PairedComparison c = comparePaired(baseline, candidate, options, progressLine());
    std::printf("%s → %s, %d paired replications (common seeds from %llu)\n",
                baselineFile->filename().c_str(), candidateFile->filename().c_str(),
                options.replications, static_cast<unsigned long long>(baseline.seed));
    std::printf("%-26s %-14s %-14s %-14s %-31s %s\n", "kpi", "baseline", "candidate", "difference",
                "95 % interval of it", "");
    for (const KpiDifference& d : c.kpis) {
        const MeanInterval& m = d.difference;
        const std::string interval = intervalText(m, d.unit);
        std::printf("%-26s %-14s %-14s %-14s %-31s %s\n", d.name.c_str(),
                    formatKpi(d.baseline.mean, d.unit).c_str(),
                    formatKpi(d.candidate.mean, d.unit).c_str(), formatKpi(m.mean, d.unit).c_str(),
                    interval.c_str(), d.significant() ? "significant" : "");
    }
    return kOk;
}

}  // namespace gpuplan::cli
