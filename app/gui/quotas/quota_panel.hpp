// The Quotas panel: the quota table (teams × GPU models: nominal quota, borrowing
// and lending limits, fair-share weight, reclaim policy, live usage bars and wait p95), per
// cohort a fair-sharing switch, and the fair-share tuning loop: for the selected team a
// weight slider and a nominal-quota slider. Every change is one ScenarioDocument::edit named
// for what it does; the steps of one slider drag share a merge key, so a drag is one undo
// step, and the simulation controller re-simulates (debounced, latest wins) as it goes.
// A refused value shows its reason under the table and, through message(), in the status bar.
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>

#include "gpuplan/results/results.hpp"
#include "quota_edits.hpp"
#include "shell/scenario_document.hpp"
#include "tables/quota_table_model.hpp"

class QCheckBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSlider;
class QTableView;

namespace gpuplan::app {

class QuotaPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuotaPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const Results> results);
    void setTime(double timeS);

    ui::QuotaTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }
    /// Weight × kWeightSteps (0 … 10 by 0.1 at first; the range grows to hold the weight).
    QSlider* weightSlider() const { return m_weight; }
    /// GPU-equivalents of the selected row's GPU model, 0 … the fleet's GPUs of it.
    QSlider* nominalSlider() const { return m_nominal; }
    /// The cohort's fair-sharing switch, or nullptr.
    QCheckBox* fairSharingBox(const QString& cohort) const;
    /// The per-team readout under the sliders (wait p95 and mean used GPUs per team).
    QLabel* readout() const { return m_readout; }
    /// The refusal shown under the table (empty when the last change went through).
    QString refusal() const;
    /// Selects the row of (team, GPU model); "" = the team's first row.
    void selectRow(const std::string& team, const std::string& gpuModel = {});
    /// The row the tuning sliders act on.
    ui::QuotaTableModel::RowKey selected() const { return m_selected; }

    /// Commits an edit (refused ones are shown); returns the refusal or "".
    QString commit(const QuotaEdit& edit, int mergeKey = ScenarioDocument::kNoMerge);

    static constexpr int kWeightSteps = 10;

signals:
    void message(const QString& text);

private:
    QString editCell(const ui::QuotaTableModel::RowKey& row, int column, const QVariant& value);
    void syncFromDocument();
    void syncCohorts();
    void syncTuning();
    void updateReadout();
    void showReason(const QString& reason);
    int fleetGpusOf(const std::string& gpuModel) const;
    /// The slider's merge key: one per control and team, so one drag is one undo step and a
    /// drag of another team's slider is another.
    static int mergeKey(const char* control, const ui::QuotaTableModel::RowKey& row);

    ScenarioDocument* m_doc;
    std::shared_ptr<const Results> m_results;
    ui::QuotaTableModel* m_model;
    QTableView* m_view;
    QPushButton *m_add, *m_remove;
    QHBoxLayout* m_cohortRow;
    QList<QPointer<QCheckBox>> m_cohortBoxes;
    QGroupBox* m_tuning;
    QSlider *m_weight, *m_nominal;
    QLabel *m_weightValue, *m_nominalValue, *m_nominalLabel, *m_readout, *m_refusal;
    ui::QuotaTableModel::RowKey m_selected;
};

}  // namespace gpuplan::app
