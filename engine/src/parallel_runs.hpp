// Independent runs (replications, sweep points) on the machine's cores. Each task writes its
// own slot, so what comes out does not depend on the number of threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace gpuplan::detail {

/// Calls task(i) once for every i < count on up to `threads` threads (0: every core). Once
/// `abort` is true (a task saw a stop request) or a task throws, tasks not yet begun are
/// skipped; the first exception is rethrown here.
void runInParallel(std::size_t count, int threads, const std::function<void(std::size_t)>& task,
                   std::atomic<bool>& abort);

}  // namespace gpuplan::detail
