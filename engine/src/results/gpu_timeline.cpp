#include "gpuplan/results/gpu_timeline.hpp"

#include <bit>
#include <limits>

#include "gpuplan/results/results.hpp"

namespace gpuplan {

GpuTimeline::GpuTimeline(std::span<const RunSegment> segments,
                         std::span<const PodPlacement> placements,
                         std::span<const int> firstGpuOfNode, std::size_t gpuCount) {
    const auto podsOf = [&](const RunSegment& seg) {
        return placements.subspan(seg.placementBegin, seg.placementCount);
    };
    // Counting sort by GPU; bindings are visited in bind order, so each GPU's holds come out
    // by start time.
    m_begin.assign(gpuCount + 1, 0);
    for (const RunSegment& seg : segments)
        for (const PodPlacement& pod : podsOf(seg))
            for (std::uint64_t m = pod.gpuMask; m != 0; m &= m - 1)
                ++m_begin[firstGpuOfNode[pod.node] + std::countr_zero(m) + 1];
    for (std::size_t g = 0; g < gpuCount; ++g)
        m_begin[g + 1] += m_begin[g];
    m_intervals.resize(m_begin.back());
    m_longestS.assign(gpuCount, 0);
    m_lanes.assign(gpuCount, 1);
    std::vector<std::uint32_t> next(m_begin.begin(), m_begin.end() - 1);
    // Per GPU, when each of its lanes frees: lane 0 for every GPU, more only where holds
    // overlap (shared GPUs).
    std::vector<double> lane0FreeS(gpuCount, -std::numeric_limits<double>::infinity());
    std::vector<std::vector<double>> moreLanesFreeS(gpuCount);
    for (std::uint32_t s = 0; s < segments.size(); ++s) {
        const RunSegment& seg = segments[s];
        for (const PodPlacement& pod : podsOf(seg))
            for (std::uint64_t m = pod.gpuMask; m != 0; m &= m - 1) {
                const std::size_t gpu = firstGpuOfNode[pod.node] + std::countr_zero(m);
                std::size_t lane = 0;
                if (lane0FreeS[gpu] <= seg.startS) {
                    lane0FreeS[gpu] = seg.endS;
                } else {
                    std::vector<double>& more = moreLanesFreeS[gpu];
                    while (lane < more.size() && more[lane] > seg.startS)
                        ++lane;
                    if (lane == more.size()) more.push_back(0);
                    more[lane++] = seg.endS;
                }
                // A GPU has at most 64 holders at once (time-slice replicas); saturate anyway.
                const auto lane8 = static_cast<std::uint8_t>(std::min<std::size_t>(lane, 255));
                m_lanes[gpu] = std::max<std::uint8_t>(m_lanes[gpu], lane8 + 1);
                m_longestS[gpu] = std::max(m_longestS[gpu], seg.endS - seg.startS);
                m_intervals[next[gpu]++] =
                    GpuInterval{seg.startS, seg.endS, s, pod.milliGpu, pod.migInstance, lane8};
            }
    }
}

std::span<const GpuInterval> GpuTimeline::candidatesIn(std::size_t gpu, double fromS,
                                                       double toS) const {
    const std::span<const GpuInterval> all = intervalsOf(gpu);
    const auto last = std::upper_bound(all.begin(), all.end(), toS,
                                       [](double t, const GpuInterval& i) { return t < i.startS; });
    // One lane: holds are disjoint and in start order, so their ends are in order too.
    const auto first =
        m_lanes[gpu] == 1
            ? std::upper_bound(all.begin(), last, fromS,
                               [](double t, const GpuInterval& i) { return t < i.endS; })
            : std::upper_bound(all.begin(), last, fromS - m_longestS[gpu],
                               [](double t, const GpuInterval& i) { return t < i.startS; });
    return {first, last};
}

}  // namespace gpuplan
