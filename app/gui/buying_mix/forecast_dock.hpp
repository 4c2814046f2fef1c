// The "Forecast" tab (lesson 6.4): the results' demand as history, the forecast after it with
// its band, and the reservation the prices imply by the overflow model, with the fluid
// approximation's beside it and its bias (gpuplan/economics/demand_forecast.hpp). Prices come from
// the scenario's price book for its first GPU model; without one, the boxes set them.
#pragma once

#include <QDockWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace gpuplan::ui {
class ForecastChart;
}

namespace gpuplan::app {

class DockHost;
class Session;

class ForecastDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    ForecastDock(Session& session, DockHost& host);
    ui::ForecastChart* chart() const { return m_chart; }
    /// The text under the chart: trend, spread, the reservation and the fluid one's bias.
    QString summary() const;

private:
    /// Prices from the price book, when the scenario has one.
    void followPricing();
    void update();

    Session* m_session;
    QComboBox* m_season;
    QSpinBox* m_horizonDays;
    QDoubleSpinBox* m_reservedUsd;
    QDoubleSpinBox* m_onDemandUsd;
    QLabel* m_summary;
    ui::ForecastChart* m_chart;
};

}  // namespace gpuplan::app
