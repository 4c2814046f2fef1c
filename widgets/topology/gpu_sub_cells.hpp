// How one GPU's cell in the topology is divided among the jobs on it: one rule for painting,
// hit testing, tooltips and selection, so what the user points at is what was drawn.
#pragma once

#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// A stripe of a GPU's cell, in fractions of the cell's width: [x0, x1).
struct GpuSubCell {
    double x0 = 0, x1 = 1;
    int job = -1;  ///< −1: free capacity
    int milliGpu = 1000;
    bool uncut = false;  ///< MIG memory slices in no instance (nothing can use them)
};

/// The stripes of GPU `gpu` (index into the snapshot's GPUs) on `node`, left to right, into
/// `out` (cleared first; reused so painting allocates nothing per GPU).
/// - Whole mode: one stripe, the job holding it or free.
/// - MPS and time-slicing: each occupant a stripe as wide as its share (milli-GPU ÷ 1000; a
///   time-slicing replica is 1000 ÷ replicas), in job order, then the free rest.
/// - MIG: each instance where it sits on the GPU's 8 memory slices (start ÷ 8 to its end),
///   held or free; slices in no instance are an uncut stripe.
/// A share that would be narrower than `minWidth` of the cell is widened to it (the free rest
/// shrinks), so 48 MPS clients stay visible; shares never overflow the cell.
void gpuSubCells(const ClusterSnapshot& snapshot, int gpu, std::vector<GpuSubCell>& out,
                 double minWidth = 0.04);

/// The job drawn at `cellX` (0..1 across the cell), −1 when that place is free.
int jobAtCellX(const ClusterSnapshot& snapshot, int gpu, double cellX);

/// GPU-equivalents held on GPU `gpu`: 1 for a whole hold, the sum of shares otherwise,
/// capped at 1 (time-slicing replicas are counted by the replica's share).
double heldGpuEquivalents(const ClusterSnapshot& snapshot, int gpu);

}  // namespace gpuplan::ui
