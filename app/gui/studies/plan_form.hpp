// The Plan tab's question: the targets (a row per KPI, the fleet's and each team's, pre-filled
// with the values on screen and editable in minutes or percent), what may change (racks of a
// pod, a node group's count or node type, the reserved level, a team's quota: each a JSON
// pointer and a range or choices, as `gpuplan-cli plan --vary` takes them), the objective,
// the demand assumed and the replications. It builds the texts the engine parses (the one
// parser: parsePlanTarget, parsePlanDimension), so the tab and the command line agree.
#pragma once

#include <QStringList>
#include <QWidget>
#include <variant>

#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/plan_study.hpp"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTableWidget;

namespace gpuplan::app {

class PlanForm : public QWidget {
    Q_OBJECT
public:
    explicit PlanForm(QWidget* parent = nullptr);

    /// The rows for `scenario`, the targets' bounds from `results` (the run on screen; null:
    /// placeholders). Keeps what the user checked and typed where the same rows remain.
    void fill(const Scenario& scenario, const Catalog& catalog, const Results* results);

    /// The question as the form says it, or what is wrong ("target wait p95: …").
    std::variant<PlanQuestion, QString> question() const;
    /// The demand multiplier the question assumes (1: as the scenario has it).
    double demandFactor() const;

    QTableWidget* targetTable() const { return m_targets; }
    QTableWidget* changeTable() const { return m_changes; }
    QComboBox* objectiveBox() const { return m_objective; }
    QSpinBox* replicationsBox() const { return m_replications; }
    QDoubleSpinBox* demandBox() const { return m_demand; }

    /// Sets a target row's bound text and checks it (for tests and prefilled questions):
    /// `kpi` of the fleet, or of `team`.
    bool setTarget(const QString& kpi, const QString& team, const QString& boundText,
                   bool checked = true);
    /// Checks the change row whose pointer is `pointer`, with `range` ("4..12", "a|b").
    bool setChange(const QString& pointer, const QString& range, bool checked = true);

private:
    QTableWidget* m_targets;
    QTableWidget* m_changes;
    QComboBox* m_objective;
    QSpinBox* m_replications;
    QDoubleSpinBox* m_demand;
};

}  // namespace gpuplan::app
