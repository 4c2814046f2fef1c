// The demand forecast (lesson 6.4): the run's demand per hour as history, the forecast after
// it with its prediction band, and the reserved level the prices imply across both — the
// overflow model's, and the fluid (newsvendor) approximation's, dotted, when it differs. Time
// on the x axis in days from the run's start.
#pragma once

#include <QStringList>
#include <QWidget>
#include <optional>

#include "gpuplan/economics/demand_forecast.hpp"

class QChartView;
class QLabel;
class QVBoxLayout;

namespace gpuplan::ui {

class ForecastChart : public QWidget {
    Q_OBJECT
public:
    explicit ForecastChart(QWidget* parent = nullptr);

    void setForecast(const DemandHistory& history, const DemandForecast& forecast,
                     const std::optional<ReservationAdvice>& advice);
    /// No forecast: `text` in the plot's place.
    void setMessage(const QString& text);

    // For checks.
    int historyPoints() const { return m_historyPoints; }
    int forecastPoints() const { return m_forecastPoints; }
    bool drawsReservation() const { return m_reservation; }
    bool drawsFluidLevel() const { return m_fluidLevel; }
    /// The legend's names, in drawing order.
    QStringList seriesNames() const;
    QString shownMessage() const;

private:
    void replace(QWidget* content);

    QVBoxLayout* m_layout;
    QLabel* m_message = nullptr;
    int m_historyPoints = 0, m_forecastPoints = 0;
    bool m_reservation = false;
    bool m_fluidLevel = false;
    QStringList m_seriesNames;
};

}  // namespace gpuplan::ui
