// The cost-versus-reserved curve of the buying-mix tab: a sweep's total cost per
// reserved level (sweepReservedLevels), the optimum marked with a point and its label, the
// current choice a dashed vertical line. Clicking a level's point asks for that level
// (levelClicked); the panel makes the edit. While a sweep runs, a progress bar shows once it
// has taken more than kBusyShowMs; without a curve, a message takes the plot's place.
#pragma once

#include <QWidget>
#include <optional>

#include "gpuplan/economics/buying_mix_sweep.hpp"

class QChart;
class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QProgressBar;
class QScatterSeries;
class QTimer;
class QValueAxis;

namespace gpuplan::ui {

class MixCurveChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kBusyShowMs = 500;

    explicit MixCurveChart(QWidget* parent = nullptr);

    /// Draws a finished sweep (and drops any message).
    void setSweep(const MixSweep& sweep);
    /// The current choice: reserved nodes of the scenario (its mix's, or its groups').
    void setCurrent(int reservedNodes, std::optional<double> lastRunCostUsd);
    /// No curve: `text` in the plot's place ("No prices: …").
    void setMessage(const QString& text);
    /// A sweep runs (progress shown after kBusyShowMs) or has ended.
    void setBusy(bool busy);
    /// How long a sweep runs before its progress shows (kBusyShowMs unless set).
    void setBusyShowMs(int ms);
    void setProgress(double fraction);

    /// As a click on level `index`'s point does: emits levelClicked.
    void clickLevel(int index);
    /// Where level `index`'s point is drawn, in the chart view's viewport (for real clicks).
    QPoint levelPosition(int index) const;
    QWidget* viewport() const;

    // For checks.
    int levelCount() const;
    const std::optional<MixSweep>& sweep() const { return m_sweep; }
    /// "optimum: 10 nodes, $48,210" as drawn beside the point, or empty.
    QString optimumLabel() const;
    /// The reserved nodes the dashed line stands at, or −1 when not drawn.
    int currentLineAt() const;
    QString caption() const;
    QString message() const;
    bool progressShown() const;

signals:
    void levelClicked(int index);

private:
    void redraw();
    void updateCaption();
    void placeOptimumLabel();

    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_line;
    QScatterSeries* m_points;
    QScatterSeries* m_optimum;
    QGraphicsSimpleTextItem* m_optimumLabel;
    QLineSeries* m_current;
    QLabel* m_caption;
    QLabel* m_message;
    QProgressBar* m_progress;
    QTimer* m_busyTimer;
    std::optional<MixSweep> m_sweep;
    int m_currentReserved = -1;
    std::optional<double> m_currentCostUsd;
};

}  // namespace gpuplan::ui
