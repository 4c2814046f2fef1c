#include "forecast_dock.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <stdexcept>

#include "charts/forecast_chart.hpp"
#include "shell/dock_host.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

ForecastDock::ForecastDock(Session& session, DockHost& host)
    : QDockWidget(tr("Forecast"), host.dockWindow()), m_session(&session) {
    setObjectName(QStringLiteral("forecast"));
    auto* body = new QWidget(this);
    m_season = new QComboBox(body);
    m_season->addItem(tr("daily"), 86400.0);
    m_season->addItem(tr("weekly"), 604800.0);
    m_season->setToolTip(tr("The cycle the forecast repeats: weekly needs two weeks of history"));
    m_horizonDays = new QSpinBox(body);
    m_horizonDays->setRange(1, 366);
    m_horizonDays->setValue(7);
    m_horizonDays->setSuffix(tr(" days ahead"));
    auto price = [body](double value) {
        auto* box = new QDoubleSpinBox(body);
        box->setRange(0.01, 1000);
        box->setDecimals(2);
        box->setPrefix(QStringLiteral("$"));
        box->setSuffix(tr(" /GPU-h"));
        box->setValue(value);
        return box;
    };
    m_reservedUsd = price(1.85);
    m_onDemandUsd = price(2.99);
    m_summary = new QLabel(body);
    m_summary->setWordWrap(true);
    m_summary->setToolTip(tr(
        "<p>The overflow model: reserved capacity takes every job that fits in it, the rest "
        "run on demand until they end, even when reserved GPUs free up meanwhile. For "
        "Poisson arrivals the reservation then turns away Erlang's B share of the jobs, and "
        "on demand carries the load times that share; jobs of several sizes are counted in "
        "servers of their peakedness (Hayward's approximation). The buying mix's simulated "
        "cost curve, which also pays for provisioning delays and idle time, checks it "
        "(gpuplan-cli forecast --simulate).</p><p>The fluid approximation c_r·R + c_od·E[(D − R)+] "
        "(the newsvendor's) lets jobs move onto freed reserved GPUs: it expects too little on "
        "demand, and reserves too little where reserving is cheap, too much where it is "
        "dear.</p>"));
    m_chart = new ui::ForecastChart(body);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Season"), body));
    row->addWidget(m_season);
    row->addWidget(m_horizonDays);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Reserved"), body));
    row->addWidget(m_reservedUsd);
    row->addWidget(new QLabel(tr("On demand"), body));
    row->addWidget(m_onDemandUsd);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(body);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addWidget(m_chart, 1);
    setWidget(body);
    host.addBottomTab(this, [] { return 360; });

    connect(&session, &Session::resultsApplied, this, [this] {
        followPricing();
        update();
    });
    connect(m_season, &QComboBox::currentIndexChanged, this, &ForecastDock::update);
    connect(m_horizonDays, &QSpinBox::valueChanged, this, &ForecastDock::update);
    connect(m_reservedUsd, &QDoubleSpinBox::valueChanged, this, &ForecastDock::update);
    connect(m_onDemandUsd, &QDoubleSpinBox::valueChanged, this, &ForecastDock::update);
    followPricing();
    update();
}

QString ForecastDock::summary() const {
    return m_summary->text();
}

void ForecastDock::followPricing() {
    const Scenario& s = m_session->document()->scenario();
    if (!s.pricing || s.gpuModels.empty()) return;
    const GpuPriceDef* p = s.pricing->find(s.gpuModels.front().id);
    if (!p || !p->of(BuyingClass::Reserved) || !p->of(BuyingClass::OnDemand)) return;
    const QSignalBlocker a(m_reservedUsd), b(m_onDemandUsd);  // one update, by the caller
    m_reservedUsd->setValue(*p->of(BuyingClass::Reserved));
    m_onDemandUsd->setValue(*p->of(BuyingClass::OnDemand));
}

void ForecastDock::update() {
    const auto results = m_session->results();
    if (!results) {
        m_chart->setMessage(tr("No results yet."));
        m_summary->clear();
        return;
    }
    const DemandHistory history = demandHistory(*results);
    DemandForecastOptions options;
    options.seasonS = m_season->currentData().toDouble();
    options.horizonS = m_horizonDays->value() * 86400.0;
    DemandForecast forecast;
    try {
        forecast = forecastDemand(history, options);
    } catch (const std::invalid_argument& e) {
        m_chart->setMessage(tr("The run is too short to forecast from: %1. Lengthen the horizon "
                               "(Scheduler and run) or forecast a daily season.")
                                .arg(QString::fromUtf8(e.what())));
        m_summary->clear();
        return;
    }
    const ReservationAdvice advice =
        reservationFor(forecast, m_reservedUsd->value(), m_onDemandUsd->value());
    m_chart->setForecast(history, forecast, advice);
    m_summary->setText(
        tr("Trend %1 GPUs a day; hours scatter ±%2 GPUs around the fit. Reserve <b>%3 GPUs</b>, "
           "expected $%4 an hour by the overflow model: a job that finds the reservation full "
           "runs on demand and stays there, so each forecast hour is an Erlang loss system "
           "(jobs of %5 GPUs at a time). The fluid approximation — reserve while demand is "
           "above the level in more than %6 % of the hours ($%7 ÷ $%8) — says %9 GPUs and "
           "expects %10 % less than that level costs.")
            .arg(forecast.trendGpusPerDay, 0, 'f', 1)
            .arg(forecast.residualSdGpus, 0, 'f', 0)
            .arg(advice.reservedGpus, 0, 'f', 0)
            .arg(advice.expectedUsdPerHour, 0, 'f', 0)
            .arg(advice.serverGpus, 0, 'f', 1)
            .arg(advice.criticalRatio * 100, 0, 'f', 0)
            .arg(m_reservedUsd->value(), 0, 'f', 2)
            .arg(m_onDemandUsd->value(), 0, 'f', 2)
            .arg(advice.fluid.reservedGpus, 0, 'f', 0)
            .arg(advice.fluid.biasFraction() * 100, 0, 'f', 1));
}

}  // namespace gpuplan::app
