// How a node group's GPU sharing reads in labels, undo steps and the inspector, and why a GPU
// model refuses it. Qt-free, so the application's pure edit functions use the same words.
#pragma once

#include <string>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan::ui {

/// "whole GPUs", "MPS (48 clients)", "MPS (8 clients, cap 25 %, 10 GB)", "time-slicing (4
/// replicas)", "MIG 3g.40gb+2g.20gb+2×1g.10gb". A MIG layout is read with `gpu`'s geometry and
/// listed largest profile first, repeats counted; without `gpu`, or when its geometry refuses the
/// layout, it is shown as written.
std::string sharingSummary(const GpuSharingDef& sharing, const GpuModel* gpu);

/// Why GPUs of model `gpu` cannot be shared as `sharing` (a GPU without MIG, a layout its
/// MIG geometry refuses, with the reason), or "" when they can.
std::string sharingRefusal(const GpuSharingDef& sharing, const GpuModel& gpu);

}  // namespace gpuplan::ui
