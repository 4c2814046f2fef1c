// Output paths of gpuplan-cli, checked before the run: a bad --out or --csv is reported at
// once (exit 2), not after a long simulation.
#pragma once

#include <filesystem>
#include <string>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::cli {

struct CommonOptions;

/// Throws OutputError unless writeFileAtomic can write `file`: a non-empty path that is not a
/// folder, in an existing folder this process may create files in.
void checkOutputFile(const std::string& flag, const std::filesystem::path& file);

/// Creates `folder` (with its parents) when missing; throws OutputError unless it then is a
/// folder this process may create files in.
void prepareOutputFolder(const std::string& flag, const std::filesystem::path& folder);

/// A scenario an import made, written to `out` as `validate` would accept it: trace files
/// made relative to its folder, checked (a refusal names `out` "(not written)"), written
/// atomically. Returns what was written.
Scenario saveImportedScenario(const Scenario& scenario, const std::filesystem::path& out,
                              const CommonOptions& common, const Catalog& catalog);

}  // namespace gpuplan::cli
