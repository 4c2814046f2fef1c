// The full scan: every queued job in queue order until capacity runs out, the head found
// (EASY backfill) and the rest looked at as backfill. Groups of one shape and team are merged
// by their next jobs; shapes that failed, quota that said no and groups set aside cost one look.
#include <algorithm>

#include "scheduler.hpp"

namespace gpuplan::detail {

void Scheduler::fullScan(double nowS) {
    startScan();
    Cursor c;
    while (popCursor(c)) {
        if (m_counters) ++m_counters->jobsVisited;
        const ScanStep step = m_head == npos && m_def.backfill != BackfillMode::Greedy
                                  ? lookBeforeHead(c, nowS)
                                  : lookAfterHead(c, nowS);
        if (step == ScanStep::Stop) break;
    }
    releaseReservation();
    if (m_head == npos) m_reservation.active = false;
}

void Scheduler::startScan() {
    m_head = npos;
    m_preemptionFailed.clear();
    m_parked.clear();
    ++m_scanId;
    auto& groups = m_queue.groups();
    if (m_noHeadInScan.size() < groups.size()) m_noHeadInScan.resize(groups.size(), 0);
    // With fair sharing, first by the team's share with the job admitted (lowest first).
    m_scanFair = m_sim.quota.anyFairSharing();
    // The groups' next jobs, merged in queue order (a heap kept across passes: no allocation
    // per pass).
    m_cursors.clear();
    for (int g = 0; g < static_cast<int>(groups.size()); ++g)
        if (groups[g].live > 0) pushCursor(g, m_queue.firstLive(groups[g]));
}

bool Scheduler::comesLater(const Cursor& a, const Cursor& b) {
    return b.share != a.share ? b.share < a.share : b.key < a.key;
}

void Scheduler::pushCursor(int group, std::size_t pos) {
    const auto& jobs = m_queue.groups()[group].jobs;
    while (pos < jobs.size() && !m_queue.contains(jobs[pos]))
        ++pos;
    if (pos < jobs.size()) {
        m_cursors.push_back(Cursor{m_queue.orderKey(jobs[pos]), group, pos,
                                   m_scanFair ? fairShare(jobs[pos]) : 0.0});
        std::push_heap(m_cursors.begin(), m_cursors.end(), comesLater);
    }
}

bool Scheduler::popCursor(Cursor& next) {
    std::vector<Cursor>& heap = m_cursors;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), comesLater);
        Cursor c = heap.back();
        heap.pop_back();
        if (m_scanFair) {
            // Shares grow as the pass admits: a cursor's may be stale. Look again, and put it
            // back if it no longer comes first.
            const double now = fairShare(c.key.job);
            if (now > c.share && !heap.empty()) {
                c.share = now;
                heap.push_back(c);
                std::push_heap(heap.begin(), heap.end(), comesLater);
                continue;
            }
        }
        next = c;
        return true;
    }
    return false;
}

Scheduler::ScanStep Scheduler::lookBeforeHead(const Cursor& c, double nowS) {
    const auto& groups = m_queue.groups();
    const std::uint32_t job = c.key.job;
    const ShapeKey key = groups[c.group].key;
    // Before the head: every job that fits starts; the first that does not (and could
    // once running jobs end) becomes the head. A shape that cannot fit even the empty
    // Ready fleet drops out whole, so a backlog of such jobs costs one look per shape.
    if (m_neverFit.covers(key)) return ScanStep::Next;
    // Its group (one team, one shape) is kept out by its team's quota: all of it waits,
    // so the group drops out of the merge (a backlog over quota costs one look).
    if (quotaCovered(m_sim.spec(job))) return ScanStep::Next;
    // A shape that failed and can never be the head: the rest of its group would each
    // be looked at for nothing. It waits aside, unless an eviction clears the failures.
    if (parkable(c.group, job, key)) {
        if (m_checkSkips && anyRoom()) verifySkip(job, false);
        m_parked.push_back({c.group, c.pos});
        return ScanStep::Next;
    }
    pushCursor(c.group, c.pos + 1);
    if (m_checkSkips && anyRoom() && coveredByFailure(key, false)) verifySkip(job, false);
    // Quota failures do not change between the check above and here.
    bool quotaBlocked = false;
    if (anyRoom() && !coveredByFailure(key, false)) {
        const Outcome o = tryBind(job, nowS, false);
        quotaBlocked = o == Outcome::QuotaBlocked || o == Outcome::NoFitInFlavor;
        if (quotaBlocked) addQuotaFailure(m_sim.spec(job));
        if (o == Outcome::Bound) {
            // Capacity went to a job ahead of the old head. If the job releases by the
            // reserved start, the head still fits then on the GPUs it reserved, and no
            // earlier (the job only takes capacity before): the reservation stands.
            // Else the start may move: plan it again (a walk of the bound jobs).
            // A share is never counted as returning a GPU (the GPU comes back whole
            // only when its last share ends): plan again after one.
            if (m_sim.runtime[job].plannedEndS > m_reservation.startS ||
                m_sim.spec(job).sharesGpu())
                m_reservation.active = false;
            return ScanStep::Next;
        }
        if (!quotaBlocked) m_failedAlways.add(key);
    }
    if (m_preempt && tryPreempt(job, nowS) != Preemption::None) {
        // Evictions freed GPUs and quota (maybe more than it took; with a grace period
        // the job holds them until its victims leave): failures so far may be stale,
        // and the bound jobs the reservation counted on have changed.
        m_failedAlways.clear();
        m_failedWithPhantom.clear();
        clearQuotaFailures();
        m_reservation.active = false;
        // The groups set aside are looked at again from their first job behind this
        // one (those before it were looked at for nothing, as they would have been).
        reopenParked(c.key);
        return ScanStep::Next;
    }
    if (quotaBlocked) return ScanStep::Next;
    if (!mayBeHead(job)) {
        // Quota, not capacity, decides its start: its group waits without a head.
        addQuotaFailure(m_sim.spec(job));
        return ScanStep::Next;
    }
    if (!fitsEmptyReady(job)) {  // waits for capacity, does not block
        m_neverFit.add(key);
        return ScanStep::Next;
    }
    m_head = job;
    if (m_def.backfill == BackfillMode::None) return ScanStep::Stop;
    if (!m_reservation.active || m_reservation.job != job) computeReservation(job, nowS);
    if (!m_reservation.active) {
        m_head = npos;  // cannot plan a start: let it not block the queue
        // A share, an instance or a host demand never gets one (computeReservation):
        // the same holds for every job of its group.
        if (!requestOf(m_sim.spec(job)).wholeGpusOnly()) m_noHeadInScan[c.group] = m_scanId;
        return ScanStep::Next;
    }
    holdReservation();
    return ScanStep::Next;
}

void Scheduler::reopenParked(const JobQueue::OrderKey& after) {
    const auto& groups = m_queue.groups();
    for (const Parked& p : m_parked) {
        const auto& jobs = groups[p.group].jobs;
        const auto from = jobs.begin() + static_cast<std::ptrdiff_t>(p.pos);
        const auto next = std::upper_bound(from, jobs.end(), after,
                                           [this](const JobQueue::OrderKey& k, std::uint32_t j) {
                                               return k < m_queue.orderKey(j);
                                           });
        pushCursor(p.group, static_cast<std::size_t>(next - jobs.begin()));
    }
    m_parked.clear();
}

Scheduler::ScanStep Scheduler::lookAfterHead(const Cursor& c, double nowS) {
    const auto& groups = m_queue.groups();
    const std::uint32_t job = c.key.job;
    const ShapeKey key = groups[c.group].key;
    if (!anyRoom()) return ScanStep::Stop;
    // Whole shapes drop out once a smaller one of the same model failed. Jobs of a shape
    // with a short job could still start as short backfills: only failures without the
    // hold rule them out.
    const JobQueue::Group& group = groups[c.group];
    const bool anyShort = groupHasShortJob(group, nowS);
    if (quotaCovered(m_sim.spec(job))) return ScanStep::Next;  // the group's team's quota said no
    if (group.live == 0 || coveredByFailure(key, anyShort)) {
        if (m_checkSkips && group.live > 0) verifySkip(job, !anyShort);
        return ScanStep::Next;
    }
    pushCursor(c.group, c.pos + 1);
    if (m_def.backfill == BackfillMode::Greedy) {
        const Outcome o = tryBind(job, nowS, false);
        if (o == Outcome::NoFit) m_failedAlways.add(key);
        if (o == Outcome::QuotaBlocked || o == Outcome::NoFitInFlavor)
            addQuotaFailure(m_sim.spec(job));
        return ScanStep::Next;
    }
    backfill(job, nowS, anyShort ? Cleared::WithoutHold : Cleared::Both);
    return ScanStep::Next;
}

}  // namespace gpuplan::detail
