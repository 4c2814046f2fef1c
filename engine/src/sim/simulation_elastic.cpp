// Elastic jobs (JobTraitsDef::elasticMaxGpus): growing into idle capacity when nothing waits,
// giving the growth back when a queued job needs it, and going on smaller when a node under
// some of their pods goes down. A resize ends the binding and starts the next at once.
#include <algorithm>
#include <limits>

#include "resources/placement.hpp"
#include "simulation.hpp"

namespace gpuplan::detail {

namespace {
/// Queued jobs tried against the growth before each pass: the head of the queue, where
/// capacity goes first; a bound on the work of a pass whatever the backlog.
constexpr std::size_t kReclaimCandidates = 8;

bool progressing(Phase phase) {
    return phase == Phase::Running || phase == Phase::Starting;
}
}  // namespace

void Simulation::reclaimElasticGrowth() {
    if (m_sim.elastic.budgetSpentAtS >= 0) return;  // sizes are kept from then on
    // Grown jobs in the order they give back: lowest priority first, then the latest job. A
    // job gives back all its growth at once: one restart, and the window keeps it from
    // growing again at the next arrival (a pod at a time would restart it at every one).
    std::vector<std::uint32_t> grown;
    int growthGpus = 0;
    const auto collect = [&] {
        grown.clear();
        growthGpus = 0;
        const IndexSet& bound = m_sim.elastic.bound;
        for (std::uint32_t j = bound.first(); j != IndexSet::npos; j = bound.next(j + 1)) {
            const int extra = static_cast<int>(m_sim.placementOf(j).size()) - m_sim.spec(j).pods();
            if (!progressing(m_sim.runtime[j].phase) || extra <= 0) continue;
            grown.push_back(j);
            growthGpus += extra * m_sim.spec(j).gpusPerPod;
        }
        std::sort(grown.begin(), grown.end(), [&](std::uint32_t a, std::uint32_t b) {
            const int pa = m_sim.spec(a).priority, pb = m_sim.spec(b).priority;
            return pa != pb ? pa < pb : a > b;
        });
    };
    collect();
    if (grown.empty()) return;
    // The growth of the first `count` grown jobs off (−1) or back on (+1) the books.
    const auto lift = [&](std::size_t count, int sign) {
        for (std::size_t i = 0; i < count; ++i)
            m_sim.liftPods(grown[i],
                           m_sim.placementOf(grown[i]).subspan(
                               static_cast<std::size_t>(m_sim.spec(grown[i]).pods())),
                           sign);
    };
    std::vector<PodPlacement> trial;
    // Does the queued job fit now, GPUs and quota? (Nothing stays placed.)
    const auto fits = [&](std::uint32_t job, const PlacementRequest& req) {
        if (!tryPlace(req, m_scenario.scheduler.placement, m_sim.cluster, trial)) return false;
        unplace(m_sim.cluster, trial, req.host);
        const JobSpec& s = m_sim.spec(job);
        const int model = m_record.fleet.nodes[trial.front().node].gpuModel;
        return m_sim.quota.admitsJob(s, m_record.fleet, model);
    };
    const auto fitsLifting = [&](std::uint32_t job, const PlacementRequest& req,
                                 std::size_t count) {
        lift(count, -1);
        const bool ok = fits(job, req);
        lift(count, +1);
        return ok;
    };
    // Without greedy backfill the first job that does not fit blocks those behind it: room
    // given back to one of those would go unused, so only it is tried.
    const bool last = m_scenario.scheduler.backfill != BackfillMode::Greedy;
    for (std::uint32_t candidate : m_scheduler.queue().firstInOrder(kReclaimCandidates)) {
        const JobSpec& c = m_sim.spec(candidate);
        const PlacementRequest req = requestOf(c);
        if (fits(candidate, req)) continue;  // the pass starts it without anyone's growth
        // Not even every free GPU and all the growth would hold it: no placement to try.
        if (m_sim.cluster.readyFreeGpus() + growthGpus < c.gpuEquivalents() ||
            !fitsLifting(candidate, req, grown.size())) {
            if (last) return;
            continue;
        }
        // The fewest jobs, in order, whose growth lets it fit (more free room never makes it
        // fit less): a bisection, a few tries whatever the number of grown jobs.
        std::size_t lo = 1, hi = grown.size();
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (fitsLifting(candidate, req, mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        std::size_t gpuHolds = 0;
        for (std::size_t i = 0; i < lo; ++i)
            gpuHolds += static_cast<std::size_t>(m_sim.spec(grown[i]).gpus);
        if (!resizeBudgetAllows(gpuHolds)) return;
        for (std::size_t i = 0; i < lo; ++i) {
            const std::span<const PodPlacement> held = m_sim.placementOf(grown[i]);
            resizeElastic(
                grown[i],
                std::vector<PodPlacement>(held.begin(), held.begin() + m_sim.spec(grown[i]).pods()),
                SegmentEnd::Resized);
            if (m_record.measurementWindow().counts(m_nowS))
                ++m_sim.elastic.shrinks;  // in the KPIs' window
        }
        collect();
        if (grown.empty() || last) return;
    }
}

bool Simulation::jobsWaitForCapacity() const {
    if (!m_scheduler.nominations().empty()) return true;
    for (std::uint32_t job : m_scheduler.queue().firstInOrder(kReclaimCandidates)) {
        const JobSpec& s = m_sim.spec(job);
        if (!m_scheduler.fitsEmptyReady(job)) continue;  // waits for nodes, not for room
        if (!m_sim.quota.manages(s.team)) return true;
        for (int model = 0; model < static_cast<int>(m_record.fleet.gpuModels.size()); ++model)
            if (s.allowsModel(model) && m_sim.quota.admitsJob(s, m_record.fleet, model))
                return true;
    }
    return false;
}

void Simulation::growElasticJobs() {
    std::vector<std::uint32_t> growable;
    const IndexSet& bound = m_sim.elastic.bound;
    // Nothing free: nothing to grow into (and nothing to time: the next release is an event).
    // Past the resize budget, sizes are kept.
    if (m_sim.cluster.readyFreeGpus() == 0 || m_sim.elastic.budgetSpentAtS >= 0) return;
    for (std::uint32_t j = bound.first(); j != IndexSet::npos; j = bound.next(j + 1))
        if (progressing(m_sim.runtime[j].phase) &&
            static_cast<int>(m_sim.placementOf(j).size()) < m_sim.elastic.maxPods[j])
            growable.push_back(j);
    // Highest priority first, then the earliest job.
    std::sort(growable.begin(), growable.end(), [&](std::uint32_t a, std::uint32_t b) {
        const int pa = m_sim.spec(a).priority, pb = m_sim.spec(b).priority;
        return pa != pb ? pa > pb : a < b;
    });
    const Fleet& fleet = m_record.fleet;
    ElasticJobs& elastic = m_sim.elastic;
    const double windowS = m_scenario.scheduler.elasticGrowAfterIdleS;
    // The earliest a job held back by the window may grow: a pass then (an event, so that
    // growth does not wait for whatever happens next).
    double dueS = std::numeric_limits<double>::infinity();
    std::vector<PodPlacement> added;
    for (std::uint32_t job : growable) {
        const JobSpec& s = m_sim.spec(job);
        if (m_sim.cluster.readyFreeGpus() < s.gpusPerPod) continue;
        // Bound from the queue at this instant: its binding has not begun to work, so growing
        // it now restarts nothing (not so a binding a shrink made now).
        const bool justBound = m_record.segments[m_sim.runtime[job].segment].startS == m_nowS &&
                               elastic.lastResizeS[job] != m_nowS;
        // Nothing left waiting for the window, and no resize of the job in it (never twice at
        // one instant, so no binding is left without time).
        const double jobDueS =
            std::max(elastic.queueEmptySinceS, justBound ? -std::numeric_limits<double>::infinity()
                                                         : elastic.lastResizeS[job]) +
            windowS;
        if (m_nowS < jobDueS || elastic.lastResizeS[job] == m_nowS) {
            if (jobDueS > m_nowS) dueS = std::min(dueS, jobDueS);
            continue;
        }
        // Tried since capacity last changed: it would not grow now either.
        if (elastic.triedAtEpoch[job] == elastic.capacityEpoch) continue;
        elastic.triedAtEpoch[job] = elastic.capacityEpoch;
        const std::span<const PodPlacement> held = m_sim.placementOf(job);
        // More pods like its own, on its GPU model (a gang runs on one model).
        PlacementRequest extra = requestOf(s);
        extra.gpuModel = fleet.nodes[held.front().node].gpuModel;
        // The most pods that place (a few tries whatever the range: fewer pods never place
        // worse than more): capacity bounds it, exactly for whole GPUs without host demand.
        // Growth never keeps an on-demand node the autoscaler would give back, nor borrows
        // quota the team could not be admitted for: a placement that would is no placement.
        const auto places = [&](long long pods) {
            extra.pods = static_cast<int>(pods);
            if (!tryPlace(extra, m_scenario.scheduler.placement, m_sim.cluster, added))
                return false;
            unplace(m_sim.cluster, added, extra.host);
            if (std::any_of(added.begin(), added.end(),
                            [&](const PodPlacement& pod) { return fleet.nodes[pod.node].elastic; }))
                return false;
            if (!m_sim.quota.manages(s.team)) return true;
            std::int64_t units = 0;
            for (const PodPlacement& pod : added)
                units += QuotaLedger::podUnits(pod);
            return m_sim.quota.check(s.team, extra.gpuModel, units).admits();
        };
        long long lo = 0;
        long long hi =
            std::min<long long>(m_sim.elastic.maxPods[job] - static_cast<int>(held.size()),
                                podCapacityForModel(extra, m_sim.cluster, extra.gpuModel));
        // Steps of at least an eighth of what it holds: a resize records the whole binding,
        // so a big gang growing a pod at a time would cost more than it gains (and from any
        // size to any other takes few steps).
        const long long leastStep = std::max<long long>(1, static_cast<long long>(held.size()) / 8);
        if (hi < leastStep) continue;
        // Before any placement: past the run's resize budget, or not worth it even at the
        // most pods on the best fabric, it stays as it is.
        const auto holdsOf = [&s](std::size_t pods) {
            return pods * static_cast<std::size_t>(s.gpusPerPod);
        };
        if (!resizeBudgetAllows(holdsOf(held.size() + static_cast<std::size_t>(hi)), false)) return;
        {
            const JobRuntime& rt = m_sim.runtime[job];
            const double slowdownNow = m_record.segments[rt.segment].slowdown;
            const double bestSlowdown =
                static_cast<double>(s.pods()) / (static_cast<double>(held.size()) + hi);
            const double restartS = justBound ? 0 : s.startupS;
            if ((windowS - restartS) / bestSlowdown < (windowS + s.startupS) / slowdownNow)
                continue;
        }
        // Whole GPUs, no host demand, no pin: the capacity is exact, one try places it (when
        // no on-demand node or quota stands in the way).
        if (extra.wholeGpusOnly() && extra.pinLevel == PinLevel::None && places(hi)) lo = hi;
        while (lo < hi) {
            const long long mid = lo + (hi - lo + 1) / 2;
            if (places(mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo < leastStep) continue;
        places(lo);  // `added` holds its placement again
        std::vector<PodPlacement> grownPods(held.begin(), held.end());
        grownPods.insert(grownPods.end(), added.begin(), added.end());
        // Only if it ends sooner, restart and a slower fabric counted: the progress left at
        // its present pace, at the new one after its startup.
        const JobRuntime& rt = m_sim.runtime[job];
        const double slowdownNow = m_record.segments[rt.segment].slowdown;
        const double progressLeftS =
            (rt.plannedEndS - std::max(m_nowS, rt.progressStartS)) / slowdownNow;
        const BindingPlan p = plan(job, grownPods, m_nowS);
        bool worth =
            !p.crashLoop && m_nowS + s.startupS + progressLeftS * p.slowdown < rt.plannedEndS;
        // And only if it pays for its restarts should the growth be reclaimed one window later:
        // (window − startup) at the new pace must do more than (window + startup) at the
        // present one. A growth as the job starts restarts nothing now.
        const double restartS = justBound ? 0 : s.startupS;
        worth = worth && (windowS - restartS) / p.slowdown >= (windowS + s.startupS) / slowdownNow;
        if (!worth || !resizeBudgetAllows(holdsOf(grownPods.size()))) continue;
        resizeElastic(job, std::move(grownPods), SegmentEnd::Resized);
        if (m_record.measurementWindow().counts(m_nowS))
            ++m_sim.elastic.grows;  // in the KPIs' window
    }
    if (dueS < std::numeric_limits<double>::infinity() && dueS != elastic.growTimerS &&
        dueS < m_scenario.horizonS) {
        elastic.growTimerS = dueS;
        push(dueS, EventType::ElasticGrowDue, 0, 0);
    }
}

void Simulation::resizeElastic(std::uint32_t job, std::vector<PodPlacement> pods, SegmentEnd end) {
    const JobRuntime& rt = m_sim.runtime[job];
    if (rt.phase == Phase::Running) {
        if (end == SegmentEnd::Resized)
            keepAllWork(job);
        else
            loseUnsavedWork(job);
    }
    const std::vector<PodPlacement> before(m_sim.placementOf(job).begin(),
                                           m_sim.placementOf(job).end());
    m_resizing = true;
    unbind(job, end);
    m_resizing = false;
    // Resized at the instant it was bound (a job that grows as it starts): the binding that
    // never ran is replaced, not kept as an empty one. Its events are stale by their time.
    const RunSegment& last = m_record.segments.back();
    if (rt.segment + 1 == m_record.segments.size() && last.startS == m_nowS &&
        last.placementBegin + last.placementCount == m_record.placements.size()) {
        m_record.placements.resize(last.placementBegin);
        m_record.segments.pop_back();
        --m_record.jobs[job].segmentCount;
    }
    const HostDemand host = m_sim.hostOf(job);
    for (const PodPlacement& pod : pods)
        m_sim.cluster.occupy(pod, host);
    bind(job, pods);
    // Nodes it left and no one holds now: idle (an on-demand node's timeout starts), and a
    // Draining one has drained (unbind left them be: it could not tell which it would keep).
    for (const PodPlacement& pod : before) {
        const std::uint32_t node = pod.node;
        if (!m_sim.nodePods.empty(node)) continue;
        if (m_sim.autoscaler.active()) becameIdle(node);
        if (m_sim.cluster.state(static_cast<int>(node)) == NodeState::Draining)
            addNodeChange(
                {m_nowS, node, node + 1, NodeState::Repairing, false, NodeChangeCause::DrainDone});
    }
    m_sim.elastic.lastResizeS[job] = m_nowS;
    count(FingerprintTag::ElasticResized, job);
}

bool Simulation::resizeBudgetAllows(std::size_t gpuHolds, bool spend) {
    ElasticJobs& elastic = m_sim.elastic;
    if (elastic.budgetSpentAtS >= 0) return false;
    if (elastic.resizeGpuHolds + gpuHolds > m_options.maxElasticResizeGpuHolds) {
        if (elastic.budgetSpentAtS < 0) elastic.budgetSpentAtS = m_nowS;
        return false;
    }
    if (spend) elastic.resizeGpuHolds += gpuHolds;
    return true;
}

void Simulation::keepAllWork(std::uint32_t job) {
    const JobSpec& s = m_sim.spec(job);
    const CheckpointOutcome out = checkpointOutcome(
        m_record.checkpointOf(job), m_sim.savedWork.of(job), workDoneS(job), s.durationS);
    // The periodic checkpoints this binding wrote are not useful work; none more is written.
    if (out.overheadS > 0)
        m_metrics.discardCheckpointing(workGpus(job) * out.overheadS,
                                       m_sim.runtime[job].progressStartS);
    m_sim.savedWork.set(job, out.workS, m_record.jobs.size());
}

bool Simulation::shrinkOffNode(std::uint32_t job, std::uint32_t node, SegmentEnd end) {
    if (!progressing(m_sim.runtime[job].phase)) return false;
    std::vector<PodPlacement> kept;
    for (const PodPlacement& pod : m_sim.placementOf(job))
        if (pod.node != node) kept.push_back(pod);
    if (kept.size() == m_sim.placementOf(job).size() ||
        static_cast<int>(kept.size()) < m_sim.spec(job).pods() ||
        !resizeBudgetAllows(kept.size() * static_cast<std::size_t>(m_sim.spec(job).gpusPerPod)))
        return false;
    resizeElastic(job, std::move(kept), end);
    return true;
}

}  // namespace gpuplan::detail
