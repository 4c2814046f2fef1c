// Calendar dates and clock times as seconds, for the readers of timestamped text (the Philly
// trace, Slurm's accounting export). No time zone: the files give local times, and only
// differences between them are used.
#pragma once

namespace gpuplan::detail {

/// The days of a month of the proleptic Gregorian calendar: February has 29 in a year
/// divisible by 4, except a century not divisible by 400 (2000 yes, 1900 no).
inline unsigned daysInMonth(int year, unsigned month) {
    constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12) return 0;
    const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

/// A real day of the calendar: month 1–12, day 1 to the month's last ("2026-02-31" is not).
inline bool isCalendarDate(int year, unsigned month, unsigned day) {
    return day >= 1 && day <= daysInMonth(year, month);
}

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
