// Preemption: a job that cannot start may evict bound jobs (reference/scheduling.md §3, §5).
//   Priority (scheduler.preemption "priority", the job's preemptionPolicy not Never): any
//     bound job of lower priority, as kube-scheduler's DefaultPreemption.
//   Reclaim (its team's reclaimWithinCohort): jobs of other teams of its cohort tree that
//     borrow, when the job would fit within its own nominal quota (Kueue).
//   Within its team (withinTeam): lower-priority jobs of its own team, or also newer ones of
//     equal priority (LowerOrNewerEqualPriority), when its quota keeps it out (Kueue).
// Candidates in order: first those whose eviction breaks no class's minAvailable (kube's
// fewest PDB violations), then jobs of teams that borrow (Kueue), then lowest priority, then
// the most recently admitted. Victims are added in that order until the job fits — its quota
// and its GPUs — then each is given back, last first, if the job still fits without evicting
// it (kube's reprieve, Kueue's minimal set). A gang is evicted whole.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "scheduler.hpp"

namespace gpuplan::detail {

namespace {

struct Candidate {
    std::uint32_t job;
    bool breaksBudget;  ///< its eviction would leave its class below minAvailable
    bool fromBorrower;  ///< of another team that borrows (Kueue takes these first)
    std::int32_t priority;
    std::uint32_t segment;  ///< its binding: later segments were admitted more recently
    auto order() const {
        return std::tuple(breaksBudget, !fromBorrower, priority, -std::int64_t{segment});
    }
};

}  // namespace

bool Scheduler::fitsNow(std::uint32_t job) {
    const JobSpec& s = m_sim.spec(job);
    const PlacementRequest req = requestOf(s);
    auto fitsOn = [&](const PlacementRequest& r) {
        if (!place(r)) return false;
        unplace(m_sim.cluster, m_scratch, r.host);
        return true;
    };
    if (!m_sim.quota.manages(s.team)) return fitsOn(req);
    for (int model : m_sim.quota.flavorsOf(s.team)) {
        if (s.gpuModel >= 0 && model != s.gpuModel) continue;
        if (!m_sim.quota.check(s.team, model, QuotaLedger::requestUnits(s, m_sim.fleet, model))
                 .admits())
            continue;
        PlacementRequest onModel = req;
        onModel.gpuModel = model;
        if (fitsOn(onModel)) return true;
    }
    return false;
}

void Scheduler::lift(std::uint32_t victim, int sign) {
    const HostDemand host = m_sim.hostOf(victim);
    const std::span<const PodPlacement> pods = m_sim.placementOf(victim);
    for (const PodPlacement& pod : pods) {
        if (sign < 0)
            m_sim.cluster.release(pod, host);
        else
            m_sim.cluster.occupy(pod, host);
    }
    m_sim.chargeQuota(victim, pods, sign);
}

std::vector<std::uint32_t> Scheduler::preemptionCandidates(std::uint32_t job) {
    const JobSpec& s = m_sim.spec(job);
    const QuotaLedger& quota = m_sim.quota;
    const bool byPriority =
        m_def.preemption == PreemptionMode::Priority &&
        sourceTraits(m_sim.scenario, s).preemptionPolicy != PreemptionPolicy::Never;
    const bool managed = quota.manages(s.team);
    const ReclaimPolicy reclaim = quota.reclaimPolicy(s.team);
    const WithinTeamPolicy within = quota.withinTeamPolicy(s.team);
    // Kueue reclaims only for a job that fits its own nominal quota.
    bool withinNominal = false;
    if (managed && reclaim != ReclaimPolicy::Never)
        for (int model : quota.flavorsOf(s.team))
            withinNominal |=
                (s.gpuModel < 0 || s.gpuModel == model) &&
                quota.usage(s.team, model) + QuotaLedger::requestUnits(s, m_sim.fleet, model) <=
                    quota.nominal(s.team, model);
    if (!byPriority && !withinNominal && within == WithinTeamPolicy::Never) return {};

    // Bound jobs per class, for minAvailable (explicit jobs and traces have no budget).
    std::unordered_map<std::uint32_t, int> boundInClass;
    std::vector<Candidate> candidates;
    for (const EndOrderedJobs::Entry& e : m_sim.boundByEnd) {
        const JobSpec& v = m_sim.spec(e.job);
        if (v.source == JobSource::Class) ++boundInClass[v.sourceIndex];
        const int model = m_sim.fleet.nodes[m_sim.placementOf(e.job).front().node].gpuModel;
        bool eligible = byPriority && v.priority < s.priority;
        bool fromBorrower = false;
        if (managed && quota.manages(v.team)) {
            if (v.team == s.team) {
                eligible |= (within == WithinTeamPolicy::LowerPriority ||
                             within == WithinTeamPolicy::LowerOrNewerEqualPriority) &&
                            v.priority < s.priority;
                eligible |= within == WithinTeamPolicy::LowerOrNewerEqualPriority &&
                            v.priority == s.priority && e.job > job;  // submitted later
            } else if (withinNominal && quota.shareTree(s.team, v.team) &&
                       quota.borrowing(v.team, model)) {
                fromBorrower = true;
                eligible |= reclaim == ReclaimPolicy::Any || v.priority < s.priority;
            }
        }
        if (!eligible) continue;
        candidates.push_back(
            {e.job, false, fromBorrower, v.priority, m_sim.runtime[e.job].segment});
    }
    for (Candidate& c : candidates) {
        const JobSpec& v = m_sim.spec(c.job);
        if (v.source != JobSource::Class) continue;
        const auto& minAvailable = m_sim.scenario.jobClasses[v.sourceIndex].minAvailable;
        c.breaksBudget = minAvailable && boundInClass[v.sourceIndex] - 1 < *minAvailable;
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.order() < b.order(); });
    std::vector<std::uint32_t> jobs;
    jobs.reserve(candidates.size());
    for (const Candidate& c : candidates)
        jobs.push_back(c.job);
    return jobs;
}

std::vector<std::uint32_t> Scheduler::chooseVictims(std::uint32_t job) {
    const std::vector<std::uint32_t> candidates = preemptionCandidates(job);
    if (candidates.empty()) return {};
    // Would evicting every candidate be enough? If not, no subset is.
    for (std::uint32_t v : candidates)
        lift(v, -1);
    const bool possible = fitsNow(job);
    for (auto it = candidates.rbegin(); it != candidates.rend(); ++it)
        lift(*it, +1);
    if (!possible) return {};
    std::vector<std::uint32_t> victims;
    for (std::uint32_t v : candidates) {
        lift(v, -1);
        victims.push_back(v);
        if (fitsNow(job)) break;
    }
    // Reprieve, last added first: keep every victim the job can do without.
    std::vector<std::uint32_t> kept;
    for (auto it = victims.rbegin(); it != victims.rend(); ++it) {
        lift(*it, +1);
        if (fitsNow(job)) continue;  // not needed: it stays bound
        lift(*it, -1);
        kept.push_back(*it);
    }
    for (std::uint32_t v : kept)
        lift(v, +1);  // back on: the real eviction takes them off through the kernel
    std::reverse(kept.begin(), kept.end());
    return kept;
}

bool Scheduler::tryPreempt(std::uint32_t job, double nowS) {
    if (!m_preempt) return false;
    const PreemptionKey key = preemptionKey(job);
    if (std::find(m_preemptionFailed.begin(), m_preemptionFailed.end(), key) !=
        m_preemptionFailed.end())
        return false;
    const std::vector<std::uint32_t> victims = chooseVictims(job);
    if (victims.empty()) {
        m_preemptionFailed.push_back(key);
        return false;
    }
    for (std::uint32_t v : victims)
        m_preempt(v, job);
    if (tryBind(job, nowS, false) != Outcome::Bound)
        throw std::logic_error("preemption freed room the job then did not get");
    return true;
}

Scheduler::PreemptionKey Scheduler::preemptionKey(std::uint32_t job) const {
    // Who may be evicted depends on the job's shape, team, priority and source (its policy).
    const JobSpec& s = m_sim.spec(job);
    ShapeKey shape = JobQueue::shapeOf(s);
    shape.team = s.team;
    return {shape, s.priority, s.source, s.sourceIndex};
}

}  // namespace gpuplan::detail
