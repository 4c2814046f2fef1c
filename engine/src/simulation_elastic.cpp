// Elastic jobs (JobTraitsDef::elasticMaxGpus): growing into idle capacity when nothing waits,
// giving the growth back when a queued job needs it, and going on smaller when a node under
// some of their pods goes down. A resize ends the binding and starts the next at once.
#include <algorithm>
#include <limits>

#include "placement.hpp"
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
    // Grown jobs, in the order they give back: lowest priority first, then the latest job;
    // each its last-added pods first.
    std::vector<std::uint32_t> grown;
    const IndexSet& bound = m_sim.elastic.bound;
    for (std::uint32_t j = bound.first(); j != IndexSet::npos; j = bound.next(j + 1))
        if (progressing(m_sim.runtime[j].phase) &&
            static_cast<int>(m_sim.placementOf(j).size()) > m_sim.spec(j).pods())
            grown.push_back(j);
    if (grown.empty()) return;
    std::sort(grown.begin(), grown.end(), [&](std::uint32_t a, std::uint32_t b) {
        const int pa = m_sim.spec(a).priority, pb = m_sim.spec(b).priority;
        return pa != pb ? pa < pb : a > b;
    });
    std::vector<PodPlacement> trial;
    // Does the queued job fit now, GPUs and quota? (Nothing stays placed.)
    const auto fits = [&](std::uint32_t job, const PlacementRequest& req) {
        if (!tryPlace(req, m_scenario.scheduler.placement, m_sim.cluster, trial)) return false;
        unplace(m_sim.cluster, trial, req.host);
        const JobSpec& s = m_sim.spec(job);
        if (!m_sim.quota.manages(s.team)) return true;
        const int model = m_results.fleet.nodes[trial.front().node].gpuModel;
        return m_sim.quota
            .check(s.team, model, QuotaLedger::requestUnits(s, m_results.fleet, model))
            .admits();
    };
    for (std::uint32_t candidate : m_scheduler.queue().firstInOrder(kReclaimCandidates)) {
        const PlacementRequest req = requestOf(m_sim.spec(candidate));
        if (fits(candidate, req)) continue;  // the pass starts it without anyone's growth
        // Pods lifted one at a time until the candidate fits: it takes no more than it needs.
        std::vector<std::size_t> keep;  // per grown job lifted from, the pods it keeps
        bool helped = false;
        for (std::size_t i = 0; i < grown.size() && !helped; ++i) {
            const std::uint32_t job = grown[i];
            const auto own = static_cast<std::size_t>(m_sim.spec(job).pods());
            keep.push_back(m_sim.placementOf(job).size());
            while (keep.back() > own && !helped) {
                --keep.back();
                m_sim.liftPods(job, m_sim.placementOf(job).subspan(keep.back(), 1), -1);
                helped = fits(candidate, req);
            }
        }
        for (std::size_t i = 0; i < keep.size(); ++i)
            m_sim.liftPods(grown[i], m_sim.placementOf(grown[i]).subspan(keep[i]), +1);
        if (!helped) continue;
        for (std::size_t i = 0; i < keep.size(); ++i) {
            const std::span<const PodPlacement> held = m_sim.placementOf(grown[i]);
            resizeElastic(grown[i], std::vector<PodPlacement>(held.begin(), held.begin() + keep[i]),
                          SegmentEnd::Resized);
            ++m_sim.elastic.shrinks;
        }
        // Those back at their own size have nothing more to give.
        std::erase_if(grown, [&](std::uint32_t j) {
            return static_cast<int>(m_sim.placementOf(j).size()) == m_sim.spec(j).pods();
        });
        if (grown.empty()) return;
    }
}

void Simulation::growElasticJobs() {
    std::vector<std::uint32_t> growable;
    const IndexSet& bound = m_sim.elastic.bound;
    for (std::uint32_t j = bound.first(); j != IndexSet::npos; j = bound.next(j + 1))
        if (progressing(m_sim.runtime[j].phase) &&
            static_cast<int>(m_sim.placementOf(j).size()) < m_sim.elastic.maxPods[j])
            growable.push_back(j);
    // Highest priority first, then the earliest job.
    std::sort(growable.begin(), growable.end(), [&](std::uint32_t a, std::uint32_t b) {
        const int pa = m_sim.spec(a).priority, pb = m_sim.spec(b).priority;
        return pa != pb ? pa > pb : a < b;
    });
    const Fleet& fleet = m_results.fleet;
    ElasticJobs& elastic = m_sim.elastic;
    const double windowS = m_scenario.scheduler.elasticGrowAfterIdleS;
    // The earliest a job held back by the window may grow: a pass then (an event, so that
    // growth does not wait for whatever happens next).
    double dueS = std::numeric_limits<double>::infinity();
    std::vector<PodPlacement> added;
    for (std::uint32_t job : growable) {
        const JobSpec& s = m_sim.spec(job);
        if (m_sim.cluster.readyFreeGpus() < s.gpusPerPod) break;
        // Bound from the queue at this instant: its binding has not begun to work, so growing
        // it now restarts nothing (not so a binding a shrink made now).
        const bool justBound = m_results.segments[m_sim.runtime[job].segment].startS == m_nowS &&
                               elastic.lastResizeS[job] != m_nowS;
        if (!justBound) {
            const double jobDueS =
                std::max(elastic.queueEmptySinceS, elastic.lastResizeS[job]) + windowS;
            if (m_nowS < jobDueS) {
                dueS = std::min(dueS, jobDueS);
                continue;
            }
        }
        const std::span<const PodPlacement> held = m_sim.placementOf(job);
        // More pods like its own, on its GPU model (a gang runs on one model).
        PlacementRequest extra = requestOf(s);
        extra.gpuModel = fleet.nodes[held.front().node].gpuModel;
        long long pods =
            std::min<long long>(m_sim.elastic.maxPods[job] - static_cast<int>(held.size()),
                                podCapacityForModel(extra, m_sim.cluster, extra.gpuModel));
        for (; pods > 0; --pods) {
            extra.pods = static_cast<int>(pods);
            if (tryPlace(extra, m_scenario.scheduler.placement, m_sim.cluster, added)) break;
        }
        if (pods == 0) continue;
        unplace(m_sim.cluster, added, extra.host);
        // Growth never keeps an on-demand node the autoscaler would give back, nor borrows
        // quota the team could not be admitted for.
        bool worth = std::none_of(added.begin(), added.end(), [&](const PodPlacement& pod) {
            return fleet.nodes[pod.node].elastic;
        });
        if (worth && m_sim.quota.manages(s.team)) {
            std::int64_t units = 0;
            for (const PodPlacement& pod : added)
                units += QuotaLedger::podUnits(pod);
            worth = m_sim.quota.check(s.team, extra.gpuModel, units).admits();
        }
        std::vector<PodPlacement> grownPods(held.begin(), held.end());
        grownPods.insert(grownPods.end(), added.begin(), added.end());
        if (worth) {
            // Only if it ends sooner, restart and a slower fabric counted: the progress left
            // at its present pace, at the new one after its startup.
            const JobRuntime& rt = m_sim.runtime[job];
            const double slowdownNow = m_results.segments[rt.segment].slowdown;
            const double progressLeftS =
                (rt.plannedEndS - std::max(m_nowS, rt.progressStartS)) / slowdownNow;
            const BindingPlan p = plan(job, grownPods, m_nowS);
            worth =
                !p.crashLoop && m_nowS + s.startupS + progressLeftS * p.slowdown < rt.plannedEndS;
            // And only if it pays for its restarts should the growth be reclaimed one window
            // later: (window − startup) at the new pace must do more than (window + startup)
            // at the present one. A growth as the job starts restarts nothing now.
            const double restartS = justBound ? 0 : s.startupS;
            worth =
                worth && (windowS - restartS) / p.slowdown >= (windowS + s.startupS) / slowdownNow;
        }
        if (!worth) continue;
        resizeElastic(job, std::move(grownPods), SegmentEnd::Resized);
        ++m_sim.elastic.grows;
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
    m_resizing = true;
    unbind(job, end);
    m_resizing = false;
    // Resized at the instant it was bound (a job that grows as it starts): the binding that
    // never ran is replaced, not kept as an empty one. Its events are stale by their time.
    const RunSegment& last = m_results.segments.back();
    if (rt.segment + 1 == m_results.segments.size() && last.startS == m_nowS &&
        last.placementBegin + last.placementCount == m_results.placements.size()) {
        m_results.placements.resize(last.placementBegin);
        m_results.segments.pop_back();
        --m_results.jobs[job].segmentCount;
    }
    const HostDemand host = m_sim.hostOf(job);
    for (const PodPlacement& pod : pods)
        m_sim.cluster.occupy(pod, host);
    bind(job, pods);
    m_sim.elastic.lastResizeS[job] = m_nowS;
    count(12, job);
}

void Simulation::keepAllWork(std::uint32_t job) {
    const JobSpec& s = m_sim.spec(job);
    const CheckpointOutcome out = checkpointOutcome(
        m_results.checkpointOf(job), m_sim.savedWork.of(job), workDoneS(job), s.durationS);
    // The periodic checkpoints this binding wrote are not useful work; none more is written.
    if (out.overheadS > 0) m_metrics.discardCheckpointing(workGpus(job) * out.overheadS);
    m_sim.savedWork.set(job, out.workS, m_results.jobs.size());
}

bool Simulation::shrinkOffNode(std::uint32_t job, std::uint32_t node) {
    if (!progressing(m_sim.runtime[job].phase)) return false;
    std::vector<PodPlacement> kept;
    for (const PodPlacement& pod : m_sim.placementOf(job))
        if (pod.node != node) kept.push_back(pod);
    if (static_cast<int>(kept.size()) < m_sim.spec(job).pods()) return false;
    resizeElastic(job, std::move(kept), SegmentEnd::Evicted);
    return true;
}

}  // namespace gpuplan::detail
