// The app's one way to write a simulated time ("d1 06:00" = day 1, days counting from 0, at
// 06:00) and a duration ("45 s", "3 min", "12.5 h", "3.0 d"). The time scrubber, chart axes,
// menus, undo labels, tables and the engine's reason texts all read them from here, so a
// pending row's wait and its reason round the same way.
#pragma once

#include <string>

namespace gpuplan {

/// "d1 06:00" for 30 h; whole minutes, rounded (a tick at 06:00 never reads 05:59); negative
/// times read as 0 and non-finite ones as "–". `dropMidnight`: "d2" instead of "d2 00:00"
/// (short axis labels).
std::string formatSimTime(double timeS, bool dropMidnight = false);

/// A duration in the largest unit that keeps it readable: whole seconds below 2 min, whole
/// minutes below 2 h, hours to a tenth below 2 days, else days to a tenth. The value is
/// rounded half away from zero in the unit shown, and the unit is chosen after rounding
/// (119.6 s reads "2 min", never "120 s"). Negative durations read with a leading '-';
/// non-finite ones as "–".
std::string formatDuration(double seconds);

}  // namespace gpuplan
