#pragma once
// GPU-equivalents, the one rule for counting what a pod asks or holds as GPUs: a whole GPU is
// 1, a share its milli-GPU ÷ 1000, a MIG instance its compute slices ÷ 7. Allocation, quotas,
// costs, pending demand and the invariant checks all count with these functions.
#include <cstdint>

namespace gpuplan {

/// Exact GPU-equivalents are counted in units of 1/7000 GPU, the least common multiple of a MIG
/// compute slice (1/7) and a milli-GPU (1/1000): sums of instances and shares stay exact, and
/// one division makes them GPUs (allocated and pending GPUs, quotas).
inline constexpr std::int64_t kGpuUnitsPerGpu = 7000;
inline constexpr int kMilliGpuPerGpu = 1000;
inline constexpr int kMigComputeSlicesPerGpu = 7;

constexpr std::int64_t unitsOfWholeGpus(std::int64_t gpus) {
    return gpus * kGpuUnitsPerGpu;
}
constexpr std::int64_t unitsOfMilliGpu(std::int64_t milliGpu) {
    return milliGpu * (kGpuUnitsPerGpu / kMilliGpuPerGpu);
}
constexpr std::int64_t unitsOfMigSlices(std::int64_t computeSlices) {
    return computeSlices * (kGpuUnitsPerGpu / kMigComputeSlicesPerGpu);
}
/// Units as GPUs: one division of an exact sum (2/7 of a GPU is the double nearest 2/7).
constexpr double gpusOfUnits(std::int64_t units) {
    return static_cast<double>(units) / kGpuUnitsPerGpu;
}

/// A MIG instance's compute slices as milli-GPU, to the nearest (1g: 1000/7 = 142.86 → 143),
/// for demand shown before the instance is placed. Remainders are sevenths, so adding 3/7
/// rounds half up; migSlicesOfMilliGpu turns it back into the slices exactly.
constexpr int milliGpuOfMigSlices(int computeSlices) {
    return (computeSlices * kMilliGpuPerGpu + 3) / kMigComputeSlicesPerGpu;
}
constexpr int migSlicesOfMilliGpu(int milliGpu) {
    return (milliGpu * kMigComputeSlicesPerGpu + kMilliGpuPerGpu / 2) / kMilliGpuPerGpu;
}
static_assert(milliGpuOfMigSlices(1) == 143 && milliGpuOfMigSlices(3) == 429 &&
              milliGpuOfMigSlices(7) == 1000);
static_assert(migSlicesOfMilliGpu(milliGpuOfMigSlices(1)) == 1 &&
              migSlicesOfMilliGpu(milliGpuOfMigSlices(4)) == 4 &&
              migSlicesOfMilliGpu(milliGpuOfMigSlices(6)) == 6);

}  // namespace gpuplan
