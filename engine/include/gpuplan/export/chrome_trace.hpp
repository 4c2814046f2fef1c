// A run as Chrome trace-event JSON (the format Perfetto and chrome://tracing open): a process
// per node, a thread per GPU, a complete event for every job binding on every GPU it held,
// instant events for preemptions, node failures and spot reclaims, and counters for the
// allocation and the queue length. Times are in microseconds of simulated time.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <stop_token>

#include "gpuplan/results/results.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan {

/// What a trace holds, for a caller to report (and tests to check).
struct ChromeTraceCounts {
    std::size_t completeEvents = 0;  ///< one per (binding × GPU slot it held)
    std::size_t instantEvents = 0;   ///< preemptions, failures, reclaims
    std::size_t counterEvents = 0;   ///< allocation and queue length, one per sample each
    bool stopped = false;            ///< a stop request ended the writing: the trace is cut short
};

/// Streams the trace (no document is built in memory: a 100k-GPU run has millions of events).
/// `progress` gets the fraction of GPU slices written; a stop request ends the writing within
/// a few thousand slices.
ChromeTraceCounts writeChromeTrace(const Results& results, std::ostream& out,
                                   const ProgressFn& progress = {}, std::stop_token stop = {});

/// Writes it to `file` atomically (a temporary beside it, then a rename); a stopped writing
/// leaves the file as it was. Throws std::runtime_error naming the file when it cannot be
/// written.
ChromeTraceCounts saveChromeTrace(const Results& results, const std::filesystem::path& file,
                                  const ProgressFn& progress = {}, std::stop_token stop = {});

}  // namespace gpuplan
