// The charts dock: utilization (allocation, occupancy, MFU), fragmentation, pending GPUs
// stacked by layer, queue wait p50/p95, running jobs and the cost rate stacked by buying
// class, all on one time axis with one cursor, and the pinned baseline dashed beside each. A click
// on any chart asks for its time.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "chart_panel.hpp"

namespace gpuplan::ui {

class ChartBoard : public QWidget {
    Q_OBJECT
public:
    explicit ChartBoard(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline, const QString& name = QString());
    void setCursorTime(double timeS);
    /// The runs behind the results (null: one run): line charts draw means with bands.
    void setReplications(std::shared_ptr<const Replications> replications);
    const std::vector<ChartPanel*>& charts() const { return m_charts; }
    ChartPanel* utilization() const { return m_charts[0]; }
    ChartPanel* pendingByLayer() const { return m_charts[1]; }
    ChartPanel* fragmentation() const { return m_charts[2]; }
    /// The cost rate chart (a placeholder for an unpriced run).
    ChartPanel* cost() const { return m_charts.back(); }
    /// Shows only chart `index` (the meeting layout's chart of choice), or every chart (-1).
    void setShownChart(int index);
    int shownChart() const { return m_shown; }
    /// Charts side by side: two where each gets kMinChartWidthPx, else one.
    int columns() const { return m_columns; }
    static constexpr int kMinChartWidthPx = 240;

signals:
    /// A chart was clicked at this simulated time (the main window moves the scrubber).
    void timeClicked(double timeS);

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    ChartPanel* costChart();
    void relayout();  ///< the grid for m_columns and m_shown
    // In this order: utilization, pending by layer, fragmentation, queue wait, jobs, cost.
    std::vector<ChartPanel*> m_charts;
    int m_shown = -1;
    int m_columns = 2;
};

}  // namespace gpuplan::ui
