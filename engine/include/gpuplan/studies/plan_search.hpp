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

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
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

/// A dimension's value at `index` for a person (and the JSON of a choice): 12, or dgx-h100.
std::string planValueText(const PlanDimension& dimension, long long index);

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

/// One run the search asks for.
struct PlanRun {
    PlanCandidate candidate;
    int replication = 0;
};
/// Runs a batch (in parallel, as it likes) and gives an evaluation per run in order; nullopt
/// when stopped.
using PlanBatchEvaluator =
    std::function<std::optional<std::vector<PlanEvaluation>>(const std::vector<PlanRun>&)>;

struct PlanSearchOptions {
    int minReplications = 2;  ///< the fewest an interval needs
    int maxReplications = 5;
    double confidence = 0.95;
    /// Replications asked in one batch (the threads that can run them). A candidate is still
    /// judged after each replication in order, and runs past its decision are dropped, so
    /// the verdicts do not depend on it.
    int batchReplications = 1;
    /// Candidates judged at most (0: no cap); past it the descent stops where it is and the
    /// result says `capped` (a plan that meets the targets, perhaps not the cheapest).
    std::size_t maxCandidates = 0;
    /// Judged first when set (the scenario as it stands, when the ranges hold it), for the
    /// plan's change against it; it counts as a candidate like any other.
    std::optional<PlanCandidate> baseline;
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
    int evaluations = 0;   ///< runs the verdicts use (Σ replications over `evaluated`)
    int runsExecuted = 0;  ///< runs asked of the evaluator (batches may run past a decision)
    bool stopped = false;  ///< the evaluator was stopped: the result is incomplete
    bool capped = false;   ///< maxCandidates was reached
    std::optional<PlanVerdict> baseline;  ///< when PlanSearchOptions::baseline was set
};

/// Searches `dimensions` (at least one) for the cheapest candidate meeting every target.
PlanSearchResult searchPlan(const std::vector<PlanDimension>& dimensions,
                            const std::vector<PlanTarget>& targets, const PlanEvaluator& evaluate,
                            const PlanSearchOptions& options = {});
/// The same, asking for runs in batches.
PlanSearchResult searchPlan(const std::vector<PlanDimension>& dimensions,
                            const std::vector<PlanTarget>& targets,
                            const PlanBatchEvaluator& evaluate, const PlanSearchOptions& options);

/// Candidates the search judges at most (the bound a run budget is checked against): per
/// combination of choices, the top and, per range, a bisection (⌈log2 size⌉ + 1 judgements)
/// in each of as many rounds as there are ranges; never more than the whole grid.
std::size_t planCandidateBound(const std::vector<PlanDimension>& dimensions);

/// The options a plan's search runs with, wherever it runs (on one machine, or merged from
/// shards, which must judge alike): replications 2 … `replications`, `batch` at once, the
/// baseline judged first, the candidates capped at planCandidateBound (+ the baseline).
PlanSearchOptions planSearchOptions(const std::vector<PlanDimension>& dimensions, int replications,
                                    std::optional<PlanCandidate> baseline, int batch);

/// The evaluated candidates no other beats on the objective and every target at once (a
/// Pareto front over the objective's and the targets' means), by objective: indices into
/// result.evaluated.
std::vector<std::size_t> planFrontier(const PlanSearchResult& result,
                                      const std::vector<PlanTarget>& targets);

/// The whole grid, for shards that run every run the search could ask for: candidates
/// numbered in mixed radix (the last dimension fastest).
std::size_t planGridSize(const std::vector<PlanDimension>& dimensions);
PlanCandidate planCandidateAt(const std::vector<PlanDimension>& dimensions, std::size_t index);

/// Runs already made (a shard's, or merged shards'): a batch evaluator that only looks them
/// up, so the search over them gives what the search that ran them would have.
class PlanRunTable {
public:
    void add(const PlanCandidate& candidate, int replication, PlanEvaluation evaluation);
    std::size_t size() const { return m_runs.size(); }
    bool contains(const PlanCandidate& candidate, int replication) const;
    /// Throws std::out_of_range naming a run it does not hold.
    PlanBatchEvaluator evaluator() const;
    const std::map<std::pair<PlanCandidate, int>, PlanEvaluation>& runs() const { return m_runs; }

private:
    std::map<std::pair<PlanCandidate, int>, PlanEvaluation> m_runs;
};

}  // namespace gpuplan
