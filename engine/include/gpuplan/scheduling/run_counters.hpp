// What the scheduler counts as a run goes (RunOptions::counters): how many passes it made and
// how much of the queue they looked at. For benchmarks and tests of the scan's cost.
#pragma once

#include <cstdint>

namespace gpuplan {

/// What the scheduler did in a run, counted when RunOptions::counters points at one (tests
/// and profiling read it; a run without it counts nothing).
struct RunCounters {
    std::uint64_t passes = 0;
    std::uint64_t arrivalPasses = 0;  ///< passes that looked only at new arrivals
    /// Arrivals skipped in those passes because a shape that failed in an earlier pass
    /// covers theirs (the failures carried over from pass to pass).
    std::uint64_t carriedSkips = 0;
    /// Skipped jobs tried anyway by the invariant checks, and found not to fit.
    std::uint64_t verifiedSkips = 0;
    /// Queued jobs full passes looked at (a backlog of one shape costs a few a pass).
    std::uint64_t jobsVisited = 0;
};

}  // namespace gpuplan
