// A scenario is everything a run needs, as plain values with defaults and units in the names.
// JSON lives at the edge (scenario_io.hpp); the core only ever sees these types.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/pricing.hpp"
#include "gpuplan/model/quota.hpp"

namespace gpuplan {

inline constexpr int kScenarioFormatVersion = 1;

/// Node lifecycle (the provisioning layer). Only Ready nodes take new pods.
/// Cordoned nodes keep their pods and still count as provisioned; Draining ones too, and go
/// to Repairing (maintenance) once their last pod leaves. Failed, Repairing and Provisioning
/// nodes are not provisioned and hold no pods.
enum class NodeState { Provisioning, Ready, Cordoned, Failed, Draining, Repairing };
inline constexpr int kNodeStateCount = 6;

/// How a node's GPUs are shared between pods (engine/README.md, "Resource model").
enum class SharingMode : std::uint8_t {
    Whole,        ///< a GPU serves one pod; requests for a share of a GPU do not fit
    Mps,          ///< CUDA MPS: shares (milli-GPU) summing to ≤ 1000, at most `mpsClients`;
                  ///< a GPU no share holds still serves whole-GPU pods
    TimeSlicing,  ///< `timeSliceReplicas` replicas, each a 1000 / replicas share; a GPU no
                  ///< replica holds still serves whole-GPU pods
    Mig,  ///< every GPU cut into the GPU instances of its layout (`migLayout`, or its own in
          ///< `migLayouts`); MIG pods only
};

/// Consecutive GPUs of a node that share one MIG layout (GpuSharingDef::migLayouts).
struct MigLayoutRun {
    int gpus = 1;
    std::string layout;  ///< as GpuSharingDef::migLayout
    bool operator==(const MigLayoutRun&) const = default;
};

struct GpuSharingDef {
    /// The ranges the reader accepts (and the application's editor offers).
    static constexpr int kMaxMpsClients = 48;
    static constexpr int kMinReplicas = 2, kMaxReplicas = 64;

    SharingMode mode = SharingMode::Whole;
    int mpsClients = 48;  ///< per GPU (Volta and later: 48)
    /// MPS: each client's compute cap, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (1..100). 100 is
    /// CUDA's own default when none is set; NVIDIA recommends 100 / (0.5 · n) for n clients.
    double mpsComputeCapPct = 100;
    /// MPS: each client's pinned device-memory limit in GB; 0 = the GPU's HBM × the client's
    /// share (a per-client limit; the device plugin's HBM ÷ replicas is the case share =
    /// 1 / replicas). A client allocating past its limit gets out-of-memory.
    double mpsMemoryLimitGb = 0;
    int timeSliceReplicas = 4;  ///< per GPU
    /// Mig: each GPU's instances, e.g. "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb" (placed in the
    /// order written, as nvidia-smi would) or with start slots, "4g.40gb@0, 3g.40gb@4".
    std::string migLayout;
    /// Mig, a layout per GPU: runs of consecutive GPUs in GPU order, their counts summing to
    /// the node's GPUs (4 GPUs "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb", then 4 "3g.40gb, 3g.40gb").
    /// Empty: every GPU has `migLayout`; set: `migLayout` is empty.
    std::vector<MigLayoutRun> migLayouts;
    /// Mig: "dynamic MIG" — the scheduler may re-cut an idle GPU to fit MIG requests still
    /// pending (as NVIDIA's MIG manager does when a node's mig.config label changes). The
    /// layout above is then where the GPUs start, and may be empty.
    bool migDynamic = false;
    /// Mig: seconds a GPU is out of service while it is re-cut (provisioning layer). The
    /// reference found no measured figure; NVIDIA's GPU Operator docs say a MIG rollout takes
    /// "several minutes", so 180 s is assumed. Applies to dynamic re-cuts.
    double migReconfigureS = 180;

    /// The layout of GPU `gpu` (0-based) of a node: its run's in `migLayouts`, else
    /// `migLayout` (also past the runs' end, which the reader refuses).
    const std::string& migLayoutOfGpu(int gpu) const;
    /// The layouts a node's GPUs have, one per run (just `migLayout` without runs).
    std::vector<std::string> migLayoutTexts() const;
    bool operator==(const GpuSharingDef&) const = default;
};

/// `count` copies of one node type inside a rack.
struct NodeGroupDef {
    std::string name = "node";  ///< node names are "<rack>-<name><i>" (no index when count 1)
    int count = 1;
    std::string nodeType;  ///< NodeType::id from the catalog
    BuyingClass buyingClass = BuyingClass::Reserved;
    /// This group's own price (a negotiated rate), instead of the scenario's pricing.
    std::optional<double> usdPerGpuHour;
    NodeState state = NodeState::Ready;  ///< state at t = 0
    double readyAtS = 0;  ///< a Provisioning group turns Ready at this time (0 = never by itself)
    GpuSharingDef sharing;
    /// Fail-slow: the pace of these nodes' GPUs, a share of normal (0.5 = half speed: a
    /// throttling GPU, a flapping NVLink or NIC). A job works at the pace of its slowest node,
    /// so one slow node slows a whole gang. (0, 1]; 1 = healthy.
    double speed = 1;
    bool operator==(const NodeGroupDef&) const = default;
};

struct RackDef {
    std::string name = "rack";
    int count = 1;
    std::vector<NodeGroupDef> nodes;
    bool operator==(const RackDef&) const = default;
};

struct PodDef {
    std::string name = "pod";
    int count = 1;
    std::vector<RackDef> racks;
    bool operator==(const PodDef&) const = default;
};

/// Fabric above the NVLink domain. Per-GPU bandwidth of each tier is derived from the node
/// type's NICs divided by the oversubscription of the uplinks crossed (see topology.hpp).
struct FabricDef {
    double rackUplinkOversubscription = 1.0;  ///< leaf → spine, 1 = full bisection
    double podUplinkOversubscription = 1.0;   ///< spine → core (Llama 3's fabric: 7)
    double fallbackFabricGBpsPerGpu = 50;     ///< for node types whose NICs the catalog lacks
    bool operator==(const FabricDef&) const = default;
};

struct TeamDef {
    std::string name;
    std::string color;  ///< "#rrggbb" for the UI; empty = automatic
    bool operator==(const TeamDef&) const = default;
};

enum class PinLevel : std::uint8_t { None, Node, Rack, Pod };

/// A placement constraint: fixed to a node (what a drag in the application creates), or
/// affinity to a rack or pod. Targets are the generated names ("pod0-rack1-node2").
struct PinDef {
    PinLevel level = PinLevel::None;
    std::string target;
    bool operator==(const PinDef&) const = default;
};

/// kube-scheduler's preemptionPolicy (Never: the job evicts no one by priority).
enum class PreemptionPolicy : std::uint8_t { PreemptLowerPriority, Never };

/// The number format of a job's matrix multiplies (roofline.hpp): BF16, or FP8 on tensor
/// cores that have it.
enum class Precision : std::uint8_t { Bf16, Fp8 };

/// What every job carries, whether it comes from a class, an explicit list or a trace.
struct JobTraitsDef {
    std::string team;
    int priority = 0;                     ///< higher runs first
    std::optional<std::string> gpuModel;  ///< restrict to one GpuModel::id
    int gpusPerPod = 0;  ///< 0 = automatic: the largest divisor of the job's GPUs ≤ GPUs per node
    /// Share of each GPU a pod takes, milli-GPU: 1000 = whole GPUs; 1..999 = a share of one GPU
    /// (every pod then has one GPU, served by MPS or time-slicing).
    int gpuMilli = 1000;
    /// A MIG instance per pod, by profile name ("1g.10gb", resolved per GPU family) or, when
    /// the name is empty and migMemoryGb > 0, the smallest profile with at least that memory.
    std::string migProfile;
    double migMemoryGb = 0;
    int cpuMilliPerPod = 0;     ///< CPU per pod, milli-cores; filtered where the node declares CPU
    int memoryMiBPerPod = 0;    ///< host memory per pod, MiB; filtered where the node declares it
    double memoryGbPerGpu = 0;  ///< more than the GPU's HBM ⇒ the job crash-loops (workload layer)
    double smActivity = 0.8;    ///< DCGM SM_ACTIVE while running at full speed, 0..1
    /// Share of wall time its kernels run, alone at full speed (DCGM GR_ENGINE_ACTIVE,
    /// nvidia-smi's "GPU utilization"), 0..1: what a time-sliced GPU divides. Unset: its
    /// kernels fill the SMs while they run, i.e. smActivity × its asked share. Never below that.
    std::optional<double> engineActive;
    /// Model FLOPs utilisation at full speed in BF16, 0..1: achieved model FLOP/s ÷ the GPU's
    /// dense BF16 peak, while its kernels are compute-bound (see flopsPerByte).
    double mfu = 0.35;
    /// Its matrix multiplies' number format. FP8 speeds its matmuls up (roofline.hpp), so the
    /// job's work (durationS, stated in BF16) takes less time and its MFU against the BF16
    /// peak rises by the same factor. Needs FP8 tensor cores on every GPU it may run on.
    Precision precision = Precision::Bf16;
    /// Share of its BF16 step time spent in matrix multiplies, 0..1: what FP8 speeds up
    /// (attention softmax, norms, communication and the optimizer do not). 1 = all of it.
    double matmulShare = 1;
    /// Arithmetic intensity of its kernels, model FLOPs per byte of HBM traffic (in BF16):
    /// below the GPU's ridge point (peak ÷ HBM bandwidth) they are bandwidth-bound and its MFU
    /// is mfu × the roofline's ceiling (roofline.hpp). Unset = compute-bound; > 0 when set.
    std::optional<double> flopsPerByte;
    double topologySensitivity = 0;  ///< share of step time in exposed communication, 0..1
    double startupS = 0;             ///< bound but not progressing (image pull, model load)
    PinDef pin;
    /// With priority preemption on: may a job that fits nowhere evict lower-priority jobs?
    /// Never = it waits (kube's preemptionPolicy; it can still be evicted itself).
    PreemptionPolicy preemptionPolicy = PreemptionPolicy::PreemptLowerPriority;
    /// Progress is saved every this many seconds of work; an evicted job resumes from its
    /// last checkpoint (after its startup again). 0 = never saved: it starts over.
    double checkpointIntervalS = 0;
    /// Progress paused to write one checkpoint, in seconds of work (a checkpoint after each
    /// interval, none at the end): the overhead Young's and Daly's intervals weigh against
    /// the work failures waste (checkpoint_policy.hpp). Written off goodput, not useful work.
    double checkpointCostS = 0;
    /// Elastic: the most GPUs a job grows to (0 = fixed size). Its `gpus` is its minimum: it
    /// starts, and is admitted by quota, at that size; when nothing waits it grows by whole pods
    /// into idle capacity, and a queued job that the growth keeps out shrinks it back. Work
    /// scales linearly with its pods; every resize hands its state over and restarts its pods
    /// (startupS again, nothing lost). A job of maxGpus or more is fixed-size. Whole GPUs only.
    int elasticMaxGpus = 0;
    bool operator==(const JobTraitsDef&) const = default;
};

/// Tide: replicas that follow a daily curve instead of arriving at random (see ArrivalDef).
enum class ArrivalProcess { Poisson, Diurnal, List, Tide };

struct ArrivalDef {
    ArrivalProcess process = ArrivalProcess::Poisson;
    double ratePerHour = 0;  ///< Poisson rate; for Diurnal the daily mean rate
    double amplitude = 0;    ///< Diurnal: rate(t) = mean·(1 + amplitude·cos(2π(h − peak)/24))
    double peakHourOfDay = 14;   ///< Diurnal
    std::vector<double> timesS;  ///< List
    /// Tide (a serving class's daily demand): the replicas wanted at hour h are
    /// min + (max − min) · (1 + cos(2π(h − peak)/24)) / 2. Replica k < min runs all along;
    /// replica k ≥ min runs each day while the curve is above k + ½ (one job per window, its
    /// duration the window's length; the class gives no durationS). With priority
    /// preemption, batch work borrows the trough and is reclaimed at the peak.
    int minReplicas = 0;
    int maxReplicas = 0;
    bool operator==(const ArrivalDef&) const = default;
};

enum class DistKind { Fixed, Exponential, Lognormal, Uniform, Empirical };

/// A sampled quantity. Values are clamped to [min, max] when given.
struct DistributionDef {
    DistKind kind = DistKind::Fixed;
    double value = 0;             ///< Fixed
    double mean = 0;              ///< Exponential
    double median = 0;            ///< Lognormal (median = e^µ)
    double sigma = 0;             ///< Lognormal σ of the underlying normal
    double low = 0, high = 0;     ///< Uniform
    std::vector<double> values;   ///< Empirical
    std::vector<double> weights;  ///< Empirical, same length, any positive scale
    std::optional<double> min, max;
    bool operator==(const DistributionDef&) const = default;
};

/// A stream of similar jobs (pre-training gangs, fine-tunes, serving replicas, notebooks).
struct JobClassDef {
    std::string name;
    JobTraitsDef traits;
    ArrivalDef arrival;
    DistributionDef gpus;       ///< total GPUs of a job; rounded to an integer ≥ 1
    DistributionDef durationS;  ///< run time at ideal placement
    std::optional<int> maxJobs;
    /// Like a PodDisruptionBudget: preemption keeps at least this many of the class's jobs
    /// running where it can (it prefers victims that break no budget).
    std::optional<int> minAvailable;
    bool operator==(const JobClassDef&) const = default;
};

/// One explicit job; a drop in the application adds one of these, pinned.
struct JobDef {
    std::string name;
    JobTraitsDef traits;
    double submitS = 0;
    int gpus = 1;
    double durationS = 3600;
    bool operator==(const JobDef&) const = default;
};

/// Philly: jobs of N GPUs (timestamp, duration, num_gpus, cluster), shaped by the trace's
/// traits. Openb: an openb pod list replayed in time, each GPU pod one job of one pod with the
/// row's own GPUs, share, CPU, memory and allowed GPU models (openb_replay.cpp). Sacct: a Slurm
/// accounting export (`sacct --parsable2 --allocations`), a job per allocation (slurm_sacct.cpp).
enum class TraceFormat { Philly, Openb, Sacct };

/// Loaded rows of a trace: immutable and shared, so copying a Scenario stays cheap.
struct TraceJob {
    double submitS = 0;  ///< relative to the earliest submit in the file (openb: trace start)
    double durationS = 0;
    int gpus = 1;
    int team = 0;  ///< index into TraceData::teams
    // A row that is one pod (TraceData::rowsArePods): its own resources, not the traits'.
    int gpuMilli = 1000;  ///< per GPU; 1–999 = a share of one GPU
    int cpuMilliPerPod = 0;
    int memoryMiBPerPod = 0;
    /// Bits index TraceData::gpuModels; 0 = any model. Openb pods and sacct jobs set it.
    std::uint64_t allowedGpuModels = 0;
};

/// Rows of a trace the replay leaves out or reads with a simplification, counted so a
/// summary can say so (an openb pod list, a Slurm accounting export; Philly reads every row
/// as it is).
struct TraceRowCounts {
    int cpuOnly = 0;  ///< pods or jobs asking no GPU: outside a GPU planner's fleet
    int noTimes = 0;  ///< pods without creation or deletion time (e.g. the five-column lists)
    int neverScheduled = 0;  ///< replayed from creation: they waited until deleted
    int severalModels = 0;   ///< gpu_spec or ReqTRES names several models: kept to one (workload)
    // A Slurm accounting export (sacct): jobs kept by state, and what was read specially.
    int finished = 0;              ///< ended: run time End − Start
    int running = 0;               ///< running at the export: run time their time limit
    int pending = 0;               ///< pending at the export: run time their time limit
    int arrayTasks = 0;            ///< kept jobs that are array tasks (123_4, 123_[5-9])
    int cancelledBeforeStart = 0;  ///< ended without a Start: left out
    int unlimitedLimits = 0;       ///< running or pending without a limit: to the horizon
    int noAccount = 0;             ///< kept jobs with an empty Account: team "unknown"
    int steps = 0;                 ///< job steps (123.batch): left out, the allocation counts
};

struct TraceData {
    std::string resolvedPath;
    std::vector<std::string> teams;  ///< distinct team ids in order of first appearance
    std::vector<TraceJob> jobs;      ///< sorted by submitS, then file order
    bool rowsArePods = false;        ///< openb: each row's resources are its own
    /// GPU model names the rows allow (openb gpu_spec), or the Slurm GPU types they ask (sacct)
    std::vector<std::string> gpuModels;
    std::vector<std::string> gpuModelFirstPod;  ///< the first pod ("line 12") naming each
    TraceRowCounts rows;
    TraceFormat format = TraceFormat::Philly;  ///< the reader that made it
};

/// Replay of a job trace. `file` is resolved against the scenario's folder, then the data
/// folders (see scenario_io.hpp). Teams come from the trace ("cluster" column for Philly, the
/// "qos" column for openb: LS, BE, Burstable, Guaranteed).
struct TraceDef {
    TraceFormat format = TraceFormat::Philly;
    std::string file;
    std::string teamPrefix;      ///< prepended to the trace's team ids
    double timeScale = 1.0;      ///< multiplies inter-arrival times (< 1 compresses)
    double durationScale = 1.0;  ///< multiplies run times
    double offsetS = 0;          ///< shifts every submit time
    int maxJobs = 0;             ///< 0 = all rows
    JobTraitsDef traits;         ///< traits.team is ignored: the trace names the team
    /// Sacct: Slurm GPU type → GPU model id ("h100" → "h100-sxm") for the types jobs ask
    /// (ReqTRES gres/gpu:TYPE), looked at before gpuModelNamedBy's rule (gpu_type_names.hpp).
    std::vector<std::pair<std::string, std::string>> gpuTypes;
    std::shared_ptr<const TraceData> data;  ///< filled by the loader; not part of equality

    bool operator==(const TraceDef& o) const {
        return format == o.format && file == o.file && teamPrefix == o.teamPrefix &&
               timeScale == o.timeScale && durationScale == o.durationScale &&
               offsetS == o.offsetS && maxJobs == o.maxJobs && traits == o.traits &&
               gpuTypes == o.gpuTypes;
    }
};

/// Random node failures: each node fails at a rate of its GPUs ÷ the per-GPU MTBF while up (from
/// its delivery on), is Failed for repairS, then Ready again.
/// Drawn from the scenario's seed, node by node: same seed, same failures.
struct FailureDef {
    /// GPU-hours between unexpected interruptions, per GPU. Llama 3 405B: 419 on 16,384 H100s
    /// in 54 days = 16,384 × 54 × 24 / 419 ≈ 50,677.
    static constexpr double kLlama3MtbfGpuHours = 16384.0 * 54 * 24 / 419;
    double mtbfGpuHours = kLlama3MtbfGpuHours;
    double repairS = 0;  ///< down time per failure (required: no default is published)
    /// Nodes kept idle (Cordoned, paid) to take a failed node's place at once: the last ones
    /// in fleet order. A failed node, once repaired, becomes a spare in turn.
    int hotSpareNodes = 0;
    bool operator==(const FailureDef&) const = default;
};

/// Spot capacity: every node of a Spot group is reclaimed at a rate while up, after a notice; a new
/// instance takes its place returnS after the reclaim. A running job that can write a checkpoint
/// within the notice does, and loses nothing; one that cannot runs on and loses its work since its
/// last checkpoint. Drawn from the seed, node by node, in the same stream as the node's failures
/// (FailureDef).
struct SpotDef {
    /// AWS Spot Advisor's "frequency of interruption": the share of instances reclaimed in a
    /// month (30 days), in (0, 1); its buckets are <5 %, 5–10 %, 10–15 %, 15–20 % and >20 %.
    /// GPU figures are not published: required.
    double monthlyInterruptionFraction = 0.1;
    double noticeS = 120;  ///< AWS 120 s; GCP and Azure 30 s
    double returnS = 0;    ///< reclaim to the next instance's Ready (required)
    static constexpr double kMonthS = 30 * 86400.0;
    /// Mean up time before a reclaim: a Poisson process that reclaims the given share of
    /// instances in a month has rate −ln(1 − share) per month.
    double meanTimeToReclaimS() const {
        return kMonthS / -std::log1p(-monthlyInterruptionFraction);
    }
    bool operator==(const SpotDef&) const = default;
};

/// On-demand capacity that follows demand, as the cluster autoscaler does. With this set,
/// every On-demand node that would start Ready starts unprovisioned instead (not billed): it
/// is requested when queued jobs would fit on it, Ready provisioningDelayS later, and given
/// back once idle for idleTimeoutS. The ceiling is maxNodes, or the fleet's on-demand nodes.
struct OnDemandDef {
    double provisioningDelayS = 0;  ///< request to Ready (required: clouds publish none)
    /// cluster-autoscaler's --scale-down-unneeded-time default, 10 minutes.
    double idleTimeoutS = 600;
    /// The most elastic on-demand nodes up (bought: not Provisioning) or requested at once,
    /// as cluster-autoscaler's --max-nodes-total; nullopt = all of the fleet's.
    std::optional<int> maxNodes;
    bool operator==(const OnDemandDef&) const = default;
};

/// How the fleet is bought, by node order, in place of each node group's class: the first
/// reservedNodes reserved, the next spotNodes spot, the rest on demand. What `gpuplan-cli mix`
/// and the buying-mix sliders vary.
struct BuyingMixDef {
    int reservedNodes = 0;
    int spotNodes = 0;
    /// Which capacity a job lands on first: it is placed on the first class if it fits there,
    /// else on the first two, else anywhere (pack, spread and MIG or share placement within
    /// each); a step whose classes are not next to each other in node order is skipped.
    std::vector<BuyingClass> fillOrder = {BuyingClass::Reserved, BuyingClass::Spot,
                                          BuyingClass::OnDemand};
    bool operator==(const BuyingMixDef&) const = default;
};

/// A scheduled change of node state (cordon, failure, repair, late delivery).
struct NodeEventDef {
    double timeS = 0;
    std::string node;  ///< a node name, or a rack or pod name for all of its nodes
    NodeState state = NodeState::Ready;
    bool operator==(const NodeEventDef&) const = default;
};

enum class QueueOrder { PriorityFifo, PrioritySmallestFirst };
enum class PlacementPolicy { Pack, Spread, TopologyAware };
/// Easy: a blocked head gets a reservation; later jobs start only if they cannot delay it.
/// None: strict FIFO, nothing passes a blocked head. Greedy: anything that fits starts now.
enum class BackfillMode { Easy, None, Greedy };
/// Off: jobs wait for capacity to free. Priority: a job that fits nowhere evicts
/// lower-priority jobs as kube-scheduler's DefaultPreemption does (reference §3).
enum class PreemptionMode { Off, Priority };

struct SchedulerDef {
    QueueOrder queueOrder = QueueOrder::PriorityFifo;
    PlacementPolicy placement = PlacementPolicy::Pack;
    BackfillMode backfill = BackfillMode::Easy;
    PreemptionMode preemption = PreemptionMode::Off;
    /// A preempted job's termination grace period (kube's terminationGracePeriodSeconds):
    /// from the notice its work stops (what it did since its last checkpoint is lost) but it
    /// holds its GPUs and quota this long; the job that preempted it waits meanwhile
    /// (WaitingForPreemptedWorkloads). 0: evictions are instant.
    double preemptionGraceS = 0;
    /// kube's terminationGracePeriodSeconds has no bound; a preempted job that may take more
    /// than a day to stop is a mistake in the scenario, not a plan.
    static constexpr double kMaxPreemptionGraceS = 86400;
    /// Preemption health: a job preempted this many times or more is flagged as thrashing,
    /// and one that waited longer than starvationWaitS in the queue at a stretch (from its
    /// submission or an eviction to its next start, or to the end) as starved.
    int thrashingPreemptions = 3;
    double starvationWaitS = 86400;
    /// Elastic jobs grow only into capacity idle this long: nothing queued for this long,
    /// and no resize of the job within it (a stabilization window, as the autoscaler's idle
    /// timeout: each grow restarts the job's pods, and capacity free between arrivals that
    /// the growth would soon give back costs more restarts than it gains). Default 600 s,
    /// cluster-autoscaler's --scale-down-unneeded-time; at least 1 s (a job resized now may
    /// grow again only after it, never at the same instant).
    double elasticGrowAfterIdleS = 600;
    bool operator==(const SchedulerDef&) const = default;
};

enum class NodeListFormat { Openb };

struct NodeListData;  // gpuplan/model/openb.hpp: the rows, read when the scenario is read

/// A fleet given by a node list file rather than pods, racks and node groups: the GPU nodes of
/// an openb node list, as the fill study builds them (openbFleet in fill.hpp: GPU models named
/// by the list, CPU and memory per node, MPS sharing whose client limit never binds), in one
/// pod cut into racks of kNodeListNodesPerRack nodes in list order. `file` is found as trace
/// files are.
struct NodeListDef {
    NodeListFormat format = NodeListFormat::Openb;
    std::string file;
    std::shared_ptr<const NodeListData> data;  ///< filled by the loader; not part of equality

    bool operator==(const NodeListDef& o) const { return format == o.format && file == o.file; }
};

struct Scenario {
    std::string name;
    std::string description;
    std::uint64_t seed = 1;
    double horizonS = 7 * 86400.0;
    double sampleIntervalS = 600;
    /// KPIs measure [warmupS, horizon): the start from an empty cluster is left out (its
    /// queues and utilisation are not yet those of the steady state). Series cover the whole
    /// horizon. 0 ≤ warmupS < horizonS.
    double warmupS = 0;
    /// Seeds the scenario is run on to give every KPI an error bar
    /// (gpuplan/studies/replications.hpp): the application and `gpuplan-cli run` run this many
    /// unless told otherwise. 1..1000.
    int replications = 1;
    static constexpr int kMaxReplications = 1000;
    /// Scales demand ("what if demand grows 30 %?" is 1.3): every Poisson and diurnal class's
    /// rate is multiplied by it and trace inter-arrival times are divided by it. List arrivals
    /// and explicit jobs are fixed times and stay as they are. (0, 100].
    double demandMultiplier = 1.0;

    /// Hardware used by the topology, resolved from the catalog when the scenario is read.
    std::vector<GpuModel> gpuModels;
    std::vector<NodeType> nodeTypes;
    /// Node types the scenario defines itself, beside the catalog's (JSON "nodeTypes"): an
    /// imported fleet's nodes with the GPUs, CPU and memory the cluster reports. Their ids
    /// differ from every catalog id; their GPU models are the catalog's. Written back as read.
    std::vector<NodeType> definedNodeTypes;

    std::vector<PodDef> pods;
    /// Instead of `pods`: the nodes of a node list file (never both).
    std::optional<NodeListDef> nodeList;
    FabricDef fabric;
    std::vector<TeamDef> teams;
    std::vector<QuotaDef> quotas;  ///< at most one per team (quota.hpp)
    std::vector<CohortDef> cohorts;
    SchedulerDef scheduler;
    std::vector<JobClassDef> jobClasses;
    std::vector<JobDef> jobs;
    std::vector<TraceDef> traces;
    std::vector<NodeEventDef> nodeEvents;
    std::optional<FailureDef> failures;
    std::optional<SpotDef> spot;            ///< how Spot node groups are reclaimed
    std::optional<OnDemandDef> onDemand;    ///< on-demand nodes scale with demand
    std::optional<BuyingMixDef> buyingMix;  ///< classes by node order, over the groups'
    /// Prices: with them, runs report what the fleet costs (cost KPIs and series); every
    /// node group must then have a price for its GPU model and buying class.
    std::optional<PricingDef> pricing;

    const GpuModel* findGpu(std::string_view id) const;
    const NodeType* findNodeType(std::string_view id) const;

    bool operator==(const Scenario&) const = default;
};

/// Can anything ever be preempted in this scenario: priority preemption, or a quota that
/// reclaims or preempts within its team?
bool preemptionPossible(const Scenario& s);

const char* toString(NodeState);
const char* toString(SharingMode);
const char* toString(PinLevel);
const char* toString(ArrivalProcess);
const char* toString(DistKind);
const char* toString(QueueOrder);
const char* toString(PlacementPolicy);
const char* toString(BackfillMode);
const char* toString(PreemptionMode);
const char* toString(PreemptionPolicy);
const char* toString(Precision);
const char* toString(TraceFormat);
const char* toString(NodeListFormat);
const char* toString(NvlinkDomain);

}  // namespace gpuplan
