// Quotas as Kueue defines them: each team is a ClusterQueue with a nominal quota per GPU model (its
// ResourceFlavor), in GPU-equivalents (a MIG instance counts its compute slices ÷ 7, a share its
// milli-GPU ÷ 1000). Teams in one cohort lend each other what they do not use, within borrowing and
// lending limits; cohorts may nest.
// A team with no QuotaDef is not managed: it is admitted wherever its jobs fit.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

/// One flavor of a ClusterQueue's (or cohort's) quota.
struct FlavorQuotaDef {
    std::string gpuModel;  ///< a GPU model of the fleet (GpuModel::id)
    double nominalGpus = 0;
    /// Most it may use beyond its nominal quota, borrowed from its cohort. Unset = as much as
    /// the cohort has unused. Needs a cohort.
    std::optional<double> borrowingLimitGpus;
    /// Most of its unused nominal quota it lends to its cohort; the rest is kept for it alone.
    /// Unset = all of it. Needs a cohort; at most the nominal quota.
    std::optional<double> lendingLimitGpus;
    bool operator==(const FlavorQuotaDef&) const = default;
};

/// Kueue's reclaimWithinCohort: whom a team within its nominal quota may evict from teams
/// borrowing in its cohort.
enum class ReclaimPolicy { Never, LowerPriority, Any };
/// Kueue's withinClusterQueue: whom a job may evict from its own team to fit its quota.
enum class WithinTeamPolicy { Never, LowerPriority, LowerOrNewerEqualPriority };

/// A team's ClusterQueue.
struct QuotaDef {
    std::string team;
    std::string cohort;                   ///< "" = in no cohort (neither lends nor borrows)
    std::vector<FlavorQuotaDef> flavors;  ///< tried in this order (Kueue's flavor order)
    /// Fair sharing (when its cohort enables it): its share of what it uses above its nominal
    /// quota is divided by this; 0 = it borrows only what nobody else wants.
    double fairShareWeight = 1;
    ReclaimPolicy reclaimWithinCohort = ReclaimPolicy::Never;  // Kueue's default
    WithinTeamPolicy withinTeam = WithinTeamPolicy::Never;     // Kueue's default
    bool operator==(const QuotaDef&) const = default;
};

/// A cohort: teams (and child cohorts) that share unused quota.
struct CohortDef {
    std::string name;
    std::string parent;  ///< "" = a root cohort
    /// Kueue's fair sharing: admission goes to the team with the lowest share of what it uses
    /// above its nominal quota (÷ its weight), preemption takes from the highest.
    bool fairSharing = false;
    /// Quota the cohort holds itself (Kueue's Cohort resourceGroups), lent to its members.
    std::vector<FlavorQuotaDef> flavors;
    double fairShareWeight = 1;  ///< its weight among its parent's children
    bool operator==(const CohortDef&) const = default;
};

const char* toString(ReclaimPolicy);
const char* toString(WithinTeamPolicy);

}  // namespace gpuplan
