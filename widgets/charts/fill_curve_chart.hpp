// Fill curves of the FGD study side by side: allocation (% of GPU capacity) against arrived
// GPU demand (% of capacity), the x axis of the paper's figures, one line per curve. Qt Charts
// stays behind this class, as behind ChartPanel.
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <vector>

class QChart;
class QChartView;
class QValueAxis;

namespace gpuplan::ui {

struct FillCurve {
    QString label;  ///< "FGD"
    QColor color;
    std::vector<QPointF> points;  ///< (arrived %, allocation %), by arrived %
};

class FillCurveChart : public QWidget {
    Q_OBJECT
public:
    explicit FillCurveChart(QWidget* parent = nullptr);

    /// Replaces every line; the x axis spans 0 … the largest arrived %, the y axis 0 … 100.
    void setCurves(const std::vector<FillCurve>& curves);
    /// Names of the lines drawn, in order, and points of one, for checks.
    QStringList seriesNames() const;
    int pointCount(int series) const;
    QImage toImage(QSize size) const;

private:
    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

/// The line colour of each policy of the study, in kFillPolicies order (Tableau 10): fixed,
/// so a policy keeps its colour whichever policies a study runs.
QColor fillPolicyColor(int policyIndex);

}  // namespace gpuplan::ui
