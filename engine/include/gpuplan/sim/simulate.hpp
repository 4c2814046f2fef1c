// The engine's entry point: one pure function from a scenario to immutable results.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/scheduling/run_counters.hpp"

namespace gpuplan {

struct RunOptions {
    std::optional<std::uint64_t> seed;  ///< overrides Scenario::seed
#ifdef NDEBUG
    bool checkInvariants = false;
#else
    bool checkInvariants = true;  ///< after every event: no GPU slot given twice, counters agree
#endif
    bool diagnosePending = true;  ///< pending diagnosis at every sample
    /// Pending entries kept per sample, the longest-waiting first in queue order; the
    /// pending_gpus series still count every job. Bounds memory for huge backlogs.
    std::size_t maxPendingEntriesPerSample = 10000;
    /// Pending entries kept over the whole run (12 bytes each): a sample's list is cut to
    /// this ÷ samples when that is smaller, so many samples of a long queue stay bounded.
    std::size_t maxPendingEntriesPerRun = 4'000'000;
    /// GPU holds elastic resizes may record over the run (a pod of k GPUs is k holds): each
    /// resize records the job's whole new binding (16 bytes a pod) and its GPUs' timeline
    /// (24 bytes a GPU held), so a huge gang resized often would grow the results without
    /// bound. At most about 1.3 GB; past it, jobs keep their size (KPI
    /// elastic_resizes_stopped_at_s). The run-cost estimate counts what resizes may record.
    std::size_t maxElasticResizeGpuHolds = std::size_t{1} << 25;
    RunCounters* counters = nullptr;  ///< when set, filled in as the run goes
    /// When set, called on the running thread with the results so far (Results::partial: as
    /// if the run ended at the simulated time reached) about every partialResultsEveryS of
    /// wall time, so a long run can be shown while it goes. Each costs a copy of the results:
    /// they come at least nine times that cost apart (a run slows by a tenth at most). 0: at
    /// every chance, each 4,096 loop steps (tests).
    std::function<void(std::shared_ptr<const Results>)> onPartialResults;
    double partialResultsEveryS = 1.0;
};

/// Called with the fraction of simulated time done, at most every few thousand events.
using ProgressFn = std::function<void(double fraction)>;

/// Crash-loop model (workload layer): a job whose memory need exceeds its GPU's HBM is bound,
/// runs each attempt for max(startupS, 30 s) before it runs out of memory, and is restarted
/// with kubelet's back-off (10 s doubling, capped at 300 s) up to the Job default
/// backoffLimit of 6 restarts; then it fails and frees its GPUs.
double crashLoopHoldS(double startupS);

/// Runs the scenario. A stop request ends the run within milliseconds; the results are then
/// marked `stopped` and cover only the simulated part. Throws std::invalid_argument when the
/// scenario references something that does not exist (validate first to get a good message).
Results simulate(const Scenario& scenario, const RunOptions& options = {},
                 const ProgressFn& progress = {}, std::stop_token stop = {});

}  // namespace gpuplan
