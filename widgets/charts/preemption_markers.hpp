// Preemptions marked on a chart of results over time: small bars along the bottom of
// the plot at the sample intervals in which jobs were preempted (the results' "preemptions"
// series, a count per interval), taller and more opaque the more there were; none when there
// were none or the run had preemption off. The chart owns the bars; this keeps them in step
// with the plot's size.
#pragma once

#include <QColor>
#include <QString>
#include <vector>

#include "gpuplan/results/results.hpp"

class QAbstractSeries;
class QChart;
class QGraphicsRectItem;

namespace gpuplan::ui {

class PreemptionMarkers {
public:
    explicit PreemptionMarkers(QChart* chart) : m_chart(chart) {}
    ~PreemptionMarkers();
    PreemptionMarkers(const PreemptionMarkers&) = delete;
    PreemptionMarkers& operator=(const PreemptionMarkers&) = delete;

    /// Redraws the bars for `results` (nullptr: none) on the plot as it is now, positions
    /// mapped through a series attached to the chart's axes whose x counts `secondsPerX`, in
    /// `color` (the owner gives its text colour: a neutral rug along the axis that no series
    /// colour — red p95, the workload layer — is mistaken for).
    void update(const Results* results, const QAbstractSeries* axisSeries, double secondsPerX,
                const QColor& color);
    /// Bars drawn now (one per pixel column with preemptions).
    int count() const { return static_cast<int>(m_bars.size()); }
    /// Preemptions the bars stand for in all.
    double total() const { return m_total; }

    /// "3 preemptions between d1 04:00 and d1 04:10": the sample interval holding timeS,
    /// when jobs were preempted in it; else empty. What hovering there says.
    static QString hoverLine(const Results& results, double timeS);

private:
    void clear();

    QChart* m_chart;
    std::vector<QGraphicsRectItem*> m_bars;
    double m_total = 0;
};

}  // namespace gpuplan::ui
