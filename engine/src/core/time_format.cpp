#include "gpuplan/core/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan {

std::string formatSimTime(double timeS, bool dropMidnight) {
    if (!std::isfinite(timeS)) return "–";
    const long long minutes = std::llround(std::max(0.0, timeS) / 60);
    const long long day = minutes / 1440;
    const int h = static_cast<int>(minutes % 1440 / 60), m = static_cast<int>(minutes % 60);
    char text[40];
    if (dropMidnight && h == 0 && m == 0)
        std::snprintf(text, sizeof text, "d%lld", day);
    else
        std::snprintf(text, sizeof text, "d%lld %02d:%02d", day, h, m);
    return text;
}

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds)) return "–";
    // std::round is half away from zero; printf's own rounding (half to even on the binary
    // value) and Qt's differ from it and from each other, so the value is rounded here and
    // printed exactly.
    const double s = std::fabs(seconds);
    const char* sign = seconds < 0 ? "-" : "";
    char text[48];
    if (const double whole = std::round(s); whole < 120) {
        std::snprintf(text, sizeof text, "%s%.0f s", whole > 0 ? sign : "", whole);
    } else if (const double minutes = std::round(s / 60); minutes < 120) {
        std::snprintf(text, sizeof text, "%s%.0f min", sign, minutes);
    } else if (const double hours = std::round(s / 360) / 10; hours < 48) {
        std::snprintf(text, sizeof text, "%s%.1f h", sign, hours);
    } else {
        std::snprintf(text, sizeof text, "%s%.1f d", sign, std::round(s / 8640) / 10);
    }
    return text;
}

}  // namespace gpuplan
