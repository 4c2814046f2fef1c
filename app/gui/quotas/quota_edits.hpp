// Quota edits as pure functions: the scenario before and what the user asked for in,
// the scenario after and the undo step's name out. Values are applied as given: the range
// rules (nominal ≥ 0, lending ≤ nominal, limits need a cohort) are the validator's, so the
// quota panel commits the result through ScenarioDocument::edit and a value the engine would
// refuse comes back with the validator's own reason. A refusal here is only for what cannot
// be expressed at all (a team or GPU model the scenario does not have).
#pragma once

#include <QString>
#include <optional>
#include <string>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

struct QuotaEdit {
    Scenario after;
    QString text;     ///< the undo step's name: "Set applied's nominal H100 quota to 80"
    QString refusal;  ///< non-empty: refused, `after` is meaningless
};

QuotaEdit setNominalGpus(const Scenario& s, const std::string& team, const std::string& gpuModel,
                         double nominalGpus);
/// nullopt clears the limit (borrowing: as much as the cohort has unused).
QuotaEdit setBorrowingLimitGpus(const Scenario& s, const std::string& team,
                                const std::string& gpuModel, std::optional<double> limitGpus);
/// nullopt clears the limit (lending: all of its unused nominal quota).
QuotaEdit setLendingLimitGpus(const Scenario& s, const std::string& team,
                              const std::string& gpuModel, std::optional<double> limitGpus);
/// "" takes the team out of any cohort (it then neither lends nor borrows).
QuotaEdit setQuotaCohort(const Scenario& s, const std::string& team, const std::string& cohort);
QuotaEdit setFairShareWeight(const Scenario& s, const std::string& team, double weight);
QuotaEdit setReclaimWithinCohort(const Scenario& s, const std::string& team, ReclaimPolicy policy);
QuotaEdit setCohortFairSharing(const Scenario& s, const std::string& cohort, bool on);

/// A team without a quota gets one: nominal 0 on the fleet's first GPU model, in the first
/// cohort if there is one. A team with a quota gets the next GPU model of the fleet it has no
/// quota for (refused when it has one for every model).
QuotaEdit addQuota(const Scenario& s, const std::string& team);
/// Removes the team's quota for that GPU model; without a model left the team has no quota
/// (it is no longer managed: admitted wherever its jobs fit).
QuotaEdit removeQuota(const Scenario& s, const std::string& team, const std::string& gpuModel);

/// A limit cell as typed: "" or "none" clears it (nullopt inside), a GPU count ("32",
/// "32 GPUs") sets it; the
/// outer nullopt with `error` set when it is neither.
std::optional<std::optional<double>> parseLimitGpus(const QString& text, QString* error);

}  // namespace gpuplan::app
