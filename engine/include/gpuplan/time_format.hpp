// The app's one way to write a simulated time: "d1 06:00" = day 1 (days count from 0) at
// 06:00. The time scrubber, chart axes, menus and undo labels all read it from here.
#pragma once

#include <string>

namespace gpuplan {

/// "d1 06:00" for 30 h; whole minutes, rounded (a tick at 06:00 never reads 05:59); negative
/// times read as 0 and non-finite ones as "–". `dropMidnight`: "d2" instead of "d2 00:00"
/// (short axis labels).
std::string formatSimTime(double timeS, bool dropMidnight = false);

}  // namespace gpuplan
