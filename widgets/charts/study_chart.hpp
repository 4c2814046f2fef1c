// A study's curves: for each chosen KPI, its mean over the replications at every
// value of the swept parameter, with the 95 % interval as a band, one small chart per KPI
// (they have different units) stacked. A click on a point asks for that point
// (pointClicked); the study dock turns it into an edit of the scenario.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

class QVBoxLayout;

namespace gpuplan::ui {

class StudyChart : public QWidget {
    Q_OBJECT
public:
    /// One KPI across the points.
    struct Curve {
        QString kpi;                          ///< "wait_s_p95"
        QString unit;                         ///< the KPI's ("fraction", "s", "usd", …)
        std::vector<double> mean, low, high;  ///< per point; NaN where not measured
    };

    explicit StudyChart(QWidget* parent = nullptr);
    /// `x` per point: the parameter's numeric values, or 0, 1, 2… with `xLabels` when they are
    /// not numbers ("pack", "spread").
    void setCurves(const QString& parameter, const std::vector<double>& x,
                   const QStringList& xLabels, std::vector<Curve> curves);
    void clear();

    int curveCount() const { return static_cast<int>(m_curves.size()); }
    const std::vector<Curve>& curves() const { return m_curves; }

signals:
    void pointClicked(int point);

private:
    void removeAll();

    QVBoxLayout* m_layout;
    std::vector<Curve> m_curves;
    std::vector<double> m_x;
};

}  // namespace gpuplan::ui
