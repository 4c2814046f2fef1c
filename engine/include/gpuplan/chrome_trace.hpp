// A run as Chrome trace-event JSON (the format Perfetto and chrome://tracing open): a process
// per node, a thread per GPU, a complete event for every job binding on every GPU it held,
// instant events for preemptions, node failures and spot reclaims, and counters for the
// allocation and the queue length. Times are in microseconds of simulated time.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>

#include "gpuplan/results.hpp"

namespace gpuplan {

/// What a trace holds, for a caller to report (and tests to check).
struct ChromeTraceCounts {
    std::size_t completeEvents = 0;  ///< one per (binding × GPU slot it held)
    std::size_t instantEvents = 0;   ///< preemptions, failures, reclaims
    std::size_t counterEvents = 0;   ///< allocation and queue length, one per sample each
};

/// Streams the trace (no document is built in memory: a 100k-GPU run has millions of events).
ChromeTraceCounts writeChromeTrace(const Results& results, std::ostream& out);

/// Writes it to `file` atomically (a temporary beside it, then a rename). Throws
/// std::runtime_error naming the file when it cannot be written.
ChromeTraceCounts saveChromeTrace(const Results& results, const std::filesystem::path& file);

}  // namespace gpuplan
