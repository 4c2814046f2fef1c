// One chart of results over simulated time, with the pinned baseline dashed beside it and a
// cursor at the scrubber's time. All Qt Charts code lives behind this class (Qt Charts is
// deprecated from Qt 6.10; swapping the toolkit touches only chart_panel.cpp). Series are
// kept at full resolution in Results and decimated to min/max per pixel column on redraw.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "gpuplan/results.hpp"

class QChart;
class QChartView;
class QValueAxis;
class QLineSeries;

namespace gpuplan::ui {

struct ChartSeriesSpec {
    QString metric;  ///< DESIGN.md series name, e.g. "allocation", "pending_gpus{workload}"
    QString label;
    QColor color;
    double scale = 1;  ///< e.g. 100 to show a fraction as %
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Lines, StackedAreas };

    ChartPanel(const QString& title, const QString& unit, Mode mode,
               std::vector<ChartSeriesSpec> series, QWidget* parent = nullptr);
    ~ChartPanel() override;

    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline);
    void setCursorTime(double timeS);

    QString title() const { return m_title; }
    /// Fixes the y axis (e.g. 0–100 for percentages) instead of fitting it to the data.
    void setFixedYRange(double min, double max);
    /// Renders the chart alone (for PNG export and checks).
    QImage toImage(QSize size) const;
    /// Writes the chart as SVG. Returns false when the file cannot be written.
    bool saveSvg(const QString& path, QSize size) const;
    /// Points currently plotted for a series (after decimation), for tests.
    int plottedPoints(int seriesIndex) const;

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    std::unique_ptr<ChartPanel> laidOutCopy(QSize size) const;
    void followPalette();  // light or dark chart theme, as the application's palette
    void updateCursor();
    std::vector<QPointF> points(const Results& r, const ChartSeriesSpec& spec,
                                const std::vector<double>* base) const;

    QString m_title;
    QString m_unit;
    Mode m_mode;
    std::vector<ChartSeriesSpec> m_specs;
    std::shared_ptr<const Results> m_results, m_baseline;
    double m_cursorS = 0;
    double m_timeDivisor = 3600;  // hours or days on the x axis
    double m_yMax = 1;
    double m_fixedYMax = 0;  // 0 = fit to data
    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_cursor;
    std::vector<QLineSeries*> m_current;
};

}  // namespace gpuplan::ui
