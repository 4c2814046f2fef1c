// Scenario, catalog and trace files: strict reading with errors that name the file, the
// place (JSON pointer, or line for CSV) and what is wrong; canonical, atomic writing.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.hpp"
#include "gpuplan/run_cost.hpp"
#include "gpuplan/scenario.hpp"

namespace gpuplan {

struct OpenbPod;  // gpuplan/openb.hpp

/// A rejected input. what() reads "file: /json/pointer: message" (or "file:line: message").
/// File, place and message are kept escaped (control characters as \u00XX, bytes that are not
/// UTF-8 as \xXX): text from a file, a NUL included, never cuts or garbles a message.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string place, std::string message);
    const std::string& file() const { return m_file; }
    const std::string& place() const { return m_place; }
    const std::string& message() const { return m_message; }

private:
    std::string m_file, m_place, m_message;
};

/// Bounds that keep a hostile file from exhausting memory or time.
struct InputLimits {
    static constexpr std::uintmax_t maxFileBytes = 64ull << 20;
    static constexpr int maxJsonDepth = 64;
    static constexpr long long maxNodes = 200'000;
    static constexpr long long maxGpus = 1'000'000;
    static constexpr long long maxJobsPerClass = 5'000'000;
    static constexpr long long maxJobs = 10'000'000;
    static constexpr double maxHorizonS = 3 * 366 * 86400.0;
    static constexpr long long maxSamples = 1'000'000;
    /// Σ over node events of the nodes each one changes (a pod-wide event counts them all).
    static constexpr long long maxNodeEventNodes = 2'000'000;
};

struct LoadOptions {
    /// Folders searched, after the scenario's own folder, for relative trace files.
    std::vector<std::filesystem::path> dataDirs;
    /// Read trace files (off: keep only their specs, e.g. for a quick validation).
    bool loadTraces = true;
    /// A node list already read, used when the scenario names its file instead of reading it
    /// again (validateScenario passes the scenario's own, so an in-app edit reads no file).
    std::shared_ptr<const NodeListData> preloadedNodeList;
    /// A scenario whose run would exceed this (estimateRunCost) is refused.
    RunBudget budget;
};

Catalog loadCatalog(const std::filesystem::path& file);
Catalog parseCatalog(std::string_view text, const std::string& sourceName);

Scenario loadScenario(const std::filesystem::path& file, const Catalog& catalog,
                      const LoadOptions& options = {});
/// `baseDir` resolves relative trace files; `sourceName` appears in error messages.
Scenario parseScenario(std::string_view text, const std::string& sourceName, const Catalog& catalog,
                       const LoadOptions& options = {}, const std::filesystem::path& baseDir = {});

/// Checks a scenario built in code (or edited in the app) by the same rules the reader uses,
/// by writing and re-reading it, the run budget included. Throws InputError.
void validateScenario(const Scenario& scenario, const Catalog& catalog,
                      const RunBudget& budget = {});

/// The scenario as it should be written into `folder`: trace files that were found next to
/// the scenario's old file get a path relative to the new folder (or absolute), so the saved
/// copy opens again. Traces found through the data folders keep their data-relative path.
Scenario rebaseTraces(const Scenario& scenario, const std::filesystem::path& folder,
                      const std::vector<std::filesystem::path>& dataDirs);

/// Canonical JSON: every field that differs from its default, stable key order.
std::string scenarioToJson(const Scenario& scenario);
/// Writes to a temporary file in the same folder, flushes it to disk and renames it over
/// `file`, so a crash never leaves a half-written scenario. Throws std::runtime_error.
void saveScenarioAtomic(const Scenario& scenario, const std::filesystem::path& file);
/// The same for any text (used for results and exports).
void writeFileAtomic(const std::filesystem::path& file, std::string_view text);

/// Reads a Philly-format CSV (timestamp,duration,num_gpus,gpu_time,cluster).
std::shared_ptr<const TraceData> readPhillyTrace(const std::filesystem::path& file);
std::shared_ptr<const TraceData> parsePhillyTrace(std::string_view text,
                                                  const std::string& sourceName);

/// An openb pod list replayed in time (TraceFormat::Openb; the rules are in trace_openb.cpp):
/// a job per GPU pod, CPU-only pods and pods without times counted and left out. Throws
/// InputError naming the file and line (or pod) when the list is malformed or has no pod to
/// replay.
std::shared_ptr<const TraceData> readOpenbTrace(const std::filesystem::path& file);
std::shared_ptr<const TraceData> parseOpenbTrace(std::string_view text,
                                                 const std::string& sourceName);
std::shared_ptr<const TraceData> openbTraceData(const std::vector<OpenbPod>& pods,
                                                const std::string& sourceName);

/// What a replay of the trace leaves out or reads simplified, in a sentence ("7,064 GPU pods
/// replayed (861 never scheduled: from creation to deletion); left out: 1,088 CPU-only
/// pods"); empty for a trace whose rows are all replayed as they are (Philly).
std::string describeTraceRows(const TraceData& data);

/// Reads a whole regular file (a symbolic link to one is fine), refusing anything over
/// InputLimits::maxFileBytes. A folder, device, FIFO or socket is refused before it is opened
/// or read, with what it is; so is a path holding a NUL byte (the system would read the part
/// before it). Throws InputError.
std::string readTextFile(const std::filesystem::path& file);

/// Where a file's name was written: the file naming it and the key's JSON pointer (a trace's
/// "/traces/0/file", a lesson's or a sweep's "/scenario").
struct FileNamedBy {
    std::string file;
    std::string pointer;
};
/// readTextFile for a file another file names: every refusal to read it (not found, a folder,
/// a device, too large) is reported at the key that named it, "NAMING-FILE: /key: FILE: why".
std::string readTextFile(const std::filesystem::path& file, const FileNamedBy& namedBy);

/// The folder holding `file`: "." for a bare file name, whose parent_path() is empty.
std::filesystem::path folderOf(const std::filesystem::path& file);

}  // namespace gpuplan
