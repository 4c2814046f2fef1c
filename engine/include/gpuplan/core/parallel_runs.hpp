// Independent runs (replications, sweep points, fill-study seeds) on the machine's cores. Each task
// writes its own slot, so what comes out does not depend on the number of threads.
#pragma once

#include <cstddef>
#include <functional>
#include <stop_token>

namespace gpuplan {

/// Calls task(i, stop) once for every i < count on up to `threads` threads (0: every core).
/// `stop` (passed on to the runs) is requested when the caller's is, when a task throws (the
/// runs still going end within milliseconds; the first exception is rethrown here), or when a
/// task returns false (it saw a stop request). Tasks not begun by then are skipped. Returns
/// false when stopped.
bool runInParallel(std::size_t count, int threads,
                   const std::function<bool(std::size_t, std::stop_token)>& task,
                   std::stop_token stop);

}  // namespace gpuplan
