#include "forecast_chart.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace gpuplan::ui {

namespace {

constexpr double kDayS = 86400;

}  // namespace

ForecastChart::ForecastChart(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this)) {
    m_layout->setContentsMargins(0, 0, 0, 0);
    setMessage(tr("No results yet."));
}

void ForecastChart::replace(QWidget* content) {
    while (QLayoutItem* item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_message = nullptr;
    m_layout->addWidget(content);
}

void ForecastChart::setMessage(const QString& text) {
    auto* label = new QLabel(text, this);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    replace(label);
    m_message = label;
    m_historyPoints = m_forecastPoints = 0;
    m_reservation = m_fluidLevel = false;
    m_seriesNames.clear();
}

QStringList ForecastChart::seriesNames() const {
    return m_seriesNames;
}

QString ForecastChart::shownMessage() const {
    return m_message ? m_message->text() : QString();
}

void ForecastChart::setForecast(const DemandHistory& history, const DemandForecast& forecast,
                                const std::optional<ReservationAdvice>& advice) {
    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    const QColor historyColor = palette().color(QPalette::WindowText);
    const QColor forecastColor(0xe1, 0x57, 0x59);

    auto* past = new QLineSeries;
    past->setName(tr("demand (allocated + pending GPUs)"));
    past->setPen(QPen(historyColor, 1.2));
    double yMax = 0;
    for (std::size_t h = 0; h < history.gpus.size(); ++h) {
        past->append((history.startS + h * history.stepS) / kDayS, history.gpus[h]);
        yMax = std::max(yMax, history.gpus[h]);
    }
    auto* mean = new QLineSeries;
    mean->setName(tr("forecast"));
    mean->setPen(QPen(forecastColor, 1.6));
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (std::size_t h = 0; h < forecast.meanGpus.size(); ++h) {
        const double x = (forecast.startS + h * forecast.stepS) / kDayS;
        mean->append(x, forecast.meanGpus[h]);
        upper->append(x, forecast.highGpus[h]);
        lower->append(x, std::max(0.0, forecast.lowGpus[h]));  // demand is never negative
        yMax = std::max(yMax, forecast.highGpus[h]);
    }
    auto* band = new QAreaSeries(upper, lower);
    band->setName(tr("%1 % band").arg(forecast.level * 100, 0, 'f', 0));
    QColor fill = forecastColor;
    fill.setAlpha(50);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    chart->addSeries(band);
    chart->addSeries(past);
    chart->addSeries(mean);
    const double endDay = (forecast.startS + forecast.meanGpus.size() * forecast.stepS) / kDayS;
    auto level = [&](const QString& name, double gpus, const QPen& pen) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(pen);
        line->append(history.startS / kDayS, gpus);
        line->append(endDay, gpus);
        chart->addSeries(line);
    };
    m_reservation = advice.has_value();
    // The fluid level only where it says something else (whole servers apart).
    m_fluidLevel = advice && advice->fluid.reservedGpus != advice->reservedGpus;
    if (advice)
        level(tr("reserve %1 GPUs (overflow model)").arg(advice->reservedGpus, 0, 'f', 0),
              advice->reservedGpus, QPen(QColor(0x4e, 0x79, 0xa7), 2, Qt::DashLine));
    if (m_fluidLevel)
        level(tr("fluid approximation: %1 GPUs").arg(advice->fluid.reservedGpus, 0, 'f', 0),
              advice->fluid.reservedGpus, QPen(QColor(0x79, 0x70, 0x6e), 1.4, Qt::DotLine));
    m_seriesNames.clear();
    for (const QAbstractSeries* s : chart->series())
        m_seriesNames << s->name();
    auto* xAxis = new QValueAxis;
    xAxis->setRange(history.startS / kDayS, endDay);
    xAxis->setTitleText(tr("day"));
    xAxis->setLabelFormat(QStringLiteral("%.0f"));
    // Whole days, or weeks over a longer span: ticks on the calendar, not at fifths.
    const double spanDays = endDay - history.startS / kDayS;
    xAxis->setTickType(QValueAxis::TicksDynamic);
    xAxis->setTickAnchor(0);
    xAxis->setTickInterval(spanDays <= 10 ? 1 : spanDays <= 60 ? 7 : 30);
    auto* yAxis = new QValueAxis;
    yAxis->setRange(0, std::max(1.0, yMax * 1.05));
    yAxis->applyNiceNumbers();
    yAxis->setTitleText(tr("GPUs"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
    }
    auto* view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    replace(view);
    m_historyPoints = static_cast<int>(history.gpus.size());
    m_forecastPoints = static_cast<int>(forecast.meanGpus.size());
}

}  // namespace gpuplan::ui
