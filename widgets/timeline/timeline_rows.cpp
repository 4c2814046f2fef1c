#include "timeline_rows.hpp"

#include <algorithm>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/results/gpu_timeline.hpp"

namespace gpuplan::ui {

float TimelineRowHeights::of(TimelineRow::Kind kind) const {
    switch (kind) {
        case TimelineRow::Kind::Pod:
            return podPx;
        case TimelineRow::Kind::Rack:
            return rackPx;
        case TimelineRow::Kind::Node:
            return nodePx;
        case TimelineRow::Kind::Gpu:
            break;
    }
    return gpuPx;
}

void TimelineRows::build(const Fleet& fleet, std::span<const int> firstGpuOfNode,
                         const GpuTimeline& timeline, TimelineRowHeights heights,
                         bool keepCollapsed) {
    using K = TimelineRow::Kind;
    m_heights = heights;
    m_all.clear();
    const std::size_t nodes = fleet.nodes.size();
    m_rowOfPod.assign(fleet.pods.size(), 0);
    m_rowOfRack.assign(fleet.racks.size(), 0);
    m_rowOfNode.assign(nodes, 0);
    m_rackOfNode.assign(nodes, -1);
    m_podOfNode.assign(nodes, -1);
    m_firstRowOfGpu.assign(timeline.gpuCount(), 0);
    keepCollapsed = keepCollapsed && m_podCollapsed.size() == fleet.pods.size() &&
                    m_rackCollapsed.size() == fleet.racks.size() && m_nodeCollapsed.size() == nodes;
    if (!keepCollapsed) {
        m_podCollapsed.assign(fleet.pods.size(), 0);
        m_rackCollapsed.assign(fleet.racks.size(), 0);
        m_nodeCollapsed.assign(nodes, 0);
    }
    for (int p = 0; p < static_cast<int>(fleet.pods.size()); ++p) {
        m_rowOfPod[p] = static_cast<std::uint32_t>(m_all.size());
        m_all.push_back({K::Pod, 0, 1, p, 0, 0});
        const FleetPod& pod = fleet.pods[p];
        for (int r = pod.firstRack; r < pod.firstRack + pod.rackCount; ++r) {
            m_rowOfRack[r] = static_cast<std::uint32_t>(m_all.size());
            m_all.push_back({K::Rack, 0, 1, r, 0, 0});
            const FleetRack& rack = fleet.racks[r];
            for (int n = rack.firstNode; n < rack.firstNode + rack.nodeCount; ++n) {
                m_rowOfNode[n] = static_cast<std::uint32_t>(m_all.size());
                m_rackOfNode[n] = r;
                m_podOfNode[n] = p;
                m_all.push_back({K::Node, 0, 1, n, 0, 0});
                for (int slot = 0; slot < fleet.nodes[n].gpus; ++slot) {
                    const int gpu = firstGpuOfNode[n] + slot;
                    if (gpu >= static_cast<int>(timeline.gpuCount())) break;
                    const int lanes = std::max(1, timeline.lanesOf(gpu));
                    m_firstRowOfGpu[gpu] = static_cast<std::uint32_t>(m_all.size());
                    for (int lane = 0; lane < lanes; ++lane)
                        m_all.push_back({K::Gpu, static_cast<std::uint8_t>(lane),
                                         static_cast<std::uint8_t>(lanes), n, slot, gpu});
                }
            }
        }
    }
    relayout();
}

std::vector<std::uint8_t>& TimelineRows::collapsedOf(TimelineRow::Kind kind) {
    return kind == TimelineRow::Kind::Pod    ? m_podCollapsed
           : kind == TimelineRow::Kind::Rack ? m_rackCollapsed
                                             : m_nodeCollapsed;
}

const std::vector<std::uint8_t>& TimelineRows::collapsedOf(TimelineRow::Kind kind) const {
    return const_cast<TimelineRows*>(this)->collapsedOf(kind);
}

void TimelineRows::relayout() {
    // One pass in tree order: a collapsed header hides every row below it until the next
    // header of its depth or shallower.
    using K = TimelineRow::Kind;
    m_visible.clear();
    m_visibleOf.assign(m_all.size(), -1);
    m_topPx.assign(1, 0.0f);
    int hiddenBelowDepth = 99;  // rows deeper than this are hidden
    for (std::uint32_t i = 0; i < m_all.size(); ++i) {
        const TimelineRow& r = m_all[i];
        const int depth = r.depth();
        if (depth > hiddenBelowDepth) continue;
        hiddenBelowDepth = 99;
        if (r.kind != K::Gpu && collapsedOf(r.kind)[r.unit]) hiddenBelowDepth = depth;
        m_visibleOf[i] = static_cast<std::int32_t>(m_visible.size());
        m_visible.push_back(i);
        m_topPx.push_back(m_topPx.back() + m_heights.of(r.kind));
    }
}

std::pair<std::size_t, std::size_t> TimelineRows::visibleRange(float scrollPx,
                                                               float viewHeightPx) const {
    // First row whose bottom is below the top edge; last whose top is above the bottom edge.
    const auto begin = m_topPx.begin() + 1;
    const std::size_t first =
        static_cast<std::size_t>(std::upper_bound(begin, m_topPx.end(), scrollPx) - begin);
    const std::size_t last = static_cast<std::size_t>(
        std::lower_bound(m_topPx.begin(), m_topPx.end() - 1, scrollPx + viewHeightPx) -
        m_topPx.begin());
    return {std::min(first, size()), std::max(std::min(first, size()), std::min(last, size()))};
}

std::optional<std::size_t> TimelineRows::rowAtPx(float contentYPx) const {
    if (m_visible.empty() || contentYPx < 0 || contentYPx >= contentHeightPx()) return std::nullopt;
    return static_cast<std::size_t>(std::upper_bound(m_topPx.begin(), m_topPx.end(), contentYPx) -
                                    m_topPx.begin() - 1);
}

bool TimelineRows::isCollapsed(std::size_t visibleRow) const {
    const TimelineRow& r = row(visibleRow);
    return r.kind != TimelineRow::Kind::Gpu && collapsedOf(r.kind)[r.unit] != 0;
}

void TimelineRows::setCollapsed(TimelineRow::Kind kind, int unit, bool collapsed) {
    if (kind == TimelineRow::Kind::Gpu) return;
    std::vector<std::uint8_t>& flags = collapsedOf(kind);
    if (unit < 0 || unit >= static_cast<int>(flags.size()) || (flags[unit] != 0) == collapsed)
        return;
    flags[unit] = collapsed ? 1 : 0;
    relayout();
}

void TimelineRows::toggle(std::size_t visibleRow) {
    const TimelineRow r = row(visibleRow);
    setCollapsed(r.kind, r.unit, !isCollapsed(visibleRow));
}

void TimelineRows::setAllCollapsed(TimelineRow::Kind kind, bool collapsed) {
    if (kind == TimelineRow::Kind::Gpu) return;
    std::vector<std::uint8_t>& flags = collapsedOf(kind);
    std::fill(flags.begin(), flags.end(), collapsed ? 1 : 0);
    relayout();
}

std::optional<std::size_t> TimelineRows::findGpuRow(int gpu, int lane) const {
    if (gpu < 0 || gpu >= static_cast<int>(m_firstRowOfGpu.size())) return std::nullopt;
    const std::uint32_t all = m_firstRowOfGpu[gpu];
    const std::uint32_t lanes = m_all[all].laneCount;
    const std::int32_t v = m_visibleOf[all + std::clamp<std::uint32_t>(lane, 0, lanes - 1)];
    if (v < 0) return std::nullopt;
    return static_cast<std::size_t>(v);
}

std::size_t TimelineRows::revealGpuRow(int gpu, int lane) {
    if (gpu < 0 || gpu >= static_cast<int>(m_firstRowOfGpu.size())) return 0;
    const int node = m_all[m_firstRowOfGpu[gpu]].unit;
    bool changed = false;
    auto expand = [&changed](std::vector<std::uint8_t>& flags, int unit) {
        if (unit >= 0 && flags[unit]) flags[unit] = 0, changed = true;
    };
    expand(m_podCollapsed, m_podOfNode[node]);
    expand(m_rackCollapsed, m_rackOfNode[node]);
    expand(m_nodeCollapsed, node);
    if (changed) relayout();
    return *findGpuRow(gpu, lane);
}

std::optional<std::size_t> TimelineRows::findHeaderRow(TimelineRow::Kind kind, int unit) const {
    using K = TimelineRow::Kind;
    const std::vector<std::uint32_t>& rowOf = kind == K::Pod    ? m_rowOfPod
                                              : kind == K::Rack ? m_rowOfRack
                                                                : m_rowOfNode;
    if (kind == K::Gpu || unit < 0 || unit >= static_cast<int>(rowOf.size())) return std::nullopt;
    const std::int32_t v = m_visibleOf[rowOf[unit]];
    if (v < 0) return std::nullopt;
    return static_cast<std::size_t>(v);
}

}  // namespace gpuplan::ui
