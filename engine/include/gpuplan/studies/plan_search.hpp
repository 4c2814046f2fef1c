// The planner's search: the cheapest candidate (a value per dimension) whose KPIs meet every
// target, judged on replications with confidence intervals. The search does not run
// simulations itself: an evaluator gives a candidate's KPIs on replication r (the same r runs
// the same seed for every candidate: common random numbers), so it is tested on functions whose
// answer is known.
//
// A candidate meets a target when its confidence interval does: for KPI ≤ V the interval's
// upper bound is ≤ V, for KPI ≥ V its lower bound is ≥ V. Replications are added one at a time
// (racing) only while some target's interval straddles its bound; a candidate still undecided
// at the most replications counts as not meeting it (the plan errs on the safe side).
//
// Dimensions: an integer range is searched by bisection for its smallest value that meets the
// targets — valid where more of it never hurts (racks, nodes, quota: capacity); choices are
// enumerated. With several integer ranges the search starts at every range's top and lowers
// one range at a time to its smallest passing value, until none can be lowered (a point no
// single dimension can improve); each choice combination gets its own such point, and the
// cheapest of them by the objective is the plan.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/core/statistics.hpp"

namespace gpuplan {

enum class TargetSense { AtMost, AtLeast };

/// `KPI<=V`, `KPI>=V`, or `team:NAME:KPI<=V` (a team's KPI).
struct PlanTarget {
    std::string text;  ///< as given
    std::string team;  ///< empty: the fleet's KPI
    std::string kpi;
    TargetSense sense = TargetSense::AtMost;
    double bound = 0;
};

/// `POINTER=LO..HI` (an integer range) or `POINTER=a|b|c` (a choice).
struct PlanDimension {
    std::string text;     ///< as given
    std::string pointer;  ///< a JSON pointer into the scenario
    long long lo = 0, hi = 0;
    std::vector<std::string> choices;  ///< non-empty: a choice, else the range [lo, hi]

    bool isChoice() const { return !choices.empty(); }
    /// How many values it has.
    long long size() const {
        return isChoice() ? static_cast<long long>(choices.size()) : hi - lo + 1;
    }
};

/// Throw InputError naming the option and what is wrong.
PlanTarget parsePlanTarget(std::string_view text);
PlanDimension parsePlanDimension(std::string_view text);

/// A candidate: per dimension, the index of its value (0 … size − 1; a range's value is
/// lo + index).
using PlanCandidate = std::vector<long long>;

/// One replication of a candidate: each target's KPI value (in the targets' order) and the
/// objective (lower is better).
struct PlanEvaluation {
    std::vector<double> targetValues;
    double objective = 0;
};
using PlanEvaluator = std::function<PlanEvaluation(const PlanCandidate&, int replication)>;

struct PlanSearchOptions {
    int minReplications = 2;  ///< the fewest an interval needs
    int maxReplications = 5;
    double confidence = 0.95;
};

/// A candidate as judged: its targets' and objective's intervals over its replications.
struct PlanVerdict {
    PlanCandidate candidate;
    std::vector<MeanInterval> targets;
    std::vector<bool> targetMet;
    MeanInterval objective;
    bool met = false;  ///< every target met
    int replications = 0;
    /// How far it misses: the sum over targets of the mean's distance past its bound, each as
    /// a share of the bound's size (0 when every mean is on the right side).
    double miss = 0;
};

struct PlanSearchResult {
    bool feasible = false;
    /// The plan: the cheapest candidate that met every target, or (infeasible) the one that
    /// missed by least.
    PlanVerdict best;
    std::vector<PlanVerdict> evaluated;  ///< every candidate judged, in the order judged
    int evaluations = 0;                 ///< evaluator calls
};

/// Searches `dimensions` (at least one) for the cheapest candidate meeting every target.
PlanSearchResult searchPlan(const std::vector<PlanDimension>& dimensions,
                            const std::vector<PlanTarget>& targets, const PlanEvaluator& evaluate,
                            const PlanSearchOptions& options = {});

}  // namespace gpuplan
