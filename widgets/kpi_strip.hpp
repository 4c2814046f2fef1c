// A row of the KPIs a meeting looks at first, each with its delta against the pinned
// baseline: "allocation 71.2 % (+4.3)"; for a priced fleet also what it cost, what its idle
// GPU-hours cost and the cost of a useful GPU-hour ("cost $76.7k (+$1.20k)"). Cells that do
// not fit the window's width go on in a second row.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "gpuplan/replications.hpp"
#include "gpuplan/results.hpp"

class QLabel;
class QVBoxLayout;

namespace gpuplan::ui {

class KpiStrip : public QWidget {
    Q_OBJECT
public:
    explicit KpiStrip(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline);
    /// The current run's replications (null: one run). Cells then read the mean ± the 95 %
    /// interval's half-width; with the baseline's replications on the same seeds, a delta is
    /// the paired difference, coloured only when significant.
    void setReplications(std::shared_ptr<const Replications> replications,
                         std::shared_ptr<const Replications> baseline);
    /// The text of one KPI cell as shown ("allocation 71.2 % (+4.3)"), empty when the cell is
    /// hidden (costs of an unpriced run), for tests.
    QString text(const std::string& kpi) const;

    /// The row each cell is shown in (0 = the first), for tests.
    const std::vector<int>& cellRows() const { return m_rowOf; }

protected:
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void refresh();
    void flow();
    static constexpr int kCellSpacingPx = 18;

    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const Replications> m_replications, m_baselineReplications;
    std::vector<std::pair<std::string, QLabel*>> m_cells;
    std::vector<int> m_rowOf;  // as laid out now
    QVBoxLayout* m_rows;
};

}  // namespace gpuplan::ui
