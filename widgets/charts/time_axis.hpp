// The time axis every chart of simulated time shares: which round step its labels take.
#pragma once

class QFontMetrics;

namespace gpuplan::ui {

/// The smallest round step (1 h … 180 d) whose labels ("d2", "d2 12:00", formatSimTime
/// Short) do not crowd each other along a plot `plotWidthPx` wide spanning [0, horizonS].
double timeAxisStepS(double horizonS, double plotWidthPx, const QFontMetrics& labelFont);

}  // namespace gpuplan::ui
