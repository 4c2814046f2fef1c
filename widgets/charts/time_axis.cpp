#include "time_axis.hpp"

#include <QFontMetrics>
#include <cmath>
#include <iterator>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {

/// Round steps for the time axis, smallest first.
constexpr double kTimeStepsS[] = {3600,       2 * 3600,   3 * 3600,   4 * 3600,   6 * 3600,
                                  12 * 3600,  86400,      2 * 86400,  3 * 86400,  5 * 86400,
                                  7 * 86400,  10 * 86400, 14 * 86400, 15 * 86400, 20 * 86400,
                                  30 * 86400, 60 * 86400, 90 * 86400, 180 * 86400};

}  // namespace

double timeAxisStepS(double horizonS, double plotWidthPx, const QFontMetrics& labelFont) {
    for (double candidate : kTimeStepsS) {
        // The widest label a step writes: "d7" for whole days, "d6 23:30" otherwise.
        const bool wholeDays = std::fmod(candidate, 86400) == 0;
        const int labelPx = labelFont.horizontalAdvance(formatSimTime(
                                wholeDays ? horizonS : horizonS - 1800, TimeLabel::Short)) +
                            18;
        if (horizonS / candidate * labelPx <= plotWidthPx) return candidate;
    }
    return kTimeStepsS[std::size(kTimeStepsS) - 1];
}

}  // namespace gpuplan::ui
