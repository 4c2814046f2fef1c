// What one pod holds on one node: the resource book's unit, read by placement, quotas, costs
// and every view.
#pragma once

#include <bit>
#include <cstdint>

#include "gpuplan/core/gpu_units.hpp"
#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan {

/// What a pod holds of a GPU: whole GPUs, a share of one (MPS or time-slicing), or one MIG
/// instance. Computed once (JobSpec::holdKind, PlacementRequest::holdKind,
/// PodPlacement::holdKind) and switched on; the engine builds with -Werror=switch, so a new
/// kind cannot be forgotten in a switch.
enum class HoldKind : std::uint8_t { Whole, Share, Mig };

/// What one pod holds on one node: the GPU slots in `gpuMask`, each whole (milliGpu 1000),
/// or one slot's share (milliGpu < 1000), or one slot's MIG instance (migInstance, its index
/// in the GPU's layout; milliGpu then is its compute slices ÷ 7, rounded, for display). An
/// empty mask is a pod that asked no GPU. The pod's CPU and memory are its job's
/// (JobSpec::cpuMilliPerPod, memoryMiBPerPod). 16 bytes, like a bare mask.
struct PodPlacement {
    static constexpr std::uint8_t kNoMig = 0xFF;
    std::uint32_t node = 0;
    std::uint16_t milliGpu = 1000;
    std::uint8_t migInstance = kNoMig;
    std::uint8_t migComputeSlices = 0;  ///< of 7, for exact GPU-equivalents
    std::uint64_t gpuMask = 0;

    HoldKind holdKind() const {
        return migInstance != kNoMig ? HoldKind::Mig
               : milliGpu < 1000     ? HoldKind::Share
                                     : HoldKind::Whole;
    }
    bool isMig() const { return migInstance != kNoMig; }
    bool isShare() const { return milliGpu < 1000 && !isMig(); }
    bool isWhole() const { return milliGpu >= 1000 && !isMig(); }
    /// GPU-equivalents held, exactly, in units of 1/kGpuUnitsPerGpu GPU: an instance its
    /// compute slices × 1000, each GPU slot its milli-GPU × 7. The one rule for charging.
    std::int64_t gpuUnits() const {
        switch (holdKind()) {
            case HoldKind::Mig:
                return unitsOfMigSlices(migComputeSlices);
            case HoldKind::Share:
            case HoldKind::Whole:
                return std::popcount(gpuMask) * unitsOfMilliGpu(milliGpu);
        }
        return 0;
    }
    /// GPU-equivalents held: whole GPUs count 1, a share milli ÷ 1000, an instance slices ÷ 7.
    double gpuEquivalents() const { return gpusOfUnits(gpuUnits()); }
};

}  // namespace gpuplan
