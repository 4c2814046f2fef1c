#include "gpuplan/model/roofline.hpp"

#include <algorithm>

namespace gpuplan {

double precisionSpeedup(Precision precision, double matmulShare) {
    if (precision == Precision::Bf16) return 1;
    return 1 / ((1 - matmulShare) + matmulShare / kFp8OverBf16);
}

double mfuCeiling(double flopsPerByte, const GpuModel& gpu) {
    if (flopsPerByte <= 0 || gpu.hbmTbps <= 0 || gpu.bf16DenseTflops <= 0) return 1;
    return std::min(1.0, flopsPerByte * gpu.hbmTbps / gpu.bf16DenseTflops);
}

}  // namespace gpuplan
