// The quota books of one run, with Kueue's ClusterQueue arithmetic (gpuplan/model/quota.hpp for the
// scenario side).
//
// Every team with a QuotaDef is a ClusterQueue; cohorts are the inner nodes of a tree whose
// leaves are the ClusterQueues. Per node and GPU model (flavor):
//   subtreeQuota  a ClusterQueue's nominal quota; a cohort's own quota plus what its children
//                 put into it (each child's subtreeQuota − guaranteed)
//   guaranteed    what a node keeps for itself and never lends: subtreeQuota − lendingLimit
//                 (0 without a lending limit)
//   usage         a ClusterQueue's admitted GPU-equivalents; a cohort's: Σ over its children
//                 of what they use beyond their guaranteed part
// What a ClusterQueue can be admitted for now (Kueue's available()):
//   root:   subtreeQuota − usage
//   other:  max(0, guaranteed − usage) + min(available(parent),
//           subtreeQuota − guaranteed − max(0, usage − guaranteed) + borrowingLimit)
//           (the min only with a borrowing limit)
// and the most it could ever be admitted for, were everyone else idle (potentialAvailable):
//   root:   subtreeQuota;   other: min(guaranteed + potential(parent), subtreeQuota + limit).
// Amounts are kept in units of 1/7000 GPU: whole GPUs, milli-GPU shares and MIG sevenths all
// add exactly (ClusterState counts allocation the same way).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/run_record.hpp"

namespace gpuplan::detail {

/// What quota says to a job asking `units` of one GPU model.
struct QuotaCheck {
    ReasonToken verdict = ReasonToken::None;  ///< None: admitted (maybe by borrowing)
    bool borrows = false;                     ///< admitted beyond the team's nominal quota
    std::int64_t missingUnits = 0;            ///< more than is available now
    bool admits() const { return verdict == ReasonToken::None; }
};

class QuotaLedger {
public:
    QuotaLedger() = default;  ///< no quotas: every team is unmanaged
    /// `teams` are the run's team names (Workload::teams); quotas name scenario teams.
    QuotaLedger(const Scenario& scenario, const Fleet& fleet,
                const std::vector<std::string>& teams);

    bool enabled() const { return !m_queueOfTeam.empty(); }
    /// The team's ClusterQueue (a node), or −1 when no quota manages the team.
    int queueOf(int team) const {
        return team < static_cast<int>(m_queueOfTeam.size()) ? m_queueOfTeam[team] : -1;
    }
    bool manages(int team) const { return queueOf(team) >= 0; }
    /// The GPU models the team's quota lists, in its flavor order (empty when unmanaged).
    std::span<const int> flavorsOf(int team) const;

    /// Units a job asks of `model` (every pod: whole GPUs, its share, or its MIG instance's
    /// compute slices on that model's family); 0 when the model cannot serve its instance.
    static std::int64_t requestUnits(const JobSpec& job, const Fleet& fleet, int model);
    /// Units a placed pod holds: the one rule for charging.
    static std::int64_t podUnits(const PodPlacement& pod);

    QuotaCheck check(int team, int model, std::int64_t units) const;
    /// Does the team's quota admit the whole job on `model` (Kueue's available() for what it
    /// asks of that flavor)? The one admission test of a job; true for an unmanaged team.
    bool admitsJob(const JobSpec& job, const Fleet& fleet, int model) const {
        return !manages(job.team) ||
               check(job.team, model, requestUnits(job, fleet, model)).admits();
    }
    /// Kueue's flavor walk for a managed team: its flavors in order that the job may use and
    /// whose quota admits it, each offered to `tryFlavor(model)` until one returns true.
    /// `admitted` says whether any flavor admitted (none: the job waits for quota, not GPUs).
    struct FlavorWalk {
        bool admitted = false;
        bool placed = false;
    };
    template <class TryFlavor>
    FlavorWalk walkFlavors(const JobSpec& job, const Fleet& fleet, TryFlavor&& tryFlavor) const {
        FlavorWalk walk;
        for (int model : flavorsOf(job.team)) {
            if (!job.allowsModel(model) || !admitsJob(job, fleet, model)) continue;
            walk.admitted = true;
            if (tryFlavor(model)) {
                walk.placed = true;
                break;
            }
        }
        return walk;
    }
    /// Admitted (+) or released (−) units of a team in a model; a no-op for unmanaged teams.
    void charge(int team, int model, std::int64_t units);
    /// Charges (+1) or gives back (−1) what a bound job's pods hold, on their GPU model.
    [[gnu::noinline]] void chargePods(int team, const Fleet& fleet,
                                      std::span<const PodPlacement> pods, int sign);

    std::int64_t usage(int team, int model) const;
    std::int64_t nominal(int team, int model) const;
    std::int64_t available(int team, int model) const;
    /// The most the team could ever be admitted for in `model` (everyone else idle).
    std::int64_t potential(int team, int model) const;
    /// Kueue's fair-sharing share of a team if it were admitted for `extraUnits` more of
    /// `model`: what it would use beyond its nominal quota (all models) ÷ the root's lendable
    /// quota, ÷ its weight. 0 when it would not borrow; +∞ for weight 0 when it would.
    double share(int team, int model, std::int64_t extraUnits) const;

    /// Is the team in a cohort with fair sharing (admission by lowest share first)?
    bool fairSharing(int team) const {
        const int node = queueOf(team);
        return node >= 0 && m_nodes[node].parent >= 0 && m_nodes[m_nodes[node].parent].fairSharing;
    }
    bool anyFairSharing() const { return m_anyFairSharing; }

    /// The team's Kueue preemption policies (Never for unmanaged teams).
    ReclaimPolicy reclaimPolicy(int team) const;
    WithinTeamPolicy withinTeamPolicy(int team) const;
    /// Do the two teams' ClusterQueues share a cohort tree (so lend to each other)?
    bool shareTree(int teamA, int teamB) const;
    /// Does the team use more than its nominal quota of `model`?
    bool borrowing(int team, int model) const { return usage(team, model) > nominal(team, model); }

    /// A team's quota at this moment, in units summed over its models (the cohort view).
    struct TeamQuotaNow {
        std::int64_t nominal = 0;
        std::int64_t used = 0;
        std::int64_t borrowed = 0;  ///< used beyond its nominal quota
        /// Its unused quota others use now: its tree's borrowing split among the members (and
        /// cohorts holding quota) in proportion to the unused quota each put in the pool.
        std::int64_t lent = 0;
    };
    /// Every team's quota now (zero for unmanaged teams), indexed by team: one walk over the
    /// nodes and models (the tree sums are per tree, not per team).
    std::vector<TeamQuotaNow> nowByTeam() const;

    /// Test builds: no ClusterQueue above nominal + borrowing limit, none lending past its
    /// lending limit, every cohort's usage the sum of its children's. Throws std::logic_error.
    void checkInvariants() const;

private:
    struct Node {
        std::string name;
        int parent = -1;
        double weight = 1;
        bool fairSharing = false;  ///< a cohort that orders its members by share
        int root = -1;             ///< the top of its tree (itself at the top)
        bool queue = false;        ///< a ClusterQueue (a team's), not a cohort
    };
    static constexpr std::int64_t kNoLimit = -1;
    std::size_t at(int node, int model) const {
        return static_cast<std::size_t>(node) * m_models + model;
    }
    std::int64_t availableAt(int node, int model, bool ownLimit) const;
    /// What a node uses of its parent's pool.
    std::int64_t usedInParent(int node, int model) const;

    int m_models = 0;
    bool m_anyFairSharing = false;
    std::vector<Node> m_nodes;
    std::vector<int> m_queueOfTeam;                 ///< team → node, −1 = unmanaged
    std::vector<std::vector<int>> m_flavorsOfTeam;  ///< team → models in flavor order
    std::vector<ReclaimPolicy> m_reclaim;           ///< per team
    std::vector<WithinTeamPolicy> m_withinTeam;     ///< per team
    // Per node × model.
    std::vector<std::int64_t> m_subtreeQuota, m_guaranteed, m_borrowingLimit, m_lendingLimit,
        m_usage;
    /// Fixed once the quotas are set: potentialAvailable, and the quota a node itself puts in
    /// its tree's pool (a cohort's own, not its children's).
    std::vector<std::int64_t> m_potential, m_ownInPool;
};

}  // namespace gpuplan::detail
