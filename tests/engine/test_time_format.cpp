#include <catch2/catch.hpp>
#include <limits>

#include "gpuplan/time_format.hpp"

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
