// The planner on a scenario: "the cheapest change that meets the targets". A candidate is the
// scenario with each dimension's value set at its JSON pointer (scenarioWithValues, the
// sweep's rule), run on replication r's seed — the same seeds for every candidate (common
// random numbers), so candidates differ by what changed, not by luck — and judged by the
// search (plan_search.hpp) on the targets' KPIs and the objective's.
//
// The objective: "cost" (cost_usd, on a priced scenario), "gpus" (gpu_hours_provisioned:
// GPU-hours of Ready capacity) or "power" (peak_power_kw, once runs report it); by default
// cost when the scenario is priced, else gpus.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "gpuplan/studies/plan_search.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace gpuplan {

/// What the planner is asked.
struct PlanQuestion {
    std::vector<PlanTarget> targets;        ///< all must hold
    std::vector<PlanDimension> dimensions;  ///< what may change
    std::string objective;  ///< "cost", "gpus", "power"; empty: cost when priced, else gpus
    int replications = 5;   ///< the most per candidate (at least 2)
};

class PlanStudy {
public:
    /// Checks the question against the scenario before the search runs, throwing InputError:
    /// at least one target and one dimension, each pointer naming a value the scenario sets
    /// (an integer for a range, a string for a choice; not the seed nor what sets the
    /// measurement) and no pointer twice or inside another, the top candidate of every
    /// combination of choices and the bottom of the ranges valid scenarios, a named team the
    /// scenario, its job sources or its traces have, KPIs and an objective the runs report (a
    /// short run of the top candidate names them; cost needs prices), and the search's runs
    /// within the budget (its estimate named).
    PlanStudy(std::string scenarioText, std::filesystem::path scenarioFile, PlanQuestion question,
              const Catalog& catalog, LoadOptions loadOptions);

    const PlanQuestion& question() const { return m_question; }
    const std::filesystem::path& scenarioFile() const { return m_scenarioFile; }
    /// The scenario as it stands (without the question's values).
    const Scenario& scenario() const { return m_scenario; }
    /// "cost", "gpus" or "power", and the KPI it reads.
    const std::string& objectiveName() const { return m_objectiveName; }
    const std::string& objectiveKpi() const { return m_objectiveKpi; }
    /// The units the runs report the targets' KPIs and the objective in ("s", "usd", …).
    const std::string& targetUnit(std::size_t target) const { return m_targetUnits[target]; }
    const std::string& objectiveUnit() const { return m_objectiveUnit; }

    /// A dimension's value at `index` as JSON text: 12, or "dgx-h100" with its quotes.
    std::string valueJson(std::size_t dimension, long long index) const;
    /// The scenario's own value of each dimension, for a person (12, dgx-h100): what the plan
    /// changes, whether or not the range holds it.
    const std::vector<std::string>& currentValues() const { return m_current; }
    /// The scenario's own values as a candidate, when every dimension allows its value.
    std::optional<PlanCandidate> baseline() const;
    /// The scenario with the candidate's values set, read and checked.
    Scenario scenarioAt(const PlanCandidate& candidate) const;

    /// One run's evaluation of `scenario` (the candidate's) on replication `replication`'s
    /// seed: its targets' KPIs and objective (NaN where the run measured none). nullopt when
    /// stopped.
    std::optional<PlanEvaluation> evaluate(const Scenario& scenario, int replication,
                                           std::stop_token stop = {}) const;

    /// The search's options: replications from 2 to question().replications, in batches of
    /// the threads, capped at the bound its budget was checked for.
    PlanSearchOptions searchOptions(int threads) const;
    /// The runs the search makes at most, and the estimated cost of them all (each run at
    /// its costliest candidate's), with `threads` runs at once in memory.
    std::size_t runBound() const;
    RunCost searchCost(int threads) const { return costOfRuns(runBound(), threads); }
    /// `runs` runs at the costliest candidate's estimate, `threads` at once in memory (0: as
    /// many as the machine has cores; never more than the replications).
    RunCost costOfRuns(std::size_t runs, int threads) const;

private:
    /// The teams the question may name, and the KPIs a run reports (a short run of `top`):
    /// a target or objective no run can report is refused here, before the search.
    void readWhatRunsReport(const Scenario& top);
    /// A node type to choose whose GPUs hold less memory than a job asks is refused.
    void checkNodeTypeChoices(const Catalog& catalog) const;

    std::string m_scenarioText;
    std::filesystem::path m_scenarioFile;
    PlanQuestion m_question;
    const Catalog* m_catalog;
    LoadOptions m_load;
    Scenario m_scenario;
    std::string m_objectiveName, m_objectiveKpi;
    std::vector<std::string> m_teams;  ///< the scenario's, its job sources' and traces' teams
    std::vector<std::string> m_targetUnits;
    std::string m_objectiveUnit;
    PlanCandidate m_baseline;
    std::vector<std::string> m_current;
    RunCost m_costliestRun;  ///< of the top candidates
};

/// Why a node group of type `nodeTypeNow` may not become `nodeType` in a plan: a job (class)
/// it could run that fits the type now but not the new one's GPU memory, which would fail it
/// ("job class pretrain asks 72 GB per GPU, and dgx-a100's GPUs hold 40 GB"); empty when none.
std::string jobsFailingOn(const Scenario& scenario, const Catalog& catalog,
                          const std::string& nodeTypeNow, const std::string& nodeType);

/// Each dimension's value in `scenarioJson` for a person (12, dgx-h100), as
/// PlanStudy::currentValues reads them; empty where the place is gone or holds another kind
/// (an edit since: a plan found for the scenario as it was must not land elsewhere).
std::vector<std::string> planValuesIn(std::string_view scenarioJson,
                                      const std::vector<PlanDimension>& dimensions);

/// Runs the search on `threads` threads (0: every core); what comes out does not depend on
/// them. `progress` gets a fraction of the bound on runs (it may finish early).
PlanSearchResult runPlanStudy(const PlanStudy& study, int threads, const ProgressFn& progress = {},
                              std::stop_token stop = {});

/// A shard of every run the search could ask for (planGridSize × replications, numbered
/// candidate × replications + replication; the shard takes run % N == K − 1), for a Slurm
/// array or an Indexed Job; merged, the tables let the search run without simulating.
/// Empty when stopped.
PlanRunTable runPlanShard(const PlanStudy& study, Shard shard, int threads,
                          const ProgressFn& progress = {}, std::stop_token stop = {});
/// The runs a shard of this study holds.
std::size_t planShardRunCount(const PlanStudy& study, Shard shard);

}  // namespace gpuplan
