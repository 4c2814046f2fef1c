// The timeline's rows, GL-free so tests run offscreen: pod, rack and node headers (each
// collapsible; a collapsed node is one summary row) and one row per lane of every GPU (a MIG or
// shared GPU has a row per lane, Results::gpuTimeline's lanes). Rows have heights; the visible
// ones are found from a scroll offset by binary search over their prefix sums, so a frame of a
// 10,000-GPU fleet touches only the rows on screen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace gpuplan {
class Fleet;
class GpuTimeline;
}  // namespace gpuplan

namespace gpuplan::ui {

struct TimelineRow {
    enum class Kind : std::uint8_t { Pod, Rack, Node, Gpu };
    Kind kind = Kind::Gpu;
    std::uint8_t lane = 0;       ///< Gpu: its lane on the GPU
    std::uint8_t laneCount = 1;  ///< Gpu: lanes its GPU has
    std::int32_t unit = 0;       ///< Pod, Rack, Node: its index in the fleet; Gpu: its node
    std::int32_t slot = 0;       ///< Gpu: slot on the node
    std::int32_t gpu = 0;        ///< Gpu: as Results::firstGpuOfNode numbers GPUs
    int depth() const { return static_cast<int>(kind); }
};

/// Row heights by kind, in pixels.
struct TimelineRowHeights {
    float podPx = 22;
    float rackPx = 20;
    float nodePx = 18;
    float gpuPx = 17;
    float of(TimelineRow::Kind kind) const;
};

class TimelineRows {
public:
    /// Every row of the fleet, all expanded, or, with keepCollapsed, collapsed as before when
    /// the fleet has as many pods, racks and nodes as the last one built (a re-run of the same
    /// fleet). GPU g has gpuTimeline.lanesOf(g) rows.
    void build(const Fleet& fleet, std::span<const int> firstGpuOfNode, const GpuTimeline& timeline,
               TimelineRowHeights heights = {}, bool keepCollapsed = false);

    /// Visible rows (not hidden under a collapsed header), top to bottom.
    std::size_t size() const { return m_visible.size(); }
    const TimelineRow& row(std::size_t visibleRow) const { return m_all[m_visible[visibleRow]]; }
    float topPx(std::size_t visibleRow) const { return m_topPx[visibleRow]; }
    float heightPx(std::size_t visibleRow) const {
        return m_topPx[visibleRow + 1] - m_topPx[visibleRow];
    }
    float contentHeightPx() const { return m_topPx.back(); }
    /// Rows [first, last) that overlap [scrollPx, scrollPx + viewHeightPx): O(log rows).
    std::pair<std::size_t, std::size_t> visibleRange(float scrollPx, float viewHeightPx) const;
    /// The row at a content y (scroll included), nullopt past the ends.
    std::optional<std::size_t> rowAtPx(float contentYPx) const;

    /// Headers only (a GPU row is never collapsed).
    bool isCollapsed(std::size_t visibleRow) const;
    void setCollapsed(TimelineRow::Kind kind, int unit, bool collapsed);
    void toggle(std::size_t visibleRow);
    /// Collapses or expands every header of a kind.
    void setAllCollapsed(TimelineRow::Kind kind, bool collapsed);

    /// The visible row of a GPU's lane; nullopt when a header above it is collapsed.
    std::optional<std::size_t> findGpuRow(int gpu, int lane = 0) const;
    /// As findGpuRow, after expanding the GPU's pod, rack and node.
    std::size_t revealGpuRow(int gpu, int lane = 0);
    /// The visible row of a pod's, rack's or node's header (a node's summary row when
    /// collapsed); nullopt when a header above it is collapsed.
    std::optional<std::size_t> findHeaderRow(TimelineRow::Kind kind, int unit) const;
    std::optional<std::size_t> findNodeRow(int node) const {
        return findHeaderRow(TimelineRow::Kind::Node, node);
    }

private:
    void relayout();
    std::vector<std::uint8_t>& collapsedOf(TimelineRow::Kind kind);
    const std::vector<std::uint8_t>& collapsedOf(TimelineRow::Kind kind) const;

    TimelineRowHeights m_heights;
    std::vector<TimelineRow> m_all;                                   ///< tree order, every row
    std::vector<std::uint32_t> m_firstRowOfGpu;                       ///< into m_all, lane 0
    std::vector<std::uint32_t> m_rowOfPod, m_rowOfRack, m_rowOfNode;  ///< into m_all: headers
    std::vector<std::int32_t> m_rackOfNode, m_podOfNode;
    std::vector<std::uint8_t> m_podCollapsed, m_rackCollapsed, m_nodeCollapsed;
    std::vector<std::uint32_t> m_visible;   ///< into m_all
    std::vector<std::int32_t> m_visibleOf;  ///< per m_all row, its visible row or −1
    std::vector<float> m_topPx{0.0f};       ///< per visible row + 1, prefix sums of heights
};

}  // namespace gpuplan::ui
