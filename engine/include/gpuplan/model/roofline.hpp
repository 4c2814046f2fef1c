// What a job's arithmetic does on a GPU: how much faster FP8 makes it, and the ceiling the
// roofline puts on its MFU (lessons 1.1 and 1.2).
//
// Precision. FP8 tensor cores do twice the dense FLOPs of BF16 on every GPU that has them
// (vendor datasheets, dense: 1,979 vs 989 TFLOP/s on an H100 or H200, 733 vs 362 on an L40S,
// 2,615 vs 1,307 on an MI300X), and an FP8 operand is half a BF16 one's bytes, so a matmul
// runs twice as fast whichever roof binds it. Only the matmuls change (Amdahl): a job that
// spends m of its BF16 step in them runs
//     speedup = 1 / ((1 − m) + m / 2)
// times as fast in FP8: 2 when m = 1, 1.54 when m = 0.7. The same model FLOPs in less time:
// its MFU against the BF16 peak rises by the same factor (and can pass 100 %, which is why
// FP8 runs are quoted against the FP8 peak: there the same run reads speedup ÷ 2 of it).
//
// Bandwidth. A kernel that does I model FLOPs per byte of HBM traffic cannot compute faster
// than the memory feeds it: attainable = min(peak, I × bandwidth). In TFLOP/s, I × TB/s. So
// its MFU is at most
//     ceiling = min(1, I × hbmTbps ÷ bf16DenseTflops)
// (the ridge point of an H100 SXM is 989 ÷ 3.35 = 295 FLOP/B; LLM decode at batch b does
// about b FLOPs per byte of BF16 weights, so batch 16 reaches 16 × 3.35 = 54 TFLOP/s, 5.4 %).
// A job's mfu is its efficiency below that ceiling: its MFU is mfu × ceiling. Its SMs stay
// busy waiting on memory (SM activity is unchanged), and its duration, measured on the
// fleet, already includes it: a stated duration is not re-derived from the ceiling.
#pragma once

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

/// FP8 ÷ BF16 dense tensor FLOP/s (and BF16 ÷ FP8 bytes per operand) on a GPU with FP8.
inline constexpr double kFp8OverBf16 = 2.0;

/// How many times as fast a job's work goes in `precision` than in BF16 (1 for BF16), with
/// matmulShare of its BF16 step in matrix multiplies.
double precisionSpeedup(Precision precision, double matmulShare);
inline double precisionSpeedup(const JobTraitsDef& traits) {
    return precisionSpeedup(traits.precision, traits.matmulShare);
}

/// Does the GPU have FP8 tensor cores?
inline bool hasFp8(const GpuModel& gpu) {
    return gpu.fp8DenseTflops.has_value();
}

/// The share of `gpu`'s dense BF16 peak that kernels of `flopsPerByte` can reach (1 when it
/// is 0, compute-bound, or when the catalog lacks the GPU's bandwidth or peak).
double mfuCeiling(double flopsPerByte, const GpuModel& gpu);

}  // namespace gpuplan
