// The workload panel: the demand multiplier on top, then tabs for teams, job classes and
// explicit jobs, edited in place. Every change is one validated, undoable document edit; a
// refused one changes nothing and its reason shows under the multiplier.
#pragma once

#include <QDoubleSpinBox>
#include <QWidget>

#include <memory>

#include "gpuplan/results/results.hpp"
#include "shell/scenario_document.hpp"
#include "workload_edits.hpp"

class QAbstractItemModel;
class QLabel;
class QTabWidget;
class QTableView;

namespace gpuplan::ui {
class TeamTableModel;
class JobClassTableModel;
class ExplicitJobTableModel;
class PodRequestModel;
}  // namespace gpuplan::ui

namespace gpuplan::app {

/// "Demand × 1.3": follows the document and edits it (one undo step per committed value).
/// It shows the scenario's value exactly up to kDecimals decimals; a finer value is shown
/// rounded, stated exactly in the tooltip, and left alone until the user changes the box.
class DemandSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    static constexpr int kDecimals = 6;
    DemandSpinBox(ScenarioDocument* document, QWidget* parent = nullptr);

signals:
    void refused(const QString& reason);

protected:
    QString textFromValue(double value) const override;

private:
    void sync();
    ScenarioDocument* m_doc;
    double m_shown = 1;  ///< the value the box showed for the document's multiplier
};

class WorkloadPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    ui::TeamTableModel* teamModel() const { return m_teams; }
    ui::JobClassTableModel* classModel() const { return m_classes; }
    ui::ExplicitJobTableModel* jobModel() const { return m_jobs; }
    /// The traits of the class or job selected in the tables (follows the current row).
    ui::PodRequestModel* podRequestModel() const { return m_podRequest; }
    QTableView* jobView() const { return m_jobView; }
    DemandSpinBox* demandBox() const { return m_demand; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* classView() const { return m_classView; }
    /// The last refusal shown (empty after a successful edit).
    QString reason() const;

    /// Commits a workload edit; returns the refusal (shown in the panel) or "".
    QString commit(const WorkloadEdit& edit);
    /// The latest run: the class table's Young / Daly column reads its checkpoint advice.
    void setResults(std::shared_ptr<const Results> results);

signals:
    void message(const QString& text);

private:
    void refresh();
    void showReason(const QString& reason);
    QTableView* makeView(QAbstractItemModel* model);
    int currentRow(QTableView* view);
    /// Points the pod request editor at the current tab's current row.
    void followSelection();

    ScenarioDocument* m_doc;
    ui::TeamTableModel* m_teams;
    ui::JobClassTableModel* m_classes;
    ui::ExplicitJobTableModel* m_jobs;
    DemandSpinBox* m_demand;
    QLabel* m_reason;
    QTabWidget* m_tabs;
    QTableView *m_teamView, *m_classView, *m_jobView;
    ui::PodRequestModel* m_podRequest;
    QLabel* m_podRequestTitle;
    QTableView* m_podRequestView;
};

}  // namespace gpuplan::app
