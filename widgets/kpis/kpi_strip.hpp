// A row of the KPIs a meeting looks at first, each with its delta against the pinned
// baseline: "allocation 71.2 % (+4.3 pp)"; for a priced fleet also what it cost, what its idle
// GPU-hours cost (each over the span it counts: "cost $76.7k over 7.0 d (+$1.20k)") and the
// cost of a useful GPU-hour. Cells that do not fit the window's width go on in further rows,
// each whole; when even two rows cannot hold them, every cell shortens to its value and delta
// (the interval's half-width, "not significant" and a delta that reads zero stay in its
// tooltip). The strip asks no
// minimum width of its own, so it never widens a window. Each cell's tooltip gives its full
// reading and what the KPI measures, wrapped at a readable width.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"

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
    /// The full reading of one KPI cell ("allocation 71.2 % ± 0.8 % (+4.3 pp, not
    /// significant)"), shown in the cell or, when the strip is short of room, its tooltip;
    /// empty when the cell is hidden (costs of an unpriced run). For tests.
    QString text(const std::string& kpi) const;

    /// The row each cell is shown in (0 = the first), for tests.
    const std::vector<int>& cellRows() const { return m_rowOf; }
    /// Whether the cells are shortened to value and delta (two rows could not hold them whole).
    bool isCompact() const { return m_compact; }

    /// No minimum width: the cells flow into as many rows as the width given needs.
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct Cell {
        std::string kpi;
        QLabel* label = nullptr;
        QString full, compact;  ///< rich text: the whole reading, and value and delta only
        int fullWidthPx = 0, compactWidthPx = 0;
    };
    void refresh();
    void flow();
    /// The row of each cell at these widths in `room` px; the rows used.
    int layRows(bool compact, int room, std::vector<int>& rowOf) const;
    static constexpr int kCellSpacingPx = 18;
    static constexpr int kCompactSpacingPx = 12;
    static constexpr int kMaxWholeRows = 2;  ///< more rows than this: the cells shorten

    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const Replications> m_replications, m_baselineReplications;
    std::vector<Cell> m_cells;
    std::vector<int> m_rowOf;  // as laid out now
    bool m_compact = false;
    QVBoxLayout* m_rows;
};

}  // namespace gpuplan::ui
