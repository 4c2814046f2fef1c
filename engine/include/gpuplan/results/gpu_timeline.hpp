// Every GPU's holds over time, for drawing a timeline row and for the cluster at any time t
// by a lookup per GPU rather than a scan of every binding (Results::gpuTimeline).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gpuplan {

struct RunSegment;
struct PodPlacement;

/// One binding's hold on one GPU, [startS, endS) of Results::segments[segment].
struct GpuInterval {
    double startS = 0;
    double endS = 0;
    std::uint32_t segment = 0;
    std::uint16_t milliGpu = 1000;    ///< PodPlacement's: 1000 whole, a share's milli-GPU
    std::uint8_t migInstance = 0xFF;  ///< PodPlacement::kNoMig, or its MIG instance
    /// Row within the GPU where holds overlap (shares, MIG instances): the lowest one free at
    /// startS. Every lane's intervals are disjoint, so they nest in a trace viewer.
    std::uint8_t lane = 0;
};
static_assert(sizeof(GpuInterval) == 24);

class GpuTimeline {
public:
    GpuTimeline() = default;
    /// From bindings in bind order (their start times never decrease). GPUs are numbered as
    /// Results::firstGpuOfNode numbers them; `gpuCount` is the fleet's.
    GpuTimeline(std::span<const RunSegment> segments, std::span<const PodPlacement> placements,
                std::span<const int> firstGpuOfNode, std::size_t gpuCount);

    std::size_t gpuCount() const { return m_begin.empty() ? 0 : m_begin.size() - 1; }
    std::size_t intervalCount() const { return m_intervals.size(); }
    /// The GPU's holds, by start time.
    std::span<const GpuInterval> intervalsOf(std::size_t gpu) const {
        return {m_intervals.data() + m_begin[gpu], m_begin[gpu + 1] - m_begin[gpu]};
    }
    /// Rows the GPU's holds need so that none overlaps another in its row (1 for a GPU held
    /// whole, or never held).
    int lanesOf(std::size_t gpu) const { return m_lanes[gpu]; }
    /// A run of the GPU's holds holding every one that overlaps [fromS, toS] (start ≤ toS,
    /// end > fromS), by start; on a shared GPU it may also hold a few that ended before fromS.
    std::span<const GpuInterval> candidatesIn(std::size_t gpu, double fromS, double toS) const;
    /// Calls f(interval) for each hold of the GPU at timeS (start ≤ t < end), by start.
    template <class F>
    void forEachAt(std::size_t gpu, double timeS, F&& f) const {
        for (const GpuInterval& i : candidatesIn(gpu, timeS, timeS))
            if (i.endS > timeS) f(i);
    }

private:
    std::vector<std::uint32_t> m_begin;  ///< per GPU + 1, into m_intervals
    std::vector<GpuInterval> m_intervals;
    /// Per GPU, its longest hold: a hold overlapping t started after t − this.
    std::vector<double> m_longestS;
    std::vector<std::uint8_t> m_lanes;
};

}  // namespace gpuplan
