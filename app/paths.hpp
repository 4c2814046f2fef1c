// Where gpuplan finds its presets and the shared reference data, installed or in a checkout.
#pragma once

#include <filesystem>
#include <vector>

namespace gpuplan::paths {

/// GPUPLAN_PRESETS_DIR, else <exe>/../share/gpuplan/presets (installed), else the source tree.
std::filesystem::path presetsDir();
/// presetsDir()/catalog/catalog.json
std::filesystem::path catalogFile();
/// Folders searched for trace files: GPUPLAN_DATA_DIR (':'-separated), then presetsDir()/data
/// (the Philly trace and the openb lists, with their sources). Only existing folders.
std::vector<std::filesystem::path> dataDirs();

}  // namespace gpuplan::paths
