// Scenario, catalog and trace files: strict reading with errors that name the file, the
// place (JSON pointer, or line for CSV) and what is wrong; canonical, atomic writing.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/sim/run_cost.hpp"

namespace gpuplan {

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
/// Writes like writeFileAtomic (gpuplan/io/text_files.hpp): a crash never leaves a
/// half-written scenario. Throws std::runtime_error.
void saveScenarioAtomic(const Scenario& scenario, const std::filesystem::path& file);

}  // namespace gpuplan
