#include "study_chart.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "axis_scale.hpp"
#include "format/kpi_format.hpp"

namespace gpuplan::ui {

StudyChart::StudyChart(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this)) {
    m_layout->setContentsMargins(0, 0, 0, 0);
    clear();
}

void StudyChart::removeAll() {
    while (QLayoutItem* item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void StudyChart::clear() {
    removeAll();
    m_curves.clear();
    auto* empty = new QLabel(tr("Pick a parameter and its values, then Run: each KPI is drawn "
                                "against it with its 95 % interval."),
                             this);
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    m_layout->addWidget(empty);
}

void StudyChart::setCurves(const QString& parameter, const std::vector<double>& x,
                           const QStringList& xLabels, std::vector<Curve> curves) {
    removeAll();
    m_curves = std::move(curves);
    m_x = x;
    const auto [xMin, xMax] = std::minmax_element(x.begin(), x.end());
    const double pad = x.size() > 1 ? (*xMax - *xMin) * 0.05 : 0.5;
    for (const Curve& c : m_curves) {
        double largest = 0;
        for (double v : c.high)
            if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
        for (double v : c.mean)
            if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
        const AxisScale scale = axisScaleFor(c.unit, largest);
        auto* chart = new QChart;
        chart->setTitle(kpiLabel(c.kpi.toStdString()));
        chart->legend()->hide();
        chart->setMargins(QMargins(4, 2, 4, 2));
        auto* mean = new QLineSeries;
        auto* points = new QScatterSeries;
        points->setMarkerSize(9);
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        double yMin = std::numeric_limits<double>::infinity(), yMax = -yMin;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (!std::isfinite(c.mean[i])) continue;
            const double m = c.mean[i] * scale.factor;
            // One run per point has no interval: the band closes on the mean there.
            const double lo = std::isfinite(c.low[i]) ? c.low[i] * scale.factor : m;
            const double hi = std::isfinite(c.high[i]) ? c.high[i] * scale.factor : m;
            mean->append(x[i], m);
            points->append(x[i], m);
            upper->append(x[i], hi);
            lower->append(x[i], lo);
            yMin = std::min(yMin, lo);
            yMax = std::max(yMax, hi);
        }
        auto* band = new QAreaSeries(upper, lower);
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
        chart->addSeries(band);
        chart->addSeries(mean);
        chart->addSeries(points);
        QAbstractAxis* xAxis = nullptr;
        if (xLabels.isEmpty()) {
            auto* axis = new QValueAxis;
            axis->setRange(*xMin - pad, *xMax + pad);
            axis->applyNiceNumbers();
            axis->setTitleText(parameter);
            xAxis = axis;
        } else {
            auto* axis = new QCategoryAxis;
            axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            for (int i = 0; i < xLabels.size(); ++i)
                axis->append(xLabels[i], i);
            axis->setRange(-0.5, xLabels.size() - 0.5);
            axis->setTitleText(parameter);
            xAxis = axis;
        }
        auto* yAxis = new QValueAxis;
        if (std::isfinite(yMin)) {
            const double room =
                yMax > yMin ? (yMax - yMin) * 0.1 : std::max(1.0, std::abs(yMax) * 0.1);
            // A KPI that is never negative (waits, shares, counts, dollars) keeps its axis at
            // 0 and up; a t interval over few runs may reach below it.
            const bool nonNegative =
                std::all_of(c.mean.begin(), c.mean.end(), [](double v) { return !(v < 0); });
            // A share never passes 100 % either.
            const double top =
                c.unit == QLatin1String("fraction") ? std::min(yMax + room, 100.0) : yMax + room;
            yAxis->setRange(nonNegative ? std::max(0.0, yMin - room) : yMin - room, top);
            yAxis->applyNiceNumbers();
        }
        yAxis->setTitleText(scale.title);
        chart->addAxis(xAxis, Qt::AlignBottom);
        chart->addAxis(yAxis, Qt::AlignLeft);
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(xAxis);
            s->attachAxis(yAxis);
        }
        connect(points, &QScatterSeries::clicked, this, [this](const QPointF& p) {
            // The point nearest the click's x.
            int best = 0;
            for (int i = 1; i < static_cast<int>(m_x.size()); ++i)
                if (std::abs(m_x[i] - p.x()) < std::abs(m_x[best] - p.x())) best = i;
            emit pointClicked(best);
        });
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(160);
        view->setToolTip(
            tr("The mean of the replications at each value, the band its 95 % "
               "interval. Click a point to make the scenario that value."));
        m_layout->addWidget(view);
    }
}

}  // namespace gpuplan::ui
