// Workload edits as pure functions: the scenario before and what the user asked for in, the
// scenario after (or the reason it is refused) out. Nothing here touches the document; the
// workload panel commits the result through ScenarioDocument::edit, which validates it like
// a file and makes it one undo step. Cell values are text in the unit the table shows.
#pragma once

#include <QString>
#include <QVariant>

#include "gpuplan/model/scenario.hpp"
#include "tables/pod_request_model.hpp"

namespace gpuplan::app {

struct WorkloadEdit {
    Scenario after;
    QString text;     ///< the undo step's name
    QString refusal;  ///< non-empty: refused, `after` is meaningless
};

/// Columns as in ui::TeamTableModel, ui::JobClassTableModel and ui::ExplicitJobTableModel.
WorkloadEdit setTeamCell(const Scenario& s, int row, int column, const QVariant& value);
WorkloadEdit setClassCell(const Scenario& s, int row, int column, const QVariant& value);
WorkloadEdit setJobCell(const Scenario& s, int row, int column, const QVariant& value);
/// A row of the pod request editor (ui::PodRequestModel::Row) of a class or an explicit job.
WorkloadEdit setPodRequestValue(const Scenario& s, ui::PodRequestModel::Target target, int row,
                                const QVariant& value);

/// Renames a team and every class and explicit job that names it.
WorkloadEdit renameTeam(const Scenario& s, int team, const QString& name);
WorkloadEdit addTeam(const Scenario& s);
/// Refused while a class or job still runs for the team (it names them).
WorkloadEdit removeTeam(const Scenario& s, int team);

/// A new Poisson class of 1 job/h, one GPU for an hour, for the first team.
WorkloadEdit addJobClass(const Scenario& s);
WorkloadEdit duplicateJobClass(const Scenario& s, int row);
WorkloadEdit removeJobClass(const Scenario& s, int row);
WorkloadEdit removeJob(const Scenario& s, int row);

WorkloadEdit setDemandMultiplier(const Scenario& s, double multiplier);

}  // namespace gpuplan::app
