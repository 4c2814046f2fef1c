// Immutable results of one run, shared as std::shared_ptr<const Results>: column-wise time
// series, per-job records, KPIs (fleet-wide and per team / job class), the pending diagnosis
// at every sample and between samples, what is needed to draw the cluster and list the
// pending jobs at any exact time t, and a fingerprint of the event sequence and placements.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/core/gpu_units.hpp"
#include "gpuplan/core/stabbing_index.hpp"
#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/model/job_source_traits.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/pod_placement.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/gpu_timeline.hpp"

namespace gpuplan {

/// The four layers of the AI-compute stack; every Pending job is blamed on exactly one.
enum class Layer : std::uint8_t { Reservation, Provisioning, Scheduling, Workload };
inline constexpr int kLayerCount = 4;
const char* toString(Layer);

enum class JobStatus : std::uint8_t {
    Pending,  ///< never bound before the horizon
    Running,  ///< bound at the horizon
    Completed,
    Failed,  ///< crash-looped until its restart budget ran out
};
const char* toString(JobStatus);

/// How a binding ended. Evicted: its node failed or went away. Preempted: another job took
/// its GPUs or its quota (priority preemption, Kueue's reclaim). Resized: an elastic job grew
/// or shrank; its next binding starts at the same instant with all its work.
enum class SegmentEnd : std::uint8_t { Completed, Failed, Evicted, Horizon, Preempted, Resized };

/// One binding of a job to GPUs, from bind to release (a job evicted by a node failure and
/// started again has several).
struct RunSegment {
    std::uint32_t job = 0;
    /// Evicted: the work it did since the job's last checkpoint, which is lost (ideal
    /// seconds; all it did without checkpoints). 0 for other ends. Fills the padding after job.
    float lostWorkS = 0;
    double startS = 0;
    double endS = 0;
    std::uint32_t placementBegin = 0;  ///< into Results::placements
    std::uint32_t placementCount = 0;
    /// Wall seconds per second of the job's work: the placement's slowdown, × pods asked ÷
    /// pods held (an elastic job grown past its size works faster, so below 1).
    float slowdown = 1;
    FabricTier tier = FabricTier::Nvlink;
    SegmentEnd end = SegmentEnd::Completed;
    bool crashLoop = false;  ///< memory need above the GPU's HBM: bound, never progressing
    /// Work its checkpoints had saved when it was bound (ideal seconds): where it resumed, and
    /// so where its checkpoints fell (Results::checkpointTimesS).
    float savedWorkS = 0;
};
// One per binding, up to millions a run: lostWorkS lives in what was padding.
static_assert(sizeof(RunSegment) == 48);

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

struct JobRecord {
    JobSpec spec;
    double firstStartS = -1;  ///< −1 = never bound
    double endS = -1;         ///< completion or failure; −1 = not ended by the horizon
    std::uint32_t lastSegment = 0xFFFFFFFFu;
    std::uint32_t segmentCount = 0;
    float slowdown = 1;  ///< of the last binding
    JobStatus status = JobStatus::Pending;

    double waitS() const { return firstStartS - spec.submitS; }
    double jctS() const { return endS - spec.submitS; }
};

/// A pending (or placed-but-stuck) job at one sample, with its layer and reason.
/// Kueue's names for why quota keeps a workload out (scheduling layer); None for the other
/// reasons a job waits.
enum class ReasonToken : std::uint8_t {
    None,
    ExceedsMaxQuota,        ///< more than its quota could ever give it (or no quota there)
    BorrowingLimitReached,  ///< the cohort has it unused, but the team may not borrow more
    WaitingForQuota,        ///< the team's and its cohort's quota are in use
    WaitingForPreemptedWorkloads,
    Preempted,
};
const char* toString(ReasonToken token);

struct PendingEntry {
    std::uint32_t job = 0;
    Layer layer = Layer::Scheduling;
    ReasonToken token = ReasonToken::None;
    std::uint32_t reason = 0;  ///< into Results::reasons
};

/// A diagnosis recorded between samples: a job was queued (submitted, or evicted) and could
/// not start at that instant, or it was bound into a startup or a crash loop.
struct TimedDiagnosis {
    double timeS = 0;
    PendingEntry entry;
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

struct Series {
    std::string name;  ///< series name, e.g. "allocation", "pending_gpus{workload}"
    std::string unit;  ///< "fraction", "gpus", "jobs", "s"
    std::vector<double> values;
};

struct Kpi {
    std::string name;  ///< e.g. "allocation_mean", "wait_s_p95"
    double value = 0;
    std::string unit;
    std::string description;  ///< what it measures, in a sentence (for tables and tooltips)
};

/// Why a node changed state.
enum class NodeChangeCause : std::uint8_t {
    Scheduled,    ///< the scenario's node events (and edits in the application)
    Delivery,     ///< a Provisioning node's readyAtS
    Failure,      ///< a random failure (FailureDef)
    Repair,       ///< its repair, repairS later
    SpotNotice,   ///< a spot reclaim's notice: cordoned, its jobs told (SpotDef)
    SpotReclaim,  ///< the spot instance taken away (Failed)
    SpotReturn,   ///< a new spot instance in its place, returnS later
    ScaleUp,      ///< an elastic on-demand node requested for queued jobs is Ready (OnDemandDef)
    ScaleDown,    ///< an elastic on-demand node idle for idleTimeoutS given back (Provisioning)
    DrainDone,    ///< a Draining node's last pod left: it goes to Repairing
    SpareIn,      ///< a hot spare takes a failed node's place (Ready)
    SpareOut,     ///< a repaired node becomes a hot spare (Cordoned) instead of Ready
};
const char* toString(NodeChangeCause);

struct NodeStateChange {
    double timeS = 0;
    std::uint32_t node = 0;
    NodeState state = NodeState::Ready;
    NodeChangeCause cause = NodeChangeCause::Scheduled;
};

/// One job's hold on one GPU: the whole GPU (milliGpu 1000) or a share of it.
struct GpuOccupant {
    std::uint32_t job = 0;
    std::uint16_t milliGpu = 1000;
    std::uint8_t migInstance = PodPlacement::kNoMig;  ///< its instance in the GPU's layout
    bool operator==(const GpuOccupant&) const = default;
};

/// A dynamic-MIG re-cut of one GPU: no instances from startS to readyS (the provisioning
/// layer), then `layout`.
struct MigRecutRecord {
    double startS = 0;
    double readyS = 0;
    std::uint32_t node = 0;
    int slot = 0;
    std::string layout;        ///< what it holds from readyS, "3g.40gb@0 + 1g.10gb@4"
    std::uint32_t forJob = 0;  ///< the pending job it was cut for
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

/// The KPIs' measurement window, [fromS, the run's end) (Scenario::warmupS): the one rule for
/// what a KPI counts. Series cover the whole run.
struct MeasurementWindow {
    double fromS = 0;

    /// An event, a submission or a sample at timeS counts.
    bool counts(double timeS) const { return timeS >= fromS; }
    /// The part of [startS, endS) inside the window, in seconds.
    double clipS(double startS, double endS) const {
        return std::max(0.0, endS - std::max(startS, fromS));
    }
    /// The share of [startS, endS) inside the window (an instant: 1 if it counts, else 0).
    double shareOf(double startS, double endS) const {
        return endS > startS ? clipS(startS, endS) / (endS - startS) : (counts(endS) ? 1 : 0);
    }
    /// A run that ended (or a snapshot taken) by fromS measured nothing yet.
    bool measuredNothing(double endS) const { return fromS > 0 && endS <= fromS; }
    /// The first of the sample times that counts.
    std::size_t firstSample(std::span<const double> sampleTimesS) const {
        return static_cast<std::size_t>(
            std::lower_bound(sampleTimesS.begin(), sampleTimesS.end(), fromS) -
            sampleTimesS.begin());
    }
};

/// A run's fingerprint as 16 hex digits.
std::string fingerprintHex(std::uint64_t fingerprint);

/// USD per hour pods hold: their GPU-equivalents × their nodes' prices per GPU-hour (0 on
/// an unpriced fleet).
double usdPerHourOf(const Fleet& fleet, std::span<const PodPlacement> pods);

struct Results {
    Fleet fleet;
    std::vector<int> firstGpuOfNode;  ///< prefix sums of Fleet::nodes[i].gpus
    std::vector<std::string> teams;
    std::vector<std::string> teamColors;  ///< "#rrggbb" per team, empty = let the UI choose
    std::vector<std::string> classNames, explicitNames, traceNames;
    double horizonS = 0;
    double sampleIntervalS = 0;
    /// KPIs measure [warmupS, endS) (Scenario::warmupS); series cover the whole run.
    double warmupS = 0;
    MeasurementWindow measurementWindow() const { return {warmupS}; }
    int thrashingPreemptions = 3;  ///< SchedulerDef's, for JobHealth
    double starvationWaitS = 86400;
    /// FailureDef::mtbfGpuHours when the run draws random failures, else 0.
    double failureMtbfGpuHours = 0;

    std::vector<JobRecord> jobs;  ///< in submit order
    std::vector<RunSegment> segments;
    std::vector<PodPlacement> placements;
    std::vector<NodeStateChange> nodeChanges;  ///< after t = 0, in time order
    std::vector<MigRecutRecord> migRecuts;     ///< dynamic MIG, by startS
    /// Every GPU's holds by start time, built from segments and placements when the run
    /// ends: timeline rows and stateAt read it.
    GpuTimeline gpuTimeline;

    std::vector<double> sampleTimesS;
    std::vector<Series> series;
    std::vector<std::uint32_t> pendingBegin;  ///< per sample + 1, into `pending`
    /// Per sample: queued jobs not listed in `pending` (beyond the per-sample cap).
    std::vector<std::uint32_t> pendingOmitted;
    /// Per sample: the reason of a generated job left out of the sample's list (it says so,
    /// with the sample's time), PendingJob::kNoReason where none was left out.
    std::vector<std::uint32_t> omittedReason;
    std::vector<PendingEntry> pending;
    std::vector<std::string> reasons;
    /// Diagnoses between samples, grouped by job (jobDiagnosisBegin, per job + 1), each
    /// job's in time order.
    std::vector<TimedDiagnosis> jobDiagnoses;
    std::vector<std::uint32_t> jobDiagnosisBegin;
    std::vector<PendingSpan> pendingSpans;  ///< by startS
    StabbingIndex pendingSpanIndex;         ///< which pending spans hold a time (pendingAt)
    StabbingIndex segmentIndex;             ///< which bindings hold a time (stateAt)

    /// Every job source's traits (checkpoints, elastic maximum, engine activity, arithmetic),
    /// by source as classNames, explicitNames and traceNames are.
    JobSourceTraits sourceTraits;

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

    const Series* findSeries(std::string_view name) const;
    const Kpi* findKpi(std::string_view name) const;
    double kpi(std::string_view name) const;  ///< NaN when absent
    std::string fingerprintHex() const;
    std::string jobName(std::uint32_t job) const;
    /// How the job saves its work (interval 0 = never: an eviction loses all).
    CheckpointPolicy checkpointOf(std::uint32_t job) const;
    /// How often the job saves its work, seconds of work; 0 = never (an eviction loses all).
    double checkpointIntervalS(std::uint32_t job) const { return checkpointOf(job).intervalS; }
    /// When the binding wrote its periodic checkpoints (each one's end), those in
    /// [fromS, toS], at most maxCount: its progress starts startupS after it was bound, at its
    /// pace (RunSegment::slowdown: exact on GPUs held whole; on a shared GPU, whose pace
    /// varies with its neighbours, its mean), resuming at savedWorkS; none at completion and
    /// none past the binding's end.
    std::vector<double> checkpointTimesS(std::uint32_t segment, double fromS, double toS,
                                         std::size_t maxCount) const;
    /// The most pods the job may hold: its own pods, or more for an elastic job (whole pods up
    /// to its source's elasticMaxGpus).
    int maxPodsOf(std::uint32_t job) const;
    /// The job's source's engineActive (JobTraitsDef), 0 where unset.
    float engineActiveOf(const JobSpec& spec) const { return sourceTraits.engineActiveOf(spec); }
    /// The job's MFU at full speed on `gpu` (JobSourceTraits::mfuOn).
    double mfuOn(const JobSpec& spec, const GpuModel& gpu) const {
        return sourceTraits.mfuOn(spec, gpu);
    }
    /// GPU-equivalents a binding's work is counted in (lost work, useful GPU-seconds): what it
    /// holds, × pods asked ÷ pods held (an elastic job's work is measured at its own size).
    double workGpusOf(const RunSegment& segment) const {
        const JobSpec& s = jobs[segment.job].spec;
        return gpuEquivalentsOf(segment) * (static_cast<double>(s.pods()) / segment.placementCount);
    }
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
    /// The job's class: its class name, "(explicit jobs)" or "(trace NAME)".
    std::string jobClassName(std::uint32_t job) const;
    /// The reason text, or "not diagnosed" (diagnosis off).
    std::string reasonText(std::uint32_t reason) const;
    std::span<const PendingEntry> pendingAtSample(std::size_t sample) const;
    /// The sample in force at timeS: the last one taken at or before it (sampleTimesS);
    /// nullopt before the first. The one rule for charts, pending lists and readouts.
    std::optional<std::size_t> sampleAt(double timeS) const;
    std::span<const PodPlacement> placementOf(const RunSegment& segment) const {
        return {placements.data() + segment.placementBegin, segment.placementCount};
    }
    /// The GPU model a binding runs on (a gang's pods share one: its first pod's).
    const GpuModel& gpuModelOf(const RunSegment& segment) const {
        return fleet.gpuModels[fleet.nodes[placements[segment.placementBegin].node].gpuModel];
    }
    /// The same exactly, in units of 1/kGpuUnitsPerGpu GPU (PodPlacement::gpuUnits).
    std::int64_t gpuUnitsOf(const RunSegment& segment) const {
        std::int64_t units = 0;
        for (const PodPlacement& pod : placementOf(segment))
            units += pod.gpuUnits();
        return units;
    }
    /// GPU-equivalents a binding holds: whole GPUs count 1, a share its milli-GPU ÷ 1000.
    double gpuEquivalentsOf(const RunSegment& segment) const {
        double gpus = 0;
        for (const PodPlacement& pod : placementOf(segment))
            gpus += pod.gpuEquivalents();
        return gpus;
    }
    /// What a binding cost while it held its GPUs: its GPU-equivalents × their nodes' prices
    /// × its duration (0 on an unpriced fleet).
    double costUsdOf(const RunSegment& segment) const;
    ClusterSnapshot stateAt(double timeS) const;
    /// The jobs waiting or stuck at exactly timeS (submitted ≤ t, not bound or bound but not
    /// progressing, not ended), in job order, with the latest diagnosis at or before t.
    std::vector<PendingJob> pendingAt(double timeS) const;
};

}  // namespace gpuplan
