// Shared pieces of gpuplan-cli: argument walking, loading, exit codes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/import/fleet_import.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/studies/replications.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace gpuplan::cli {

enum ExitCode { kOk = 0, kInternalError = 1, kBadInput = 2 };

/// Raised for bad command lines; main prints it with the command's usage and exits 2.
struct UsageError {
    std::string message;
};

/// Raised for an output path that cannot be written; main prints it without the usage, exit 2.
struct OutputError {
    std::string message;
};

/// Options every command accepts.
struct CommonOptions {
    std::optional<std::filesystem::path> presetsDir;
    std::optional<std::filesystem::path> catalogFile;
    std::vector<std::filesystem::path> dataDirs;
    RunBudget budget;  ///< --budget-gb, --budget-ops
    /// --pricebook: a price book whose prices replace the scenario's pricing (a name alone
    /// is looked for in PRESETS/pricebooks).
    std::optional<std::filesystem::path> priceBook;
};

/// Argument cursor. Options match by their exact name, as `--out FILE` or `--out=FILE`
/// (`--outx` is an unknown option, not --out); every command walks its arguments with it.
class Args {
public:
    Args(int argc, char** argv, int first);
    bool done() const { return m_index >= m_args.size(); }
    const std::string& peek() const { return m_args[m_index]; }
    std::string take() { return m_args[m_index++]; }
    /// True when the current argument is `flag` or `flag=VALUE`: the one matching rule.
    bool at(std::string_view flag) const;
    /// The value after a flag ("--out FILE" or "--out=FILE").
    std::string value(const std::string& flag);
    /// A flag without a value (--json); "--json=yes" is an error.
    void flag(const std::string& flag);
    /// The value of an integer flag, a whole number in [min, max] (no sign, no exponent).
    std::uint64_t integer(const std::string& flag, std::uint64_t min, std::uint64_t max);
    /// "NAME=VALUE" of a repeatable option (--flavor NAME=MODEL), both sides non-empty.
    std::pair<std::string, std::string> assignment(const std::string& flag);
    /// The value of a real-number flag, above 0 and at most `max`.
    double positiveNumber(const std::string& flag, double max);
    /// True when the current argument is one of the common options (consumed into `common`).
    bool common(CommonOptions& common);
    /// Takes the current argument as the scenario file: "unknown option" when it looks like an
    /// option, "more than one scenario" when `scenario` is already set.
    void scenario(std::optional<std::filesystem::path>& scenario);
    /// Throws "unknown option X" (or "unexpected argument X" when it is not an option).
    [[noreturn]] void unknown() const;

private:
    bool atOption() const;
    std::vector<std::string> m_args;
    std::size_t m_index = 0;
};

/// `text` as an unsigned decimal integer when it is one whole (digits only, no sign, no
/// spaces, no exponent, no overflow), else nullopt.
std::optional<std::uint64_t> parseUnsigned(std::string_view text);

Catalog loadCatalogFor(const CommonOptions& common);
/// Loads, with trace files searched in --data-dir folders, then GPUPLAN_DATA_DIR and the
/// presets' data folder.
Scenario loadScenarioFor(const std::filesystem::path& file, const CommonOptions& common);
/// The run budget holds for `replications` runs of the scenario, a count given on the command
/// line instead of the file's "replications" (which the reader checked): refused as the
/// reader would, naming the option.
void checkReplicationsBudget(const Scenario& scenario, int replications,
                             const std::filesystem::path& file, const CommonOptions& c);
/// Data folders (--data-dir, then the installed ones) and the run budget.
LoadOptions loadOptionsFor(const CommonOptions& common);
std::filesystem::path presetsDirFor(const CommonOptions& common);

/// A progress bar on stderr with the runs done and the time left, on a terminal only
/// (else no function).
ProgressFn progressBar(std::size_t runs);
/// A file's bytes as 16 hex digits (FNV-1a: gpuplan::stableHash), for what shards depend on.
std::string fnv64(std::string_view bytes);
/// fnv64 of the catalog file the command reads.
std::string catalogFnv64(const CommonOptions& common);
/// --shard K/N: 1 <= K <= N <= 100000.
Shard parseShard(const std::string& text);

/// "45.0 s", "12.5 min", "3.20 h": for tables.
std::string formatSeconds(double seconds);
/// A KPI's value for a table, by its unit: "75.20 %", "5.10 min", "12", "3.000 gpus"; "-"
/// when not finite.
std::string formatKpi(double value, const std::string& unit);

int runCommand(Args& args);
int whyCommand(Args& args);
int validateCommand(Args& args);
int benchCommand(Args& args);
int fillCommand(Args& args);
int studyCommand(Args& args);
int importKueueCommand(Args& args);
int importK8sCommand(Args& args);
int lessonCommand(Args& args);
int forecastCommand(Args& args);
/// Checks an imported fleet's scenario as `validate` would, writes it atomically to `out`
/// and prints the import's summary.
int writeImportedScenario(const ImportedScenario& imported, const std::filesystem::path& out,
                          const CommonOptions& common, const Catalog& catalog);
int importSlurmCommand(Args& args);
int mixCommand(Args& args);
int traceCommand(Args& args);
int compareCommand(Args& args);
int sweepCommand(Args& args);
int planCommand(Args& args);
/// report: the planning-meeting PDF (exit 2 when built without the application).
int reportCommand(Args& args);
/// run --replications: the replications' table, --out JSON and --csv files.
int runReplicated(const Scenario& scenario, const std::filesystem::path& scenarioFile,
                  const ReplicationOptions& options,
                  const std::optional<std::filesystem::path>& outFile,
                  const std::optional<std::filesystem::path>& csvDir);

extern const char* const kRunUsage;
extern const char* const kValidateUsage;
extern const char* const kWhyUsage;
extern const char* const kBenchUsage;
extern const char* const kFillUsage;
extern const char* const kStudyUsage;
extern const char* const kImportKueueUsage;
extern const char* const kImportK8sUsage;
extern const char* const kLessonUsage;
extern const char* const kForecastUsage;
extern const char* const kImportSlurmUsage;
extern const char* const kMixUsage;
extern const char* const kTraceUsage;
extern const char* const kCompareUsage;
extern const char* const kSweepUsage;
extern const char* const kPlanUsage;
extern const char* const kReportUsage;

}  // namespace gpuplan::cli
