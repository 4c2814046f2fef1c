// What one frame of the timeline draws in a row, GL-free: the bars of a GPU lane in the
// visible time window with holds narrower than a pixel merged into "busy" runs (never more than
// about two bars per pixel column, however many holds the window has), the markers at their
// ends, a step function cut to one value per pixel column (the queue lane, a collapsed node's
// summary) and the time axis's ticks.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

class TimelineIndex;

/// Simulated seconds ↔ widget x.
struct TimeMapping {
    double fromS = 0;  ///< the time at x0Px
    double pxPerS = 1;
    double x0Px = 0;
    double xOf(double timeS) const { return x0Px + (timeS - fromS) * pxPerS; }
    double timeAt(double xPx) const { return fromS + (xPx - x0Px) / pxPerS; }
};

/// Holds narrower than this many pixels are merged with their neighbours when they touch.
inline constexpr double kMinBarPx = 1.0;
/// Narrow holds this close (pixels) to a merged run join it.
inline constexpr double kMergeGapPx = 1.0;

struct TimelineBar {
    float x0Px = 0, x1Px = 0;
    std::uint32_t segment = 0;  ///< the hold's binding; of a merged run, its last hold's
    std::uint32_t count = 1;    ///< holds drawn as this bar: more than 1 = a merged busy run
    bool merged() const { return count > 1; }
};

enum class TimelineMarkKind : std::uint8_t {
    Preempted,   ///< the binding ended SegmentEnd::Preempted
    Failed,      ///< the binding ended SegmentEnd::Evicted (its node failed or went away)
    Restart,     ///< the binding follows an evicted or preempted one of its job
    Checkpoint,  ///< the binding wrote a periodic checkpoint (Results::checkpointTimesS)
};

struct TimelineMark {
    float xPx = 0;
    TimelineMarkKind kind = TimelineMarkKind::Preempted;
    std::uint32_t segment = 0;
};

/// The bars and markers of lane `lane` of GPU `gpu` between x0Px and x1Px (appended, by x);
/// at most one marker of a kind per pixel column.
void laneBars(const Results& results, const TimelineIndex& index, int gpu, int lane,
              const TimeMapping& map, double x0Px, double x1Px, std::vector<TimelineBar>& bars,
              std::vector<TimelineMark>& marks);

/// The bar under x, or the nearest within slackPx (bars by x, as laneBars gives them).
std::optional<TimelineBar> barAt(std::span<const TimelineBar> bars, double xPx, double slackPx);

/// A run of pixel columns with one value.
struct ColumnSpan {
    float x0Px = 0, x1Px = 0;
    double value = 0;
};

/// What a pixel column of a step function shows: its largest value (peaks stay visible: the
/// queue), or its time-weighted mean (how busy: a collapsed node).
enum class ColumnValue { Max, Mean };

/// A step function (value[i] from timesS[i] until timesS[i + 1], the last until endS) between
/// x0Px and x1Px, one value per pixel column, equal neighbours joined; columns whose value is
/// ≤ 0 are left out.
std::vector<ColumnSpan> stepColumns(std::span<const double> timesS, std::span<const double> values,
                                    double endS, const TimeMapping& map, double x0Px, double x1Px,
                                    ColumnValue per = ColumnValue::Max);

struct TimeTick {
    double timeS = 0;
    double xPx = 0;
};

/// Round ticks at least minSpacingPx apart between x0Px and x1Px; `stepS` receives the step.
std::vector<TimeTick> timeTicks(const TimeMapping& map, double x0Px, double x1Px,
                                double minSpacingPx, double* stepS = nullptr);
/// A tick's label: "d2" on day steps, "d2 04:30" on minute steps, "d2 04:30:15" below.
QString tickLabel(double timeS, double stepS);

}  // namespace gpuplan::ui
