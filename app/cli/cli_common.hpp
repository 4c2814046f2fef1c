// Shared pieces of gpuplan-cli: argument walking, loading, exit codes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/scenario.hpp"

namespace gpuplan::cli {

enum ExitCode { kOk = 0, kInternalError = 1, kBadInput = 2 };

/// Raised for bad command lines; main prints it with the command's usage and exits 2.
struct UsageError {
    std::string message;
};

/// Options every command accepts.
struct CommonOptions {
    std::optional<std::filesystem::path> presetsDir;
    std::optional<std::filesystem::path> catalogFile;
    std::vector<std::filesystem::path> dataDirs;
};

/// Minimal argument cursor: flags with values, positionals, --help.
class Args {
public:
    Args(int argc, char** argv, int first);
    bool done() const { return m_index >= m_args.size(); }
    const std::string& peek() const { return m_args[m_index]; }
    std::string take() { return m_args[m_index++]; }
    /// The value after a flag ("--out FILE" or "--out=FILE").
    std::string value(const std::string& flag);
    /// True when the current argument is one of the common options (consumed into `common`).
    bool common(CommonOptions& common);

private:
    std::vector<std::string> m_args;
    std::size_t m_index = 0;
};

Catalog loadCatalogFor(const CommonOptions& common);
/// Loads, with trace files searched in --data-dir folders, then GPUPLAN_DATA_DIR and the
/// checkout's ../shared/data.
Scenario loadScenarioFor(const std::filesystem::path& file, const CommonOptions& common);
std::filesystem::path presetsDirFor(const CommonOptions& common);

/// "45.0 s", "12.5 min", "3.20 h": for tables.
std::string formatSeconds(double seconds);

int runCommand(Args& args);
int whyCommand(Args& args);
int validateCommand(Args& args);
int benchCommand(Args& args);

extern const char* const kRunUsage;
extern const char* const kValidateUsage;
extern const char* const kWhyUsage;
extern const char* const kBenchUsage;

}  // namespace gpuplan::cli
