// The discrete-event kernel: arrivals, releases, startup ends and node changes in time order;
// one scheduling pass per instant at which something happened; samples at fixed intervals.
#include <chrono>
#include <memory>

#include "scheduling/preemption_health.hpp"
#include "simulation.hpp"

namespace gpuplan {

double crashLoopHoldS(double startupS) {
    return detail::crashLoopCrashS(startupS, detail::kCrashLoopAttempts);
}

namespace detail {

/// When the k-th attempt of a crash loop (1-based) crashes, after the binding: k attempts
/// and the k − 1 back-offs between them. The last is the hold's end, when the job fails.
double crashLoopCrashS(double startupS, int k) {
    const double attemptS = std::max(startupS, 30.0);
    double atS = k * attemptS;
    for (int i = 0; i < k - 1; ++i)
        atS += std::min(10.0 * (1 << i), 300.0);
    return atS;
}

Results Simulation::run(const ProgressFn& progress, std::stop_token stop) {
    const double horizonS = m_scenario.horizonS;
    const auto& jobs = m_record.jobs;
    std::size_t nextArrival = 0, nextSample = 0;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::uint64_t iterations = 0;
    using Clock = std::chrono::steady_clock;
    const auto partialEvery = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(std::max(0.0, m_options.partialResultsEveryS)));
    Clock::time_point nextPartial = Clock::now() + partialEvery;
    while (true) {
        const double tEvent = m_events.empty() ? kInf : m_events.top().timeS;
        const double tArrival = nextArrival < jobs.size() ? jobs[nextArrival].spec.submitS : kInf;
        const double tSample =
            nextSample < m_metrics.sampleCount() ? m_metrics.sampleTime(nextSample) : kInf;
        const double now = std::min({tEvent, tArrival, tSample});
        if (now >= horizonS) break;
        if ((++iterations & 255) == 0) {
            if (stop.stop_requested()) {
                m_stopped = true;
                break;
            }
            if (progress && (iterations & 4095) == 0) progress(now / horizonS);
        }
        m_metrics.advanceTo(now, m_rates);
        m_cost.advanceTo(now);
        m_nowS = now;
        bool changed = false;
        while (!m_events.empty() && m_events.top().timeS == now) {
            const Event e = m_events.top();
            m_events.pop();
            handle(e);
            check();
            changed = true;
        }
        // Jobs whose last victim left start on their held room before anything else moves.
        if (!m_nomineesReady.empty()) startNominees();
        while (nextArrival < jobs.size() && jobs[nextArrival].spec.submitS == now) {
            arrive(static_cast<std::uint32_t>(nextArrival++));
            changed = true;
        }
        if (changed) {
            if (m_sim.elastic.any() && !m_scheduler.queue().empty()) reclaimElasticGrowth();
            m_scheduler.pass(now);
            // Preempted jobs queue again and may fit elsewhere at once. A few rounds at most:
            // policies that preempt back and forth must not stall the clock.
            if (!m_preemptedNow.empty()) {
                for (int round = 0; round < kPreemptionRounds && requeuePreempted(); ++round)
                    m_scheduler.pass(now);
                requeuePreempted();
            }
            m_rates.queuedJobs =
                static_cast<double>(m_scheduler.queue().size() + m_scheduler.nominations().size());
            startMigRecuts();
            if (m_sim.autoscaler.active()) {
                if (!m_scaleDownsDue.empty()) applyScaleDowns();
                scaleUp();
            }
            if (m_sim.elastic.any()) {
                ElasticJobs& elastic = m_sim.elastic;
                if (jobsWaitForCapacity()) {
                    elastic.queueEmptySinceS = std::numeric_limits<double>::infinity();
                } else {
                    if (elastic.queueEmptySinceS == std::numeric_limits<double>::infinity())
                        elastic.queueEmptySinceS = now;
                    growElasticJobs();
                }
            }
            check();
            if (!m_queuedNow.empty()) diagnoseNewlyQueued();
            checkHeadOnTime();
        }
        if (tSample == now) {
            takeSample(nextSample++);
            count(FingerprintTag::Sample, static_cast<std::uint32_t>(nextSample));
        }
        // Between instants, with everything at `now` done: a consistent cut of the run. A
        // snapshot copies and finishes everything so far (a quarter second at 100k GPUs):
        // spaced at least nine times its cost apart, it slows the run by a tenth at most.
        if (m_options.onPartialResults && (iterations & 4095) == 0) {
            const Clock::time_point before = Clock::now();
            if (before >= nextPartial) {
                m_options.onPartialResults(partialResults());
                const Clock::time_point after = Clock::now();
                nextPartial =
                    partialEvery == Clock::duration::zero()
                        ? after
                        : after + std::max<Clock::duration>(partialEvery, 9 * (after - before));
            }
        }
    }
    const double endS = m_stopped ? m_nowS : horizonS;
    m_nowS = endS;
    closeRecord(m_record, endS, m_metrics, m_cost);
    Results out(std::move(m_record));
    buildResults(out, endS, m_metrics, m_cost);
    out.stopped = m_stopped;
    if (progress) progress(1.0);
    return out;
}

void Simulation::writeRunKpis(Results& out) const {
    // Events in the measurement window [warmupS, end).
    const MeasurementWindow window = out.measurementWindow();
    auto changesBy = [&](NodeChangeCause cause) {
        return static_cast<double>(std::count_if(
            out.nodeChanges.begin(), out.nodeChanges.end(),
            [&](const NodeStateChange& c) { return c.cause == cause && window.counts(c.timeS); }));
    };
    if (m_scenario.failures)
        out.kpis.push_back(
            {"node_failures",
             static_cast<double>(std::count_if(out.nodeChanges.begin(), out.nodeChanges.end(),
                                               [&](const NodeStateChange& c) {
                                                   return window.counts(c.timeS) &&
                                                          c.state == NodeState::Failed &&
                                                          c.cause != NodeChangeCause::SpotReclaim;
                                               })),
             "nodes",
             "Nodes that failed (random failures at failures.mtbfGpuHours, "
             "and the scenario's own): "
             "each ended every job on its node."});
    if (m_scenario.spot)
        out.kpis.push_back({"spot_reclaims", changesBy(NodeChangeCause::SpotReclaim), "nodes",
                            "Spot nodes reclaimed, each after spot.noticeS of notice."});
    if (m_sim.autoscaler.active())
        out.kpis.push_back(
            {"on_demand_scale_ups", changesBy(NodeChangeCause::ScaleUp), "nodes",
             "On-demand nodes provisioned for queued jobs (each Ready onDemand.provisioningDelayS "
             "after its request)."});
    if (m_sim.elastic.any()) {
        out.kpis.push_back({"elastic_grows", static_cast<double>(m_sim.elastic.grows), "resizes",
                            "Times an elastic job grew into idle capacity (nothing "
                            "waiting), each a restart of its pods with its work kept."});
        out.kpis.push_back(
            {"elastic_shrinks", static_cast<double>(m_sim.elastic.shrinks), "resizes",
             "Times an elastic job gave its growth back so that a queued job could start."});
        if (m_sim.elastic.budgetSpentAtS >= 0)
            out.kpis.push_back(
                {"elastic_resizes_stopped_at_s", m_sim.elastic.budgetSpentAtS, "s",
                 "When the run's resizes had recorded their most GPU holds "
                 "(RunOptions::maxElasticResizeGpuHolds, bounding the results' memory): "
                 "from then on elastic jobs kept their sizes."});
    }
}

const Fleet& Simulation::prepare(const Scenario& scenario, RunRecord& record) {
    record.fleet = Fleet::build(scenario);
    Workload w = generateWorkload(scenario, record.fleet);
    record.teams = std::move(w.teams);
    record.teamColors.assign(record.teams.size(), std::string());
    for (std::size_t i = 0; i < scenario.teams.size(); ++i)
        record.teamColors[i] = scenario.teams[i].color;
    record.classNames = std::move(w.classNames);
    record.explicitNames = std::move(w.explicitNames);
    record.traceNames = std::move(w.traceNames);
    record.horizonS = scenario.horizonS;
    record.warmupS = scenario.warmupS;
    record.sampleIntervalS = scenario.sampleIntervalS;
    record.thrashingPreemptions = scenario.scheduler.thrashingPreemptions;
    record.starvationWaitS = scenario.scheduler.starvationWaitS;
    record.failureMtbfGpuHours = scenario.failures ? scenario.failures->mtbfGpuHours : 0;
    // Per source, as sourceTraits(scenario, job) finds a job's traits.
    for (const JobClassDef& c : scenario.jobClasses)
        record.sourceTraits.add(JobSource::Class, c.traits);
    for (const JobDef& j : scenario.jobs)
        record.sourceTraits.add(JobSource::Explicit, j.traits);
    for (const TraceDef& t : scenario.traces)
        record.sourceTraits.add(JobSource::Trace, t.traits);
    reserveLarge(record.jobs, w.jobs.size());
    for (const JobSpec& spec : w.jobs)
        record.jobs.push_back(JobRecord{.spec = spec});
    reserveLarge(record.segments, w.jobs.size());
    reserveLarge(record.placements, w.jobs.size());
    record.pendingBegin.assign(1, 0);
    record.firstGpuOfNode.resize(record.fleet.nodes.size() + 1, 0);
    for (std::size_t i = 0; i < record.fleet.nodes.size(); ++i)
        record.firstGpuOfNode[i + 1] = record.firstGpuOfNode[i] + record.fleet.nodes[i].gpus;
    return record.fleet;
}

void Simulation::buildNodeEvents() {
    m_nodeEvents = nodeChangeEvents(m_record.fleet, m_scenario);
    for (std::uint32_t i = 0; i < m_nodeEvents.size(); ++i)
        push(m_nodeEvents[i].timeS, EventType::NodeChange, i, 0);
}

BindingPlan Simulation::plan(std::uint32_t job, const std::vector<PodPlacement>& pods,
                             double nowS) const {
    const JobSpec& s = m_sim.spec(job);
    const Fleet& fleet = m_record.fleet;
    BindingPlan p;
    const FleetNode& first = fleet.nodes[pods.front().node];
    if (pods.size() == 1) {
        p.tier = FabricTier::Nvlink;  // tierOf's answer for one node, without the walk
    } else {
        m_nodeScratch.clear();
        for (const PodPlacement& pod : pods)
            m_nodeScratch.push_back(pod.node);
        p.tier = fleet.tierOf(m_nodeScratch);
    }
    // An elastic job's binding may hold more pods than it asked: it needs the tier of what
    // it holds, and works faster by its pace.
    const int heldPods = static_cast<int>(pods.size());
    const bool resized = heldPods != s.pods();
    p.slowdown =
        fleet.slowdown(fleet.neededTier(resized ? heldPods * s.gpusPerPod : s.gpus, first.gpuModel),
                       p.tier, s.topologySensitivity, first.nodeType);
    if (resized) {
        p.pace = static_cast<double>(heldPods) / s.pods();
        p.slowdown /= p.pace;
    }
    // Fail-slow: every pod waits for the slowest at each step, so the job goes at its pace.
    if (m_anySlowNode) {
        double slowest = 1;
        for (const PodPlacement& pod : pods)
            slowest = std::min(slowest, fleet.nodes[pod.node].speed);
        if (slowest < 1) p.slowdown /= slowest;
    }
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
                         : nowS + s.startupS + m_sim.savedWork.leftS(job, s) * p.slowdown;
    return p;
}

void Simulation::arrive(std::uint32_t job) {
    count(FingerprintTag::JobArrived, job);
    m_scheduler.enqueue(job);
    m_queuedNow.push_back(job);
}

void Simulation::diagnoseNewlyQueued() {
    if (m_options.diagnosePending) {
        for (std::uint32_t job : m_queuedNow) {
            if (m_sim.runtime[job].phase != Phase::Queued) continue;
            if (m_sim.spec(job).source != JobSource::Explicit) {
                m_record.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseJustQueued(job)});
                continue;
            }
            m_diagnoser.beginSample();  // the cluster has changed since the last memo
            m_record.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseQueued(job, m_nowS)});
        }
    }
    m_queuedNow.clear();
}

void Simulation::bind(std::uint32_t job, const std::vector<PodPlacement>& pods) {
    const BindingPlan p = plan(job, pods, m_nowS);
    JobRecord& rec = m_record.jobs[job];
    JobRuntime& rt = m_sim.runtime[job];
    const JobSpec& s = rec.spec;
    rt.segment = static_cast<std::uint32_t>(m_record.segments.size());
    // Built in place: a RunSegment assembled on the stack and copied costs store-forwarding
    // stalls on every binding.
    m_record.segments.push_back(RunSegment{
        .job = job,
        .startS = m_nowS,
        .endS = p.endS,
        .placementBegin = static_cast<std::uint32_t>(m_record.placements.size()),
        .placementCount = static_cast<std::uint32_t>(pods.size()),
        .slowdown = static_cast<float>(p.slowdown),
        .tier = p.tier,
        .crashLoop = p.crashLoop,
        .savedWorkS = static_cast<float>(m_sim.savedWork.of(job)),
    });
    m_record.placements.insert(m_record.placements.end(), pods.begin(), pods.end());
    rt.plannedEndS = p.endS;
    rt.progressStartS = m_nowS + s.startupS;
    rt.phase = p.crashLoop ? Phase::CrashLoop : s.startupS > 0 ? Phase::Starting : Phase::Running;
    if (rec.firstStartS < 0) {
        rec.firstStartS = m_nowS;
        m_metrics.jobStarted(m_nowS - s.submitS);
    }
    rec.slowdown = static_cast<float>(p.slowdown * p.pace);  // the placement's, not the pace
    rec.lastSegment = rt.segment;
    ++rec.segmentCount;
    rec.status = JobStatus::Running;
    // Every book that keeps bound jobs learns of it (its GPUs were taken by the placer).
    const Binding binding = m_sim.bindingOf(job);
    m_sim.bindingStarted(binding);
    m_sim.elastic.bindingStarted(binding);
    m_sim.autoscaler.bindingStarted(binding);
    m_cost.bindingStarted(binding);
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
            m_record.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnoseStuck(job, m_nowS)});
    }
    ++m_running;
    count(FingerprintTag::JobStarted, job);
    countPlacement(pods);
}

void Simulation::unbind(std::uint32_t job, SegmentEnd end) {
    JobRuntime& rt = m_sim.runtime[job];
    RunSegment& seg = m_record.segments[rt.segment];
    if (rt.phase == Phase::Running) addProgress(job, -1);
    if (m_sim.spec(job).sharesGpu()) unbindShare(job);
    setStuck(job, false);
    // A terminating job left its room at its notice.
    const bool terminating = rt.phase == Phase::Terminating;
    const Binding binding = m_sim.bindingOf(job);
    if (!terminating) m_sim.roomLeft(binding);
    m_sim.bindingEnded(binding);
    if (terminating) victimEnded(job);
    m_sim.elastic.bindingEnded(binding);
    m_cost.bindingEnded(binding);
    // A resize takes new pods at once: its old nodes are not idle, nor drained.
    if (m_sim.autoscaler.active() && !m_resizing)
        for (const PodPlacement& pod : binding.pods)
            if (m_sim.nodePods.empty(pod.node)) becameIdle(pod.node);
    if (m_sim.cluster.drainingNodes() > 0 && !m_resizing)
        for (const PodPlacement& pod : binding.pods)
            if (m_sim.nodePods.empty(pod.node) &&
                m_sim.cluster.state(static_cast<int>(pod.node)) == NodeState::Draining)
                addNodeChange({m_nowS, pod.node, pod.node + 1, NodeState::Repairing, false,
                               NodeChangeCause::DrainDone});
    seg.endS = m_nowS;
    seg.end = end;
    m_rates.allocatedGpus -= heldGpus(job);
    --m_running;
    m_scheduler.capacityGrew();
}

void Simulation::startMigRecuts() {
    if (m_sim.cluster.idleDynamicMigGpus().empty() || m_scheduler.queue().empty()) return;
    for (std::uint32_t r : m_sim.migRecuts.afterPass(m_scheduler.queue(), m_record.jobs, m_nowS)) {
        push(m_record.migRecuts[r].readyS, EventType::MigRecutDone, r, 0);
        count(FingerprintTag::MigRecutStarted, r);
    }
}

void Simulation::handle(const Event& e) {
    switch (e.type()) {
        case EventType::ElasticGrowDue:
            // The pass after it grows what the window now lets grow.
            count(FingerprintTag::ElasticGrowDue, 0);
            break;
        case EventType::MigRecutDone:
            m_sim.migRecuts.finish(e.a);
            m_scheduler.capacityGrew();
            if (m_sim.elastic.any()) ++m_sim.elastic.capacityEpoch;
            count(FingerprintTag::MigRecutDone, e.a);
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
            count(FingerprintTag::StartupDone, e.a);
            break;
        }
        case EventType::MpsFault:
            if (m_sim.runtime[e.a].segment != e.b || m_sim.runtime[e.a].phase != Phase::CrashLoop)
                return;  // stale: evicted before it crashed
            mpsFault(e.a);
            break;
        case EventType::Release: {
            JobRuntime& rt = m_sim.runtime[e.a];
            if (rt.segment != e.b || rt.phase == Phase::Queued || rt.phase == Phase::Done ||
                e.timeS != rt.plannedEndS)
                return;  // stale: the binding was evicted earlier, or its end moved
            if (rt.phase == Phase::Terminating) {
                endTermination(e.a);
                break;
            }
            const bool crashed = rt.phase == Phase::CrashLoop;
            if (crashed && m_sim.spec(e.a).sharesGpu()) mpsFault(e.a);  // its last crash
            if (m_sim.savedWork.anyCost()) writeOffCheckpoints(e.a, true);
            unbind(e.a, crashed ? SegmentEnd::Failed : SegmentEnd::Completed);
            rt.phase = Phase::Done;
            JobRecord& rec = m_record.jobs[e.a];
            rec.endS = m_nowS;
            rec.status = crashed ? JobStatus::Failed : JobStatus::Completed;
            count(FingerprintTag::JobEnded, e.a);
            break;
        }
    }
}

void Simulation::becameIdle(std::uint32_t node) {
    if (!m_record.fleet.nodes[node].elastic ||
        m_sim.cluster.state(static_cast<int>(node)) != NodeState::Ready ||
        m_sim.autoscaler.idleSinceS(node) >= 0)
        return;
    m_sim.autoscaler.idleSince(node, m_nowS);
    // Given back at the timeout unless a job binds there first (nodeChange checks).
    addNodeChange({m_nowS + m_sim.autoscaler.idleTimeoutS(), node, node + 1,
                   NodeState::Provisioning, false, NodeChangeCause::ScaleDown});
}

void Simulation::addNodeChange(const NodeChangeEvent& change) {
    m_nodeEvents.push_back(change);
    push(change.timeS, EventType::NodeChange, static_cast<std::uint32_t>(m_nodeEvents.size() - 1),
         0);
}

void Simulation::replaceWithSpare(std::uint32_t failed) {
    if (m_spare[failed]) return;  // a spare that fails waits for its repair
    const FleetNode& info = m_record.fleet.nodes[failed];
    for (std::uint32_t n = 0; n < m_spare.size(); ++n) {
        if (!m_spare[n] || m_record.fleet.nodes[n].nodeType != info.nodeType ||
            m_sim.cluster.state(static_cast<int>(n)) != NodeState::Cordoned)
            continue;
        // The spare works from now; the failed node, once repaired, is the spare.
        m_spare[n] = false;
        m_spare[failed] = true;
        addNodeChange({m_nowS, n, n + 1, NodeState::Ready, false, NodeChangeCause::SpareIn});
        return;
    }
}

bool Simulation::scaleDownDue(const NodeChangeEvent& change) const {
    const std::uint32_t node = change.firstNode;
    return m_sim.cluster.state(static_cast<int>(node)) == NodeState::Ready &&
           m_sim.nodePods.empty(node) && m_sim.autoscaler.idleSinceS(node) >= 0 &&
           m_sim.autoscaler.idleSinceS(node) + m_sim.autoscaler.idleTimeoutS() == change.timeS;
}

void Simulation::applyScaleDowns() {
    m_applyingScaleDowns = true;
    for (std::uint32_t index : m_scaleDownsDue)
        nodeChange(index);
    m_applyingScaleDowns = false;
    m_scaleDownsDue.clear();
}

void Simulation::scaleUp() {
    const auto nodes = m_sim.autoscaler.scaleUp(m_scheduler.queue(), m_record.jobs, m_sim.cluster,
                                                m_sim.quota, m_nowS);
    for (std::uint32_t node : nodes) {
        addNodeChange({m_nowS + m_sim.autoscaler.provisioningDelayS(), node, node + 1,
                       NodeState::Ready, true, NodeChangeCause::ScaleUp});
        count(FingerprintTag::ScaleUpRequested, node);
    }
}

void Simulation::nodeChange(std::uint32_t index) {
    // A copy: the changes below may add node changes (scale-downs) to the list.
    const NodeChangeEvent change = m_nodeEvents[index];
    const NodeChangeCause cause = change.cause;
    const bool elastic = m_sim.autoscaler.active();
    if (cause == NodeChangeCause::ScaleDown) {
        // Stale when a job bound there since, or the node left Ready meanwhile. A live one
        // waits for this instant's pass: a job arriving now may still take the node.
        if (!scaleDownDue(change)) return;
        if (!m_applyingScaleDowns) {
            m_scaleDownsDue.push_back(index);
            return;
        }
        m_sim.autoscaler.givenBack(change.firstNode, m_nowS);
    }
    if (cause == NodeChangeCause::ScaleUp)
        for (std::uint32_t node = change.firstNode; node < change.endNode; ++node)
            m_sim.autoscaler.arrived(node);
    // A repaired hot spare goes back to waiting (Cordoned), not to work.
    if (!m_spare.empty() && change.state == NodeState::Ready &&
        change.endNode == change.firstNode + 1 && m_spare[change.firstNode] &&
        m_sim.cluster.state(static_cast<int>(change.firstNode)) != NodeState::Cordoned) {
        NodeChangeEvent asSpare = change;
        asSpare.state = NodeState::Cordoned;
        asSpare.cause = NodeChangeCause::SpareOut;
        m_nodeEvents[index] = asSpare;
        nodeChange(index);
        return;
    }
    // No room is held on a node about to go; its jobs save what they can.
    const auto tellSpotNotice = [&](std::uint32_t node) {
        m_scheduler.dropNominationsOn(node);
        for (std::uint32_t job : m_sim.nodePods.jobsOn(node))
            spotNotice(job, node);
    };
    // A node the user cordoned already gets the notice too (its state does not change).
    if (cause == NodeChangeCause::SpotNotice)
        for (std::uint32_t node = change.firstNode; node < change.endNode; ++node)
            if (m_sim.cluster.state(static_cast<int>(node)) == change.state) tellSpotNotice(node);
    applyNodeChange(m_sim.cluster, change, [&](std::uint32_t node, NodeState to) {
        m_cost.nodeChange(node, m_sim.cluster.state(static_cast<int>(node)), to);
        if (cause == NodeChangeCause::SpotNotice) tellSpotNotice(node);
        // A node that goes down takes its pods with it; they queue again from scratch.
        if (to == NodeState::Failed || to == NodeState::Provisioning ||
            to == NodeState::Repairing) {
            m_scheduler.dropNominationsOn(node);
            for (std::uint32_t job : m_sim.nodePods.jobsOn(node))
                if (!m_sim.elastic.isElastic(job) || !shrinkOffNode(job, node, SegmentEnd::Evicted))
                    evict(job);
        }
        // Idle time counts only while Ready (evictions above may have started it).
        if (elastic && to != NodeState::Ready) m_sim.autoscaler.idleSince(node, -1);
        m_record.nodeChanges.push_back({m_nowS, node, to, cause});
        count(FingerprintTag::NodeStateChanged, node);
        if (to == NodeState::Failed && !m_spare.empty() && cause != NodeChangeCause::SpotReclaim)
            replaceWithSpare(node);
        // Draining an empty node: maintenance can start at once.
        if (to == NodeState::Draining && m_sim.nodePods.empty(node))
            addNodeChange(
                {m_nowS, node, node + 1, NodeState::Repairing, false, NodeChangeCause::DrainDone});
    });
    // An elastic node Ready again (new, repaired, uncordoned) is idle until a job binds
    // there: it is given back if none does.
    if (elastic)
        for (std::uint32_t node = change.firstNode; node < change.endNode; ++node)
            if (m_sim.nodePods.empty(node)) becameIdle(node);
    m_rates.provisionedGpus = m_sim.cluster.provisionedGpus();
    m_rates.provisionedPeakTflops = m_sim.cluster.provisionedPeakTflops();
    if (m_sim.elastic.any()) ++m_sim.elastic.capacityEpoch;
    // Any state change can move the head's planned start; Ready adds capacity.
    m_scheduler.invalidateReservation();
}

void Simulation::loseUnsavedWork(std::uint32_t job) {
    const JobRuntime& rt = m_sim.runtime[job];
    const JobSpec& s = m_sim.spec(job);
    // Checkpoints count the job's work over all its bindings, in ideal seconds.
    const double doneS = workDoneS(job);
    const double savedBeforeS = m_sim.savedWork.of(job);
    const CheckpointPolicy policy = m_record.checkpointOf(job);
    const CheckpointOutcome out = checkpointOutcome(policy, savedBeforeS, doneS, s.durationS);
    const float slowdown = m_record.segments[rt.segment].slowdown;
    // A whole-GPU binding's lost GPU-seconds as GPUs × wall seconds ÷ slowdown: without
    // checkpoints (gained 0) that is the product it always was, so goodput keeps its bits.
    const double gainedS = out.savedS - savedBeforeS;
    const double lostGpuS =
        s.sharesGpu() || policy.costS > 0
            ? workGpus(job) * out.lostS
            : workGpus(job) * (m_nowS - rt.progressStartS - gainedS * slowdown) / slowdown;
    // The lost work is the binding's latest progress; its checkpoints spread over all of it.
    const double lostWallS = workGpus(job) > 0 ? lostGpuS / workGpus(job) * slowdown : 0;
    m_metrics.discardUseful(lostGpuS, std::max(rt.progressStartS, m_nowS - lostWallS));
    if (out.overheadS > 0)
        m_metrics.discardCheckpointing(workGpus(job) * out.overheadS, rt.progressStartS);
    m_record.segments[rt.segment].lostWorkS = static_cast<float>(out.lostS);
    // An elastic job's lost work is priced at its own size (a grown one did it on more GPUs,
    // in less time).
    m_cost.lostWork(m_sim.placementOf(job),
                    m_sim.elastic.any() ? out.lostS * workGpus(job) / heldGpus(job) : out.lostS);
    m_sim.savedWork.set(job, out.savedS, m_record.jobs.size());
}

void Simulation::writeOffCheckpoints(std::uint32_t job, bool completed) {
    if (const double overheadS = checkpointWriteOffS(job, completed); overheadS > 0)
        m_metrics.discardCheckpointing(workGpus(job) * overheadS,
                                       m_sim.runtime[job].progressStartS);
}

double Simulation::checkpointWriteOffS(std::uint32_t job, bool completed) const {
    const CheckpointPolicy policy = m_record.checkpointOf(job);
    if (policy.costS == 0 || m_sim.runtime[job].phase != Phase::Running) return 0;
    const JobSpec& s = m_sim.spec(job);
    const double savedBeforeS = m_sim.savedWork.of(job);
    // A completed job wrote every checkpoint of its work; one the run's end cut short, those
    // its progress so far completed.
    const double overheadS =
        completed ? policy.costS * std::max(0.0, policy.checkpointsBefore(s.durationS) -
                                                     policy.checkpointsIn(savedBeforeS))
                  : checkpointOutcome(policy, savedBeforeS, workDoneS(job), s.durationS).overheadS;
    return overheadS;
}

void Simulation::takeOff(std::uint32_t job, SegmentEnd end) {
    if (m_sim.runtime[job].phase == Phase::Running) loseUnsavedWork(job);
    unbind(job, end);
    m_record.jobs[job].status = JobStatus::Pending;  // queued again
}

void Simulation::evict(std::uint32_t job, bool diagnose) {
    // A job in its grace period was preempted already: a failure only cuts its grace short.
    const bool preempted = m_sim.runtime[job].phase == Phase::Terminating &&
                           m_sim.preemptorOf(job) != SimState::kNoPreemptor;
    takeOff(job, preempted ? SegmentEnd::Preempted : SegmentEnd::Evicted);
    m_scheduler.enqueue(job);
    if (diagnose) m_queuedNow.push_back(job);
    count(FingerprintTag::JobEvicted, job);
}

void Simulation::preempt(std::uint32_t victim, std::uint32_t by) {
    if (m_scenario.scheduler.preemptionGraceS > 0) {
        giveNotice(victim, by, m_nowS + m_scenario.scheduler.preemptionGraceS, false);
        // `by` now waits for its victims: diagnosed again after the pass, whenever it came.
        if (std::find(m_queuedNow.begin(), m_queuedNow.end(), by) == m_queuedNow.end())
            m_queuedNow.push_back(by);
    } else {
        // Not queued yet: the pass that preempts is walking the queue.
        takeOff(victim, SegmentEnd::Preempted);
        m_preemptedNow.push_back({victim, by});
    }
    m_quotaSeries.preempted();
    count(FingerprintTag::JobPreempted, victim);
}

void Simulation::giveNotice(std::uint32_t job, std::uint32_t by, double endS, bool checkpoint) {
    JobRuntime& rt = m_sim.runtime[job];
    if (rt.phase == Phase::Running) {
        if (checkpoint)
            checkpointAllWork(job);
        else
            loseUnsavedWork(job);
        addProgress(job, -1);
        if (m_sim.spec(job).sharesGpu()) shareStops(job);
    }
    setStuck(job, false);
    // Its GPUs and quota are the preemptor's room from now. Still on its nodes (a failure
    // there ends its grace) but handing nothing back to a reservation.
    const Binding binding = m_sim.bindingOf(job);
    m_sim.roomLeft(binding);
    m_sim.releaseMoved(binding, endS, true);
    rt.phase = Phase::Terminating;
    rt.plannedEndS = endS;
    m_record.segments[rt.segment].endS = endS;
    push(endS, EventType::Release, job, rt.segment);
    m_sim.terminating.push_back({job, by, by != SimState::kNoPreemptor});
}

void Simulation::spotNotice(std::uint32_t job, std::uint32_t node) {
    // An elastic job whose other pods hold its size leaves the node at once, keeping its work.
    if (m_sim.elastic.isElastic(job) && shrinkOffNode(job, node, SegmentEnd::Resized)) return;
    if (m_sim.runtime[job].phase != Phase::Running) return;  // nothing in progress to save
    const CheckpointPolicy policy = m_record.checkpointOf(job);
    // One that cannot save in time runs on, and loses its unsaved work at the reclaim.
    if (!policy.saves() || policy.costS > m_scenario.spot->noticeS) return;
    giveNotice(job, SimState::kNoPreemptor, m_nowS + policy.costS, true);
}

void Simulation::checkpointAllWork(std::uint32_t job) {
    const JobSpec& s = m_sim.spec(job);
    const CheckpointPolicy policy = m_record.checkpointOf(job);
    const double savedBeforeS = m_sim.savedWork.of(job);
    // The periodic checkpoints so far, then one more of everything done.
    const CheckpointOutcome out =
        checkpointOutcome(policy, savedBeforeS, workDoneS(job), s.durationS);
    m_metrics.discardCheckpointing(workGpus(job) * out.overheadS,
                                   m_sim.runtime[job].progressStartS);
    // Written after its progress stopped: held, never counted useful.
    m_metrics.countCheckpointing(heldGpus(job) * policy.costS);
    m_sim.savedWork.set(job, out.workS, m_record.jobs.size());
}

void Simulation::victimEnded(std::uint32_t job) {
    auto& list = m_sim.terminating;
    const auto it = std::find_if(list.begin(), list.end(),
                                 [job](const SimState::TerminatingJob& t) { return t.job == job; });
    const std::uint32_t by = it->by;
    const bool awaited = it->awaited;
    list.erase(it);
    if (awaited && m_scheduler.victimLeft(by)) m_nomineesReady.push_back(by);
}

void Simulation::startNominees() {
    for (std::uint32_t job : m_nomineesReady) {
        m_scheduler.startNominated(job);
        check();
    }
    m_nomineesReady.clear();
}

void Simulation::endTermination(std::uint32_t job) {
    const std::uint32_t by = m_sim.preemptorOf(job);
    if (by == SimState::kNoPreemptor) {
        // A spot notice's checkpoint is written: the job leaves before its node is reclaimed.
        evict(job);
        return;
    }
    takeOff(job, SegmentEnd::Preempted);
    m_scheduler.enqueue(job);
    if (m_options.diagnosePending)
        m_record.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnosePreempted(job, by)});
    count(FingerprintTag::PreemptedRequeued, job);
}

bool Simulation::requeuePreempted() {
    if (m_preemptedNow.empty()) return false;
    for (const auto& [victim, by] : m_preemptedNow) {
        m_scheduler.enqueue(victim);
        if (m_options.diagnosePending)
            m_record.jobDiagnoses.push_back({m_nowS, m_diagnoser.diagnosePreempted(victim, by)});
    }
    m_preemptedNow.clear();
    return true;
}

}  // namespace detail

Results simulate(const Scenario& scenario, const RunOptions& options, const ProgressFn& progress,
                 std::stop_token stop) {
    if (options.seed && *options.seed != scenario.seed) {
        Scenario reseeded = scenario;
        reseeded.seed = *options.seed;
        return detail::Simulation(reseeded, options).run(progress, stop);
    }
    return detail::Simulation(scenario, options).run(progress, stop);
}

}  // namespace gpuplan
