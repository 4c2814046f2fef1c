#include <catch2/catch.hpp>
#include <limits>

#include "gpuplan/core/time_format.hpp"

using namespace gpuplan;

TEST_CASE("Simulated times read as days from 0 and the time of day") {
    CHECK(formatSimTime(0) == "d0 00:00");
    // 30 h = day 1 (the second day, counted from 0) at 06:00.
    CHECK(formatSimTime(30 * 3600.0) == "d1 06:00");
    // 48 h = d2 00:00; short labels drop the midnight.
    CHECK(formatSimTime(48 * 3600.0) == "d2 00:00");
    CHECK(formatSimTime(48 * 3600.0, true) == "d2");
    CHECK(formatSimTime(30 * 3600.0, true) == "d1 06:00");
    // 05:59:40 rounds to the whole minute 06:00, never shows 05:59.
    CHECK(formatSimTime(6 * 3600.0 - 20) == "d0 06:00");
    CHECK(formatSimTime(-5) == "d0 00:00");
    CHECK(formatSimTime(std::numeric_limits<double>::quiet_NaN()) == "–");
}

TEST_CASE("Durations: one unit and one rounding rule for every text", "[time_format]") {
    // Seconds below 2 min, whole.
    CHECK(formatDuration(0) == "0 s");
    CHECK(formatDuration(45) == "45 s");
    CHECK(formatDuration(44.5) == "45 s");  // half away from zero (printf's "%.0f" gives 44)
    CHECK(formatDuration(119.4) == "119 s");
    // 119.6 s rounds to 120 s, which is 2 min: the unit is chosen after rounding.
    CHECK(formatDuration(119.6) == "2 min");
    // Minutes below 2 h, whole: 150 s = 2.5 min rounds up to 3 (printf: 2, Qt: 3 — the
    // trial's "Waiting 2 min" beside "for 3 min").
    CHECK(formatDuration(150) == "3 min");
    CHECK(formatDuration(180) == "3 min");
    CHECK(formatDuration(209.9) == "3 min");  // 3.498 min
    CHECK(formatDuration(210) == "4 min");    // 3.5 min
    // 7,169 s = 119.48 min → 119 min; 7,171 s = 119.52 min → 120 min = 2.0 h.
    CHECK(formatDuration(7169) == "119 min");
    CHECK(formatDuration(7171) == "2.0 h");
    // Hours to a tenth below 2 days: 45,000 s = 12.5 h; 12.45 h = 44,820 s → 12.5 (half up).
    CHECK(formatDuration(45000) == "12.5 h");
    CHECK(formatDuration(44820) == "12.5 h");
    CHECK(formatDuration(44819) == "12.4 h");  // 12.4497 h
    // 47.96 h rounds to 48.0 h = 2 days: 172,656 s ÷ 86,400 = 1.998 d → 2.0 d.
    CHECK(formatDuration(47.96 * 3600) == "2.0 d");
    CHECK(formatDuration(47.94 * 3600) == "47.9 h");
    // Days to a tenth: 7 days; 3.25 d = 280,800 s → 3.3 d (half up).
    CHECK(formatDuration(7 * 86400.0) == "7.0 d");
    CHECK(formatDuration(3.25 * 86400) == "3.3 d");
    // Negative: the same rule on the magnitude with a '-'; a negative that rounds to 0 is "0 s".
    CHECK(formatDuration(-150) == "-3 min");
    CHECK(formatDuration(-0.3) == "0 s");
    CHECK(formatDuration(std::numeric_limits<double>::infinity()) == "–");
    CHECK(formatDuration(std::numeric_limits<double>::quiet_NaN()) == "–");
}
