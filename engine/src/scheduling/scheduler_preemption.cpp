// Preemption: a job that cannot start may evict bound jobs, as kube-scheduler and Kueue do.
//   Priority (scheduler.preemption "priority", the job's preemptionPolicy not Never): any
//     bound job of lower priority, as kube-scheduler's DefaultPreemption — but between two
//     teams with quotas only from a team that borrows in the same cohort tree (Kueue's
//     borrowWithinCohort): a team within its nominal quota keeps it.
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
#include <optional>
#include <tuple>

#include "scheduler.hpp"

namespace gpuplan::detail {

/// A group of bound jobs preemption may take from: all of one team, GPU model and priority.
struct Source {
    const BoundJobIndex::Group* group;
    bool fromBorrower;  ///< of another team that borrows (Kueue takes these first)
    bool newerOnly;     ///< its own team at equal priority: only jobs submitted after it
    std::size_t next;   ///< its entries not yet looked at: [0, next), newest last
    auto order() const { return std::tuple(!fromBorrower, group->priority); }
};

/// The candidates in the documented order — (breaks a class's minAvailable, not from a
/// borrower, priority, most recently admitted first) — produced one at a time: the groups in
/// (borrower, priority) order, jobs of equal rank merged newest binding first, the jobs whose
/// eviction breaks a budget in a second sweep. Bindings are numbered, so the order is total.
/// By share (a preemptor in a fair-sharing cohort, as Kueue): the team with the highest share
/// now first — looked at again at every candidate, as victims lower it — then priority, then
/// the most recently admitted.
class CandidateCursor {
public:
    CandidateCursor(std::vector<Source> sources, const SimState& sim, std::uint32_t preemptor,
                    bool byShare)
        : m_sources(std::move(sources)), m_sim(sim), m_preemptor(preemptor), m_byShare(byShare) {
        std::stable_sort(m_sources.begin(), m_sources.end(),
                         [](const Source& a, const Source& b) { return a.order() < b.order(); });
        for (const JobClassDef& c : sim.scenario.jobClasses)
            m_budgets |= c.minAvailable.has_value();
        restart();
    }

    /// From the first candidate again (a second round over them).
    void rewind() {
        m_sweep = 0;
        restart();
    }

    /// The next candidate from a group `groupAllowed` lets preemption take from now.
    template <class GroupAllowed>
    std::optional<std::uint32_t> next(const GroupAllowed& groupAllowed) {
        if (m_byShare) return nextByShare(groupAllowed);
        for (;;) {
            if (m_runBegin == m_sources.size()) {
                if (m_sweep == 1 || !m_budgets) return std::nullopt;
                m_sweep = 1;
                restart();
                continue;
            }
            int best = -1;
            std::uint32_t bestSegment = 0;
            for (std::size_t i = m_runBegin; i < m_runEnd; ++i) {
                Source& src = m_sources[i];
                if (src.next > 0 && !groupAllowed(*src.group)) continue;
                while (src.next > 0 && !wanted(src, src.group->entries[src.next - 1]))
                    --src.next;
                if (src.next == 0) continue;
                const std::uint32_t segment = src.group->entries[src.next - 1].segment;
                if (best < 0 || segment > bestSegment) {
                    best = static_cast<int>(i);
                    bestSegment = segment;
                }
            }
            if (best < 0) {
                m_runBegin = m_runEnd;
                m_runEnd = runEnd(m_runBegin);
                continue;
            }
            Source& src = m_sources[static_cast<std::size_t>(best)];
            m_lastGroup = src.group;
            return src.group->entries[--src.next].job;
        }
    }

    /// The group the last candidate came from (next() checked groupAllowed on it).
    const BoundJobIndex::Group& lastGroup() const { return *m_lastGroup; }

private:
    template <class GroupAllowed>
    std::optional<std::uint32_t> nextByShare(const GroupAllowed& groupAllowed) {
        for (;;) {
            Source* best = nullptr;
            double bestShare = 0;
            std::uint32_t bestSegment = 0;
            for (Source& src : m_sources) {
                if (src.next > 0 && !groupAllowed(*src.group)) continue;
                while (src.next > 0 && !wanted(src, src.group->entries[src.next - 1]))
                    --src.next;
                if (src.next == 0) continue;
                const double share = m_sim.quota.share(src.group->team, src.group->gpuModel, 0);
                const std::uint32_t segment = src.group->entries[src.next - 1].segment;
                if (!best || share > bestShare ||
                    (share == bestShare &&
                     (src.group->priority < best->group->priority ||
                      (src.group->priority == best->group->priority && segment > bestSegment)))) {
                    best = &src;
                    bestShare = share;
                    bestSegment = segment;
                }
            }
            if (!best) {
                if (m_sweep == 1 || !m_budgets) return std::nullopt;
                m_sweep = 1;
                restart();
                continue;
            }
            m_lastGroup = best->group;
            return best->group->entries[--best->next].job;
        }
    }

    void restart() {
        for (Source& src : m_sources)
            src.next = src.group->entries.size();
        m_runBegin = 0;
        m_runEnd = runEnd(0);
    }
    /// Sources of equal rank from `begin` on: their jobs interleave by binding.
    std::size_t runEnd(std::size_t begin) const {
        std::size_t end = begin;
        while (end < m_sources.size() && m_sources[end].order() == m_sources[begin].order())
            ++end;
        return end;
    }
    bool wanted(const Source& src, const BoundJobIndex::Entry& e) const {
        if (e.job == BoundJobIndex::kGone) return false;
        if (src.newerOnly && e.job < m_preemptor) return false;  // job ids follow submission
        return !m_budgets || breaksBudget(e.job) == (m_sweep == 1);
    }
    /// Its eviction would leave its class below minAvailable (explicit jobs and traces have
    /// no budget).
    bool breaksBudget(std::uint32_t job) const {
        const JobSpec& v = m_sim.spec(job);
        if (v.source != JobSource::Class) return false;
        const auto& minAvailable = m_sim.scenario.jobClasses[v.sourceIndex].minAvailable;
        return minAvailable &&
               m_sim.boundJobs.boundInClass(static_cast<int>(v.sourceIndex)) - 1 < *minAvailable;
    }

    std::vector<Source> m_sources;
    const SimState& m_sim;
    std::uint32_t m_preemptor;
    bool m_byShare;
    bool m_budgets = false;
    int m_sweep = 0;
    std::size_t m_runBegin = 0, m_runEnd = 0;
    const BoundJobIndex::Group* m_lastGroup = nullptr;
};

bool Scheduler::fitsNow(std::uint32_t job, Placed* placed, std::vector<PodPlacement>* keep) {
    const JobSpec& s = m_sim.spec(job);
    const PlacementRequest req = requestOf(s);
    auto fitsOn = [&](const PlacementRequest& r, int model) {
        if (!place(r)) return false;
        if (placed) {
            placed->gpuModel = model;
            placed->nodes.clear();
            for (const PodPlacement& pod : m_scratch)
                placed->nodes.push_back(static_cast<int>(pod.node));
        }
        if (keep)
            *keep = m_scratch;
        else
            unplace(m_sim.cluster, m_scratch, r.host);
        return true;
    };
    if (!m_sim.quota.manages(s.team)) return fitsOn(req, -1);
    return m_sim.quota
        .walkFlavors(s, m_sim.fleet,
                     [&](int model) {
                         PlacementRequest onModel = req;
                         onModel.gpuModel = model;
                         return fitsOn(onModel, model);
                     })
        .placed;
}

bool Scheduler::stillFits(std::uint32_t job, Placed& placed, std::uint32_t restored) {
    // A restored job on none of the placement's nodes leaves that placement free: the job
    // still fits if its quota still admits it there — no placement search needed.
    bool touches = false;
    for (const PodPlacement& pod : m_sim.placementOf(restored))
        touches |= std::find(placed.nodes.begin(), placed.nodes.end(),
                             static_cast<int>(pod.node)) != placed.nodes.end();
    if (!touches) {
        const JobSpec& s = m_sim.spec(job);
        if (placed.gpuModel < 0) return true;  // not managed: GPUs are all it needs
        if (m_sim.quota.admitsJob(s, m_sim.fleet, placed.gpuModel)) return true;
    }
    return fitsNow(job, &placed);
}

void Scheduler::lift(std::uint32_t victim, int sign) {
    m_sim.liftPods(victim, m_sim.placementOf(victim), sign);
}

std::optional<CandidateCursor> Scheduler::preemptionCandidates(std::uint32_t job) {
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
            withinNominal |= s.allowsModel(model) && fitsNominal(job, model);
    if (!byPriority && !withinNominal && within == WithinTeamPolicy::Never) return std::nullopt;

    // Who may be evicted depends only on a bound job's team, model and priority — except
    // LowerOrNewerEqualPriority, which looks at when it was submitted.
    std::vector<Source> sources;
    for (const BoundJobIndex::Group& g : m_sim.boundJobs.groups()) {
        if (g.live == 0) continue;
        bool eligible = byPriority && g.priority < s.priority;
        bool fromBorrower = false;
        bool newerOnly = false;
        if (managed && quota.manages(g.team)) {
            if (g.team == s.team) {
                eligible |= (within == WithinTeamPolicy::LowerPriority ||
                             within == WithinTeamPolicy::LowerOrNewerEqualPriority) &&
                            g.priority < s.priority;
                if (within == WithinTeamPolicy::LowerOrNewerEqualPriority &&
                    g.priority == s.priority)
                    eligible = newerOnly = true;
            } else {
                // Quota guarantees a team its nominal share: across managed teams, priority
                // takes only from teams that borrow in the job's cohort tree (Kueue's
                // borrowWithinCohort). Without this, a borrower's high-priority job and a
                // reclaiming team evict each other back and forth for ever.
                const bool borrower =
                    quota.shareTree(s.team, g.team) && quota.borrowing(g.team, g.gpuModel);
                eligible = eligible && borrower;
                if (borrower && withinNominal) {
                    fromBorrower = true;
                    eligible |= reclaim == ReclaimPolicy::Any || g.priority < s.priority;
                }
            }
        }
        if (eligible) sources.push_back({&g, fromBorrower, newerOnly, 0});
    }
    if (sources.empty()) return std::nullopt;
    return CandidateCursor(std::move(sources), m_sim, job, managed && quota.fairSharing(s.team));
}

bool Scheduler::mayFitNow(std::uint32_t job) const {
    // A whole-GPU job needs nodes of one model with room for each of its pods (Ready nodes
    // by wholly free GPUs): a look at the histograms before any placement search.
    const JobSpec& s = m_sim.spec(job);
    if (!s.holdsWholeGpus()) return true;
    if (s.gpus > m_sim.cluster.readyFreeGpus()) return false;
    const int width = m_sim.cluster.histWidth();
    for (int model = 0; model < static_cast<int>(m_sim.fleet.gpuModels.size()); ++model) {
        if (!s.allowsModel(model)) continue;
        const int* hist = m_sim.cluster.freeHist(Scope::Fleet, 0, model);
        int pods = 0;
        for (int free = s.gpusPerPod; free < width; ++free)
            pods += hist[free] * (free / s.gpusPerPod);
        if (pods >= s.pods()) return true;
    }
    return false;
}

bool Scheduler::mayTakeFromGroup(std::uint32_t job, const BoundJobIndex::Group& group) const {
    // Kueue looks again as it takes victims: another team's job only while that team still
    // borrows (the victims taken so far are already off its books), and under fair sharing
    // only from a team whose share is at least the job's team's (see fairShareAllows).
    const QuotaLedger& quota = m_sim.quota;
    const JobSpec& s = m_sim.spec(job);
    if (!quota.manages(s.team) || !quota.manages(group.team) || group.team == s.team) return true;
    if (!quota.borrowing(group.team, group.gpuModel)) return false;
    if (!quota.fairSharing(s.team) || fitsNominal(job, group.gpuModel)) return true;
    return shareWithJob(job, group.gpuModel) <= quota.share(group.team, group.gpuModel, 0);
}

bool Scheduler::fitsNominal(std::uint32_t job, int gpuModel) const {
    const JobSpec& s = m_sim.spec(job);
    return m_sim.quota.usage(s.team, gpuModel) +
               QuotaLedger::requestUnits(s, m_sim.fleet, gpuModel) <=
           m_sim.quota.nominal(s.team, gpuModel);
}

double Scheduler::shareWithJob(std::uint32_t job, int gpuModel) const {
    const JobSpec& s = m_sim.spec(job);
    return m_sim.quota.share(s.team, gpuModel, QuotaLedger::requestUnits(s, m_sim.fleet, gpuModel));
}

bool Scheduler::fairShareAllows(std::uint32_t job, std::uint32_t victim,
                                const BoundJobIndex::Group& group, FairStrategy strategy) const {
    // Kueue's fair-sharing strategies, in two rounds over the candidates: the job's team, with
    // the job admitted, must not end up with a larger share than the victim's team has
    // without the victim (LessThanOrEqualToFinalShare); in the second round, for the
    // candidates that failed, it must stay below that team's share now
    // (LessThanInitialShare). A team far above its share cannot take from one near it.
    // A job its team's nominal quota covers takes from borrowers regardless (Kueue 0.17's
    // FairSharingPreemptWithinNominal, on by default).
    const QuotaLedger& quota = m_sim.quota;
    const JobSpec& s = m_sim.spec(job);
    if (!quota.manages(s.team) || !quota.manages(group.team) || group.team == s.team ||
        !quota.fairSharing(s.team))
        return true;
    if (fitsNominal(job, group.gpuModel)) return true;
    const double jobShare = shareWithJob(job, group.gpuModel);
    if (strategy == FairStrategy::LessThanInitialShare)
        return jobShare < quota.share(group.team, group.gpuModel, 0);
    const std::int64_t victimUnits =
        QuotaLedger::requestUnits(m_sim.spec(victim), m_sim.fleet, group.gpuModel);
    return jobShare <= quota.share(group.team, group.gpuModel, -victimUnits);
}

std::vector<std::uint32_t> Scheduler::chooseVictims(std::uint32_t job) {
    std::optional<CandidateCursor> candidates = preemptionCandidates(job);
    if (!candidates) return {};
    // Candidates are taken off in order until the job fits. Taking more off never makes it
    // fit less, so running out of candidates means no subset would do.
    std::vector<std::uint32_t> victims;
    Placed placed;
    bool fits = false;
    auto groupAllowed = [&](const BoundJobIndex::Group& g) { return mayTakeFromGroup(job, g); };
    // Under fair sharing a second round takes, of the candidates the first strategy refused,
    // those the second allows (Kueue's retry with LessThanInitialShare).
    const JobSpec& s = m_sim.spec(job);
    const int rounds = m_sim.quota.manages(s.team) && m_sim.quota.fairSharing(s.team) ? 2 : 1;
    for (int round = 0; round < rounds && !fits; ++round) {
        const FairStrategy strategy = round == 0 ? FairStrategy::LessThanOrEqualToFinalShare
                                                 : FairStrategy::LessThanInitialShare;
        if (round > 0) candidates->rewind();
        while (const std::optional<std::uint32_t> v = candidates->next(groupAllowed)) {
            if (round > 0 && std::find(victims.begin(), victims.end(), *v) != victims.end())
                continue;  // taken in the first round
            if (!fairShareAllows(job, *v, candidates->lastGroup(), strategy)) continue;
            lift(*v, -1);
            victims.push_back(*v);
            if (mayFitNow(job) && fitsNow(job, &placed)) {
                fits = true;
                break;
            }
        }
    }
    if (!fits) {
        for (auto it = victims.rbegin(); it != victims.rend(); ++it)
            lift(*it, +1);
        return {};
    }
    // Reprieve, last added first: keep every victim the job can do without.
    std::vector<std::uint32_t> kept;
    for (auto it = victims.rbegin(); it != victims.rend(); ++it) {
        lift(*it, +1);
        if (stillFits(job, placed, *it)) continue;  // not needed: it stays bound
        lift(*it, -1);
        kept.push_back(*it);
    }
    for (std::uint32_t v : kept)
        lift(v, +1);  // back on: the real eviction takes them off through the kernel
    std::reverse(kept.begin(), kept.end());
    return kept;
}

Scheduler::Preemption Scheduler::tryPreempt(std::uint32_t job, double nowS) {
    if (!m_preempt) return Preemption::None;
    const PreemptionKey key = preemptionKey(job);
    if (std::find(m_preemptionFailed.begin(), m_preemptionFailed.end(), key) !=
        m_preemptionFailed.end())
        return Preemption::None;
    const std::vector<std::uint32_t> victims = chooseVictims(job);
    if (victims.empty()) {
        m_preemptionFailed.push_back(key);
        return Preemption::None;
    }
    for (std::uint32_t v : victims)
        m_preempt(v, job);  // instant, or a notice: either way off the books now
    if (m_def.preemptionGraceS > 0) {
        Nomination n{job, {}, static_cast<int>(victims.size())};
        if (!fitsNow(job, nullptr, &n.pods))
            throw std::logic_error("preemption freed room the job then could not hold");
        m_sim.chargeQuota(job, n.pods, +1);
        m_nominations.push_back(std::move(n));
        m_queue.remove(job);  // passes need not look at it: it waits for its room
        return Preemption::Noticed;
    }
    if (tryBind(job, nowS, false) != Outcome::Bound)
        throw std::logic_error("preemption freed room the job then did not get");
    return Preemption::Bound;
}

bool Scheduler::nominated(std::uint32_t job) const {
    return std::any_of(m_nominations.begin(), m_nominations.end(),
                       [job](const Nomination& n) { return n.job == job; });
}

bool Scheduler::victimLeft(std::uint32_t job) {
    for (Nomination& n : m_nominations)
        if (n.job == job) return --n.victimsLeft == 0;
    return false;  // its hold was given up (a node failed): nothing waits
}

void Scheduler::startNominated(std::uint32_t job) {
    const auto it = std::find_if(m_nominations.begin(), m_nominations.end(),
                                 [job](const Nomination& n) { return n.job == job; });
    if (it == m_nominations.end() || it->victimsLeft != 0)
        throw std::logic_error("a job started before its victims left");
    const std::vector<PodPlacement> pods = std::move(it->pods);
    m_nominations.erase(it);
    // The hold's slots become the binding's (bind occupies nothing); its quota is charged
    // again by the binding.
    m_sim.chargeQuota(job, pods, -1);
    m_bind(job, pods);
    m_reservation.active = false;  // a held room now has a planned end
}

void Scheduler::dropNominationsOn(std::uint32_t node) {
    std::erase_if(m_nominations, [&](const Nomination& n) {
        const bool onNode = std::any_of(n.pods.begin(), n.pods.end(),
                                        [node](const PodPlacement& p) { return p.node == node; });
        if (onNode) {
            // Its victims still leave, but nothing waits for them any more.
            for (SimState::TerminatingJob& t : m_sim.terminating)
                if (t.by == n.job) t.awaited = false;
            unplace(m_sim.cluster, n.pods, requestOf(m_sim.spec(n.job)).host);
            m_sim.chargeQuota(n.job, n.pods, -1);
            invalidateReservation();
            enqueue(n.job);
        }
        return onNode;
    });
}

Scheduler::PreemptionKey Scheduler::preemptionKey(std::uint32_t job) const {
    // Who may be evicted depends on the job's shape, team, priority and source (its policy).
    const JobSpec& s = m_sim.spec(job);
    ShapeKey shape = JobQueue::shapeOf(s);
    shape.team = s.team;
    return {shape, s.priority, s.source, s.sourceIndex};
}

}  // namespace gpuplan::detail
