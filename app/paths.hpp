// Where gpuplan finds its presets and the shared reference data, installed or in a checkout.
#pragma once

#include <filesystem>
#include <vector>

namespace gpuplan::paths {

/// GPUPLAN_PRESETS_DIR, else <exe>/../share/gpuplan/presets (installed), else the source tree.
std::filesystem::path presetsDir();
/// presetsDir()/catalog/catalog.json
std::filesystem::path catalogFile();
/// Folders searched for trace files: GPUPLAN_DATA_DIR (':'-separated), then the checkout's
/// ../shared/data, then ./../shared/data. Only existing folders are returned.
std::vector<std::filesystem::path> dataDirs();

}  // namespace gpuplan::paths
