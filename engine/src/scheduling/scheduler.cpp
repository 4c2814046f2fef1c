#include "scheduler.hpp"

#include <algorithm>
#include <bit>
#include <queue>
#include <stdexcept>
#include <string>

namespace gpuplan::detail {

Scheduler::Scheduler(const SchedulerDef& def, SimState& sim, PlannedEndFn plannedEnd, BindFn bind)
    : m_def(def),
      m_sim(sim),
      m_plannedEnd(std::move(plannedEnd)),
      m_bind(std::move(bind)),
      m_queue(&sim.record.jobs, def.queueOrder, &sim.savedWork) {
    // Teams with a quota queue apart: fair sharing orders them by team, and the cohort view
    // counts each one's queued demand.
    if (m_sim.quota.enabled()) {
        std::vector<bool> byTeam(m_sim.record.teams.size());
        for (std::size_t t = 0; t < byTeam.size(); ++t)
            byTeam[t] = m_sim.quota.manages(static_cast<int>(t));
        m_queue.groupByTeam(std::move(byTeam));
    }
}

double Scheduler::fairShare(std::uint32_t job) const {
    // Kueue's fair sharing: the share its team would have with the job admitted (on the first
    // flavor it may use); teams outside fair-sharing cohorts count 0 (queue order decides).
    const JobSpec& s = m_sim.spec(job);
    if (!m_sim.quota.fairSharing(s.team)) return 0;
    for (int model : m_sim.quota.flavorsOf(s.team))
        if (s.allowsModel(model))
            return m_sim.quota.share(s.team, model,
                                     QuotaLedger::requestUnits(s, m_sim.fleet, model));
    return 0;
}

void Scheduler::enqueue(std::uint32_t job) {
    m_queue.insert(job);
    m_sim.runtime[job].phase = Phase::Queued;
    m_newArrivals.push_back(job);
}

bool Scheduler::fitsEmptyReady(std::uint32_t job) const {
    // Depends on the job's shape and the node states only: kept per shape until a node
    // changes state (counting shares and instances walks every GPU that takes them).
    const ShapeKey key = JobQueue::shapeOf(m_sim.spec(job));
    const std::uint64_t states = m_sim.cluster.stateChanges();
    if (const auto it = m_fitsEmptyReady.find(key);
        it != m_fitsEmptyReady.end() && it->second.first == states)
        return it->second.second;
    const PlacementRequest req = requestOf(m_sim.spec(job));
    const bool fits = bestPodCapacity(req, m_sim.cluster, Basis::ReadyEmpty) >= req.pods;
    m_fitsEmptyReady[key] = {states, fits};
    return fits;
}

void Scheduler::pass(double nowS) {
    if (m_counters) ++m_counters->passes;
    if (m_queue.empty()) {
        m_newArrivals.clear();
        m_capacityGrew = false;
        m_readyFreeAfterPass = m_sim.cluster.readyFreeGpus();
        return;
    }
    // Capacity only shrank since the last pass unless it grew: jobs that did not fit then
    // still do not, so only arrivals need a look — unless one sorts ahead of the head.
    // Fair sharing orders the queue by shares that move with every admission: no shortcut.
    bool full = m_capacityGrew || m_retryFull || m_sim.quota.anyFairSharing();
    if (!full && m_def.backfill != BackfillMode::Greedy) {
        full = m_head == npos;
        for (std::uint32_t j : m_newArrivals)
            if (!full && m_queue.contains(j) && m_queue.before(j, m_head)) full = true;
    }
    m_capacityGrew = false;
    m_retryFull = false;
    m_phantomShrank = false;
    if (full) {
        clearFailures();
        fullScan(nowS);
    } else {
        // The shapes that failed in the last pass still fail: between passes nothing binds
        // and nothing is released (a release, a node change or an eviction makes the next
        // pass full), so free GPUs can only have gone (to nothing), the head and its
        // reservation stand, and the hold it needs on each node is what it was. Keeping
        // them saves putting the hold on for arrivals that cannot start.
        if (m_checkSkips && m_sim.cluster.readyFreeGpus() > m_readyFreeAfterPass)
            throw std::logic_error(
                "invariant: free GPUs grew between passes without a full pass to see them");
        if (m_counters) ++m_counters->arrivalPasses;
        m_inArrivalPass = true;
        m_failuresAtArrivalPassStart = m_failedAlways.size() + m_failedWithPhantom.size();
        arrivalsOnly(nowS);
        m_inArrivalPass = false;
    }
    // A short backfill on a reserved node shrank the head's hold: long jobs passed over
    // earlier in this pass may fit now. Scan again (a few rounds at most).
    for (int round = 0; m_phantomShrank && round < 4; ++round) {
        m_phantomShrank = false;
        clearFailures();
        fullScan(nowS);
    }
    m_newArrivals.clear();
    m_queue.compact();
    m_readyFreeAfterPass = m_sim.cluster.readyFreeGpus();
}

Scheduler::Outcome Scheduler::tryBind(std::uint32_t job, double nowS, bool mustEndBeforeReservation,
                                      PlacementPolicy policy) {
    const JobSpec& s = m_sim.spec(job);
    const PlacementRequest req = requestOf(s);
    if (m_sim.quota.manages(s.team))
        return tryBindWithQuota(job, req, nowS, mustEndBeforeReservation, policy);
    if (!place(req, policy)) return Outcome::NoFit;
    return commit(job, req, nowS, mustEndBeforeReservation);
}

Scheduler::Outcome Scheduler::tryBindWithQuota(std::uint32_t job, const PlacementRequest& req,
                                               double nowS, bool mustEndBeforeReservation,
                                               PlacementPolicy policy) {
    // Kueue admits by quota, trying the team's flavors in order; the job then lands on that
    // GPU model. Admission and binding are one step here: a flavor whose quota admits but
    // whose GPUs are full is passed over for the next (Kueue would admit and leave the pods
    // unschedulable; gpuplan never holds quota for pods that cannot run).
    const JobSpec& s = m_sim.spec(job);
    PlacementRequest onModel = req;
    const QuotaLedger::FlavorWalk walk = m_sim.quota.walkFlavors(s, m_sim.fleet, [&](int model) {
        onModel.gpuModel = model;
        return place(onModel, policy);
    });
    if (walk.placed) return commit(job, onModel, nowS, mustEndBeforeReservation);
    if (!walk.admitted) return Outcome::QuotaBlocked;
    // Only a try on the job's own target says its shape does not fit.
    return onOneModel(s) ? Outcome::NoFit : Outcome::NoFitInFlavor;
}

bool Scheduler::onOneModel(const JobSpec& s) const {
    return s.gpuModel >= 0 || m_sim.fleet.gpuModels.size() == 1;
}

bool Scheduler::mayBeHead(std::uint32_t job) const {
    const JobSpec& s = m_sim.spec(job);
    if (!m_sim.quota.manages(s.team)) return true;
    // Quota, not capacity, decides when a job it blocks starts: it waits without a
    // reservation. A job its quota could send to several models is not planned either.
    if (!onOneModel(s)) return false;
    // Its reservation holds GPUs, not quota (Kueue reserves no quota ahead of admission):
    // later jobs may take the quota, and then it waits for quota without a reservation.
    const int model = s.gpuModel >= 0 ? s.gpuModel : 0;
    return m_sim.quota.admitsJob(s, m_sim.fleet, model);
}

Scheduler::Outcome Scheduler::commit(std::uint32_t job, const PlacementRequest& req, double nowS,
                                     bool mustEndBeforeReservation) {
    if (mustEndBeforeReservation && m_plannedEnd(job, m_scratch, nowS) > m_reservation.startS) {
        unplace(m_sim.cluster, m_scratch, req.host);
        // Its slowdown depends on where it lands; as the fleet fills, a later pass may place
        // it on one node and in time. Make sure that pass looks at everything.
        m_retryFull = true;
        return Outcome::TooLong;
    }
    // The slots are already occupied by tryPlace; the hook records the binding.
    m_queue.remove(job);
    m_bind(job, m_scratch);
    return Outcome::Bound;
}

void Scheduler::clearFailures() {
    m_failedAlways.clear();
    m_failedWithPhantom.clear();
    m_neverFit.clear();
    clearQuotaFailures();
}

void Scheduler::addQuotaFailure(const JobSpec& s) {
    if (m_quotaFailed.empty()) m_quotaFailed.resize(m_sim.record.teams.size());
    if (m_quotaFailed[s.team].size() == 0) m_quotaFailedTeams.push_back(s.team);
    m_quotaFailed[s.team].add(JobQueue::shapeOf(s));
}

void Scheduler::clearQuotaFailures() {
    for (int team : m_quotaFailedTeams)
        m_quotaFailed[team].clear();
    m_quotaFailedTeams.clear();
}

bool Scheduler::coveredByFailure(const ShapeKey& key, bool canBeShort) const {
    if (m_failedAlways.covers(key)) return true;
    return !canBeShort && m_failedWithPhantom.covers(key);
}

void Scheduler::verifySkip(std::uint32_t job, bool besideHold) {
    if (!m_checkSkips) return;
    // Tried under the rule that skipped it, then the hold is put back as it was: the check
    // must not steer the pass it checks.
    const bool holdWasOn = m_phantomApplied;
    if (besideHold)
        occupyPhantom();
    else
        vacatePhantom();
    const PlacementRequest req = requestOf(m_sim.spec(job));
    std::vector<PodPlacement> pods;
    const bool fits = bestPodCapacity(req, m_sim.cluster) >= req.pods &&
                      tryPlace(req, m_def.placement, m_sim.cluster, pods);
    if (fits) unplace(m_sim.cluster, pods, req.host);
    if (holdWasOn)
        occupyPhantom();
    else
        vacatePhantom();
    if (fits)
        throw std::logic_error("invariant: job " + std::to_string(job) +
                               " was skipped as covered by a failed shape, but it fits");
    if (m_counters) ++m_counters->verifiedSkips;
}

bool Scheduler::groupHasShortJob(const JobQueue::Group& group, double nowS) const {
    return m_reservation.active && !group.minRunS.empty() &&
           nowS + group.minRunS.min() <= m_reservation.startS;
}

void Scheduler::arrivalsOnly(double nowS) {
    // Capacity did not grow and every arrival sorts behind the blocked head: only the arrivals
    // can newly start, and only as backfill (or as anything that fits, in Greedy mode).
    if (m_def.backfill == BackfillMode::None || !anyRoom()) return;
    std::sort(m_newArrivals.begin(), m_newArrivals.end(),
              [this](std::uint32_t a, std::uint32_t b) { return m_queue.before(a, b); });
    if (m_def.backfill == BackfillMode::Greedy) {
        for (std::uint32_t job : m_newArrivals)
            if (m_queue.contains(job)) tryBind(job, nowS, false);
        return;
    }
    if (!m_reservation.active) return;
    holdReservation();
    for (std::uint32_t job : m_newArrivals)
        if (m_queue.contains(job)) backfill(job, nowS);
    releaseReservation();
}

bool Scheduler::parkable(int group, std::uint32_t job, const ShapeKey& key) const {
    // Looking at `job` would change nothing when an earlier job of its group went the whole
    // way in this scan (tried, not placed, no eviction found, fits the empty Ready fleet, no
    // reservation for its kind) and, for this one: its shape is still covered by a failure
    // that only an eviction clears (so it is not tried), an eviction search of its kind
    // already failed (every job of the group has the same rights), and its team has no quota
    // (whose admission could change as the scan binds). Strict FIFO stops at such a job, and
    // fair sharing reorders the merge: neither sets groups aside.
    if (m_def.backfill != BackfillMode::Easy || m_sim.quota.anyFairSharing()) return false;
    if (m_noHeadInScan[group] != m_scanId || !m_failedAlways.covers(key)) return false;
    const JobSpec& s = m_sim.spec(job);
    if (m_sim.quota.manages(s.team)) return false;
    if (!m_preempt) return true;
    return m_queue.groups()[group].oneOrigin &&
           std::find(m_preemptionFailed.begin(), m_preemptionFailed.end(), preemptionKey(job)) !=
               m_preemptionFailed.end();
}

bool Scheduler::canEndBeforeReservation(std::uint32_t job, double nowS) const {
    const JobSpec& s = m_sim.spec(job);
    // Slowdown is ≥ 1, so startup + the ideal work left is the earliest possible end.
    return nowS + s.startupS + m_sim.savedWork.leftS(job, s) <= m_reservation.startS;
}

void Scheduler::backfill(std::uint32_t job, double nowS, Cleared cleared) {
    const ShapeKey key = JobQueue::shapeOf(m_sim.spec(job));
    if (quotaCovered(m_sim.spec(job))) return;  // its team's quota already said no
    // A share may not use the held GPUs even when it ends in time: the hold counts a GPU as
    // returning only when a whole holder ends, and another share could join it meanwhile.
    const bool canBeShort = canEndBeforeReservation(job, nowS) && !m_sim.spec(job).sharesGpu();
    const bool covered = cleared == Cleared::Both ? false
                         : cleared == Cleared::WithoutHold
                             ? !canBeShort && m_failedWithPhantom.covers(key)
                             : coveredByFailure(key, canBeShort);
    if (covered) {
        if (m_counters && m_inArrivalPass &&
            m_failedAlways.size() + m_failedWithPhantom.size() == m_failuresAtArrivalPassStart)
            ++m_counters->carriedSkips;  // nothing failed yet in this pass: an earlier pass's
        verifySkip(job, !canBeShort);
        return;
    }
    // Too big for what is free even without the hold: no need to put the hold on to know
    // (in a saturated fleet most tries end here; the hold touches every reserved node).
    if (!m_phantomApplied) {
        const PlacementRequest req = requestOf(m_sim.spec(job));
        if (req.pods == 1 ? !onePodFits(req, m_sim.cluster)
                          : bestPodCapacity(req, m_sim.cluster) < req.pods) {
            m_failedAlways.add(key);
            return;
        }
    }
    // With the head's GPUs held by phantom occupancy, anything that fits cannot delay it.
    occupyPhantom();
    const Outcome first = tryBind(job, nowS, false);
    if (first == Outcome::Bound) {
        if (canBeShort) refreshPhantom(job);
        return;
    }
    if (first == Outcome::QuotaBlocked || first == Outcome::NoFitInFlavor) {
        addQuotaFailure(m_sim.spec(job));  // no shape failed: its team's quota did
        return;
    }
    if (!canBeShort) {
        m_failedWithPhantom.add(key);
        return;
    }
    // A job that ends before the head starts may use the held GPUs too: where its policy
    // places it, or else where it spans the fewest fabric tiers (one node, one rack, …), which
    // slows it least — the policy's choice may span racks and run past the head's start when
    // a free node would hold the whole gang.
    vacatePhantom();
    Outcome o = tryBind(job, nowS, true);
    if (o == Outcome::TooLong && tightestMayBeFaster(job))
        o = tryBind(job, nowS, true, PlacementPolicy::TopologyAware);
    if (o == Outcome::Bound) refreshPhantom(job);
    if (o == Outcome::NoFit) m_failedAlways.add(key);
}

bool Scheduler::tightestMayBeFaster(std::uint32_t job) const {
    // The topology-aware placement differs from the policy's only for a gang of whole GPUs
    // without CPU or memory asked (placement.hpp); shares and instances never use held GPUs.
    const PlacementRequest req = requestOf(m_sim.spec(job));
    return m_def.placement != PlacementPolicy::TopologyAware && req.pods > 1 && req.wholeGpusOnly();
}

Scheduler::BackfillRefusal Scheduler::backfillRefusal(std::uint32_t job, double nowS) const {
    if (!m_reservation.active || m_def.backfill != BackfillMode::Easy) return BackfillRefusal::None;
    if (fitsBesideReservation(job)) return BackfillRefusal::None;
    if (m_sim.spec(job).sharesGpu()) return BackfillRefusal::ShareOnHeldGpus;
    return canEndBeforeReservation(job, nowS) ? BackfillRefusal::SlowedPastStart
                                              : BackfillRefusal::RunsPastStart;
}

void Scheduler::refreshPhantom(std::uint32_t job) {
    // A job that releases before the head starts, bound on one of the head's nodes, hands
    // those GPUs back in time: the head needs fewer held now, and long jobs may use the rest.
    if (!m_reservation.active || m_sim.runtime[job].plannedEndS > m_reservation.startS) return;
    const auto& reserved = m_reservation.gpusByNode;  // sorted by node
    bool onReservedNode = false;
    for (const PodPlacement& p : m_sim.placementOf(job))
        onReservedNode |= std::binary_search(
            reserved.begin(), reserved.end(), std::pair<std::uint32_t, int>{p.node, 0},
            [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!onReservedNode) return;
    vacatePhantom();  // held again, smaller, before the next try
    m_failedWithPhantom.clear();
    m_phantomShrank = true;
}

void Scheduler::computeReservation(std::uint32_t job, double nowS) {
    // Release bound jobs in the order they end until the head fits (by the placement policy
    // it will start with): that is its reserved start. Then choose which GPUs it reserves
    // there, and put everything back.
    m_reservation.active = false;
    const PlacementRequest req = requestOf(m_sim.spec(job));
    // The hold keeps whole GPUs only: a head asking a share, CPU or memory gets no reservation
    // (it does not block the queue) rather than a promise the hold could not keep.
    if (!req.wholeGpusOnly()) return;
    // Shares stay bound in the walk: a shared GPU comes back whole only when its last share
    // ends, which the hold cannot count on. So the start found is never too early.
    std::vector<std::span<const PodPlacement>> released;  // each released job's pods
    auto& bound = m_sim.boundByEnd;
    const std::span<const PodPlacement> placements = m_sim.record.placements;
    for (auto it = bound.begin(); it != bound.end();) {
        const double endS = it->endS;
        for (; it != bound.end() && it->endS == endS; ++it) {
            const auto pods = placements.subspan(it->placementBegin, it->placementCount);
            if (!pods.front().isWhole()) continue;  // a share or an instance (every pod is)
            for (const PodPlacement& p : pods)
                m_sim.cluster.release(static_cast<int>(p.node), p.gpuMask);
            released.push_back(pods);
        }
        if (bestPodCapacity(req, m_sim.cluster) < req.pods) continue;
        if (!tryPlace(req, m_def.placement, m_sim.cluster, m_scratch)) continue;
        unplace(m_sim.cluster, m_scratch);
        m_reservation.active = chooseReservedGpus(req, released);
        m_reservation.job = job;
        m_reservation.startS = std::max(endS, nowS);
        break;
    }
    for (auto it = released.rbegin(); it != released.rend(); ++it)
        for (const PodPlacement& p : *it)
            m_sim.cluster.occupy(static_cast<int>(p.node), p.gpuMask);
}

bool Scheduler::chooseReservedGpus(const PlacementRequest& req,
                                   const std::vector<std::span<const PodPlacement>>& released) {
    // EASY lets a later job start now on anything the head will not need, so the head
    // reserves GPUs that are busy now and come back by its start before GPUs that are free
    // now: each free-now GPU it reserves is one that later jobs cannot use meanwhile.
    // The cluster holds the state at the reserved start (released jobs are off it).
    // Cost of a pod = the free-now GPUs it takes. On a node getting r GPUs back, pods cost
    // 0, …, 0, then p − r mod p for the one that mixes both, then p each: non-decreasing per
    // node, so taking the cheapest pods first gives the fewest free-now GPUs reserved.
    const Fleet& fleet = m_sim.fleet;
    std::vector<std::pair<std::uint32_t, int>> returning;  // node → GPUs back by the start
    for (const std::span<const PodPlacement> pods : released)
        for (const PodPlacement& p : pods)
            returning.push_back({p.node, slotCount(p.gpuMask)});
    std::sort(returning.begin(), returning.end());
    const NodeRange range = nodeRangeOf(fleet, req.pinLevel, req.pinIndex);
    const int p = req.gpusPerPod;
    struct Pod {
        int cost;
        std::uint32_t node;
        bool operator<(const Pod& o) const {
            return cost != o.cost ? cost < o.cost : node < o.node;
        }
    };
    std::vector<Pod> best, cheap;
    int bestModel = -1;
    long long bestCost = 0;
    for (int m = 0; m < static_cast<int>(fleet.gpuModels.size()); ++m) {
        if (!req.allowsModel(m)) continue;
        if (podCapacityForModel(req, m_sim.cluster, m) < req.pods) continue;
        cheap.clear();
        for (std::size_t i = 0; i < returning.size();) {
            const std::uint32_t node = returning[i].first;
            int back = 0;
            for (; i < returning.size() && returning[i].first == node; ++i)
                back += returning[i].second;
            if (static_cast<int>(node) < range.begin || static_cast<int>(node) >= range.end ||
                fleet.nodes[node].gpuModel != m ||
                !m_sim.cluster.schedulable(static_cast<int>(node)))
                continue;
            const int pods = m_sim.cluster.freeGpus(static_cast<int>(node)) / p;
            for (int k = 1; k <= pods; ++k) {
                const int cost = std::max(0, k * p - back) - std::max(0, (k - 1) * p - back);
                if (cost >= p) break;  // no better than a pod on any free node
                cheap.push_back({cost, node});
            }
        }
        std::sort(cheap.begin(), cheap.end());
        if (cheap.size() > static_cast<std::size_t>(req.pods)) cheap.resize(req.pods);
        long long cost = static_cast<long long>(req.pods - cheap.size()) * p;
        for (const Pod& pod : cheap)
            cost += pod.cost;
        if (bestModel < 0 || cost < bestCost) {
            bestModel = m;
            bestCost = cost;
            best = cheap;
        }
    }
    if (bestModel < 0) return false;
    // Pods that use returning GPUs, then the rest packed onto the nodes with the fewest free
    // GPUs (every pod that could use a returning GPU is taken by then), which keeps the
    // larger holes usable now.
    std::vector<PodPlacement> taken;
    for (const Pod& pod : best) {
        const int node = static_cast<int>(pod.node);
        const std::uint64_t mask = lowestFreeSlots(m_sim.cluster.freeMask(node), p);
        m_sim.cluster.occupy(node, mask);
        taken.push_back({.node = pod.node, .gpuMask = mask});
    }
    bool ok = true;
    if (taken.size() < static_cast<std::size_t>(req.pods)) {
        PlacementRequest rest = req;
        rest.gpuModel = bestModel;
        rest.pods = req.pods - static_cast<int>(taken.size());
        ok = tryPlace(rest, PlacementPolicy::Pack, m_sim.cluster, m_scratch);
        if (ok) taken.insert(taken.end(), m_scratch.begin(), m_scratch.end());
    }
    unplace(m_sim.cluster, taken);
    m_reservation.gpusByNode.clear();
    if (!ok) return false;
    // GPUs per node, by node (a head of thousands of pods: sorted, not searched per pod).
    std::vector<std::uint32_t> nodes;
    nodes.reserve(taken.size());
    for (const PodPlacement& pod : taken)
        nodes.push_back(pod.node);
    std::sort(nodes.begin(), nodes.end());
    for (std::uint32_t node : nodes) {
        if (m_reservation.gpusByNode.empty() || m_reservation.gpusByNode.back().first != node)
            m_reservation.gpusByNode.push_back({node, 0});
        m_reservation.gpusByNode.back().second += p;
    }
    return true;
}

int Scheduler::holdNeeded(std::uint32_t node, int need) const {
    for (const SimState::BoundPod& pod : m_sim.nodePods.on(node))
        if (pod.plannedEndS <= m_reservation.startS) need -= pod.gpus;
    return need;
}

void Scheduler::occupyPhantom() {
    if (!m_holding || m_phantomApplied || !m_reservation.active) return;
    m_phantomApplied = true;
    for (const auto& [node, need] : m_reservation.gpusByNode) {
        const int free = m_sim.cluster.freeGpus(static_cast<int>(node));
        const int missing = holdNeeded(node, need);
        if (missing > free) ++m_reservationViolations;  // a backfill took its GPUs
        const int hold = std::min(missing, free);
        if (hold <= 0) continue;
        const std::uint64_t mask =
            lowestFreeSlots(m_sim.cluster.freeMask(static_cast<int>(node)), hold);
        m_sim.cluster.occupy(static_cast<int>(node), mask);
        m_phantom.push_back({.node = node, .gpuMask = mask});
        m_phantomGpus += hold;
    }
}

int Scheduler::reservationShortfall() const {
    if (!m_reservation.active || m_reservation.job != m_head) return 0;
    int missingNodes = 0;
    for (const auto& [node, need] : m_reservation.gpusByNode)
        if (m_sim.cluster.schedulable(static_cast<int>(node)) &&
            holdNeeded(node, need) > m_sim.cluster.freeGpus(static_cast<int>(node)))
            ++missingNodes;
    return missingNodes;
}

bool Scheduler::fitsBesideReservation(std::uint32_t job) const {
    const PlacementRequest req = requestOf(m_sim.spec(job));
    const NodeRange range = nodeRangeOf(m_sim.fleet, req.pinLevel, req.pinIndex);
    const int p = req.gpusPerPod;
    for (int m = 0; m < static_cast<int>(m_sim.fleet.gpuModels.size()); ++m) {
        if (!req.allowsModel(m)) continue;
        long long pods = podCapacityForModel(req, m_sim.cluster, m);
        if (m_reservation.active)
            for (const auto& [node, need] : m_reservation.gpusByNode) {
                const int n = static_cast<int>(node);
                if (n < range.begin || n >= range.end || m_sim.fleet.nodes[n].gpuModel != m ||
                    !m_sim.cluster.schedulable(n))
                    continue;
                const int free = m_sim.cluster.freeGpus(n);
                const int hold = std::clamp(holdNeeded(node, need), 0, free);
                pods -= free / p - (free - hold) / p;
            }
        if (pods >= req.pods) return true;
    }
    return false;
}

void Scheduler::vacatePhantom() {
    if (!m_phantomApplied) return;
    unplace(m_sim.cluster, m_phantom);
    m_phantom.clear();
    m_phantomGpus = 0;
    m_phantomApplied = false;
}

void Scheduler::releaseReservation() {
    vacatePhantom();
    m_holding = false;
}

}  // namespace gpuplan::detail
