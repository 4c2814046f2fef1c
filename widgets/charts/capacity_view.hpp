// The "Largest job" view: the largest placeable gang per level over time (a chart with the
// scrubber's cursor), the table of slots at the scrubber's t with one sentence that answers
// "why can't my job run?", and the defragmentation what-if (a policy, "Repack at t", and its
// before → after table with the restart cost). The view only shows; whoever owns it runs the
// repack (repackRequested → showDefrag), off the GUI thread.
#pragma once

#include <QWidget>
#include <memory>

#include "gpuplan/resources/placeable.hpp"
#include "gpuplan/results/results.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace gpuplan::ui {

class ChartPanel;
class PlaceableTableModel;

class CapacityView : public QWidget {
    Q_OBJECT
public:
    explicit CapacityView(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const Results> results);
    void setTime(double timeS);
    double time() const { return m_timeS; }
    std::shared_ptr<const Results> results() const { return m_results; }
    DefragPolicy policy() const;

    /// A repack's outcome for the results and time shown (ignored otherwise).
    void showDefrag(std::shared_ptr<const Results> results, const DefragWhatIf& whatIf);
    /// A repack that failed (the engine threw): its reason instead of a table.
    void showDefragError(const QString& message);
    /// While a repack runs the button cancels it and shows how far it got (0…1).
    void setRepackRunning(bool running, double fraction = 0);

    /// The table at t (computed now if the view was hidden when t or the results changed).
    const PlaceableSlots& table();
    QString sentence() const;
    QString defragSummary() const;
    PlaceableTableModel* tableModel() const { return m_model; }
    PlaceableTableModel* defragModel() const { return m_defragModel; }
    QPushButton* repackButton() const { return m_repack; }
    QComboBox* policyBox() const { return m_policy; }
    ChartPanel* chart() const { return m_chart; }

signals:
    void repackRequested(gpuplan::DefragPolicy policy, double timeS);
    void repackCancelled();
    void timeClicked(double timeS);

protected:
    void showEvent(QShowEvent* e) override;

private:
    void refresh();
    void clearDefrag(const QString& hint);

    ChartPanel* m_chart;
    QLabel* m_sentence;
    QTableView* m_tableView;
    PlaceableTableModel* m_model;
    QComboBox* m_policy;
    QPushButton* m_repack;
    QLabel* m_defragText;
    QTableView* m_defragView;
    PlaceableTableModel* m_defragModel;
    std::shared_ptr<const Results> m_results;
    PlaceableSlots m_table;
    double m_timeS = 0;
    bool m_stale = true;  ///< t or the results changed since the table was computed
    bool m_repackRunning = false;
};

}  // namespace gpuplan::ui
