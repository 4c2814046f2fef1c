// Calendar dates and clock times as seconds, for the readers of timestamped text (the Philly
// trace, Slurm's accounting export). No time zone: the files give local times, and only
// differences between them are used.
#pragma once

namespace gpuplan::detail {

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
inline long long daysFromCivil(int y, unsigned m, unsigned d) {
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

}  // namespace gpuplan::detail
