// The discrete-event kernel's state and steps (one Simulation per simulate() call). Its
// member functions live in three files by what they do: simulate.cpp (the event loop,
// binding and releasing), simulation_shares.cpp (interference, memory and the MPS fault
// domain on shared GPUs), simulation_samples.cpp (samples, gauges and invariant checks).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "core/event_heap.hpp"
#include "core/large_arrays.hpp"
#include "cost_meter.hpp"
#include "fragmentation_gauge.hpp"
#include "metrics_recorder.hpp"
#include "model/random.hpp"
#include "quota_series.hpp"
#include "resources/node_events.hpp"
#include "resources/placeable_slots.hpp"
#include "resources/shared_gpus.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/scheduler.hpp"
#include "scheduling/sim_state.hpp"

#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::detail {

/// Passes at one instant that may follow preemptions (each queues its victims again).
inline constexpr int kPreemptionRounds = 4;

inline constexpr int kCrashLoopAttempts = 7;  // the first run and backoffLimit = 6 restarts

/// When the k-th attempt of a crash loop (1-based) crashes, after the binding: k attempts
/// and the k − 1 back-offs between them. The last is the hold's end, when the job fails.
double crashLoopCrashS(double startupS, int k);

/// Entries a sample's pending list may hold: the per-sample cap, lowered so that all samples
/// together stay within the per-run cap (memory and time bounded whatever the backlog).
inline std::size_t pendingEntriesPerSample(const RunOptions& options, std::size_t samples) {
    if (samples == 0) return options.maxPendingEntriesPerSample;
    return std::min(options.maxPendingEntriesPerSample, options.maxPendingEntriesPerRun / samples);
}

/// At equal times: jobs finish first (a node failing at the instant a job completes does not
/// take its work), then startups end, then nodes change state, then crash-looping MPS clients
/// crash (their last crash is their release), then re-cut MIG GPUs come back.
enum class EventType : std::uint8_t {
    Release = 0,
    StartupDone = 1,
    NodeChange = 2,
    MpsFault = 3,
    MigRecutDone = 4,
    ElasticGrowDue = 5,  ///< a stabilization window ends: elastic jobs may grow (a pass runs)
};

struct Event {
    double timeS;
    /// Type in the top byte, then insertion order (deterministic): at equal times one
    /// comparison orders by type, then by sequence. 24 bytes, so the heap moves less.
    std::uint64_t typeThenSeq;
    std::uint32_t a;  // job, or node-event index
    std::uint32_t b;  // segment

    Event(double t, EventType type, std::uint64_t seq, std::uint32_t a_, std::uint32_t b_)
        : timeS(t + 0.0),  // −0 becomes +0, so equal times have equal bits
          typeThenSeq(std::uint64_t{static_cast<std::uint8_t>(type)} << 56 | seq),
          a(a_),
          b(b_) {}
    EventType type() const { return static_cast<EventType>(typeThenSeq >> 56); }
    bool operator>(const Event& o) const {
        // Times are ≥ +0 (push checks), whose bits order as the numbers do: integer compares
        // without a branch, as the heap's sift-down mispredicted on the double compare.
        const auto t = std::bit_cast<std::uint64_t>(timeS);
        const auto ot = std::bit_cast<std::uint64_t>(o.timeS);
        return (t > ot) | ((t == ot) & (typeThenSeq > o.typeThenSeq));
    }
};
static_assert(sizeof(Event) == 24);

/// What binding a job to some pods would mean.
struct BindingPlan {
    double slowdown = 1;      ///< topology × interference ÷ pace
    double pace = 1;          ///< pods held ÷ pods asked (above 1: a grown elastic job)
    double topology = 1;      ///< a share's: the fabric's part of its slowdown
    double interference = 1;  ///< a share's, from the pods on its GPUs (shared_gpus.hpp)
    FabricTier tier = FabricTier::Nvlink;
    bool crashLoop = false;
    /// A share's memory fault (why it crash-loops), found by planShare, kept by bindShare.
    MemoryFault memoryFault;
    double endS = 0;
};

class Simulation {
public:
    Simulation(const Scenario& scenario, const RunOptions& options)
        : m_scenario(scenario),
          m_options(options),
          m_sim(m_record, prepare(scenario, m_record), scenario),
          m_scheduler(
              scenario.scheduler, m_sim,
              [this](std::uint32_t job, const std::vector<PodPlacement>& pods, double nowS) {
                  return plan(job, pods, nowS).endS;
              },
              [this](std::uint32_t job, const std::vector<PodPlacement>& pods) {
                  bind(job, pods);
              }),
          m_diagnoser(m_sim, m_scheduler),
          m_metrics(m_record, scenario.horizonS, scenario.sampleIntervalS, scenario.warmupS),
          m_fragmentation(m_record.jobs, m_record.fleet),
          m_gangSizes(commonGangSizes(m_record.fleet)),
          m_unitsByGpus(m_record.fleet),
          m_stuck(static_cast<std::uint32_t>(m_record.jobs.size())),
          m_sharedGpus(m_record.fleet, m_record.sourceTraits, m_record.firstGpuOfNode),
          m_quotaSeries(m_record, m_sim.quota, preemptionPossible(scenario),
                        m_metrics.sampleCount()),
          m_cost(m_record, m_record.fleet, scenario.pricing, m_metrics.sampleCount(),
                 scenario.warmupS) {
        m_scheduler.checkSkips(options.checkInvariants);
        if (preemptionPossible(scenario)) {
            m_sim.boundJobs.enable(m_record.jobs.size(), scenario.jobClasses.size());
            m_scheduler.onPreempt(
                [this](std::uint32_t victim, std::uint32_t by) { preempt(victim, by); });
        }
        m_scheduler.countInto(options.counters);
        m_pendingEntriesPerSample = pendingEntriesPerSample(options, m_metrics.sampleCount());
        m_fingerprint = 0x6a09e667f3bcc908ull ^ options.seed.value_or(scenario.seed);
        buildNodeEvents();
        for (const FleetNode& n : m_record.fleet.nodes)
            m_anySlowNode = m_anySlowNode || n.speed < 1;
        if (scenario.failures && scenario.failures->hotSpareNodes > 0) {
            m_spare.resize(m_record.fleet.nodes.size());
            for (std::size_t n = 0; n < m_spare.size(); ++n)
                m_spare[n] = m_record.fleet.nodes[n].spare;
        }
        m_rates.provisionedGpus = m_sim.cluster.provisionedGpus();
        m_rates.provisionedPeakTflops = m_sim.cluster.provisionedPeakTflops();
    }

    /// Runs to the horizon (or until stopped) and builds the results from the record. Once:
    /// the record moves into the results.
    Results run(const ProgressFn& progress, std::stop_token stop);

private:
    static const Fleet& prepare(const Scenario& scenario, RunRecord& record);

    void buildNodeEvents();

    [[gnu::always_inline]] void push(double timeS, EventType type, std::uint32_t a,
                                     std::uint32_t b) {
        // The sequence shares a word with the type: 2^56 events, far past any run budget.
        if (m_seq >> 56) throw std::length_error("more than 2^56 events in one run");
        if (!(timeS >= 0)) throw std::logic_error("an event before time 0, or at no time");
        m_events.push(Event(timeS, type, m_seq++, a, b));
    }

    /// What an event folded into the fingerprint was. The values are part of every golden
    /// fingerprint, so they never change: ScaleUpRequested and ElasticResized share 12.
    enum class FingerprintTag : std::uint32_t {
        JobArrived = 1,
        JobStarted = 2,
        StartupDone = 3,
        JobEnded = 4,
        NodeStateChanged = 5,
        JobEvicted = 6,
        MpsFault = 7,
        MigRecutStarted = 8,
        MigRecutDone = 9,
        JobPreempted = 10,
        PreemptedRequeued = 11,
        ScaleUpRequested = 12,
        ElasticResized = 12,
        ElasticGrowDue = 13,
        Sample = 0xA5,
    };
    /// Folds one event into the fingerprint.
    void count(FingerprintTag tag, std::uint32_t id) {
        const auto type = static_cast<std::uint32_t>(tag);
        ++m_eventCount;
        std::uint64_t bits;
        static_assert(sizeof bits == sizeof m_nowS);
        std::memcpy(&bits, &m_nowS, sizeof bits);
        fold(bits ^ (std::uint64_t{type} << 56) ^ (std::uint64_t{id} << 8));
    }

    /// Folds the GPUs a binding got into the fingerprint, so placement changes show.
    void countPlacement(const std::vector<PodPlacement>& pods) {
        for (const PodPlacement& pod : pods) {
            fold(std::uint64_t{pod.node});
            fold(pod.gpuMask);
            // Whole-GPU fingerprints unchanged: only shares and instances fold more.
            if (!pod.isWhole()) fold(pod.milliGpu | std::uint64_t{pod.migInstance} << 16);
        }
    }

    void fold(std::uint64_t x) {
        m_fingerprint = (m_fingerprint ^ splitmix64(x)) * 0x100000001b3ull;
    }

    BindingPlan plan(std::uint32_t job, const std::vector<PodPlacement>& pods, double nowS) const;

    /// A share's interference and memory on its GPUs, as if it ran now beside the pods there
    /// (shared_gpus.hpp). A pod past its memory is OOM-killed: it crash-loops.
    [[gnu::noinline]] void planShare(const JobSpec& s, const std::vector<PodPlacement>& pods,
                                     BindingPlan& p) const;

    void arrive(std::uint32_t job);

    /// Jobs queued at this instant (arrived or evicted) that the pass could not start are
    /// diagnosed now, so the pending list between samples has a layer and reason for each.
    /// Explicit jobs (what a user placed or dropped) get the full reason; generated jobs get
    /// their layer, and the full reason at the next sample if they are within its list (else
    /// pendingAt says they were left out, Results::omittedReason): full reasons for every arrival
    /// cost the 100k-GPU benchmark about 60 % more time and 300k distinct reason texts.
    void diagnoseNewlyQueued();

    void bind(std::uint32_t job, const std::vector<PodPlacement>& pods);

    /// GPU-equivalents the job's current binding holds: its GPUs when whole; a share's may
    /// differ from what it asked (a time-slice replica), so it is read from the placement.
    [[gnu::always_inline]] double heldGpus(std::uint32_t job) const {
        const JobSpec& s = m_sim.spec(job);
        if (s.holdsWholeGpus() && !m_sim.elastic.any()) return s.gpus;
        return m_record.gpuEquivalentsOf(m_record.segments[m_sim.runtime[job].segment]);
    }
    /// The same exactly, in units of 1/kGpuUnitsPerGpu GPU.
    std::int64_t heldGpuUnits(std::uint32_t job) const {
        const JobSpec& s = m_sim.spec(job);
        if (s.holdsWholeGpus() && !m_sim.elastic.any()) return s.gpuUnits();
        return m_record.gpuUnitsOf(m_record.segments[m_sim.runtime[job].segment]);
    }
    /// GPU-equivalents the job's work is counted in: what it holds, but an elastic job's
    /// work at its own size (a grown one does more per second instead: its slowdown).
    [[gnu::always_inline]] double workGpus(std::uint32_t job) const {
        const JobSpec& s = m_sim.spec(job);
        if (s.holdsWholeGpus()) return s.gpus;
        return heldGpus(job);
    }

    [[gnu::always_inline]] void setStuck(std::uint32_t job, bool stuck) {
        if (m_stuck.contains(job) == stuck) return;
        if (stuck)
            m_stuck.insert(job);
        else
            m_stuck.erase(job);
        m_stuckGpuUnits += (stuck ? 1 : -1) * heldGpuUnits(job);
    }

    [[gnu::always_inline]] void addProgress(std::uint32_t job, int sign) {
        const JobSpec& s = m_sim.spec(job);
        const RunSegment& seg = m_record.segments[m_sim.runtime[job].segment];
        const GpuModel& gpu = m_record.gpuModelOf(seg);
        const double peak = gpu.bf16DenseTflops;
        // Its spec's MFU as a double, as it always was when no source sets flopsPerByte.
        const double mfu = m_record.sourceTraits.anyFlopsPerByte ? m_record.mfuOn(s, gpu) : s.mfu;
        if (s.sharesGpu()) return addShareProgress(job, sign, mfu, peak);
        const double rate = workGpus(job) / static_cast<double>(seg.slowdown);
        m_rates.usefulGpus += sign * rate;
        m_rates.occupiedGpus += sign * rate * s.smActivity;
        m_rates.achievedTflops += sign * rate * mfu * peak;
        if (m_cost.active()) {
            // What it holds, busy at its SM activity ÷ the placement's slowdown (a grown
            // elastic job's pace is in its slowdown, not in how busy each GPU is).
            const double busy = m_sim.elastic.any() ? rate / heldGpus(job)
                                                    : 1.0 / static_cast<double>(seg.slowdown);
            m_cost.occupied(sign * usdPerHourOf(m_record.fleet, m_record.placementOf(seg)) *
                            s.smActivity * busy);
        }
    }

    // ---- Shares: interference, memory and the MPS fault domain (shared_gpus.hpp) ----
    // Out of line (noinline), so the whole-GPU path through plan, bind and release stays
    // small enough to be inlined: a fleet without shares pays nothing for them.

    /// A share's speed changes with its neighbours. Its pods keep their demand's SMs busy at
    /// its speed, each at most what it holds: occupancy ≤ allocation per pod, so for the
    /// fleet (a time-slice replica can ask more SMs than its 1/replicas).
    [[gnu::noinline]] void addShareProgress(std::uint32_t job, int sign, double mfu, double peak);

    [[gnu::noinline]] void bindShare(std::uint32_t job, const std::vector<PodPlacement>& pods,
                                     const BindingPlan& p);

    bool onMps(std::span<const PodPlacement> pods) const;

    /// A share starts running: its pods demand SMs from now on.
    [[gnu::noinline]] void shareRuns(std::uint32_t job);

    /// Work a bound job has done in its current binding by now, in seconds at full speed.
    double workDoneS(std::uint32_t job) const;

    /// Pods joined or left these GPUs: every share running on them progresses at its new
    /// speed from now, and its release moves.
    [[gnu::noinline]] void reviseSpeeds(std::span<const PodPlacement> changed);

    /// A bound job's planned end moves: the books that order by it, and a new Release event
    /// (the old one is recognised as stale: its time is no longer the planned end). Only
    /// shares move, which a reservation never counts on (scheduler.cpp).
    void moveRelease(std::uint32_t job, double endS);

    /// The segment's mean slowdown: time progressing ÷ work done (its bind-time plan when it
    /// did no work).
    float meanSlowdown(std::uint32_t job) const;

    /// A share's segment and record take the mean slowdown of its binding so far.
    void keepMeanSlowdown(std::uint32_t job);
    /// A share given notice: it demands no SMs from now on (its neighbours speed up).
    [[gnu::noinline]] void shareStops(std::uint32_t job);
    /// A share's binding ends (before its pods leave the cluster's books).
    [[gnu::noinline]] void unbindShare(std::uint32_t job);

    /// A crash-looping client crashes: MPS has no fault isolation, so every other client on
    /// its MPS GPUs exits and queues again from scratch (NVIDIA's MPS documentation, Volta and
    /// later; clients that crash-loop themselves restart in their own loop).
    [[gnu::noinline]] void mpsFault(std::uint32_t job);

    /// Ends the job's current binding: completion, failure or eviction.
    void unbind(std::uint32_t job, SegmentEnd end);

    // ---- Elastic jobs (simulation_elastic.cpp) ----

    /// Before a pass: queued jobs that grown elastic jobs keep out get the growth back. The
    /// first few queued jobs in order that do not fit now are tried with growth pods (and
    /// their quota) lifted one by one, the lowest-priority job's last-added first; the pods
    /// that let one fit are given back (the jobs keep the rest).
    void reclaimElasticGrowth();
    /// After a pass: once nothing has been queued for the window
    /// (SchedulerDef::elasticGrowAfterIdleS), bound elastic jobs not resized within it grow
    /// by whole pods into idle capacity, highest priority first, when that ends them sooner
    /// and pays for its restarts even if the growth is reclaimed one window later. A job bound
    /// from the queue at this instant may grow at once (its binding has not started to work).
    void growElasticJobs();
    /// An elastic job's binding becomes `pods` (not yet occupied). `end` Resized: it keeps all
    /// its work (its state is handed over, as TorchElastic and Horovod Elastic do at a
    /// membership change); Evicted: a node under it went down, it keeps what its checkpoints
    /// saved. Either way its pods restart (startupS).
    void resizeElastic(std::uint32_t job, std::vector<PodPlacement> pods, SegmentEnd end);
    /// May resizes record `gpuHolds` more GPU holds (pods × GPUs per pod;
    /// RunOptions::maxElasticResizeGpuHolds)? If so and `spend`, counts them; if not, the
    /// budget is spent from now on.
    bool resizeBudgetAllows(std::size_t gpuHolds, bool spend = true);
    /// A running job keeps all the work it has done (no checkpoint is written for it).
    void keepAllWork(std::uint32_t job);
    /// Its node goes down under some of its pods: a grown elastic job that keeps its size on
    /// the other pods goes on there, losing unsaved work (`end` Evicted: a failure) or keeping
    /// it all (Resized: a spot notice); false = not so (evict it whole, or let it be).
    bool shrinkOffNode(std::uint32_t job, std::uint32_t node, SegmentEnd end);
    /// After a pass: is a queued job waiting that the capacity growth would take could serve
    /// (one the Ready fleet could hold empty, and that its quota admits)? While one is, the
    /// growth window does not run; jobs that can never start here do not hold it.
    bool jobsWaitForCapacity() const;

    /// Dynamic MIG: idle GPUs are re-cut for the MIG requests the pass left queued; each
    /// comes back with its new layout after its group's reconfiguration time.
    void startMigRecuts();

    void handle(const Event& e);

    void nodeChange(std::uint32_t index);
    /// A node change decided during the run (scale-up, scale-down), after the scenario's.
    void addNodeChange(const NodeChangeEvent& change);
    /// After a pass: requests the elastic nodes the queue needs (autoscaler.hpp).
    void scaleUp();
    /// An elastic node lost its last pod (or arrived empty): given back after the idle
    /// timeout unless a job binds there first.
    void becameIdle(std::uint32_t node);
    /// Is this scale-down still what the node's idle time says (not stale)?
    bool scaleDownDue(const NodeChangeEvent& change) const;
    /// After a pass: the elastic nodes whose idle timeout came at this instant and that the
    /// pass left idle are given back.
    void applyScaleDowns();
    /// A node failed: an idle hot spare of its type takes its place now (the failed node
    /// becomes the spare, Cordoned once repaired).
    void replaceWithSpare(std::uint32_t failed);

    /// Its node failed or went back to provisioning, or an MPS neighbour crashed: takeOff,
    /// then queued again at once. `diagnose`: as any job just queued (else the caller gives
    /// the reason).
    void evict(std::uint32_t job, bool diagnose = true);
    /// The one path by which a bound job is taken off its GPUs to queue again (evictions,
    /// preemptions; spot reclaim next): a running job loses its unsaved work
    /// (loseUnsavedWork), and its next binding resumes from its last checkpoint after its
    /// startup again. The caller queues it.
    void takeOff(std::uint32_t job, SegmentEnd end);
    /// Preempts `victim` so that `by` can start (Scheduler::PreemptFn); it is queued again
    /// after the pass, with a Preempted diagnosis.
    void preempt(std::uint32_t victim, std::uint32_t by);
    /// A preemption with a grace period: the job stops progressing (its unsaved work is lost
    /// now) and leaves the books — its GPUs and quota become `by`'s held room — but keeps
    /// its GPUs, in its segment and the allocation, until the grace ends.
    /// `endS`: when it leaves. `checkpoint`: it saves all its work first (spot notice) rather
    /// than losing what is unsaved.
    void giveNotice(std::uint32_t job, std::uint32_t by, double endS, bool checkpoint);
    /// Its node's spot reclaim is noticed: a running job whose checkpoint fits in the notice
    /// writes one and leaves when it is written (nothing lost); any other runs on until the
    /// reclaim evicts it.
    void spotNotice(std::uint32_t job, std::uint32_t node);
    /// A checkpoint of all the work done so far (its cost written off useful work).
    void checkpointAllWork(std::uint32_t job);
    /// Its grace period is over: it leaves its GPUs, preempted, and queues again.
    void endTermination(std::uint32_t job);
    /// A terminating job left its GPUs (grace over, or its node failed): its preemptor waits
    /// for one fewer, and starts (startNominees) when none is left.
    void victimEnded(std::uint32_t job);
    void startNominees();
    /// Queues the jobs preempted in the last pass again; true if there were any.
    bool requeuePreempted();

    /// A running job leaves its GPUs: it keeps what its checkpoints saved (checkpoints.hpp,
    /// SimState::savedWork) and loses the rest of this binding's work (RunSegment::lostWorkS,
    /// discarded from useful); the checkpoints this binding wrote are written off useful too.
    void loseUnsavedWork(std::uint32_t job);
    /// A running job's binding ends by completing (or at the end of the run): the progress it
    /// spent writing checkpoints is not useful work.
    void writeOffCheckpoints(std::uint32_t job, bool completed);
    /// The progress time the job spent writing checkpoints that is written off useful when its
    /// binding ends now (completed, or cut by the end of the run); 0 without checkpoint costs.
    double checkpointWriteOffS(std::uint32_t job, bool completed) const;

    /// Closes `record` at endS (the run's own, or a copy of it for a partial snapshot):
    /// bindings still open end there, and `metrics` and `cost` (the run's own, or copies
    /// writing into the copy) close their last interval. The books are left as they were.
    void closeRecord(RunRecord& record, double endS, MetricsRecorder& metrics,
                     CostMeter& cost) const;
    /// Builds what the results add to a closed record: every KPI, the pending index, the
    /// timeline and the fingerprint. At the run's end the record has moved into `out`, and
    /// m_record (which the books and meters refer to) is moved-from: read only `out`, the
    /// meters' own tallies and the books' counters.
    void buildResults(Results& out, double endS, const MetricsRecorder& metrics,
                      const CostMeter& cost) const;
    /// The results so far, as if the run ended now (Results::partial); the run goes on.
    std::shared_ptr<const Results> partialResults() const;
    /// The run's own KPIs: failures, spot reclaims, scale-ups, elastic resizes.
    void writeRunKpis(Results& out) const;

    void takeSample(std::size_t k);

    /// The largest placeable gangs and two slot counts (placeable_slots.hpp): O(racks + pods)
    /// histogram reads per sample, from the free histograms the cluster keeps current.
    void placeableGauges(Gauges& g) const;

    /// Free GPUs on Ready nodes that cannot take even the smallest waiting pod.
    double strandedGpus(const JobQueue::SmallestPod& smallest) const;

    /// Test and debug builds: the GPU books balance after every event and every pass.
    void check() {
        if (m_options.checkInvariants) checkBooks();
    }

    void checkBooks();

    /// Every running share's speed is the one its GPUs' pods give, summed afresh from the
    /// bound jobs (not from the books); occupancy never exceeds allocation.
    void checkShares();
    /// Quota books (QuotaLedger::checkInvariants) and admitted usage = placed usage.
    void checkQuota();

    /// After a pass: a head whose reserved start has come is running (EASY's promise).
    void checkHeadOnTime() const;

    const Scenario& m_scenario;
    RunOptions m_options;
    /// Everything the run writes as it goes; moved into the results when it ends.
    RunRecord m_record;
    bool m_stopped = false;  ///< a stop request ended the run early
    SimState m_sim;
    Scheduler m_scheduler;
    Diagnoser m_diagnoser;
    MetricsRecorder m_metrics;
    FragmentationGauge m_fragmentation;
    std::vector<int> m_gangSizes;    ///< the placeable table's sizes (largestGang checks them)
    UnitsByWholeGpus m_unitsByGpus;  ///< racks and pods a sample's gang measures visit
    EventHeap<Event, std::greater<>> m_events;
    std::vector<NodeChangeEvent> m_nodeEvents;
    Rates m_rates;
    double m_nowS = 0;
    std::uint64_t m_seq = 0;
    std::uint64_t m_eventCount = 0;
    std::uint64_t m_fingerprint = 0;
    int m_running = 0;
    mutable std::vector<std::uint32_t> m_nodeScratch;
    /// A fleet with a fail-slow node: only then does plan() look for its slowest pod's node.
    bool m_anySlowNode = false;
    std::vector<std::uint32_t> m_queuedNow;  ///< arrived or evicted at m_nowS
    /// Preempted in the current pass, with the job that took their place.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_preemptedNow;
    std::vector<std::uint32_t> m_nomineesReady;  ///< their last victim just left
    std::vector<std::uint32_t> m_scaleDownsDue;  ///< node-change indices, applied after the pass
    bool m_applyingScaleDowns = false;
    bool m_resizing = false;  ///< an elastic job leaves its pods only to take new ones at once
    /// Per node: a hot spare now (empty without spares). A spare is Cordoned until a failure
    /// calls it in; a repaired node takes its place as a spare.
    std::vector<bool> m_spare;
    IndexSet m_stuck;                  ///< bound jobs starting up or crash-looping (workload layer)
    std::int64_t m_stuckGpuUnits = 0;  ///< GPU-equivalents the stuck jobs hold, exactly
    std::size_t m_pendingEntriesPerSample = 0;
    SharedGpus m_sharedGpus;
    QuotaSeries m_quotaSeries;           ///< after m_metrics: appends to the series it made
    CostMeter m_cost;                    ///< after them: appends its series
    std::vector<ShareProgress> m_share;  ///< per job, from the first share bound
};

}  // namespace gpuplan::detail
