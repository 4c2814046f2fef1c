// The discrete-event kernel: arrivals, releases, startup ends and node changes in time order;
// one scheduling pass per instant at which something happened; samples at fixed intervals.
#include "gpuplan/simulate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "diagnosis.hpp"
#include "event_heap.hpp"
#include "fragmentation_gauge.hpp"
#include "large_arrays.hpp"
#include "metrics_recorder.hpp"
#include "node_events.hpp"
#include "placeable_slots.hpp"
#include "random.hpp"
#include "scheduler.hpp"
#include "shared_gpus.hpp"
#include "sim_state.hpp"

namespace gpuplan {

namespace {

constexpr int kCrashLoopAttempts = 7;  // the first run and backoffLimit = 6 restarts

/// When the k-th attempt of a crash loop (1-based) crashes, after the binding: k attempts
/// and the k − 1 back-offs between them. The last is the hold's end, when the job fails.
double crashLoopCrashS(double startupS, int k) {
    const double attemptS = std::max(startupS, 30.0);
    double atS = k * attemptS;
    for (int i = 0; i < k - 1; ++i)
        atS += std::min(10.0 * (1 << i), 300.0);
    return atS;
}

}  // namespace

double crashLoopHoldS(double startupS) {
    return crashLoopCrashS(startupS, kCrashLoopAttempts);
}

namespace detail {
namespace {

/// Entries a sample's pending list may hold: the per-sample cap, lowered so that all samples
/// together stay within the per-run cap (memory and time bounded whatever the backlog).
std::size_t pendingEntriesPerSample(const RunOptions& options, std::size_t samples) {
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
    MigRecutDone = 4
};

struct Event {
    double timeS;
    /// Type in the top byte, then insertion order (deterministic): at equal times one
    /// comparison orders by type, then by sequence. 24 bytes, so the heap moves less.
    std::uint64_t typeThenSeq;
    std::uint32_t a;  // job, or node-event index
    std::uint32_t b;  // segment

    Event(double t, EventType type, std::uint64_t seq, std::uint32_t a_, std::uint32_t b_)
        : timeS(t),
          typeThenSeq(std::uint64_t{static_cast<std::uint8_t>(type)} << 56 | seq),
          a(a_),
          b(b_) {}
    EventType type() const { return static_cast<EventType>(typeThenSeq >> 56); }
    bool operator>(const Event& o) const {
        return timeS != o.timeS ? timeS > o.timeS : typeThenSeq > o.typeThenSeq;
    }
};
static_assert(sizeof(Event) == 24);

/// What binding a job to some pods would mean.
struct BindingPlan {
    double slowdown = 1;      ///< topology × interference
    double topology = 1;      ///< a share's: the fabric's part of its slowdown
    double interference = 1;  ///< a share's, from the pods on its GPUs (shared_gpus.hpp)
    FabricTier tier = FabricTier::Nvlink;
    bool crashLoop = false;
    double endS = 0;
};

class Simulation {
public:
    Simulation(const Scenario& scenario, const RunOptions& options, Results& results)
        : m_scenario(scenario),
          m_options(options),
          m_results(results),
          m_sim(results, prepare(scenario, results)),
          m_scheduler(
              scenario.scheduler, m_sim,
              [this](std::uint32_t job, const std::vector<PodPlacement>& pods, double nowS) {
                  return plan(job, pods, nowS).endS;
              },
              [this](std::uint32_t job, const std::vector<PodPlacement>& pods) {
                  bind(job, pods);
              }),
          m_diagnoser(m_sim, m_scheduler),
          m_metrics(results, scenario.horizonS, scenario.sampleIntervalS),
          m_fragmentation(results.jobs, results.fleet),
          m_gangSizes(commonGangSizes(results.fleet)),
          m_stuck(static_cast<std::uint32_t>(results.jobs.size())),
          m_sharedGpus(results.fleet, results.firstGpuOfNode) {
        m_scheduler.checkSkips(options.checkInvariants);
        m_scheduler.countInto(options.counters);
        m_pendingEntriesPerSample = pendingEntriesPerSample(options, m_metrics.sampleCount());
        m_fingerprint = 0x6a09e667f3bcc908ull ^ options.seed.value_or(scenario.seed);
        buildNodeEvents();
        m_rates.provisionedGpus = m_sim.cluster.provisionedGpus();
        m_rates.provisionedPeakTflops = m_sim.cluster.provisionedPeakTflops();
    }

    void run(const ProgressFn& progress, std::stop_token stop) {
        const double horizonS = m_scenario.horizonS;
        const auto& jobs = m_results.jobs;
        std::size_t nextArrival = 0, nextSample = 0;
        constexpr double kInf = std::numeric_limits<double>::infinity();
        std::uint64_t iterations = 0;
        while (true) {
            const double tEvent = m_events.empty() ? kInf : m_events.top().timeS;
            const double tArrival =
                nextArrival < jobs.size() ? jobs[nextArrival].spec.submitS : kInf;
            const double tSample =
                nextSample < m_metrics.sampleCount() ? m_metrics.sampleTime(nextSample) : kInf;
            const double now = std::min({tEvent, tArrival, tSample});
            if (now >= horizonS) break;
            if ((++iterations & 255) == 0) {
                if (stop.stop_requested()) {
                    m_results.stopped = true;
                    break;
                }
                if (progress && (iterations & 4095) == 0) progress(now / horizonS);
            }
            m_metrics.advanceTo(now, m_rates);
            m_nowS = now;
            bool changed = false;
            while (!m_events.empty() && m_events.top().timeS == now) {
                const Event e = m_events.top();
                m_events.pop();
                handle(e);
                check();
                changed = true;
            }
            while (nextArrival < jobs.size() && jobs[nextArrival].spec.submitS == now) {
                arrive(static_cast<std::uint32_t>(nextArrival++));
                changed = true;
            }
            if (changed) {
                m_scheduler.pass(now);
                m_rates.queuedJobs = static_cast<double>(m_scheduler.queue().size());
                startMigRecuts();
                check();
                diagnoseNewlyQueued();
                checkHeadOnTime();
            }
            if (tSample == now) {
                takeSample(nextSample++);
                count(0xA5, static_cast<std::uint32_t>(nextSample));
            }
        }
        const double endS = m_results.stopped ? m_nowS : horizonS;
        m_nowS = endS;
        closeOpenSegments(endS);
        m_metrics.finish(endS, m_rates);
        m_results.fingerprint = m_fingerprint;
        m_results.eventCount = m_eventCount;
        if (progress) progress(1.0);
    }

private:
    static const Fleet& prepare(const Scenario& scenario, Results& results) {
        results.fleet = Fleet::build(scenario);
        Workload w = generateWorkload(scenario, results.fleet);
        results.teams = std::move(w.teams);
        results.teamColors.assign(results.teams.size(), std::string());
        for (std::size_t i = 0; i < scenario.teams.size(); ++i)
            results.teamColors[i] = scenario.teams[i].color;
        results.classNames = std::move(w.classNames);
        results.explicitNames = std::move(w.explicitNames);
        results.traceNames = std::move(w.traceNames);
        results.horizonS = scenario.horizonS;
        results.sampleIntervalS = scenario.sampleIntervalS;
        reserveLarge(results.jobs, w.jobs.size());
        for (const JobSpec& spec : w.jobs)
            results.jobs.push_back(JobRecord{.spec = spec});
        reserveLarge(results.segments, w.jobs.size());
        reserveLarge(results.placements, w.jobs.size());
        results.pendingBegin.assign(1, 0);
        results.firstGpuOfNode.resize(results.fleet.nodes.size() + 1, 0);
        for (std::size_t i = 0; i < results.fleet.nodes.size(); ++i)
            results.firstGpuOfNode[i + 1] = results.firstGpuOfNode[i] + results.fleet.nodes[i].gpus;
        return results.fleet;
    }

    void buildNodeEvents() {
        m_nodeEvents = nodeChangeEvents(m_results.fleet, m_scenario.nodeEvents);
        for (std::uint32_t i = 0; i < m_nodeEvents.size(); ++i)
            push(m_nodeEvents[i].timeS, EventType::NodeChange, i, 0);
    }

    [[gnu::always_inline]] void push(double timeS, EventType type, std::uint32_t a,
                                     std::uint32_t b) {
        // The sequence shares a word with the type: 2^56 events, far past any run budget.
        if (m_seq >> 56) throw std::length_error("more than 2^56 events in one run");
        m_events.push(Event(timeS, type, m_seq++, a, b));
    }

    /// Folds one event into the fingerprint.
    void count(std::uint32_t type, std::uint32_t id) {
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

    BindingPlan plan(std::uint32_t job, const std::vector<PodPlacement>& pods, double nowS) const {
        const JobSpec& s = m_sim.spec(job);
        const Fleet& fleet = m_results.fleet;
        BindingPlan p;
        m_nodeScratch.clear();
        for (const PodPlacement& pod : pods)
            m_nodeScratch.push_back(pod.node);
        const FleetNode& first = fleet.nodes[pods.front().node];
        p.tier = fleet.tierOf(m_nodeScratch);
        p.slowdown = fleet.slowdown(fleet.neededTier(s.gpus, first.gpuModel), p.tier,
                                    s.topologySensitivity, first.nodeType);
        // A MIG pod has its instance's memory, not the GPU's.
        double memoryGb = fleet.gpuModels[first.gpuModel].hbmGb;
        if (pods.front().isMig()) {
            const int slot = std::countr_zero(pods.front().gpuMask);
            const MigLayout& layout = m_sim.cluster.migLayout(pods.front().node, slot);
            memoryGb = layout.profileOf(layout[pods.front().migInstance]).memoryGb;
        }
        p.crashLoop = s.memoryGbPerGpu > memoryGb;
        if (s.sharesGpu()) planShare(s, pods, p);
        p.endS = p.crashLoop ? nowS + crashLoopHoldS(s.startupS)
                             : nowS + s.startupS + s.durationS * p.slowdown;
        return p;
    }

    /// A share's interference and memory on its GPUs, as if it ran now beside the pods there
    /// (shared_gpus.hpp). A pod past its memory is OOM-killed: it crash-loops.
    [[gnu::noinline]] void planShare(const JobSpec& s, const std::vector<PodPlacement>& pods,
                                     BindingPlan& p) const {
        m_memoryFault = MemoryFault{};
        if (p.crashLoop) return;  // past the whole GPU's memory already
        p.topology = p.slowdown;
        p.interference = m_sharedGpus.interference(s, pods, true);
        p.slowdown *= p.interference;
        m_memoryFault = m_sharedGpus.memoryFault(s, pods);
        p.crashLoop = m_memoryFault.kind != MemoryFault::None;
    }

    void arrive(std::uint32_t job) {
        count(1, job);
        m_scheduler.enqueue(job);
        m_queuedNow.push_back(job);
    }

    /// Jobs queued at this instant (arrived or evicted) that the pass could not start are
    /// diagnosed now, so the pending list between samples has a layer and reason for each.
    /// Explicit jobs (what a user placed or dropped) get the full reason; generated jobs get
    /// their layer, and the full reason at the next sample if they are within its list (else
    /// pendingAt says they were left out, Results::omittedReason): full reasons for every arrival
    /// cost the 100k-GPU benchmark about 60 % more time and 300k distinct reason texts.
    void diagnoseNewlyQueued() {
        if (m_options.diagnosePending) {
            for (std::uint32_t job : m_queuedNow) {
                if (m_sim.runtime[job].phase != Phase::Queued) continue;
                if (m_sim.spec(job).source != JobSource::Explicit) {
                    m_results.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseJustQueued(job)});
                    continue;
                }
                m_diagnoser.beginSample();  // the cluster has changed since the last memo
                m_results.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseQueued(job, m_nowS)});
            }
        }
        m_queuedNow.clear();
    }

    void bind(std::uint32_t job, const std::vector<PodPlacement>& pods) {
        const BindingPlan p = plan(job, pods, m_nowS);
        JobRecord& rec = m_results.jobs[job];
        JobRuntime& rt = m_sim.runtime[job];
        const JobSpec& s = rec.spec;
        RunSegment seg;
        seg.job = job;
        seg.startS = m_nowS;
        seg.endS = p.endS;
        seg.placementBegin = static_cast<std::uint32_t>(m_results.placements.size());
        seg.placementCount = static_cast<std::uint32_t>(pods.size());
        seg.slowdown = static_cast<float>(p.slowdown);
        seg.tier = p.tier;
        seg.crashLoop = p.crashLoop;
        m_results.placements.insert(m_results.placements.end(), pods.begin(), pods.end());
        rt.segment = static_cast<std::uint32_t>(m_results.segments.size());
        m_results.segments.push_back(seg);
        rt.plannedEndS = p.endS;
        rt.progressStartS = m_nowS + s.startupS;
        rt.phase = p.crashLoop      ? Phase::CrashLoop
                   : s.startupS > 0 ? Phase::Starting
                                    : Phase::Running;
        if (rec.firstStartS < 0) {
            rec.firstStartS = m_nowS;
            m_metrics.jobStarted(m_nowS - s.submitS);
        }
        rec.slowdown = static_cast<float>(p.slowdown);
        rec.lastSegment = rt.segment;
        ++rec.segmentCount;
        rec.status = JobStatus::Running;
        m_sim.boundByEnd.insert(p.endS, job);
        // A share gives no whole GPU back when it ends (others may share the GPU): a head's
        // hold counts it as returning nothing.
        for (const PodPlacement& pod : pods)
            m_sim.nodeJobs[pod.node].push_back({job, pod.isWhole() ? s.gpusPerPod : 0, p.endS});
        // Not read from the cluster: during a pass it also holds the head's phantom GPUs.
        m_rates.allocatedGpus += heldGpus(job);
        if (s.sharesGpu()) bindShare(job, pods, p);
        if (rt.phase == Phase::Running) addProgress(job, +1);
        if (rt.phase == Phase::Starting)
            push(rt.progressStartS, EventType::StartupDone, job, rt.segment);
        push(p.endS, EventType::Release, job, rt.segment);
        if (s.sharesGpu() && rt.phase == Phase::Running) shareRuns(job);
        if (rt.phase != Phase::Running) {
            setStuck(job, true);
            if (m_options.diagnosePending)
                m_results.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseStuck(job, m_nowS)});
        }
        ++m_running;
        count(2, job);
        countPlacement(pods);
    }

    /// GPU-equivalents the job's current binding holds: its GPUs when whole; a share's may
    /// differ from what it asked (a time-slice replica), so it is read from the placement.
    [[gnu::always_inline]] double heldGpus(std::uint32_t job) const {
        const JobSpec& s = m_sim.spec(job);
        if (!s.sharesGpu() && !s.asksMig()) return s.gpus;
        return m_results.gpuEquivalentsOf(m_results.segments[m_sim.runtime[job].segment]);
    }

    void setStuck(std::uint32_t job, bool stuck) {
        if (m_stuck.contains(job) == stuck) return;
        if (stuck)
            m_stuck.insert(job);
        else
            m_stuck.erase(job);
        m_stuckGpus += (stuck ? 1 : -1) * heldGpus(job);
    }

    [[gnu::always_inline]] void addProgress(std::uint32_t job, int sign) {
        const JobSpec& s = m_sim.spec(job);
        const RunSegment& seg = m_results.segments[m_sim.runtime[job].segment];
        const Fleet& fleet = m_results.fleet;
        const double peak =
            fleet.gpuModels[fleet.nodes[m_results.placements[seg.placementBegin].node].gpuModel]
                .bf16DenseTflops;
        if (s.sharesGpu()) return addShareProgress(job, sign, peak);
        const double rate = heldGpus(job) / static_cast<double>(seg.slowdown);
        m_rates.usefulGpus += sign * rate;
        m_rates.occupiedGpus += sign * rate * s.smActivity;
        m_rates.achievedTflops += sign * rate * s.mfu * peak;
    }

    // ---- Shares: interference, memory and the MPS fault domain (shared_gpus.hpp) ----
    // Out of line (noinline), so the whole-GPU path through plan, bind and release stays
    // small enough to be inlined as it was before shares existed.

    /// A share's speed changes with its neighbours. Its pods keep their demand's SMs busy at
    /// its speed, each at most what it holds: occupancy ≤ allocation per pod, so for the
    /// fleet (a time-slice replica can ask more SMs than its 1/replicas).
    [[gnu::noinline]] void addShareProgress(std::uint32_t job, int sign, double peak) {
        const JobSpec& s = m_sim.spec(job);
        const RunSegment& seg = m_results.segments[m_sim.runtime[job].segment];
        const double rate = heldGpus(job) / m_share[job].slowdown;
        double occupied = 0;
        for (const PodPlacement& pod : m_results.placementOf(seg))
            occupied += std::min(smDemand(s), pod.milliGpu / 1000.0);
        m_rates.usefulGpus += sign * rate;
        m_rates.occupiedGpus += sign * occupied / m_share[job].slowdown;
        m_rates.achievedTflops += sign * rate * s.mfu * peak;
    }

    [[gnu::noinline]] void bindShare(std::uint32_t job, const std::vector<PodPlacement>& pods,
                                     const BindingPlan& p) {
        const JobSpec& s = m_sim.spec(job);
        if (p.crashLoop) {
            if (m_memoryFault.kind != MemoryFault::None) m_sim.memoryFaults[job] = m_memoryFault;
            // Every crash of a client ends every client on its MPS GPUs; the last crash is the
            // release, which handles it.
            if (onMps(pods))
                for (int k = 1; k < kCrashLoopAttempts; ++k)
                    push(m_nowS + crashLoopCrashS(s.startupS, k), EventType::MpsFault, job,
                         m_sim.runtime[job].segment);
            return;
        }
        if (m_share.empty()) m_share.resize(m_results.jobs.size());
        m_share[job] = ShareProgress{.sinceS = m_sim.runtime[job].progressStartS,
                                     .slowdown = p.slowdown,
                                     .topology = p.topology};
        m_sharedGpus.add(job, s, pods);
    }

    bool onMps(std::span<const PodPlacement> pods) const {
        return std::any_of(pods.begin(), pods.end(), [this](const PodPlacement& pod) {
            return m_results.fleet.nodes[pod.node].sharing.mode == SharingMode::Mps;
        });
    }

    /// A share starts running: its pods demand SMs from now on.
    [[gnu::noinline]] void shareRuns(std::uint32_t job) {
        m_sharedGpus.setRunning(job, m_sim.placementOf(job));
        reviseSpeeds(m_sim.placementOf(job));
    }

    /// Work a bound job has done by now, in seconds at full speed.
    double workDoneS(std::uint32_t job) const {
        const JobRuntime& rt = m_sim.runtime[job];
        if (rt.phase != Phase::Running) return 0;
        if (!m_sim.spec(job).sharesGpu())
            return (m_nowS - rt.progressStartS) / m_results.segments[rt.segment].slowdown;
        const ShareProgress& pr = m_share[job];
        return pr.workDoneS + (m_nowS - pr.sinceS) / pr.slowdown;
    }

    /// Pods joined or left these GPUs: every share running on them progresses at its new
    /// speed from now, and its release moves.
    [[gnu::noinline]] void reviseSpeeds(std::span<const PodPlacement> changed) {
        for (std::uint32_t job : m_sharedGpus.runningOn(changed)) {
            ShareProgress& pr = m_share[job];
            const double slowdown =
                pr.topology *
                m_sharedGpus.interference(m_sim.spec(job), m_sim.placementOf(job), false);
            if (slowdown == pr.slowdown) continue;
            addProgress(job, -1);
            pr.workDoneS = workDoneS(job);
            pr.sinceS = m_nowS;
            pr.slowdown = slowdown;
            addProgress(job, +1);
            const double leftS = std::max(0.0, m_sim.spec(job).durationS - pr.workDoneS);
            moveRelease(job, m_nowS + leftS * slowdown);
        }
    }

    /// A bound job's planned end moves: the books that order by it, and a new Release event
    /// (the old one is recognised as stale: its time is no longer the planned end). Only
    /// shares move, which a reservation never counts on (scheduler.cpp).
    void moveRelease(std::uint32_t job, double endS) {
        JobRuntime& rt = m_sim.runtime[job];
        m_sim.boundByEnd.erase(rt.plannedEndS, job);
        m_sim.boundByEnd.insert(endS, job);
        for (const PodPlacement& pod : m_sim.placementOf(job))
            for (SimState::BoundPod& b : m_sim.nodeJobs[pod.node])
                if (b.job == job) b.plannedEndS = endS;
        rt.plannedEndS = endS;
        m_results.segments[rt.segment].endS = endS;
        push(endS, EventType::Release, job, rt.segment);
    }

    /// The segment's mean slowdown: time progressing ÷ work done (its bind-time plan when it
    /// did no work).
    float meanSlowdown(std::uint32_t job) const {
        const JobRuntime& rt = m_sim.runtime[job];
        const double doneS = workDoneS(job);
        if (doneS <= 0) return static_cast<float>(m_share[job].slowdown);
        return static_cast<float>((m_nowS - rt.progressStartS) / doneS);
    }

    /// A share's binding ends (before its pods leave the cluster's books).
    [[gnu::noinline]] void unbindShare(std::uint32_t job) {
        const RunSegment& seg = m_results.segments[m_sim.runtime[job].segment];
        if (seg.crashLoop) {
            m_sim.memoryFaults.erase(job);
            return;
        }
        const float mean = meanSlowdown(job);
        m_results.segments[m_sim.runtime[job].segment].slowdown = mean;
        m_results.jobs[job].slowdown = mean;
        const auto pods = m_results.placementOf(seg);
        m_sharedGpus.remove(job, pods);
        reviseSpeeds(pods);
    }

    /// A crash-looping client crashes: MPS has no fault isolation, so every other client on
    /// its MPS GPUs exits and queues again from scratch (reference/scheduling.md §2; clients
    /// that crash-loop themselves restart in their own loop).
    [[gnu::noinline]] void mpsFault(std::uint32_t job) {
        if (!onMps(m_sim.placementOf(job))) return;
        count(7, job);
        for (const PodPlacement& pod : m_sim.placementOf(job)) {
            if (m_results.fleet.nodes[pod.node].sharing.mode != SharingMode::Mps) continue;
            for (std::uint32_t client : m_sharedGpus.clientsOn(pod)) {
                if (m_sim.runtime[client].phase == Phase::Queued) continue;  // a gang on two
                evict(client, false);
                if (m_options.diagnosePending)
                    m_results.jobDiagnoses.push_back(
                        {m_nowS, m_diagnoser.diagnoseMpsFault(client, job, pod.node,
                                                              std::countr_zero(pod.gpuMask))});
            }
        }
    }

    /// Ends the job's current binding: completion, failure or eviction.
    void unbind(std::uint32_t job, SegmentEnd end) {
        JobRuntime& rt = m_sim.runtime[job];
        RunSegment& seg = m_results.segments[rt.segment];
        if (rt.phase == Phase::Running) addProgress(job, -1);
        if (m_sim.spec(job).sharesGpu()) unbindShare(job);
        setStuck(job, false);
        const HostDemand host = m_sim.hostOf(job);
        const bool wholeOnly =
            host.none() && !m_sim.spec(job).sharesGpu() && !m_sim.spec(job).asksMig();
        for (const PodPlacement& pod : m_results.placementOf(seg)) {
            if (wholeOnly)
                m_sim.cluster.release(static_cast<int>(pod.node), pod.gpuMask);
            else
                m_sim.cluster.release(pod, host);
            auto& list = m_sim.nodeJobs[pod.node];
            list.erase(std::find_if(list.begin(), list.end(),
                                    [job](const SimState::BoundPod& b) { return b.job == job; }));
        }
        m_sim.boundByEnd.erase(rt.plannedEndS, job);
        seg.endS = m_nowS;
        seg.end = end;
        m_rates.allocatedGpus -= heldGpus(job);
        --m_running;
        m_scheduler.capacityGrew();
    }

    /// Dynamic MIG: idle GPUs are re-cut for the MIG requests the pass left queued; each
    /// comes back with its new layout after its group's reconfiguration time.
    void startMigRecuts() {
        if (m_sim.cluster.idleDynamicMigGpus().empty() || m_scheduler.queue().empty()) return;
        for (std::uint32_t r :
             m_sim.migRecuts.afterPass(m_scheduler.queue(), m_results.jobs, m_nowS)) {
            push(m_results.migRecuts[r].readyS, EventType::MigRecutDone, r, 0);
            count(8, r);
        }
    }

    void handle(const Event& e) {
        switch (e.type()) {
            case EventType::MigRecutDone:
                m_sim.migRecuts.finish(e.a);
                m_scheduler.capacityGrew();
                count(9, e.a);
                break;
            case EventType::NodeChange:
                nodeChange(e.a);
                break;
            case EventType::StartupDone: {
                JobRuntime& rt = m_sim.runtime[e.a];
                if (rt.segment != e.b || rt.phase != Phase::Starting) return;  // stale
                rt.phase = Phase::Running;
                setStuck(e.a, false);
                if (m_sim.spec(e.a).sharesGpu()) m_share[e.a].sinceS = m_nowS;
                addProgress(e.a, +1);
                if (m_sim.spec(e.a).sharesGpu()) shareRuns(e.a);
                count(3, e.a);
                break;
            }
            case EventType::MpsFault:
                if (m_sim.runtime[e.a].segment != e.b ||
                    m_sim.runtime[e.a].phase != Phase::CrashLoop)
                    return;  // stale: evicted before it crashed
                mpsFault(e.a);
                break;
            case EventType::Release: {
                JobRuntime& rt = m_sim.runtime[e.a];
                if (rt.segment != e.b || rt.phase == Phase::Queued || rt.phase == Phase::Done ||
                    e.timeS != rt.plannedEndS)
                    return;  // stale: the binding was evicted earlier, or its end moved
                const bool crashed = rt.phase == Phase::CrashLoop;
                if (crashed && m_sim.spec(e.a).sharesGpu()) mpsFault(e.a);  // its last crash
                unbind(e.a, crashed ? SegmentEnd::Failed : SegmentEnd::Completed);
                rt.phase = Phase::Done;
                JobRecord& rec = m_results.jobs[e.a];
                rec.endS = m_nowS;
                rec.status = crashed ? JobStatus::Failed : JobStatus::Completed;
                count(4, e.a);
                break;
            }
        }
    }

    void nodeChange(std::uint32_t index) {
        applyNodeChange(
            m_sim.cluster, m_nodeEvents[index], [this](std::uint32_t node, NodeState to) {
                // A node that goes down takes its pods with it; they queue again from scratch.
                if (to == NodeState::Failed || to == NodeState::Provisioning) {
                    std::vector<std::uint32_t> victims;
                    for (const SimState::BoundPod& b : m_sim.nodeJobs[node])
                        victims.push_back(b.job);
                    std::sort(victims.begin(), victims.end());
                    victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
                    for (std::uint32_t job : victims)
                        evict(job);
                }
                m_results.nodeChanges.push_back({m_nowS, node, to});
                count(5, node);
            });
        m_rates.provisionedGpus = m_sim.cluster.provisionedGpus();
        m_rates.provisionedPeakTflops = m_sim.cluster.provisionedPeakTflops();
        // Any state change can move the head's planned start; Ready adds capacity.
        m_scheduler.invalidateReservation();
    }

    /// Queues a bound job again from scratch; its work so far is lost. `diagnose`: as any
    /// job just queued (else the caller gives the reason).
    void evict(std::uint32_t job, bool diagnose = true) {
        JobRuntime& rt = m_sim.runtime[job];
        const RunSegment& seg = m_results.segments[rt.segment];
        if (rt.phase == Phase::Running)
            m_metrics.discardUseful(m_sim.spec(job).sharesGpu()
                                        ? heldGpus(job) * workDoneS(job)
                                        : heldGpus(job) * (m_nowS - rt.progressStartS) /
                                              seg.slowdown);
        unbind(job, SegmentEnd::Evicted);
        m_results.jobs[job].status = JobStatus::Pending;  // queued again
        m_scheduler.enqueue(job);
        if (diagnose) m_queuedNow.push_back(job);
        count(6, job);
    }

    void closeOpenSegments(double endS) {
        for (std::uint32_t job = 0; job < m_sim.runtime.size(); ++job) {
            const JobRuntime& rt = m_sim.runtime[job];
            if (rt.segment == 0xFFFFFFFFu || rt.phase == Phase::Done || rt.phase == Phase::Queued)
                continue;
            RunSegment& seg = m_results.segments[rt.segment];
            seg.endS = endS;
            seg.end = SegmentEnd::Horizon;
            if (m_results.jobs[job].spec.sharesGpu() && !seg.crashLoop)
                seg.slowdown = m_results.jobs[job].slowdown = meanSlowdown(job);
        }
    }

    void takeSample(std::size_t k) {
        Gauges g;
        g.provisionedGpus = m_sim.cluster.provisionedGpus();
        g.allocatedGpus = m_sim.cluster.allocatedGpus();
        g.runningJobs = m_running;
        const JobQueue& queue = m_scheduler.queue();
        g.queueLength = static_cast<double>(queue.size());
        std::uint32_t listed = 0;
        if (m_options.diagnosePending) {
            m_diagnoser.beginSample();
            // The list: the first jobs in queue order, each with its layer and reason.
            for (std::uint32_t job : queue.firstInOrder(m_pendingEntriesPerSample)) {
                m_results.pending.push_back(m_diagnoser.diagnoseQueued(job, m_nowS));
                ++listed;
            }
            // The totals: every queued job. A job's layer depends only on its shape and
            // target, so each shape group is diagnosed once.
            for (const JobQueue::Group& group : queue.groups()) {
                if (group.live == 0) continue;
                const std::uint32_t first = group.jobs[queue.firstLive(group)];
                g.pendingGpus[static_cast<int>(m_diagnoser.layerOf(first))] +=
                    static_cast<double>(group.liveMilliGpus) / 1000;
            }
            // Bound but stuck jobs (starting, crash-looping) are the workload layer. Each has
            // its diagnosis from when it was bound; the sample lists them in what is left of
            // its cap after the queued jobs.
            g.pendingGpus[static_cast<int>(Layer::Workload)] += m_stuckGpus;
            std::size_t listedEntries = listed;
            for (std::uint32_t job = m_stuck.first();
                 job != IndexSet::npos && listedEntries < m_pendingEntriesPerSample;
                 job = m_stuck.next(job + 1), ++listedEntries)
                m_results.pending.push_back(m_diagnoser.diagnoseStuck(job, m_nowS));
        }
        m_results.pendingBegin.push_back(static_cast<std::uint32_t>(m_results.pending.size()));
        m_results.pendingOmitted.push_back(
            m_options.diagnosePending ? static_cast<std::uint32_t>(queue.size() - listed) : 0);
        g.strandedGpus = strandedGpus(queue.smallestPod());
        const ClusterFragmentation f = m_fragmentation.measure(m_sim.cluster);
        g.fragmentationRatio = f.ratioPercent() / 100;
        g.fragmentationAmount = f.amountPercent() / 100;
        g.fragmentedGpus = f.fragmentMilli / 1000;
        placeableGauges(g);
        m_metrics.sample(k, g);
    }

    /// The largest placeable gangs and two slot counts (placeable_slots.hpp): O(racks + pods)
    /// histogram reads per sample, from the free histograms the cluster keeps current.
    void placeableGauges(Gauges& g) const {
        const FreeHistograms free(m_results.fleet, m_sim.cluster);
        for (int l = 0; l < kSlotLevelCount; ++l)
            g.largestGangGpus[l] = largestGang(free, static_cast<SlotLevel>(l), m_gangSizes);
        g.slots8GpuNode = static_cast<double>(countSlots(free, SlotLevel::Node, 8));
        g.slots64GpuRack = static_cast<double>(countSlots(free, SlotLevel::Rack, 64));
    }

    /// Free GPUs on Ready nodes that cannot take even the smallest waiting pod.
    double strandedGpus(int smallestPod) const {
        if (smallestPod <= 0) return 0;
        const ClusterState& c = m_sim.cluster;
        double stranded = 0;
        for (int m = 0; m < static_cast<int>(m_results.fleet.gpuModels.size()); ++m) {
            const int* hist = c.freeHist(Scope::Fleet, 0, m);
            for (int f = 1; f < std::min(smallestPod, c.histWidth()); ++f)
                stranded += f * hist[f];
        }
        return stranded;
    }

    /// Test and debug builds: the GPU books balance after every event and every pass.
    void check() {
        if (m_options.checkInvariants) checkBooks();
    }

    void checkBooks() {
        std::vector<ClusterState::HeldPod> held;
        double allocated = 0;
        for (const auto& [endS, job] : m_sim.boundByEnd) {
            const HostDemand host = m_sim.hostOf(job);
            for (const PodPlacement& pod : m_sim.placementOf(job))
                held.push_back({pod, host});
            allocated += heldGpus(job);
        }
        // The hold is on only inside a pass; between passes the cluster is what jobs hold.
        m_sim.cluster.checkAgainst(held);
        checkShares();
        if (std::abs(allocated - m_rates.allocatedGpus) > 1e-6 * (1 + allocated))
            throw std::logic_error("invariant: allocated GPU counter drifted");
        if (m_scheduler.reservationViolations() != 0 || m_scheduler.reservationShortfall() != 0)
            throw std::logic_error("invariant: a backfill took GPUs reserved for the queue head");
    }

    /// Every running share's speed is the one its GPUs' pods give, summed afresh from the
    /// bound jobs (not from the books); occupancy never exceeds allocation.
    void checkShares() {
        if (m_rates.occupiedGpus > m_rates.allocatedGpus + 1e-6 * (1 + m_rates.allocatedGpus))
            throw std::logic_error("invariant: occupancy above allocation");
        if (m_share.empty()) return;
        SharedGpus fresh(m_results.fleet, m_results.firstGpuOfNode);
        std::vector<std::uint32_t> running;
        for (const auto& [endS, job] : m_sim.boundByEnd) {
            if (!m_sim.spec(job).sharesGpu() || m_sim.runtime[job].phase != Phase::Running)
                continue;
            running.push_back(job);
            fresh.add(job, m_sim.spec(job), m_sim.placementOf(job));
            fresh.setRunning(job, m_sim.placementOf(job));
        }
        for (std::uint32_t job : running) {
            const ShareProgress& pr = m_share[job];
            const double expected =
                pr.topology * fresh.interference(m_sim.spec(job), m_sim.placementOf(job), false);
            if (std::abs(expected - pr.slowdown) > 1e-9 * pr.slowdown)
                throw std::logic_error("invariant: share " + std::to_string(job) +
                                       " runs at a stale slowdown");
        }
    }

    /// After a pass: a head whose reserved start has come is running (EASY's promise).
    void checkHeadOnTime() const {
        if (!m_options.checkInvariants) return;
        const Reservation& r = m_scheduler.reservation();
        if (r.active && r.job == m_scheduler.blockedHead() && r.startS <= m_nowS)
            throw std::logic_error("invariant: the queue head did not start at its reserved time");
    }

    const Scenario& m_scenario;
    RunOptions m_options;
    Results& m_results;
    SimState m_sim;
    Scheduler m_scheduler;
    Diagnoser m_diagnoser;
    MetricsRecorder m_metrics;
    FragmentationGauge m_fragmentation;
    std::vector<int> m_gangSizes;  ///< the placeable table's sizes (largestGang checks them)
    EventHeap<Event, std::greater<>> m_events;
    std::vector<NodeChangeEvent> m_nodeEvents;
    Rates m_rates;
    double m_nowS = 0;
    std::uint64_t m_seq = 0;
    std::uint64_t m_eventCount = 0;
    std::uint64_t m_fingerprint = 0;
    int m_running = 0;
    mutable std::vector<std::uint32_t> m_nodeScratch;
    std::vector<std::uint32_t> m_queuedNow;  ///< arrived or evicted at m_nowS
    IndexSet m_stuck;        ///< bound jobs starting up or crash-looping (workload layer)
    double m_stuckGpus = 0;  ///< GPUs the stuck jobs ask
    std::size_t m_pendingEntriesPerSample = 0;
    SharedGpus m_sharedGpus;
    std::vector<ShareProgress> m_share;  ///< per job, from the first share bound
    mutable MemoryFault m_memoryFault;   ///< the last plan's, for bind
};

}  // namespace
}  // namespace detail

Results simulate(const Scenario& scenario, const RunOptions& options, const ProgressFn& progress,
                 std::stop_token stop) {
    Results results;
    if (options.seed && *options.seed != scenario.seed) {
        Scenario reseeded = scenario;
        reseeded.seed = *options.seed;
        detail::Simulation sim(reseeded, options, results);
        sim.run(progress, stop);
        return results;
    }
    detail::Simulation sim(scenario, options, results);
    sim.run(progress, stop);
    return results;
}

}  // namespace gpuplan
