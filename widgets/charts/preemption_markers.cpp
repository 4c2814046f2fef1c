#include "preemption_markers.hpp"

#include <QChart>
#include <QCoreApplication>
#include <QGraphicsRectItem>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {

constexpr int kMinBarHeightPx = 3;
constexpr int kMaxBarHeightPx = 12;

const Series* preemptions(const Results& r) {
    return r.findSeries("preemptions");
}

/// "1 preemption", "12 preemptions".
QString countText(double n) {
    const int count = static_cast<int>(std::lround(n));
    return count == 1
               ? QCoreApplication::translate("PreemptionMarkers", "1 preemption")
               : QCoreApplication::translate("PreemptionMarkers", "%1 preemptions").arg(count);
}

}  // namespace

PreemptionMarkers::~PreemptionMarkers() {
    clear();
}

void PreemptionMarkers::clear() {
    // The bars are the chart's children: the owner destroys this before its chart.
    for (QGraphicsRectItem* bar : m_bars)
        delete bar;
    m_bars.clear();
    m_total = 0;
}

void PreemptionMarkers::update(const Results* results, const QAbstractSeries* axisSeries,
                               double secondsPerX, const QColor& color) {
    clear();
    const Series* s = results ? preemptions(*results) : nullptr;
    const QRectF plot = m_chart->plotArea();
    auto* series = const_cast<QAbstractSeries*>(axisSeries);  // mapToPosition is not const
    // While the owner rebuilds, the series is off the chart: nothing to map through yet.
    if (!s || !series || !m_chart->series().contains(series) || plot.width() < 2) return;
    // The count at sample k is of the interval that ends at k: binned by the pixel column of
    // its end, so a week of 10-minute samples on a few hundred pixels stays one bar a column.
    const int columns = static_cast<int>(std::ceil(plot.width()));
    std::vector<double> perColumn(static_cast<std::size_t>(columns), 0.0);
    const double intervalPx =
        results->horizonS > 0 ? results->sampleIntervalS / results->horizonS * plot.width() : 1;
    for (std::size_t k = 0; k < s->values.size() && k < results->sampleTimesS.size(); ++k) {
        const double n = s->values[k];
        if (!(n > 0)) continue;
        const double x =
            m_chart->mapToPosition(QPointF(results->sampleTimesS[k] / secondsPerX, 0), series).x();
        const int c = std::clamp(static_cast<int>(x - plot.left()), 0, columns - 1);
        perColumn[c] += n;
        m_total += n;
    }
    const double most = *std::max_element(perColumn.begin(), perColumn.end());
    if (most <= 0) return;
    // A bar spans its sample interval (at least 2 px, to be seen), ending at its column.
    const double widthPx = std::max(2.0, intervalPx);
    for (int c = 0; c < columns; ++c) {
        const double n = perColumn[c];
        if (n <= 0) continue;
        const double share = std::sqrt(n / most);  // a few stay visible beside many
        const double h = kMinBarHeightPx + share * (kMaxBarHeightPx - kMinBarHeightPx);
        const double right = plot.left() + c + 1;
        auto* bar =
            new QGraphicsRectItem(QRectF(std::max(plot.left(), right - widthPx), plot.bottom() - h,
                                         std::min(widthPx, right - plot.left()), h),
                                  m_chart);
        QColor fill = color;
        fill.setAlphaF(0.45 + 0.55 * share);
        bar->setBrush(fill);
        bar->setPen(Qt::NoPen);
        bar->setZValue(100);  // above the series and the grid
        m_bars.push_back(bar);
    }
}

QString PreemptionMarkers::hoverLine(const Results& results, double timeS) {
    const Series* s = preemptions(results);
    const std::vector<double>& times = results.sampleTimesS;
    if (!s || times.empty()) return {};
    // The interval holding t ends at the first sample at or after t.
    const auto it = std::lower_bound(times.begin(), times.end(), timeS);
    if (it == times.end()) return {};
    const std::size_t k = static_cast<std::size_t>(it - times.begin());
    const double n = k < s->values.size() ? s->values[k] : 0;
    if (!(n > 0)) return {};
    const double startS = k > 0 ? times[k - 1] : times[k];
    return QCoreApplication::translate("PreemptionMarkers", "%1 between %2 and %3")
        .arg(countText(n), formatSimTime(startS), formatSimTime(times[k]));
}

}  // namespace gpuplan::ui
