// One frame of the timeline as Dear ImGui draw commands (ImDrawList), from the run, the rows
// and the view's state: the time axis on top, the pending-queue lane under it, the header
// tree on the left, bars coloured by team with the job's name where it fits, markers, node
// events and the time cursor. Only visible rows and bars are drawn. No input, no GL calls.
#pragma once

#include <imgui.h>

#include <QPalette>
#include <QString>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "gpuplan/results/results.hpp"
#include "timeline_bars.hpp"
#include "timeline_index.hpp"
#include "timeline_rows.hpp"

namespace gpuplan::ui {

/// Where the parts of the timeline sit in the widget, in pixels.
struct TimelineGeometry {
    float widthPx = 0, heightPx = 0;
    float gutterPx = 190;    ///< the header tree on the left
    float axisPx = 24;       ///< the time axis on top
    float queuePx = 34;      ///< the pending-queue lane under it
    float scrollbarPx = 10;  ///< the rows' scroll bar, at the right
    float rowsTopPx() const { return axisPx + queuePx; }
    float rowsHeightPx() const { return heightPx > rowsTopPx() ? heightPx - rowsTopPx() : 0; }
    /// Where time is drawn: from gutterPx to barsRightPx().
    float barsRightPx() const {
        return widthPx > gutterPx + scrollbarPx ? widthPx - scrollbarPx : gutterPx;
    }
    float barsWidthPx() const { return barsRightPx() - gutterPx; }
};

enum class TimelineRegion { None, Axis, Queue, Gutter, Bars, Scrollbar };
TimelineRegion regionAt(const TimelineGeometry& geometry, float xPx, float yPx);
/// The scroll bar's thumb, [top, bottom] in widget y, for rows contentPx tall scrolled by
/// scrollPx.
std::pair<float, float> scrollThumb(const TimelineGeometry& geometry, float contentPx,
                                    float scrollPx);

struct TimelineColors {
    ImU32 background = 0, alternate = 0, header = 0, text = 0, dimText = 0, grid = 0;
    ImU32 busy = 0, queue = 0, cursor = 0, selection = 0, hover = 0;
    ImU32 preempted = 0, failed = 0, restart = 0, checkpoint = 0;
    ImU32 nodeDown = 0, nodeBroken = 0;  ///< veils over a node not Ready; failed or repairing
    std::vector<ImU32> team, teamText;   ///< per team: bar fill, and text readable on it
    std::vector<ImU32> eventKind;        ///< per eventKinds() entry
    bool dark = false;
};
/// Team colours as the topology draws them; the rest from the widget's palette.
TimelineColors timelineColors(const QPalette& palette, const Results& results);

/// What the pointer is over.
struct TimelineHover {
    TimelineRegion region = TimelineRegion::None;
    std::optional<std::size_t> row;  ///< visible row (Gutter, Bars)
    std::optional<TimelineBar> bar;  ///< Bars on a GPU row: the bar under it
    double timeS = 0;                ///< the time under it (Axis, Queue, Bars)
    float xPx = 0;
};

struct TimelineScene {
    const Results& results;
    const TimelineIndex& index;
    const TimelineRows& rows;
    const TimelineColors& colors;
    TimelineGeometry geometry;
    TimeMapping map;
    float scrollPx = 0;
    double cursorS = 0;
    int selectedJob = -1;
    TimelineHover hover;
};

/// Counts of what one frame drew (tests and the benchmark read them).
struct TimelineFrameStats {
    std::size_t rows = 0, bars = 0, mergedBars = 0, marks = 0, labels = 0;
};

void drawTimeline(ImDrawList* draw, const TimelineScene& scene, TimelineFrameStats* stats);

/// The bars of a visible GPU row between the edges of the bars area (empty for headers).
void rowBars(const TimelineScene& scene, std::size_t row, std::vector<TimelineBar>& bars,
             std::vector<TimelineMark>& marks);

/// How wide the header tree must be for the run's longest pod, rack or node label (ImGui's
/// current font; a pass over the fleet, once per run).
float headerTreeWidthPx(const Results& results);

/// The tooltip for what the pointer is over (empty: none).
QString timelineTooltip(const TimelineScene& scene);

}  // namespace gpuplan::ui
