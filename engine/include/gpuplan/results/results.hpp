// Immutable results of one run, shared as std::shared_ptr<const Results>: the run's record
// (run_record.hpp: setup, bindings, samples, diagnoses) and what is built from it when the run
// ends: KPIs (fleet-wide and per team / job class), the pending diagnosis at any exact time t,
// what is needed to draw the cluster at any time t, and a fingerprint of the event sequence and
// placements.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuplan/core/stabbing_index.hpp"
#include "gpuplan/results/gpu_timeline.hpp"
#include "gpuplan/results/run_record.hpp"

namespace gpuplan {

/// What evictions cost one job (the inspector's and jobs.csv's numbers).
struct JobInterruptions {
    int restarts = 0;      ///< bindings it was taken off (evicted), each queued again to restart
    double lostWorkS = 0;  ///< work lost since the last checkpoints, ideal seconds
    double lostGpuS = 0;   ///< the same in GPU-seconds (× the GPU-equivalents each binding held)
};

/// Preemption health of one job (the thresholds are the scenario's scheduler settings).
struct JobHealth {
    int preemptions = 0;        ///< bindings that ended preempted
    double longestQueuedS = 0;  ///< longest stretch in the queue: submission or eviction to start
    bool thrashing = false;     ///< preemptions ≥ thrashingPreemptions
    bool starved = false;       ///< longestQueuedS > starvationWaitS
};

/// A job waiting in the queue, or bound but stuck (workload layer), at an exact time.
struct PendingJob {
    std::uint32_t job = 0;
    Layer layer = Layer::Scheduling;
    ReasonToken token = ReasonToken::None;  ///< Kueue's, when quota keeps it out
    std::uint32_t reason = kNoReason;       ///< into Results::reasons; kNoReason = not diagnosed
    double waitingS = 0;      ///< t − submit (an evicted job's wait includes the time it ran)
    double diagnosedAtS = 0;  ///< when the layer and reason were found (≤ t)
    static constexpr std::uint32_t kNoReason = 0xFFFFFFFFu;
};

/// When a job waits in the queue or is bound but stuck: [startS, endS), endS = +inf when it
/// still waits when the run ends.
struct PendingSpan {
    double startS = 0;
    double endS = std::numeric_limits<double>::infinity();
    std::uint32_t job = 0;
    bool stuck = false;  ///< bound, starting up or crash-looping (workload layer)
};

/// KPIs of one team or one job class, from the job records and run segments at the end of
/// the run, with the fleet-wide rules (censored waits, nearest-rank percentiles).
struct GroupKpis {
    std::string name;
    double allocationShare = 0;  ///< its allocated GPU-s ÷ the fleet's provisioned GPU-s
    double gpuHours = 0;         ///< allocated GPU-hours
    double waitP50S = std::numeric_limits<double>::quiet_NaN();  ///< censored, see wait_s_p50
    double waitP95S = std::numeric_limits<double>::quiet_NaN();
    int submitted = 0;
    int completed = 0;
    int waitingAtEnd = 0;  ///< queued when the run ends
    double gpusWaitingAtEnd = 0;
    // Teams only. Quota (NaN without one): nominal GPU-equivalents, and the used, borrowed
    // and lent GPU-equivalents averaged over the samples.
    double nominalGpus = std::numeric_limits<double>::quiet_NaN();
    double usedGpusMean = std::numeric_limits<double>::quiet_NaN();
    double borrowedGpusMean = std::numeric_limits<double>::quiet_NaN();
    double lentGpusMean = std::numeric_limits<double>::quiet_NaN();
    int preemptions = 0;    ///< times its jobs were preempted
    int thrashingJobs = 0;  ///< its jobs flagged thrashing (JobHealth)
    int starvedJobs = 0;    ///< its jobs flagged starved (JobHealth)
    /// Teams only, priced fleets only (else NaN): chargeback, what its jobs held (GPU-
    /// equivalents: MIG instances and shares by their share) × the held GPUs' prices.
    double costUsd = std::numeric_limits<double>::quiet_NaN();
};

struct Kpi {
    std::string name;  ///< e.g. "allocation_mean", "wait_s_p95"
    double value = 0;
    std::string unit;
    std::string description;  ///< what it measures, in a sentence (for tables and tooltips)
};

/// One job's hold on one GPU: the whole GPU (milliGpu 1000) or a share of it.
struct GpuOccupant {
    std::uint32_t job = 0;
    std::uint16_t milliGpu = 1000;
    std::uint8_t migInstance = PodPlacement::kNoMig;  ///< its instance in the GPU's layout
    bool operator==(const GpuOccupant&) const = default;
};

/// The cluster at one instant, for the topology view and its time scrubber. GPUs are
/// numbered in Fleet node order, then slot order (Results::firstGpuOfNode).
struct ClusterSnapshot {
    double timeS = 0;
    std::vector<NodeState> nodeStates;
    /// Per GPU, the job that holds the most of it (the only one when held whole; the lower
    /// job index on a tie), −1 = free: what a view that colours one cell per GPU shows.
    std::vector<std::int32_t> gpuJob;
    /// Per GPU, every job on it, by job index: occupants[occupantBegin[g], occupantBegin[g+1]).
    std::vector<std::uint32_t> occupantBegin;
    std::vector<GpuOccupant> occupants;
    /// Per GPU, its MIG instances at timeS (the node's layout, or a dynamic re-cut's; empty
    /// while being re-cut); nullopt on other GPUs. Empty when the fleet has no MIG node.
    std::vector<std::optional<MigLayout>> migLayouts;
    std::vector<std::uint32_t> runningJobs;
    std::vector<PendingJob> pending;  ///< Results::pendingAt(timeS)

    std::span<const GpuOccupant> occupantsOf(int gpu) const {
        return {occupants.data() + occupantBegin[gpu], occupantBegin[gpu + 1] - occupantBegin[gpu]};
    }
    /// Milli-GPU held on a GPU (0 = free, 1000 = full).
    int usedMilli(int gpu) const {
        int used = 0;
        for (const GpuOccupant& o : occupantsOf(gpu))
            used += o.milliGpu;
        return used;
    }
};

/// A run's fingerprint as 16 hex digits.
std::string fingerprintHex(std::uint64_t fingerprint);

/// A run's record and what is built from it when the run ends (or when a partial snapshot is
/// taken): nothing here is read while the run goes.
struct Results : RunRecord {
    /// Every GPU's holds by start time, built from segments and placements when the run
    /// ends: timeline rows and stateAt read it.
    GpuTimeline gpuTimeline;
    /// Per sample: the reason of a generated job left out of the sample's list (it says so,
    /// with the sample's time), PendingJob::kNoReason where none was left out.
    std::vector<std::uint32_t> omittedReason;
    /// Per job + 1, into jobDiagnoses (grouped by job when the run ends).
    std::vector<std::uint32_t> jobDiagnosisBegin;
    std::vector<PendingSpan> pendingSpans;  ///< by startS
    StabbingIndex pendingSpanIndex;         ///< which pending spans hold a time (pendingAt)
    StabbingIndex segmentIndex;             ///< which bindings hold a time (stateAt)

    std::vector<Kpi> kpis;
    std::vector<GroupKpis> teamKpis;   ///< per team with a job submitted before the end
    std::vector<GroupKpis> classKpis;  ///< per job class (see jobClassName)
    std::uint64_t fingerprint = 0;
    std::uint64_t eventCount = 0;
    bool stopped = false;  ///< a stop request ended the run early; results are partial
    /// A snapshot of a run still going (RunOptions::onPartialResults): everything up to the
    /// simulated time it reached, finished as if the run ended there.
    bool partial = false;
    /// The simulated time the results reach: horizonS, or less when stopped or partial.
    double endS = 0;

    Results() = default;
    /// The record's results, before anything is built from it.
    explicit Results(RunRecord record) : RunRecord(std::move(record)) {}

    const Kpi* findKpi(std::string_view name) const;
    double kpi(std::string_view name) const;  ///< NaN when absent
    std::string fingerprintHex() const;
    /// When the binding wrote its periodic checkpoints (each one's end), those in
    /// [fromS, toS], at most maxCount: its progress starts startupS after it was bound, at its
    /// pace (RunSegment::slowdown: exact on GPUs held whole; on a shared GPU, whose pace
    /// varies with its neighbours, its mean), resuming at savedWorkS; none at completion and
    /// none past the binding's end.
    std::vector<double> checkpointTimesS(std::uint32_t segment, double fromS, double toS,
                                         std::size_t maxCount) const;
    /// One job's restarts and lost work, from its segments (a scan of them all).
    JobInterruptions interruptionsOf(std::uint32_t job) const;
    /// Every job's, in one scan.
    std::vector<JobInterruptions> interruptionsByJob() const;
    /// Every job's preemption health, in one scan of the segments.
    std::vector<JobHealth> healthByJob() const;
    /// One job's (a scan of every segment when it was bound more than once).
    JobHealth healthOf(std::uint32_t job) const;
    /// Per GPU, its MIG instances at timeS (see ClusterSnapshot::migLayouts).
    std::vector<std::optional<MigLayout>> migLayoutsAt(double timeS) const;
    /// The sample in force at timeS: the last one taken at or before it (sampleTimesS);
    /// nullopt before the first. The one rule for charts, pending lists and readouts.
    std::optional<std::size_t> sampleAt(double timeS) const;
    ClusterSnapshot stateAt(double timeS) const;
    /// The jobs waiting or stuck at exactly timeS (submitted ≤ t, not bound or bound but not
    /// progressing, not ended), in job order, with the latest diagnosis at or before t.
    std::vector<PendingJob> pendingAt(double timeS) const;
};

}  // namespace gpuplan
