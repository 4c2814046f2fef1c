#include "timeline_draw.hpp"

#include <QColor>
#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "charts/event_markers.hpp"
#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {

ImU32 rgba(const QColor& c, int alpha = 255) {
    return IM_COL32(c.red(), c.green(), c.blue(), alpha);
}

ImVec2 v(double x, double y) {
    return ImVec2(static_cast<float>(x), static_cast<float>(y));
}

/// Bars of the row between the edges of the bars area.
struct RowBox {
    float y0, y1;
};

RowBox rowBox(const TimelineScene& s, std::size_t row) {
    const float y0 = s.geometry.rowsTopPx() + s.rows.topPx(row) - s.scrollPx;
    return {y0, y0 + s.rows.heightPx(row)};
}

const char* endText(SegmentEnd end) {
    switch (end) {
        case SegmentEnd::Completed:
            return "completed";
        case SegmentEnd::Failed:
            return "failed (crash loop)";
        case SegmentEnd::Evicted:
            return "evicted: its node failed or went away";
        case SegmentEnd::Horizon:
            return "still running when the run ends";
        case SegmentEnd::Preempted:
            return "preempted";
        case SegmentEnd::Resized:
            return "resized (elastic): continues in its next binding";
    }
    return "";
}

/// The step in force at t (0 before the first).
double stepValueAt(const TimelineSteps& steps, double timeS) {
    auto it = std::upper_bound(steps.timesS.begin(), steps.timesS.end(), timeS);
    if (it == steps.timesS.begin()) return 0;
    return steps.values[static_cast<std::size_t>(it - steps.timesS.begin()) - 1];
}

/// The row's label in the header tree.
std::string rowLabel(const Results& r, const TimelineRow& row) {
    const Fleet& f = r.fleet;
    char buf[160];
    switch (row.kind) {
        case TimelineRow::Kind::Pod:
            std::snprintf(buf, sizeof buf, "%s  (%d racks, %d nodes)",
                          f.pods[row.unit].name.c_str(), f.pods[row.unit].rackCount,
                          f.pods[row.unit].nodeCount);
            return buf;
        case TimelineRow::Kind::Rack:
            std::snprintf(buf, sizeof buf, "%s  (%d nodes)", f.racks[row.unit].name.c_str(),
                          f.racks[row.unit].nodeCount);
            return buf;
        case TimelineRow::Kind::Node:
            std::snprintf(buf, sizeof buf, "%s  \xC2\xB7 %d GPUs", f.nodes[row.unit].name.c_str(),
                          f.nodes[row.unit].gpus);
            return buf;
        case TimelineRow::Kind::Gpu:
            if (row.laneCount > 1)
                std::snprintf(buf, sizeof buf, "GPU %d \xC2\xB7 lane %d", row.slot, row.lane + 1);
            else
                std::snprintf(buf, sizeof buf, "GPU %d", row.slot);
            return buf;
    }
    return {};
}

void drawAxis(ImDrawList* d, const TimelineScene& s, TimelineFrameStats* stats) {
    const TimelineGeometry& g = s.geometry;
    const TimelineColors& c = s.colors;
    d->AddRectFilled(v(0, 0), v(g.widthPx, g.axisPx), c.header);
    double stepS = 0;
    const std::vector<TimeTick> ticks = timeTicks(
        s.map, g.gutterPx, g.barsRightPx(), ImGui::CalcTextSize("d00 00:00:00").x + 16, &stepS);
    d->PushClipRect(v(g.gutterPx, 0), v(g.barsRightPx(), g.heightPx), true);
    const float textY = (g.axisPx - ImGui::GetFontSize()) / 2;
    for (const TimeTick& t : ticks) {
        d->AddLine(v(t.xPx, g.axisPx - 6), v(t.xPx, g.axisPx), c.dimText);
        d->AddLine(v(t.xPx, g.axisPx), v(t.xPx, g.heightPx), c.grid);
        const std::string label = tickLabel(t.timeS, stepS).toStdString();
        d->AddText(v(t.xPx + 3, textY), c.text, label.c_str());
        if (stats) ++stats->labels;
    }
    d->PopClipRect();
    d->AddLine(v(0, g.axisPx - 0.5), v(g.widthPx, g.axisPx - 0.5), c.grid);
}

void drawQueue(ImDrawList* d, const TimelineScene& s) {
    const TimelineGeometry& g = s.geometry;
    const TimelineColors& c = s.colors;
    const float y0 = g.axisPx, y1 = g.axisPx + g.queuePx;
    char label[64];
    std::snprintf(label, sizeof label, "queue  (max %.0f)", s.index.queueMax());
    d->AddText(v(8, y0 + (g.queuePx - ImGui::GetFontSize()) / 2), c.dimText, label);
    const Series* queue = s.results.findSeries("queue_length");
    if (queue && s.index.queueMax() > 0 && queue->values.size() == s.results.sampleTimesS.size()) {
        d->PushClipRect(v(g.gutterPx, y0), v(g.barsRightPx(), y1), true);
        const float usable = g.queuePx - 4;
        for (const ColumnSpan& col :
             stepColumns(s.results.sampleTimesS, queue->values, s.results.horizonS, s.map,
                         g.gutterPx, g.barsRightPx())) {
            const float h = static_cast<float>(usable * col.value / s.index.queueMax());
            d->AddRectFilled(v(col.x0Px, y1 - 1 - std::max(h, 1.0f)), v(col.x1Px, y1 - 1), c.queue);
        }
        d->PopClipRect();
    }
    d->AddLine(v(0, y1 - 0.5), v(g.widthPx, y1 - 0.5), c.grid);
}

void drawMark(ImDrawList* d, const TimelineColors& c, const TimelineMark& m, RowBox box) {
    const float x = m.xPx, top = box.y0 + 1, bottom = box.y1 - 1;
    const float w = std::min(4.5f, (bottom - top) / 2.5f);
    switch (m.kind) {
        case TimelineMarkKind::Preempted:  // ▼ standing on the bar's end, top
        case TimelineMarkKind::Failed: {
            const ImU32 col = m.kind == TimelineMarkKind::Preempted ? c.preempted : c.failed;
            d->AddTriangleFilled(v(x - w, top), v(x + w, top), v(x, top + 1.6f * w), col);
            d->AddTriangle(v(x - w, top), v(x + w, top), v(x, top + 1.6f * w),
                           IM_COL32(0, 0, 0, 160));
            if (m.kind == TimelineMarkKind::Failed) d->AddLine(v(x, top), v(x, bottom), col, 1.5f);
            break;
        }
        case TimelineMarkKind::Checkpoint: {  // a tick with a dot, through the bar
            const float mid = (top + bottom) / 2;
            d->AddLine(v(x, top + 2), v(x, bottom - 2), c.checkpoint, 1.5f);
            d->AddCircleFilled(v(x, mid), std::max(1.5f, w * 0.55f), c.checkpoint);
            d->AddCircle(v(x, mid), std::max(1.5f, w * 0.55f), IM_COL32(0, 0, 0, 140));
            break;
        }
        case TimelineMarkKind::Restart:  // ▶ at the bar's start, bottom
            d->AddTriangleFilled(v(x, bottom - 2 * w), v(x, bottom), v(x + 1.6f * w, bottom - w),
                                 c.restart);
            d->AddTriangle(v(x, bottom - 2 * w), v(x, bottom), v(x + 1.6f * w, bottom - w),
                           IM_COL32(0, 0, 0, 160));
            break;
    }
}

constexpr std::pair<TimelineMarkKind, const char*> kLegend[] = {
    {TimelineMarkKind::Preempted, "preempted"},
    {TimelineMarkKind::Failed, "failed"},
    {TimelineMarkKind::Restart, "restart"},
    {TimelineMarkKind::Checkpoint, "checkpoint"}};

float legendWidthPx() {
    float needPx = 8;
    for (const auto& [kind, label] : kLegend)
        needPx += 14 + ImGui::CalcTextSize(label).x + 10;
    return needPx;
}

/// What the markers mean, in the axis row over the header tree ("time" where it does not fit).
void drawLegend(ImDrawList* d, const TimelineScene& s) {
    const TimelineGeometry& g = s.geometry;
    const float textY = (g.axisPx - ImGui::GetFontSize()) / 2;
    if (legendWidthPx() > g.gutterPx) {
        d->AddText(v(8, textY), s.colors.dimText, "time");
        return;
    }
    const RowBox box{3, g.axisPx - 3};
    float x = 8;
    for (const auto& [kind, label] : kLegend) {
        drawMark(d, s.colors, {x + 4, kind, 0}, box);
        x += 14;
        d->AddText(v(x, textY), s.colors.dimText, label);
        x += ImGui::CalcTextSize(label).x + 10;
    }
}

void drawGpuRow(ImDrawList* d, const TimelineScene& s, std::size_t row, RowBox box,
                std::vector<TimelineBar>& bars, std::vector<TimelineMark>& marks,
                TimelineFrameStats* stats) {
    const TimelineColors& c = s.colors;
    bars.clear();
    marks.clear();
    rowBars(s, row, bars, marks);
    const float y0 = box.y0 + 2, y1 = box.y1 - 1;
    const float fontPx = ImGui::GetFontSize();
    const float minTextPx = ImGui::CalcTextSize("abc").x;
    const bool hoveredRow = s.hover.row == row && s.hover.bar;
    for (const TimelineBar& b : bars) {
        // Every bar at least a pixel wide, so a lone short hold still shows; a wider one ends
        // a pixel early, so back-to-back holds of one team read as two bars.
        const float x1 = b.x1Px - b.x0Px >= 4 ? b.x1Px - 1.0f : std::max(b.x1Px, b.x0Px + 1.0f);
        const RunSegment& seg = s.results.segments[b.segment];
        const std::uint32_t job = seg.job;
        const int team = s.results.jobs[job].spec.team;
        const bool known = team >= 0 && team < static_cast<int>(c.team.size());
        const ImU32 fill = b.merged() ? c.busy : known ? c.team[team] : c.busy;
        d->AddRectFilled(v(b.x0Px, y0), v(x1, y1), fill);
        if (stats) ++(b.merged() ? stats->mergedBars : stats->bars);
        if (!b.merged() && static_cast<int>(job) == s.selectedJob)
            d->AddRect(v(b.x0Px - 1, y0 - 1), v(x1 + 1, y1 + 1), c.selection, 0, 0, 2.0f);
        else if (hoveredRow && s.hover.bar->x0Px == b.x0Px)
            d->AddRect(v(b.x0Px, y0), v(x1, y1), c.hover, 0, 0, 1.0f);
        // The job's name where it fits (wider than a few letters), clipped to the bar.
        if (!b.merged() && x1 - b.x0Px >= minTextPx + 6 && y1 - y0 >= fontPx - 2) {
            const std::string name = s.results.jobName(job);
            const float left = std::max(b.x0Px, s.geometry.gutterPx) + 3;
            const ImVec4 clip(b.x0Px + 1, y0, x1 - 2, y1);
            d->AddText(ImGui::GetFont(), fontPx, v(left, (y0 + y1 - fontPx) / 2),
                       known ? c.teamText[team] : c.text, name.c_str(), nullptr, 0, &clip);
            if (stats) ++stats->labels;
        }
    }
    for (const TimelineMark& m : marks)
        drawMark(d, c, m, box);
    if (stats) stats->marks += marks.size();
}

void drawNodeSummary(ImDrawList* d, const TimelineScene& s, int node, RowBox box) {
    // A collapsed node: how many of its GPUs are held, as a filled step curve (each pixel's
    // mean: its largest would read "full" wherever one GPU came free and was taken again).
    const TimelineSteps& held = s.index.heldGpusOf(s.results, node);
    const int gpus = std::max(1, s.results.fleet.nodes[node].gpus);
    const float bottom = box.y1 - 1, usable = box.y1 - box.y0 - 3;
    for (const ColumnSpan& col :
         stepColumns(held.timesS, held.values, s.results.horizonS, s.map, s.geometry.gutterPx,
                     s.geometry.barsRightPx(), ColumnValue::Mean)) {
        const float h = static_cast<float>(usable * std::min(1.0, col.value / gpus));
        d->AddRectFilled(v(col.x0Px, bottom - std::max(h, 1.0f)), v(col.x1Px, bottom),
                         s.colors.busy);
    }
}

/// Veils over the stretches the node was not Ready (under its bars: a draining node's jobs
/// still show).
void drawNodeDown(ImDrawList* d, const TimelineScene& s, int node, RowBox box) {
    const double fromS = s.map.timeAt(s.geometry.gutterPx);
    const double toS = s.map.timeAt(s.geometry.barsRightPx());
    for (const TimelineNodeSpan& span : s.index.notReadyOf(node)) {
        if (span.endS <= fromS || span.startS >= toS) continue;
        const bool broken = span.state == NodeState::Failed || span.state == NodeState::Repairing;
        d->AddRectFilled(v(std::max(s.map.xOf(span.startS), s.geometry.gutterPx - 1.0), box.y0),
                         v(std::min(s.map.xOf(span.endS), s.geometry.barsRightPx() + 1.0), box.y1),
                         broken ? s.colors.nodeBroken : s.colors.nodeDown);
    }
}

void drawNodeEvents(ImDrawList* d, const TimelineScene& s, int node, RowBox box) {
    const double fromS = s.map.timeAt(s.geometry.gutterPx),
                 toS = s.map.timeAt(s.geometry.barsRightPx());
    const auto events = s.index.eventsOf(node);
    auto it = std::lower_bound(events.begin(), events.end(), fromS,
                               [](const TimelineNodeEvent& e, double t) { return e.timeS < t; });
    for (; it != events.end() && it->timeS <= toS; ++it) {
        const double x = s.map.xOf(it->timeS);
        d->AddLine(v(x, box.y0), v(x, box.y1), s.colors.eventKind[it->kind], 2.0f);
    }
}

void drawGutterRow(ImDrawList* d, const TimelineScene& s, std::size_t row, RowBox box) {
    const TimelineRow& r = s.rows.row(row);
    const TimelineColors& c = s.colors;
    const float indent = 8 + 12.0f * r.depth();
    const float mid = (box.y0 + box.y1) / 2;
    if (r.kind != TimelineRow::Kind::Gpu) {
        const float a = 4;  // the expand/collapse triangle
        if (s.rows.isCollapsed(row))
            d->AddTriangleFilled(v(indent, mid - a), v(indent, mid + a), v(indent + 1.5 * a, mid),
                                 c.dimText);
        else
            d->AddTriangleFilled(v(indent - 1, mid - a * 0.6), v(indent + 2 * a - 1, mid - a * 0.6),
                                 v(indent + a - 1, mid + a * 0.8), c.dimText);
    }
    const std::string label = rowLabel(s.results, r);
    const float textX = indent + (r.kind == TimelineRow::Kind::Gpu ? 0 : 12);
    const ImVec4 clip(0, box.y0, s.geometry.gutterPx - 4, box.y1);
    d->AddText(ImGui::GetFont(), ImGui::GetFontSize(), v(textX, mid - ImGui::GetFontSize() / 2),
               r.kind == TimelineRow::Kind::Gpu ? c.dimText : c.text, label.c_str(), nullptr, 0,
               &clip);
}

void drawScrollbar(ImDrawList* d, const TimelineScene& s) {
    const TimelineGeometry& g = s.geometry;
    const float top = g.rowsTopPx(), viewPx = g.rowsHeightPx();
    d->AddRectFilled(v(g.barsRightPx(), top), v(g.widthPx, g.heightPx), s.colors.header);
    const auto thumb = scrollThumb(g, s.rows.contentHeightPx(), s.scrollPx);
    if (thumb.second - thumb.first < viewPx)
        d->AddRectFilled(v(g.barsRightPx() + 2, thumb.first), v(g.widthPx - 2, thumb.second),
                         s.colors.dimText, 3);
}

}  // namespace

std::pair<float, float> scrollThumb(const TimelineGeometry& g, float contentPx, float scrollPx) {
    const float top = g.rowsTopPx(), viewPx = g.rowsHeightPx();
    if (contentPx <= viewPx || viewPx <= 0) return {top, top + viewPx};
    // At least 20 px tall, however many rows: it stays a handle to grab.
    const float thumbPx = std::max(20.0f, viewPx * viewPx / contentPx);
    const float y0 = top + (viewPx - thumbPx) * scrollPx / (contentPx - viewPx);
    return {y0, y0 + thumbPx};
}

TimelineRegion regionAt(const TimelineGeometry& g, float x, float y) {
    if (x < 0 || y < 0 || x >= g.widthPx || y >= g.heightPx) return TimelineRegion::None;
    if (y < g.axisPx) return TimelineRegion::Axis;
    if (y < g.rowsTopPx()) return TimelineRegion::Queue;
    if (x >= g.barsRightPx()) return TimelineRegion::Scrollbar;
    return x < g.gutterPx ? TimelineRegion::Gutter : TimelineRegion::Bars;
}

TimelineColors timelineColors(const QPalette& palette, const Results& results) {
    TimelineColors c;
    const QColor base = palette.color(QPalette::Base);
    c.dark = base.lightness() < 128;
    c.background = rgba(base);
    c.alternate = rgba(c.dark ? base.lighter(125) : base.darker(104));
    c.header = rgba(palette.color(QPalette::Window));
    c.text = rgba(palette.color(QPalette::Text));
    c.dimText = rgba(palette.color(QPalette::Text), 170);
    c.grid = rgba(palette.color(QPalette::Text), 40);
    c.busy = c.dark ? IM_COL32(120, 120, 128, 255) : IM_COL32(160, 160, 168, 255);
    c.queue = rgba(layerColor(Layer::Scheduling), 200);
    c.cursor = c.dark ? IM_COL32(255, 90, 90, 255) : IM_COL32(200, 30, 30, 255);
    c.selection = c.dark ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255);
    c.hover = c.dark ? IM_COL32(255, 255, 255, 170) : IM_COL32(0, 0, 0, 140);
    c.preempted = IM_COL32(255, 170, 0, 255);
    c.restart = IM_COL32(40, 200, 90, 255);
    c.checkpoint = IM_COL32(250, 250, 250, 230);
    c.nodeDown = rgba(notReadyColor(), 60);
    for (const EventKind& k : eventKinds()) {
        c.eventKind.push_back(rgba(k.color, 230));
        if (std::string_view(k.id) == "node_failure") c.failed = rgba(k.color);
    }
    if (c.failed == 0) c.failed = IM_COL32(214, 39, 40, 255);
    c.nodeBroken = (c.failed & ~IM_COL32_A_MASK) | (IM_COL32(0, 0, 0, 45) & IM_COL32_A_MASK);
    for (const QColor& t : teamColors(results)) {
        c.team.push_back(rgba(t));
        // Relative luminance decides black or white text, as on the topology's cells.
        const double lum = 0.2126 * t.redF() + 0.7152 * t.greenF() + 0.0722 * t.blueF();
        c.teamText.push_back(lum > 0.55 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255));
    }
    return c;
}

void rowBars(const TimelineScene& s, std::size_t row, std::vector<TimelineBar>& bars,
             std::vector<TimelineMark>& marks) {
    const TimelineRow& r = s.rows.row(row);
    if (r.kind != TimelineRow::Kind::Gpu) return;
    laneBars(s.results, s.index, r.gpu, r.lane, s.map, s.geometry.gutterPx,
             s.geometry.barsRightPx(), bars, marks);
}

void drawTimeline(ImDrawList* d, const TimelineScene& s, TimelineFrameStats* stats) {
    const TimelineGeometry& g = s.geometry;
    const TimelineColors& c = s.colors;
    // The background is the frame's glClear: llvmpipe fills every drawn pixel with the
    // texture lookup and blend of ImGui's one shader, so no fill is drawn that adds nothing.
    const auto [first, last] = s.rows.visibleRange(s.scrollPx, g.rowsHeightPx());
    std::vector<TimelineBar> bars;
    std::vector<TimelineMark> marks;
    // Rows: backgrounds and the header tree, then bars clipped to their area.
    d->PushClipRect(v(0, g.rowsTopPx()), v(g.widthPx, g.heightPx), true);
    for (std::size_t row = first; row < last; ++row) {
        const TimelineRow& r = s.rows.row(row);
        const RowBox box = rowBox(s, row);
        if (r.kind != TimelineRow::Kind::Gpu)
            d->AddRectFilled(v(0, box.y0), v(g.widthPx, box.y1), c.header);
        else if (r.gpu % 2 == 1)  // in the tree only: across the bars it would cost a fill
            d->AddRectFilled(v(0, box.y0), v(g.gutterPx, box.y1), c.alternate);
        drawGutterRow(d, s, row, box);
    }
    d->PushClipRect(v(g.gutterPx, g.rowsTopPx()), v(g.barsRightPx(), g.heightPx), true);
    for (std::size_t row = first; row < last; ++row) {
        const TimelineRow& r = s.rows.row(row);
        const RowBox box = rowBox(s, row);
        if (r.kind == TimelineRow::Kind::Gpu || r.kind == TimelineRow::Kind::Node)
            drawNodeDown(d, s, r.unit, box);
        if (r.kind == TimelineRow::Kind::Gpu) {
            drawGpuRow(d, s, row, box, bars, marks, stats);
            drawNodeEvents(d, s, r.unit, box);
        } else if (r.kind == TimelineRow::Kind::Node) {
            if (s.rows.isCollapsed(row)) drawNodeSummary(d, s, r.unit, box);
            drawNodeEvents(d, s, r.unit, box);
        }
        if (stats) ++stats->rows;
    }
    d->PopClipRect();
    d->PopClipRect();
    d->AddLine(v(g.gutterPx - 0.5, g.axisPx), v(g.gutterPx - 0.5, g.heightPx), c.grid);

    drawQueue(d, s);
    drawAxis(d, s, stats);
    drawLegend(d, s);
    // The time cursor, over everything right of the tree.
    const double x = s.map.xOf(s.cursorS);
    if (x >= g.gutterPx && x <= g.barsRightPx()) {
        d->AddLine(v(x, 0), v(x, g.heightPx), c.cursor, 2.0f);
        d->AddTriangleFilled(v(x - 5, 0), v(x + 5, 0), v(x, 7), c.cursor);
    }
    drawScrollbar(d, s);
}

float headerTreeWidthPx(const Results& r) {
    // Labels start at 8 + 12 × depth, after a 12 px triangle (drawGutterRow); the markers'
    // legend sits over the tree too.
    float widest = std::max(ImGui::CalcTextSize("GPU 00 \xC2\xB7 lane 00").x + 8 + 12 * 3,
                            legendWidthPx() - 8);
    auto consider = [&](TimelineRow::Kind kind, int count) {
        for (int unit = 0; unit < count; ++unit) {
            const std::string label = rowLabel(r, {kind, 0, 1, unit, 0, 0});
            widest = std::max(
                widest, ImGui::CalcTextSize(label.c_str()).x + 20 + 12.0f * static_cast<int>(kind));
        }
    };
    consider(TimelineRow::Kind::Pod, static_cast<int>(r.fleet.pods.size()));
    consider(TimelineRow::Kind::Rack, static_cast<int>(r.fleet.racks.size()));
    consider(TimelineRow::Kind::Node, static_cast<int>(r.fleet.nodes.size()));
    return widest + 8;
}

QString timelineTooltip(const TimelineScene& s) {
    const Results& r = s.results;
    const TimelineHover& h = s.hover;
    switch (h.region) {
        case TimelineRegion::None:
            return {};
        case TimelineRegion::Axis:
            return QStringLiteral(
                       "%1 — click to move the time cursor here, double-click to "
                       "see the whole run")
                .arg(formatSimTime(std::max(0.0, h.timeS)));
        case TimelineRegion::Queue: {
            const Series* q = r.findSeries("queue_length");
            const auto sample = r.sampleAt(h.timeS);
            if (!q || !sample || *sample >= q->values.size()) return {};
            return QStringLiteral("%1: %2 jobs queued — click to move the time cursor here")
                .arg(formatSimTime(r.sampleTimesS[*sample]))
                .arg(q->values[*sample], 0, 'f', 0);
        }
        case TimelineRegion::Scrollbar: {
            const auto [first, last] = s.rows.visibleRange(s.scrollPx, s.geometry.rowsHeightPx());
            return QStringLiteral("rows %1–%2 of %3: drag to scroll, click to jump")
                .arg(first + 1)
                .arg(last)
                .arg(s.rows.size());
        }
        case TimelineRegion::Gutter:
        case TimelineRegion::Bars:
            break;
    }
    if (!h.row) return {};
    const TimelineRow& row = s.rows.row(*h.row);
    if (h.region == TimelineRegion::Gutter) {
        if (row.kind == TimelineRow::Kind::Gpu)
            return QStringLiteral("%1, GPU %2")
                .arg(QString::fromStdString(r.fleet.nodes[row.unit].name))
                .arg(row.slot);
        const bool collapsed = s.rows.isCollapsed(*h.row);
        const QString kind = row.kind == TimelineRow::Kind::Pod    ? QStringLiteral("pods")
                             : row.kind == TimelineRow::Kind::Rack ? QStringLiteral("racks")
                                                                   : QStringLiteral("nodes");
        return QStringLiteral("%1\nclick to %2; Ctrl+click: %2 all %3")
            .arg(QString::fromStdString(rowLabel(r, row)),
                 collapsed ? QStringLiteral("expand") : QStringLiteral("collapse"), kind);
    }
    QStringList lines;
    if (h.bar && h.bar->merged()) {
        lines << QStringLiteral(
                     "%1 holds, %2 – %3: each narrower than a pixel; zoom in to tell "
                     "them apart")
                     .arg(h.bar->count)
                     .arg(formatSimTime(s.map.timeAt(h.bar->x0Px)),
                          formatSimTime(s.map.timeAt(h.bar->x1Px)));
    } else if (h.bar) {
        const RunSegment& seg = r.segments[h.bar->segment];
        const JobRecord& job = r.jobs[seg.job];
        const int team = job.spec.team;
        lines << QString::fromStdString(r.jobName(seg.job));
        lines << QStringLiteral("team %1 · %2")
                     .arg(team >= 0 && team < static_cast<int>(r.teams.size())
                              ? QString::fromStdString(r.teams[team])
                              : QStringLiteral("?"),
                          QString::fromStdString(r.jobClassName(seg.job)));
        lines << QStringLiteral("start %1, end %2 (%3)")
                     .arg(formatSimTime(seg.startS), formatSimTime(seg.endS),
                          formatDuration(seg.endS - seg.startS));
        if (job.firstStartS >= 0)
            lines << QStringLiteral("waited %1 before its first start")
                         .arg(formatDuration(job.waitS()));
        lines << QStringLiteral("slowdown %1×").arg(seg.slowdown, 0, 'f', 2);
        lines << QStringLiteral("ended: %1").arg(QLatin1String(endText(seg.end)));
        if (s.index.isRestart(h.bar->segment))
            lines << QStringLiteral("a restart: its previous binding was evicted or preempted");
        lines << QStringLiteral("click to select the job");
    } else if (row.kind == TimelineRow::Kind::Node && s.rows.isCollapsed(*h.row)) {
        const double held = stepValueAt(s.index.heldGpusOf(r, row.unit), h.timeS);
        lines << QStringLiteral("%1 at %2: %3 of %4 GPUs held")
                     .arg(QString::fromStdString(r.fleet.nodes[row.unit].name),
                          formatSimTime(std::max(0.0, h.timeS)))
                     .arg(held, 0, 'g', 3)
                     .arg(r.fleet.nodes[row.unit].gpus);
    }
    // The node's state when it was not Ready at the pointer's time.
    if (row.kind == TimelineRow::Kind::Node || row.kind == TimelineRow::Kind::Gpu)
        for (const TimelineNodeSpan& span : s.index.notReadyOf(row.unit))
            if (span.startS <= h.timeS && h.timeS < span.endS)
                lines << QStringLiteral("node %1 from %2 to %3")
                             .arg(QLatin1String(toString(span.state)), formatSimTime(span.startS),
                                  formatSimTime(span.endS));
    // Node events within a few pixels of the pointer, on the node's rows.
    if (row.kind == TimelineRow::Kind::Node || row.kind == TimelineRow::Kind::Gpu) {
        const double slackS = 4 / s.map.pxPerS;
        for (const TimelineNodeEvent& e : s.index.eventsOf(row.unit))
            if (std::abs(e.timeS - h.timeS) <= slackS)
                lines << QStringLiteral("%1 at %2")
                             .arg(QCoreApplication::translate("EventMarkers",
                                                              eventKinds()[e.kind].singular),
                                  formatSimTime(e.timeS));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace gpuplan::ui
