#include "gpuplan/time_format.hpp"

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

}  // namespace gpuplan
