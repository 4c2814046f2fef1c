#include "gpu_sub_cells.hpp"

#include <algorithm>

#include "gpuplan/core/gpu_units.hpp"

namespace gpuplan::ui {

void gpuSubCells(const ClusterSnapshot& snapshot, int gpu, std::vector<GpuSubCell>& out,
                 double minWidth) {
    out.clear();
    const auto occupants = snapshot.occupantsOf(gpu);
    if (!snapshot.migLayouts.empty() && snapshot.migLayouts[gpu]) {
        const MigLayout& layout = *snapshot.migLayouts[gpu];
        constexpr double kSlice = 1.0 / MigLayout::kMemorySlices;
        int slot = 0;
        auto uncutUpTo = [&](int end) {
            if (end > slot) out.push_back({slot * kSlice, end * kSlice, -1, 0, true});
        };
        for (int i = 0; i < layout.size(); ++i) {
            const MigInstance& instance = layout[i];
            const MigProfile profile = layout.profileOf(instance);
            uncutUpTo(instance.start);
            int job = -1;
            for (const GpuOccupant& o : occupants)
                if (o.migInstance == i) job = static_cast<int>(o.job);
            const int end = instance.start + profile.memorySlices;
            out.push_back({instance.start * kSlice, end * kSlice, job,
                           milliGpuOfMigSlices(profile.computeSlices)});
            slot = end;
        }
        uncutUpTo(MigLayout::kMemorySlices);
        return;
    }
    if (occupants.empty()) {
        out.push_back({0, 1, -1, 1000});
        return;
    }
    if (occupants.size() == 1 && occupants.front().milliGpu >= 1000) {
        out.push_back({0, 1, static_cast<int>(occupants.front().job), 1000});
        return;
    }
    // Shares in job order (the snapshot's order), each at least minWidth wide.
    double total = 0;
    for (const GpuOccupant& o : occupants)
        total += std::max(o.milliGpu / 1000.0, minWidth);
    const double scale = total > 1 ? 1 / total : 1;
    double x = 0;
    for (const GpuOccupant& o : occupants) {
        const double w = std::max(o.milliGpu / 1000.0, minWidth) * scale;
        out.push_back({x, std::min(1.0, x + w), static_cast<int>(o.job), o.milliGpu});
        x += w;
    }
    if (x < 1 - 1e-9) out.push_back({x, 1, -1, std::max(0, 1000 - snapshot.usedMilli(gpu))});
}

int jobAtCellX(const ClusterSnapshot& snapshot, int gpu, double cellX) {
    std::vector<GpuSubCell> cells;
    gpuSubCells(snapshot, gpu, cells);
    for (const GpuSubCell& c : cells)
        if (cellX >= c.x0 && cellX < c.x1) return c.job;
    return cells.empty() ? -1 : cells.back().job;  // cellX = 1: the right edge
}

double heldGpuEquivalents(const ClusterSnapshot& snapshot, int gpu) {
    return std::min(1.0, snapshot.usedMilli(gpu) / 1000.0);
}

}  // namespace gpuplan::ui
