// Shared by gpuplan-cli fill and study: reading the openb lists with exit-2 errors.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "gpuplan/fragmentation/fill.hpp"

namespace gpuplan::cli {

/// Reads a node list; throws InputError (file, line, what) for a bad one, and also for a list
/// the fill cannot use (no GPU node, or a GPU node the fleet refuses).
std::vector<OpenbNode> loadFillNodes(const std::filesystem::path& file);
/// Reads a pod list; throws InputError for a bad one.
std::vector<OpenbPod> loadFillPods(const std::filesystem::path& file);

/// The value of --tune: a number from 0 to 10 (0 = no resampling).
double tuneValue(Args& args);

/// A number for JSON: fixed with `decimals`, or null when not finite.
std::string jsonNumber(double v, int decimals);

}  // namespace gpuplan::cli
