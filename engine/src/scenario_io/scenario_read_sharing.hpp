// Reading a node group's "sharing" (GpuSharingDef): the mode and its settings, and a MIG
// layout (one for every GPU, or one per GPU) checked against the GPU's real geometry.
#pragma once

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

/// The sharing of a group of node type `type`; fails (InputError) at the pointer of what is
/// wrong: a key of another mode, a MIG layout the GPU cannot hold, per-GPU layouts whose
/// counts do not add up to the type's GPUs.
GpuSharingDef readSharing(const JsonNode& node, const NodeType& type, const Catalog& catalog);

}  // namespace gpuplan::detail
