// One chart of results over simulated time, with the pinned baseline dashed beside it and a
// cursor at the scrubber's time. All Qt Charts code lives behind this class (Qt Charts is
// deprecated from Qt 6.10; swapping the toolkit touches only chart_panel.cpp and the
// markers it draws, preemption_markers.cpp and event_markers.cpp). Series are kept at full
// resolution in Results and decimated to min/max per pixel column on redraw.
//
// Reading it: hovering shows the time and every series' value there (and how many jobs were
// preempted in that sample interval); a click asks to move the scrubber there (timeClicked).
// When the results have a "preemptions" series, small bars along the bottom of the time axis
// mark the intervals with preemptions, and small triangles single events such as node
// failures (event_markers.cpp). The title and the legend are word-wrapped labels
// around the plot, so they are never cut to "…"; the axes pick their tick count from the
// plot's pixel size, and the time axis reads like every other time label ("d2", "d2 12:00").
#pragma once

#include <QColor>
#include <QFont>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"

class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QPainter;
class QValueAxis;

namespace gpuplan::ui {

struct ChartSeriesSpec {
    QString metric;  ///< series name, e.g. "allocation", "pending_gpus{workload}"
    QString label;
    QColor color;
    double scale = 1;  ///< e.g. 100 to show a fraction as %
};

class EventMarkers;
class PreemptionMarkers;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Lines, StackedAreas };

    /// `unit` is short ("%", "GPUs": the y axis title and the hover values); `subtitle` says
    /// what is measured ("% of provisioned GPUs") beside the title.
    ChartPanel(const QString& title, const QString& unit, const QString& subtitle, Mode mode,
               std::vector<ChartSeriesSpec> series, QWidget* parent = nullptr);
    ~ChartPanel() override;

    void setResults(std::shared_ptr<const Results> results);
    /// The pinned baseline and the name it is labelled with ("baseline: default").
    void setBaseline(std::shared_ptr<const Results> baseline, const QString& name = QString());
    void setCursorTime(double timeS);
    /// The runs behind the results (null: one run). Line charts then draw each series' mean
    /// over them with its 95 % interval as a band, instead of one noisy run.
    void setReplications(std::shared_ptr<const Replications> replications);
    /// Bands drawn now (one per line series with replications), for tests.
    int bandCount() const { return m_bands; }

    QString title() const { return m_title; }
    /// Fixes the y axis (e.g. 0–100 for percentages) instead of fitting it to the data.
    void setFixedYRange(double min, double max);
    /// Draws (and lists in the legend) only the series the results or the baseline have: the
    /// cost chart names only the buying classes the fleet has.
    void setShowsOnlyPresentSeries(bool on);
    /// Shown instead of the plot when the results have none of the chart's series ("no
    /// prices: pick a price book"); empty = no placeholder, an empty plot.
    void setPlaceholder(const QString& text);
    /// The placeholder while it stands in for the plot, else empty.
    QString shownPlaceholder() const;
    /// The metrics of the series drawn now (the baseline's aside), for tests.
    QStringList plottedMetrics() const;
    /// Renders the chart alone (for PNG export and checks).
    QImage toImage(QSize size) const;
    /// Writes the chart as SVG. Returns false when the file cannot be written.
    bool saveSvg(const QString& path, QSize size) const;
    /// Draws the chart laid out at `layoutSizePx` into `target` of `painter` (scaled to fit),
    /// as vectors on a vector device (PDF, SVG): for reports.
    void renderInto(QPainter& painter, const QRectF& target, QSize layoutSizePx) const;
    /// Points currently plotted for a series (after decimation), for tests.
    int plottedPoints(int seriesIndex) const;

    /// "d1 04:30 · allocation 66.2 % · occupancy 41.0 %": what hovering at that time shows.
    QString valuesAt(double timeS) const;
    /// Where in the chart view's viewport the time `timeS` is, halfway up the plot.
    QPoint viewportPosition(double timeS) const;
    QWidget* viewport() const;
    /// The hover readout's text while it is shown, else empty.
    QString hoverReadout() const;
    /// Every text the chart draws (title, legend, axis titles and tick labels), for checks.
    QStringList drawnTexts() const;
    QStringList timeTickLabels() const;
    /// Preemption markers drawn along the time axis now (0 when there were none).
    int preemptionMarkers() const;
    /// The node failures (and other single events) marked along the time axis now.
    const EventMarkers& eventMarkers() const { return *m_events; }

signals:
    /// The user clicked the plot at this simulated time.
    void timeClicked(double timeS);

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void rebuild();
    /// The placeholder over the plot (and no legend), or the plot.
    void showPlaceholder(bool shown);
    /// Ticks for the plot's current pixel size; true when they changed.
    bool updateTicks();
    void updateLegend();
    /// A series' colour as drawn: lightened when it would vanish on a dark background.
    QColor lineColor(const QColor& c) const;
    std::unique_ptr<ChartPanel> laidOutCopy(QSize size) const;
    void followPalette();  // light or dark chart theme, as the application's palette
    void followFont();     // axis fonts scaled as the panel's font is to the application's
    void updateCursor();
    /// The time under a viewport position, or a negative number outside the plot.
    double timeAtViewport(QPoint pos) const;
    void showHover(QPoint pos, const QString& text);
    std::vector<QPointF> points(const Results& r, const ChartSeriesSpec& spec,
                                const std::vector<double>* base) const;
    /// m_specs, or those the results or the baseline have (setShowsOnlyPresentSeries).
    std::vector<ChartSeriesSpec> shownSpecs() const;

    QString m_title;
    QString m_unit;
    QString m_subtitle;
    Mode m_mode;
    std::vector<ChartSeriesSpec> m_specs;
    std::vector<ChartSeriesSpec> m_shown;  // what rebuild() drew
    bool m_onlyPresent = false;
    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const Replications> m_replications;
    int m_bands = 0;
    QString m_baselineName;
    double m_cursorS = 0;
    double m_yMax = 1;
    double m_dataYMax = 0;
    double m_fixedYMax = 0;  // 0 = fit to data
    double m_timeStepS = 0;  // the ticks drawn now
    double m_yStep = 0;
    QLabel* m_titleLabel = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_hover = nullptr;        // the values under the pointer
    QLabel* m_placeholder = nullptr;  // over the plot when none of its series is there
    QChart* m_chart = nullptr;
    QFont m_themeLabelsFont, m_themeTitleFont;  ///< the chart theme's axis fonts, unscaled
    QChartView* m_view = nullptr;
    QCategoryAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QLineSeries* m_cursor = nullptr;
    std::vector<QLineSeries*> m_current;
    std::unique_ptr<PreemptionMarkers> m_preemptions;  // destroyed before the chart
    std::unique_ptr<EventMarkers> m_events;            // likewise
};

}  // namespace gpuplan::ui
