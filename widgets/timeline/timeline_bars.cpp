#include "timeline_bars.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "format/ui_palette.hpp"
#include "timeline_index.hpp"

namespace gpuplan::ui {

void laneBars(const Results& r, const TimelineIndex& index, int gpu, int lane,
              const TimeMapping& map, double x0Px, double x1Px, std::vector<TimelineBar>& bars,
              std::vector<TimelineMark>& marks) {
    const double fromS = map.timeAt(x0Px), toS = map.timeAt(x1Px);
    // Bars reach at most a pixel past the edges: far zoomed in, x of a day-long hold would
    // be millions of pixels, which floats and the rasteriser handle badly.
    const double clampLo = x0Px - 1, clampHi = x1Px + 1;
    TimelineBar run{0, 0, 0, 0};  // narrow holds being merged (count 0: none)
    auto flush = [&] {
        if (run.count > 0) bars.push_back(run);
        run.count = 0;
    };
    std::array<long long, 4> lastColumn{-1, -1, -1, -1};  // per mark kind
    auto mark = [&](double xPx, TimelineMarkKind kind, std::uint32_t segment) {
        if (xPx < x0Px || xPx > x1Px) return;
        const long long column = static_cast<long long>(std::floor(xPx));
        long long& last = lastColumn[static_cast<int>(kind)];
        if (column == last) return;
        last = column;
        marks.push_back({static_cast<float>(xPx), kind, segment});
    };
    for (const GpuInterval& i : r.gpuTimeline.candidatesIn(gpu, fromS, toS)) {
        if (i.lane != lane || i.endS <= fromS || i.startS > toS) continue;
        const double startPx = map.xOf(i.startS), endPx = map.xOf(i.endS);
        const RunSegment& seg = r.segments[i.segment];
        if (index.isRestart(i.segment)) mark(startPx, TimelineMarkKind::Restart, i.segment);
        if (seg.end == SegmentEnd::Preempted) mark(endPx, TimelineMarkKind::Preempted, i.segment);
        if (seg.end == SegmentEnd::Evicted) mark(endPx, TimelineMarkKind::Failed, i.segment);
        const float a = static_cast<float>(std::max(startPx, clampLo));
        const float b = static_cast<float>(std::min(endPx, clampHi));
        if (endPx - startPx >= kMinBarPx) {
            flush();
            bars.push_back({a, b, i.segment, 1});
            // Its checkpoints in view, at most one a pixel column.
            const auto columns =
                static_cast<std::size_t>(std::max(1.0, static_cast<double>(b - a) + 1));
            for (double atS : r.checkpointTimesS(i.segment, fromS, toS, columns))
                mark(map.xOf(atS), TimelineMarkKind::Checkpoint, i.segment);
        } else if (run.count > 0 && a <= run.x1Px + kMergeGapPx) {
            run.x1Px = std::max(run.x1Px, b);
            run.segment = i.segment;
            ++run.count;
        } else {
            flush();
            run = {a, b, i.segment, 1};
        }
    }
    flush();
}

std::optional<TimelineBar> barAt(std::span<const TimelineBar> bars, double xPx, double slackPx) {
    // Bars are by x0: the last starting at or before x is the only one that can hold it.
    auto it = std::upper_bound(bars.begin(), bars.end(), xPx,
                               [](double x, const TimelineBar& b) { return x < b.x0Px; });
    if (it != bars.begin() && std::prev(it)->x1Px >= xPx) return *std::prev(it);
    std::optional<TimelineBar> best;
    double bestPx = slackPx;
    auto consider = [&](const TimelineBar& b) {
        const double d = xPx < b.x0Px ? b.x0Px - xPx : xPx - b.x1Px;
        if (d <= bestPx) best = b, bestPx = d;
    };
    if (it != bars.begin()) consider(*std::prev(it));
    if (it != bars.end()) consider(*it);
    return best;
}

std::vector<ColumnSpan> stepColumns(std::span<const double> timesS, std::span<const double> values,
                                    double endS, const TimeMapping& map, double x0Px, double x1Px,
                                    ColumnValue per) {
    std::vector<ColumnSpan> out;
    const long long firstCol = static_cast<long long>(std::floor(x0Px));
    const long long columns = static_cast<long long>(std::ceil(x1Px)) - firstCol;
    if (timesS.empty() || columns <= 0) return out;
    std::vector<double> colMax(static_cast<std::size_t>(columns), 0.0);
    const double fromS = map.timeAt(x0Px), toS = map.timeAt(x1Px);
    // The step in force at fromS, then every step that starts before toS: O(steps in view +
    // columns).
    std::size_t k = static_cast<std::size_t>(std::upper_bound(timesS.begin(), timesS.end(), fromS) -
                                             timesS.begin());
    if (k > 0) --k;
    for (; k < timesS.size() && timesS[k] <= toS; ++k) {
        const double stepEndS = k + 1 < timesS.size() ? timesS[k + 1] : endS;
        if (stepEndS <= fromS || values[k] <= 0) continue;
        const double a = std::max(map.xOf(timesS[k]), x0Px);
        const double b = std::min(map.xOf(stepEndS), x1Px);
        if (b < a) continue;
        const long long c0 = static_cast<long long>(std::floor(a)) - firstCol;
        // A step ending exactly on a column's left edge does not reach into that column.
        long long c1 = static_cast<long long>(std::ceil(b)) - firstCol - 1;
        c1 = std::max(c1, c0);
        for (long long c = std::max(0LL, c0); c <= std::min(c1, columns - 1); ++c) {
            if (per == ColumnValue::Max) {
                colMax[c] = std::max(colMax[c], values[k]);
                continue;
            }
            // The share of the column's pixel the step covers, weighting its value.
            const double left = static_cast<double>(firstCol + c);
            const double covered = std::min(b, left + 1) - std::max(a, left);
            colMax[c] += values[k] * std::max(0.0, covered);
        }
    }
    for (long long c = 0; c < columns; ++c) {
        if (colMax[c] <= 0) continue;
        const float x = static_cast<float>(firstCol + c);
        if (!out.empty() && out.back().x1Px == x && out.back().value == colMax[c])
            out.back().x1Px = x + 1;
        else
            out.push_back({x, x + 1, colMax[c]});
    }
    return out;
}

std::vector<TimeTick> timeTicks(const TimeMapping& map, double x0Px, double x1Px,
                                double minSpacingPx, double* stepS) {
    static constexpr std::array<double, 24> kStepsS{
        1,     2,     5,      10,     15,      30,      60,      120,
        300,   600,   900,    1800,   3600,    7200,    10800,   21600,
        43200, 86400, 172800, 604800, 1209600, 2592000, 7776000, 31536000};
    double step = kStepsS.back();
    for (double s : kStepsS)
        if (s * map.pxPerS >= minSpacingPx) {
            step = s;
            break;
        }
    if (stepS) *stepS = step;
    std::vector<TimeTick> out;
    const double fromS = map.timeAt(x0Px), toS = map.timeAt(x1Px);
    // Simulated time starts at 0: no ticks before it.
    for (double k = std::ceil(std::max(fromS, 0.0) / step); k * step <= toS; ++k)
        out.push_back({k * step, map.xOf(k * step)});
    return out;
}

QString tickLabel(double timeS, double stepS) {
    if (stepS >= 60 || std::fmod(timeS, 60) == 0)
        return formatSimTime(timeS,
                             std::fmod(stepS, 86400) == 0 ? TimeLabel::Short : TimeLabel::Full);
    const long long s = std::llround(timeS);
    return QStringLiteral("%1:%2")
        .arg(formatSimTime(static_cast<double>(s - s % 60)))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace gpuplan::ui
