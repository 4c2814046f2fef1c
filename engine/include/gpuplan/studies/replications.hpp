// Replications: the same scenario run on N seeds derived from its own, each KPI
// reported as a mean with its confidence interval, each series as a band; and the paired
// comparison of two scenarios on the same seeds (common random numbers). Runs go in parallel;
// what comes out does not depend on the number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "gpuplan/core/statistics.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace gpuplan {

/// The seed of replication `index`: replication 0 runs the scenario's own seed (one
/// replication is the plain run), the others follow it through SplitMix64.
std::uint64_t replicationSeed(std::uint64_t scenarioSeed, int index);

/// One KPI over the replications.
struct KpiEstimate {
    std::string name;
    std::string unit;
    std::string description;
    std::vector<double> values;  ///< per replication; NaN where a run did not report it
    MeanInterval interval;       ///< over the finite values
};

/// One series over the replications, per sample: the mean and its confidence interval.
struct SeriesBand {
    std::string name;
    std::string unit;
    std::vector<double> mean, low, high;
};

struct ReplicationOptions {
    int replications = 1;
    int threads = 0;  ///< 0: as many as the machine has cores
    double confidence = 0.95;
    RunOptions run;  ///< its seed is ignored: each replication gets its own
};

/// A team's KPIs (Results::teamKpis) as named values, with the fleet-wide KPIs' names and
/// units where they mean the same for one team: wait_s_p50 and wait_s_p95 (s),
/// gpu_hours_allocated (gpu_h), jobs_completed and jobs_waiting_at_end (jobs),
/// allocation_share (fraction of the fleet's provisioned GPU-seconds) and, on a priced fleet,
/// cost_usd (its chargeback, usd). The one list a team's replications and tables use.
std::vector<Kpi> teamKpiList(const GroupKpis& team);

/// One team's KPIs over the replications.
struct TeamEstimates {
    std::string team;
    /// teamKpiList's. In a run the team submitted nothing in: 0 GPU-hours, jobs and share,
    /// and its waits NaN (not counted).
    std::vector<KpiEstimate> kpis;

    const KpiEstimate* findKpi(std::string_view name) const;
};

struct Replications {
    int count = 0;
    double confidence = 0.95;
    std::vector<std::uint64_t> seeds;
    std::vector<std::uint64_t> fingerprints;
    std::vector<KpiEstimate> kpis;     ///< in the first replication's order, then any others
    std::vector<TeamEstimates> teams;  ///< per team, in the order the runs name them
    std::vector<double> sampleTimesS;
    std::vector<SeriesBand> series;
    std::shared_ptr<const Results> first;  ///< replication 0 in full (what a window draws)
    bool stopped = false;                  ///< a stop request ended it; nothing is reported

    const KpiEstimate* findKpi(std::string_view name) const;
    const TeamEstimates* findTeam(std::string_view team) const;
};

/// Runs the replications. `progress` gets the fraction of runs done, from any of the worker
/// threads but one call at a time. Throws what simulate throws.
Replications runReplications(const Scenario& scenario, const ReplicationOptions& options,
                             const ProgressFn& progress = {}, std::stop_token stop = {});

/// The paired difference candidate − baseline of one KPI, run by run: only when both went over
/// the same seeds (else nullopt), and both report the KPI.
std::optional<MeanInterval> pairedDifference(const Replications& baseline,
                                             const Replications& candidate, std::string_view kpi);
/// The same for one team's KPI (teamKpiList): nullopt when either did not run the team.
std::optional<MeanInterval> pairedTeamDifference(const Replications& baseline,
                                                 const Replications& candidate,
                                                 std::string_view team, std::string_view kpi);

/// One KPI compared: `candidate` − `baseline`, replication by replication on the same seeds.
struct KpiDifference {
    std::string name;
    std::string unit;
    MeanInterval baseline, candidate;
    MeanInterval difference;
    /// The interval of the difference holds no 0: a real change at the confidence, not noise.
    bool significant() const { return difference.excludesZero(); }
};

struct PairedComparison {
    Replications baseline, candidate;
    std::vector<KpiDifference> kpis;  ///< the KPIs both report, in the baseline's order
};

/// Both scenarios on the baseline's replication seeds (common random numbers: the noise the
/// two share cancels in the difference).
PairedComparison comparePaired(const Scenario& baseline, const Scenario& candidate,
                               const ReplicationOptions& options, const ProgressFn& progress = {},
                               std::stop_token stop = {});

}  // namespace gpuplan
