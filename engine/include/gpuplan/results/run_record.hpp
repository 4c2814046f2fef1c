// What a run records as it goes: its setup (the fleet, the jobs as generated, the names and
// traits of their sources) and its log (every binding and its pods, node changes, MIG re-cuts,
// samples and diagnoses). The simulation appends to a RunRecord and reads nothing else of its
// output; Results is built from the record when the run ends, or from a copy of it for a
// partial snapshot (results.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/core/gpu_units.hpp"
#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/model/job_source_traits.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/pod_placement.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"

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
    std::uint32_t placementBegin = 0;  ///< into RunRecord::placements
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

/// A pending (or placed-but-stuck) job at one sample, with its layer and reason.
struct PendingEntry {
    std::uint32_t job = 0;
    Layer layer = Layer::Scheduling;
    ReasonToken token = ReasonToken::None;
    std::uint32_t reason = 0;  ///< into RunRecord::reasons
};

/// A diagnosis recorded between samples: a job was queued (submitted, or evicted) and could
/// not start at that instant, or it was bound into a startup or a crash loop.
struct TimedDiagnosis {
    double timeS = 0;
    PendingEntry entry;
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

struct Series {
    std::string name;  ///< series name, e.g. "allocation", "pending_gpus{workload}"
    std::string unit;  ///< "fraction", "gpus", "jobs", "s"
    std::vector<double> values;
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

/// USD per hour pods hold: their GPU-equivalents × their nodes' prices per GPU-hour (0 on
/// an unpriced fleet).
double usdPerHourOf(const Fleet& fleet, std::span<const PodPlacement> pods);

struct RunRecord {
    // The setup, written before the first event.
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
    /// Every job source's traits (checkpoints, elastic maximum, engine activity, arithmetic),
    /// by source as classNames, explicitNames and traceNames are.
    JobSourceTraits sourceTraits;

    // The log, appended to as the run goes.
    std::vector<JobRecord> jobs;  ///< in submit order
    std::vector<RunSegment> segments;
    std::vector<PodPlacement> placements;
    std::vector<NodeStateChange> nodeChanges;  ///< after t = 0, in time order
    std::vector<MigRecutRecord> migRecuts;     ///< dynamic MIG, by startS
    std::vector<double> sampleTimesS;
    std::vector<Series> series;
    std::vector<std::uint32_t> pendingBegin;  ///< per sample + 1, into `pending`
    /// Per sample: queued jobs not listed in `pending` (beyond the per-sample cap).
    std::vector<std::uint32_t> pendingOmitted;
    std::vector<PendingEntry> pending;
    std::vector<std::string> reasons;
    /// Diagnoses between samples, in time order while the run goes; Results groups them by
    /// job (Results::jobDiagnosisBegin), each job's in time order.
    std::vector<TimedDiagnosis> jobDiagnoses;

    const Series* findSeries(std::string_view name) const;
    std::string jobName(std::uint32_t job) const;
    /// The job's class: its class name, "(explicit jobs)" or "(trace NAME)".
    std::string jobClassName(std::uint32_t job) const;
    /// The reason text, or "not diagnosed" (diagnosis off).
    std::string reasonText(std::uint32_t reason) const;
    std::span<const PendingEntry> pendingAtSample(std::size_t sample) const;
    /// How the job saves its work (interval 0 = never: an eviction loses all).
    CheckpointPolicy checkpointOf(std::uint32_t job) const;
    /// How often the job saves its work, seconds of work; 0 = never (an eviction loses all).
    double checkpointIntervalS(std::uint32_t job) const { return checkpointOf(job).intervalS; }
    /// The most pods the job may hold: its own pods, or more for an elastic job (whole pods up
    /// to its source's elasticMaxGpus).
    int maxPodsOf(std::uint32_t job) const;
    /// The job's source's engineActive (JobTraitsDef), 0 where unset.
    float engineActiveOf(const JobSpec& spec) const { return sourceTraits.engineActiveOf(spec); }
    /// The job's MFU at full speed on `gpu` (JobSourceTraits::mfuOn).
    double mfuOn(const JobSpec& spec, const GpuModel& gpu) const {
        return sourceTraits.mfuOn(spec, gpu);
    }
    std::span<const PodPlacement> placementOf(const RunSegment& segment) const {
        return {placements.data() + segment.placementBegin, segment.placementCount};
    }
    /// GPU-equivalents a binding's work is counted in (lost work, useful GPU-seconds): what it
    /// holds, × pods asked ÷ pods held (an elastic job's work is measured at its own size).
    double workGpusOf(const RunSegment& segment) const {
        const JobSpec& s = jobs[segment.job].spec;
        return gpuEquivalentsOf(segment) * (static_cast<double>(s.pods()) / segment.placementCount);
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
};

}  // namespace gpuplan
