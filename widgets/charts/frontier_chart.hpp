// The planner's frontier: each candidate nothing beats drawn at its objective (x: cost,
// GPU-hours) against the binding target's mean (y: the target closest to its bound), the
// target's bound a dashed line, candidates that meet every target green and the others grey,
// the chosen plan ringed and the scenario as it stood marked red. It answers "what would one
// rack less buy us?" at a glance.
#pragma once

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace gpuplan::ui {

class FrontierChart : public QWidget {
    Q_OBJECT
public:
    struct Point {
        double objective = 0;  ///< in the objective's unit (usd, gpu_h, kW)
        double target = 0;     ///< the binding target's mean, in its unit
        bool met = false;      ///< every target met
        QString label;         ///< the candidate in words, for its tooltip
    };
    struct Axis {
        QString title;  ///< "cost", "wait p95"
        QString unit;   ///< the KPI's unit: "usd", "gpu_h", "s", "fraction", …
    };

    explicit FrontierChart(QWidget* parent = nullptr);

    /// Draws `points`; `chosen` and `now` index them (the plan, the scenario as it stood).
    void setFrontier(const Axis& objective, const Axis& target, double targetBound,
                     std::vector<Point> points, std::optional<int> chosen, std::optional<int> now);
    /// No frontier: `text` in the plot's place.
    void setMessage(const QString& text);

    // For checks.
    int pointCount() const { return static_cast<int>(m_points.size()); }
    std::optional<int> chosen() const { return m_chosen; }
    QString caption() const;

private:
    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QScatterSeries* m_met;
    QScatterSeries* m_missed;
    QScatterSeries* m_chosenMark;
    QScatterSeries* m_nowMark;
    QLineSeries* m_bound;
    QLabel* m_caption;
    QLabel* m_message;
    std::vector<Point> m_points;
    std::optional<int> m_chosen;
};

}  // namespace gpuplan::ui
