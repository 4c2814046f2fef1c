// Which catalog GPU model a GPU type name denotes (a Slurm GRES type, a trace's type): one
// rule for the Slurm import, the sacct trace reader and the workload.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

/// A GPU type name as compared: lower case, '_' and ' ' read as '-'.
std::string gpuTypeKey(std::string_view name);

/// The model among `models` a GPU type names: the TYPE → MODEL mapping `typeModels` first
/// (a mapped model not among `models` gives empty), then the model whose id, name or a
/// product label equals it by gpuTypeKey (a product label also without its "NVIDIA-":
/// nvml's `nvidia_h100_80gb_hbm3`, `a100-sxm4-40gb`). Empty when none or several match.
std::string gpuModelNamedBy(std::string_view type, std::span<const GpuModel> models,
                            std::span<const std::pair<std::string, std::string>> typeModels);

/// The GPU model each GPU type a sacct trace's jobs ask (TraceData::gpuModels, in order)
/// names among `models`: the trace's own gpuTypes first, then gpuModelNamedBy's rule; empty
/// where none or several match. The scenario reader resolves over the catalog and refuses an
/// empty one; the workload over the fleet's models, which then hold each resolved model (a
/// type one catalog model matches matches it alone among any models that include it).
std::vector<std::string> sacctTypeModels(const TraceDef& trace, std::span<const GpuModel> models);

}  // namespace gpuplan
