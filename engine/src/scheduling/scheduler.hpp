// The queue and the scheduling pass (watch → filter → score → bind).
//
// Queue order: priority (high first), then — with PrioritySmallestFirst — fewer GPUs first,
// then submit order. A pass walks the queue and binds every job that fits, until the first
// job that does not fit but could once running jobs end (the head). Then, by mode:
//   None    (strict FIFO) nothing behind the head starts.
//   Easy    the head gets a reservation: the earliest time its placement frees up, assuming
//           bound jobs release at their planned ends, and the GPUs it needs on each node,
//           chosen to leave the most capacity usable now: GPUs that are busy now and come
//           back by then first, free-now GPUs only as needed.
//           A later job starts now only if it cannot delay that: it either ends before the
//           reserved start, or it leaves the reserved GPUs alone (they are held by "phantom"
//           occupancy while later jobs are tried).
//   Greedy  every job that fits starts; big jobs can starve.
// Jobs that could not fit even if every bound job ended (not enough Ready capacity) never
// become the head, so they do not block the queue.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpuplan/scheduling/run_counters.hpp"
#include "job_queue.hpp"
#include "quota/quota_ledger.hpp"
#include "resources/placement.hpp"
#include "sim_state.hpp"

namespace gpuplan::detail {

class CandidateCursor;  // scheduler_preemption.cpp

struct Reservation {
    bool active = false;
    std::uint32_t job = 0;
    double startS = 0;
    std::vector<std::pair<std::uint32_t, int>> gpusByNode;  ///< node → GPUs the head needs, by node
};

class Scheduler {
public:
    using PlannedEndFn =
        std::function<double(std::uint32_t job, const std::vector<PodPlacement>&, double nowS)>;
    using BindFn = std::function<void(std::uint32_t job, const std::vector<PodPlacement>&)>;
    /// Evicts `victim` so that `by` can start (the kernel queues it again after the pass).
    using PreemptFn = std::function<void(std::uint32_t victim, std::uint32_t by)>;

    Scheduler(const SchedulerDef& def, SimState& sim, PlannedEndFn plannedEnd, BindFn bind);

    void enqueue(std::uint32_t job);
    /// GPUs were freed or nodes became Ready: every queued job deserves another look.
    void capacityGrew() { m_capacityGrew = true; }
    /// Something the reservation assumed changed (a node failed, a job was evicted).
    void invalidateReservation() {
        m_reservation.active = false;
        m_capacityGrew = true;
    }
    /// Runs one pass at `nowS`; binds through the BindFn given at construction.
    void pass(double nowS);
    /// Test builds: the jobs skipped because a shape failed are tried anyway (the job at a
    /// skipped group's cursor, under the group's rule), and a skip of one that fits throws:
    /// the pruning must never change what starts. Also checks that capacity did not grow
    /// unannounced before a pass that keeps the last pass's failures.
    void checkSkips(bool on) { m_checkSkips = on; }
    void countInto(RunCounters* counters) { m_counters = counters; }
    /// Lets passes preempt (scheduler_preemption.cpp); without it no job is ever evicted.
    void onPreempt(PreemptFn preempt) { m_preempt = std::move(preempt); }
    /// With a grace period (SchedulerDef::preemptionGraceS) a preemption gives notice: the
    /// victims leave the books at once but hold their GPUs until their grace ends, and the
    /// room the job will use — their GPUs and any free ones it needs — is held for it, GPUs
    /// and quota, from the notice (kube's nominated node), so nobody else takes it.
    struct Nomination {
        std::uint32_t job;
        std::vector<PodPlacement> pods;  ///< held on the cluster; its quota charged
        int victimsLeft;                 ///< still in their grace period
    };
    const std::vector<Nomination>& nominations() const { return m_nominations; }
    /// Waits for its victims on a held room: out of the queue (passes do not look at it; the
    /// samples list it), it preempts no more.
    bool nominated(std::uint32_t job) const;
    /// One of `job`'s victims left its GPUs: true when it was the last, and the job may start.
    bool victimLeft(std::uint32_t job);
    /// Binds a nominated job on the room held for it.
    void startNominated(std::uint32_t job);
    /// A node goes down: holds on it are given up; their jobs stay queued as any other (and
    /// may preempt again).
    void dropNominationsOn(std::uint32_t node);

    const JobQueue& queue() const { return m_queue; }
    std::uint32_t blockedHead() const { return m_head; }  ///< npos when none
    const Reservation& reservation() const { return m_reservation; }
    BackfillMode mode() const { return m_def.backfill; }
    /// Times a reserved head found fewer GPUs coming back than planned (must stay 0).
    std::uint64_t reservationViolations() const { return m_reservationViolations; }
    /// Reserved nodes that will not have the head's GPUs at its start, between passes
    /// (must stay 0; the invariant check asks after every pass).
    int reservationShortfall() const;
    static constexpr std::uint32_t npos = 0xFFFFFFFFu;

    /// Could the job fit if every bound job ended now (Ready nodes only)?
    bool fitsEmptyReady(std::uint32_t job) const;
    /// Could the job start now on GPUs the head's reservation does not hold (between passes)?
    bool fitsBesideReservation(std::uint32_t job) const;
    /// Which EASY rule keeps a job that fits now from starting (between passes). A job that
    /// fits beside the head's held GPUs starts at once; one that needs them starts only if it
    /// releases them before the head's reserved start, tried where its policy places it, then
    /// in the tightest placement (fewest fabric tiers).
    enum class BackfillRefusal {
        None,             ///< no reservation, or it fits beside it
        RunsPastStart,    ///< needs held GPUs and, even at full speed, ends after the start
        SlowedPastStart,  ///< would end in time at full speed, but each placement tried slows it
                          ///< past
        ShareOnHeldGpus,  ///< a share never uses held GPUs (one returns whole only when its last
                          ///< share ends)
    };
    BackfillRefusal backfillRefusal(std::uint32_t job, double nowS) const;
    /// A reservation is active and the job, at full speed, would end before its start.
    bool mayEndBeforeReservation(std::uint32_t job, double nowS) const {
        return m_reservation.active && canEndBeforeReservation(job, nowS);
    }

private:
    /// QuotaBlocked: no flavor of its team's quota admits it. NoFitInFlavor: admitted, but
    /// not placeable on the models its quota sent it to (which says nothing of its shape).
    enum class Outcome { Bound, NoFit, TooLong, QuotaBlocked, NoFitInFlavor };

    void fullScan(double nowS);  // scheduler_scan.cpp
    void arrivalsOnly(double nowS);
    Outcome tryBind(std::uint32_t job, double nowS, bool mustEndBeforeReservation) {
        return tryBind(job, nowS, mustEndBeforeReservation, m_def.placement);
    }
    /// By another placement policy than the scheduler's (a backfill's tightest try).
    Outcome tryBind(std::uint32_t job, double nowS, bool mustEndBeforeReservation,
                    PlacementPolicy policy);
    [[gnu::noinline]] Outcome tryBindWithQuota(std::uint32_t job, const PlacementRequest& req,
                                               double nowS, bool mustEndBeforeReservation,
                                               PlacementPolicy policy);
    /// Places every pod into m_scratch (slots occupied), or leaves the cluster as it was.
    // ---- Preemption (scheduler_preemption.cpp) ----
    /// Evicts the fewest bound jobs that let `job` start, by the rules of its team's quota and
    /// the scheduler's preemption mode, and binds it (Bound) — or, with a grace period, gives
    /// them notice and lets the job wait for them (Noticed). None: nothing changed.
    enum class Preemption { None, Bound, Noticed };
    Preemption tryPreempt(std::uint32_t job, double nowS);
    /// The jobs it may evict, in the documented order (none: nullopt).
    std::optional<CandidateCursor> preemptionCandidates(std::uint32_t job);
    /// May `job` take victims from this group now (quota's rules between teams, looked at
    /// again as victims go)? False: none of its jobs.
    bool mayTakeFromGroup(std::uint32_t job, const BoundJobIndex::Group& group) const;
    /// Under fair sharing, may `job` evict this one of the group's jobs by the strategy?
    enum class FairStrategy { LessThanOrEqualToFinalShare, LessThanInitialShare };
    bool fairShareAllows(std::uint32_t job, std::uint32_t victim, const BoundJobIndex::Group& group,
                         FairStrategy strategy) const;
    /// Would `job`'s team stay within its nominal quota of `gpuModel` with the job admitted?
    bool fitsNominal(std::uint32_t job, int gpuModel) const;
    /// The fair-sharing share of `job`'s team were it admitted on `gpuModel`.
    double shareWithJob(std::uint32_t job, int gpuModel) const;
    /// Cheap necessary condition for fitsNow.
    bool mayFitNow(std::uint32_t job) const;
    std::vector<std::uint32_t> chooseVictims(std::uint32_t job);
    /// Where a fitting job would go: its GPU model (−1 when quota does not manage it) and
    /// the nodes of its pods.
    struct Placed {
        int gpuModel = -1;
        std::vector<int> nodes;
    };
    /// Would `job` be admitted and placed now? Leaves nothing placed (or, with `keep`, its
    /// pods placed there); says where in `placed`.
    bool fitsNow(std::uint32_t job, Placed* placed = nullptr,
                 std::vector<PodPlacement>* keep = nullptr);
    /// After `restored` was put back: does `job` still fit? `placed` is where it fitted
    /// before, and is kept up to date.
    bool stillFits(std::uint32_t job, Placed& placed, std::uint32_t restored);
    /// Takes a bound job's pods and quota off the books (−1) or puts them back (+1).
    void lift(std::uint32_t victim, int sign);
    /// Jobs alike in who they may evict (a failed search is not repeated in a pass).
    struct PreemptionKey {
        ShapeKey shape;
        std::int32_t priority;
        JobSource source;
        std::uint32_t sourceIndex;
        bool operator==(const PreemptionKey&) const = default;
    };
    PreemptionKey preemptionKey(std::uint32_t job) const;

    [[gnu::always_inline]] bool place(const PlacementRequest& req) {
        return place(req, m_def.placement);
    }
    [[gnu::always_inline]] bool place(const PlacementRequest& req, PlacementPolicy policy) {
        // The histograms reject a gang that cannot fit before any pod is placed and rolled
        // back; a single pod fails just as fast in placement itself.
        if (req.pods > 1 && bestPodCapacity(req, m_sim.cluster) < req.pods) return false;
        return tryPlace(req, policy, m_sim.cluster, m_scratch);
    }
    /// A placed job (m_scratch) is bound, unless it must end before the reservation and
    /// would not (its slots are then given back).
    [[gnu::always_inline]] inline Outcome commit(std::uint32_t job, const PlacementRequest& req,
                                                 double nowS, bool mustEndBeforeReservation);
    /// The job can land on one GPU model only (its own, or the fleet's only one).
    bool onOneModel(const JobSpec& s) const;
    /// Can a job that does not fit now be the head (planned a start, blocking later ones)?
    bool mayBeHead(std::uint32_t job) const;
    /// Which failure lists the caller already found not to cover the job's shape.
    enum class Cleared { Nothing, WithoutHold, Both };
    void backfill(std::uint32_t job, double nowS, Cleared cleared = Cleared::Nothing);
    void computeReservation(std::uint32_t job, double nowS);
    /// Fills the reservation's GPUs per node, fewest free-now GPUs first; false if none fit.
    bool chooseReservedGpus(const PlacementRequest& req,
                            const std::vector<std::span<const PodPlacement>>& released);
    /// GPUs the head needs on `node` beyond what bound jobs there hand back by its start.
    int holdNeeded(std::uint32_t node, int need) const;
    /// For the rest of the pass the head's GPUs are held from later jobs. The hold (phantom
    /// occupancy on every reserved node: thousands for a huge head) is put on the cluster
    /// only when a later job is actually tried, and taken off for a job short enough to use
    /// them; a pass that tries nothing behind the head costs nothing.
    void holdReservation() { m_holding = true; }
    void occupyPhantom();
    void vacatePhantom();
    void releaseReservation();
    void refreshPhantom(std::uint32_t boundJob);
    /// Some job of the group could end before the head's reserved start (so may use the
    /// held GPUs): the group is then covered only by failures without the hold.
    bool groupHasShortJob(const JobQueue::Group& group, double nowS) const;
    bool coveredByFailure(const ShapeKey& key, bool canBeShort) const;
    /// With checkSkips on: throws if `job`, skipped as covered by a failure, could be placed
    /// (beside the head's hold unless it can end before the head starts).
    void verifySkip(std::uint32_t job, bool besideHold);
    void clearFailures();
    bool canEndBeforeReservation(std::uint32_t job, double nowS) const;
    /// Could the tightest placement (topology-aware) of this job differ from its policy's?
    bool tightestMayBeFaster(std::uint32_t job) const;
    /// Before the head: would looking at `job` (of `group`, shape `key`) change nothing, and
    /// so every later job of its group? Then the group is set aside for the scan.
    bool parkable(int group, std::uint32_t job, const ShapeKey& key) const;
    int realFreeGpus() const { return m_sim.cluster.readyFreeGpus() + m_phantomGpus; }
    /// Could any pod start (hold aside)? Wholly free GPUs, or GPUs that take shares or
    /// instances; when neither, a pass can stop looking.
    bool anyRoom() const { return realFreeGpus() > 0 || m_sim.cluster.readyPartialGpus() > 0; }

    SchedulerDef m_def;
    SimState& m_sim;
    PlannedEndFn m_plannedEnd;
    BindFn m_bind;
    JobQueue m_queue;
    std::vector<std::uint32_t> m_newArrivals;
    bool m_capacityGrew = true;
    std::uint32_t m_head = npos;
    Reservation m_reservation;
    struct Cursor {  ///< a group's next job in a pass's merge
        JobQueue::OrderKey key;
        int group;
        std::size_t pos;
        double share = 0;  ///< fair sharing: its team's share, when pushed
    };
    /// Kueue's fair-sharing share of the job's team with the job admitted (0 outside).
    double fairShare(std::uint32_t job) const;
    /// The merge's order: lower fair share first (with fair sharing), then queue order.
    static bool comesLater(const Cursor& a, const Cursor& b);
    std::vector<Cursor> m_cursors;  ///< a heap by comesLater
    bool m_scanFair = false;        ///< this scan orders by fair share
    /// What a full scan does after looking at one job: the next job, or the end of the scan.
    enum class ScanStep { Next, Stop };
    void startScan();  ///< clears the scan's state and puts every group's first job in the merge
    void pushCursor(int group, std::size_t pos);  ///< the group's first queued job from pos
    bool popCursor(Cursor& next);                 ///< the merge's next job (shares looked at again)
    /// Before the head: binds what fits, preempts, or makes the job the head.
    ScanStep lookBeforeHead(const Cursor& c, double nowS);
    /// After the head: what may start as backfill (or anything that fits, greedy).
    ScanStep lookAfterHead(const Cursor& c, double nowS);
    /// After a preemption: the groups set aside are merged again behind `after`.
    void reopenParked(const JobQueue::OrderKey& after);
    /// fitsEmptyReady per shape, with the node-state count it was worked out at.
    mutable std::unordered_map<ShapeKey, std::pair<std::uint64_t, bool>, JobQueue::KeyHash>
        m_fitsEmptyReady;
    /// Groups set aside in this scan (parkable), with the position of the job looked at last.
    struct Parked {
        int group;
        std::size_t pos;
    };
    std::vector<Parked> m_parked;
    std::uint64_t m_scanId = 0;
    /// Per group: the scan in which one of its jobs could not be the head for its kind.
    std::vector<std::uint64_t> m_noHeadInScan;
    std::vector<PodPlacement> m_phantom;
    int m_phantomGpus = 0;
    bool m_holding = false;         ///< later jobs must leave the head's GPUs alone
    bool m_phantomApplied = false;  ///< the hold is on the cluster now
    /// Shapes that found no room in this pass (or, for a pass that looks only at arrivals,
    /// in the passes since the last full one): always, or only beside the head's hold.
    FailedShapes m_failedAlways, m_failedWithPhantom;
    /// Shapes that cannot fit even the empty Ready fleet (read by full scans only).
    FailedShapes m_neverFit;
    /// Per team with a quota: shapes its quota kept out in this pass (or, in a pass that looks
    /// only at arrivals, since the last full one), or that found no room on the models its
    /// quota allowed. A larger job of the same team, target and kind fails too: within a pass
    /// usage only grows, and a release or a preemption makes the next pass full.
    std::vector<FailedShapes> m_quotaFailed;
    std::vector<int> m_quotaFailedTeams;  ///< teams with entries (clearing touches only these)
    bool quotaCovered(const JobSpec& s) const {
        return s.team < static_cast<int>(m_quotaFailed.size()) &&
               m_quotaFailed[s.team].covers(JobQueue::shapeOf(s));
    }
    void addQuotaFailure(const JobSpec& s);
    void clearQuotaFailures();
    PreemptFn m_preempt;
    std::vector<Nomination> m_nominations;          ///< few at a time: looked through linearly
    std::vector<PreemptionKey> m_preemptionFailed;  ///< in this pass
    bool m_retryFull = false;      ///< a job was too long only because of where it landed
    bool m_phantomShrank = false;  ///< a short backfill on a reserved node freed held GPUs
    std::vector<PodPlacement> m_scratch;
    std::uint64_t m_reservationViolations = 0;
    bool m_checkSkips = false;
    int m_readyFreeAfterPass = 0;  ///< checkSkips: free GPUs when the last pass ended
    RunCounters* m_counters = nullptr;
    bool m_inArrivalPass = false;
    std::size_t m_failuresAtArrivalPassStart = 0;
};

}  // namespace gpuplan::detail
