#include "chart_panel.hpp"

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "event_markers.hpp"
#include "format/kpi_format.hpp"
#include "format/ui_palette.hpp"
#include "preemption_markers.hpp"
#include "time_axis.hpp"

namespace gpuplan::ui {

namespace {

/// Min and max per pixel column keep spikes visible at ~2 points per pixel.
std::vector<QPointF> decimate(const std::vector<QPointF>& in, int columns) {
    if (columns <= 0 || static_cast<int>(in.size()) <= 2 * columns) return in;
    std::vector<QPointF> out;
    out.reserve(2 * columns + 2);
    const double x0 = in.front().x(), span = in.back().x() - x0;
    std::size_t i = 0;
    for (int c = 0; c < columns && i < in.size(); ++c) {
        const double end = x0 + span * (c + 1) / columns;
        QPointF lo = in[i], hi = in[i];
        std::size_t first = i;
        for (; i < in.size() && (in[i].x() <= end || c == columns - 1); ++i) {
            if (in[i].y() < lo.y()) lo = in[i];
            if (in[i].y() > hi.y()) hi = in[i];
        }
        if (i == first) continue;
        if (lo.x() <= hi.x()) {
            out.push_back(lo);
            if (hi != lo) out.push_back(hi);
        } else {
            out.push_back(hi);
            out.push_back(lo);
        }
    }
    return out;
}

/// For stacked areas: one point per column at the column's first x, so every layer's edge
/// shares the same x positions; the max keeps peaks.
std::vector<QPointF> decimateMax(const std::vector<QPointF>& in, int columns) {
    if (columns <= 0 || static_cast<int>(in.size()) <= columns) return in;
    std::vector<QPointF> out;
    const double x0 = in.front().x(), span = in.back().x() - x0;
    std::size_t i = 0;
    for (int c = 0; c < columns && i < in.size(); ++c) {
        const double end = x0 + span * (c + 1) / columns;
        QPointF top = in[i];
        for (; i < in.size() && (in[i].x() <= end || c == columns - 1); ++i)
            top.setY(std::max(top.y(), in[i].y()));
        out.push_back(top);
    }
    return out;
}

QList<QPointF> toList(const std::vector<QPointF>& v) {
    return QList<QPointF>(v.begin(), v.end());
}

constexpr double kSecondsPerX = 3600;  // the x axis counts hours; its labels say "d2 12:00"
// Low enough that the window fits a 1000 px screen when the KPI strip takes two rows.
constexpr int kPlotMinHeightPx = 110;

/// 1, 2, 2.5 or 5 × 10^k: the smallest at least `raw`.
double niceStep(double raw) {
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
    return 10 * magnitude;
}

/// Places needed to write multiples of `step` exactly: 0 for 20, 1 for 2.5 or 0.5.
int decimalsFor(double step) {
    int d = 0;
    while (d < 6 && std::fabs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) >
                        1e-6 * std::pow(10.0, d))
        ++d;
    return d;
}

/// A value as the hover shows it: whole numbers without decimals, others with one.
QString hoverNumber(double v) {
    if (!std::isfinite(v)) return QStringLiteral("–");
    return formatFixed(v, std::fabs(v - std::round(v)) < 1e-9 || std::fabs(v) >= 100 ? 0 : 1);
}

}  // namespace

ChartPanel::ChartPanel(const QString& title, const QString& unit, const QString& subtitle,
                       Mode mode, std::vector<ChartSeriesSpec> series, QWidget* parent)
    : QWidget(parent),
      m_title(title),
      m_unit(unit),
      m_subtitle(subtitle),
      m_mode(mode),
      m_specs(std::move(series)),
      m_shown(m_specs) {
    // Title and legend are labels that wrap: Qt Charts would elide them to "…" when narrow.
    m_titleLabel = new QLabel(this);
    m_titleLabel->setWordWrap(true);
    m_titleLabel->setTextFormat(Qt::RichText);
    m_titleLabel->setText(
        QStringLiteral("<b>%1</b> · %2").arg(title.toHtmlEscaped(), subtitle.toHtmlEscaped()));
    m_legend = new QLabel(this);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    for (QLabel* l : {m_titleLabel, m_legend}) {
        l->setForegroundRole(QPalette::Text);
        l->setContentsMargins(6, 2, 6, 2);
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);

    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 18, 4));  // room for the last time label
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_x = new QCategoryAxis;
    m_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_y = new QValueAxis;
    m_y->setTitleText(unit);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_cursor = new QLineSeries;
    followPalette();
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(kPlotMinHeightPx);
    m_view->viewport()->setMouseTracking(true);
    m_view->viewport()->installEventFilter(this);
    m_view->viewport()->setCursor(Qt::CrossCursor);
    m_hover = new QLabel(m_view->viewport());
    m_hover->setBackgroundRole(QPalette::ToolTipBase);
    m_hover->setForegroundRole(QPalette::ToolTipText);
    m_hover->setAutoFillBackground(true);
    m_hover->setFrameShape(QFrame::Box);
    m_hover->setMargin(4);
    m_hover->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_hover->hide();
    // Over the plot rather than in its place: the panel needs no other room for it (a wrapped
    // label in the layout grew the dock's minimum height by a plot's).
    m_placeholder = new QLabel(m_view->viewport());
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setMargin(12);
    m_placeholder->setBackgroundRole(QPalette::Base);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setAutoFillBackground(true);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_placeholder->hide();
    // The plot's size is known only once the chart has laid itself out.
    m_preemptions = std::make_unique<PreemptionMarkers>(m_chart);
    m_events = std::make_unique<EventMarkers>(m_chart);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        if (updateTicks()) updateCursor();
        m_preemptions->update(m_results.get(), m_cursor, kSecondsPerX,
                              palette().color(QPalette::Text));
        m_events->update(m_cursor, kSecondsPerX);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 2);
    layout->setSpacing(0);
    layout->addWidget(m_titleLabel);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    updateLegend();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_hover->hide();  // its values were of the previous results
    rebuild();
}

void ChartPanel::setReplications(std::shared_ptr<const Replications> replications) {
    if (replications == m_replications) return;  // one run after one run: nothing to redraw
    m_replications = std::move(replications);
    rebuild();
}

void ChartPanel::setBaseline(std::shared_ptr<const Results> baseline, const QString& name) {
    m_baseline = std::move(baseline);
    m_baselineName = name;
    rebuild();
}

void ChartPanel::setFixedYRange(double, double max) {
    m_fixedYMax = max;
    rebuild();
}

void ChartPanel::setShowsOnlyPresentSeries(bool on) {
    m_onlyPresent = on;
    rebuild();
}

void ChartPanel::setPlaceholder(const QString& text) {
    m_placeholder->setText(text);
    rebuild();
}

QString ChartPanel::shownPlaceholder() const {
    return m_placeholder->isVisibleTo(this) ? m_placeholder->text() : QString();
}

QStringList ChartPanel::plottedMetrics() const {
    QStringList metrics;
    if (m_results)
        for (const ChartSeriesSpec& spec : m_shown)
            if (m_results->findSeries(spec.metric.toStdString())) metrics << spec.metric;
    return metrics;
}

std::vector<ChartSeriesSpec> ChartPanel::shownSpecs() const {
    if (!m_onlyPresent) return m_specs;
    std::vector<ChartSeriesSpec> shown;
    for (const ChartSeriesSpec& spec : m_specs) {
        const std::string metric = spec.metric.toStdString();
        if ((m_results && m_results->findSeries(metric)) ||
            (m_baseline && m_baseline->findSeries(metric)))
            shown.push_back(spec);
    }
    return shown;
}

void ChartPanel::setCursorTime(double timeS) {
    m_cursorS = timeS;
    updateCursor();
}

void ChartPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange && m_chart) {
        followPalette();
        rebuild();
    }
    if (e->type() == QEvent::FontChange && m_chart) {
        followFont();
        rebuild();
    }
}

void ChartPanel::followFont() {
    // Qt Charts' axes keep the theme's fonts: scale them as the panel's font is to the
    // application's (the meeting layout's larger type reaches the axes too).
    const double appPt = QApplication::font().pointSizeF();
    const double scale = appPt > 0 && font().pointSizeF() > 0 ? font().pointSizeF() / appPt : 1;
    auto scaled = [scale](QFont f) {
        if (f.pixelSize() > 0)
            f.setPixelSize(std::max(1, static_cast<int>(std::lround(f.pixelSize() * scale))));
        else if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * scale);
        return f;
    };
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(m_x), static_cast<QAbstractAxis*>(m_y)}) {
        axis->setLabelsFont(scaled(m_themeLabelsFont));
        axis->setTitleFont(scaled(m_themeTitleFont));
    }
}

void ChartPanel::followPalette() {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_themeLabelsFont = m_x->labelsFont();
    m_themeTitleFont = m_y->titleFont();
    followFont();
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(m_x), static_cast<QAbstractAxis*>(m_y)}) {
        axis->setLabelsColor(palette().color(QPalette::Text));
        axis->setTitleBrush(palette().color(QPalette::Text));
    }
    m_cursor->setPen(QPen(palette().color(QPalette::Mid), 1.2));
}

void ChartPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    rebuild();
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched != m_view->viewport()) return QWidget::eventFilter(watched, e);
    if (e->type() == QEvent::Resize) m_placeholder->setGeometry(m_view->viewport()->rect());
    if (e->type() == QEvent::MouseMove) {
        const QPoint pos = static_cast<QMouseEvent*>(e)->position().toPoint();
        const double t = timeAtViewport(pos);
        if (t < 0)
            m_hover->hide();
        else
            showHover(pos, valuesAt(t));
    } else if (e->type() == QEvent::MouseButtonPress) {
        auto* mouse = static_cast<QMouseEvent*>(e);
        const double t = timeAtViewport(mouse->position().toPoint());
        if (mouse->button() == Qt::LeftButton && t >= 0) {
            emit timeClicked(t);
            return true;
        }
    } else if (e->type() == QEvent::Leave) {
        m_hover->hide();
    }
    return QWidget::eventFilter(watched, e);
}

void ChartPanel::showHover(QPoint pos, const QString& text) {
    // A readout of our own rather than QToolTip, which stays away after a click.
    m_hover->setText(text);
    m_hover->adjustSize();
    const QSize room = m_view->viewport()->size(), box = m_hover->size();
    QPoint at = pos + QPoint(14, 14);
    if (at.x() + box.width() > room.width()) at.setX(pos.x() - box.width() - 14);
    if (at.y() + box.height() > room.height()) at.setY(pos.y() - box.height() - 14);
    m_hover->move(std::max(0, at.x()), std::max(0, at.y()));
    m_hover->show();
    m_hover->raise();
}

QString ChartPanel::hoverReadout() const {
    return m_hover->isVisible() ? m_hover->text() : QString();
}

double ChartPanel::timeAtViewport(QPoint pos) const {
    if (!m_results || !m_chart->series().contains(m_cursor)) return -1;
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(pos));
    if (!m_chart->plotArea().adjusted(-2, -2, 2, 2).contains(inChart)) return -1;
    const double t = m_chart->mapToValue(inChart, m_cursor).x() * kSecondsPerX;
    return std::clamp(t, 0.0, m_results->horizonS);
}

QPoint ChartPanel::viewportPosition(double timeS) const {
    const QPointF inChart = m_chart->mapToPosition(QPointF(timeS / kSecondsPerX, 0), m_cursor);
    const QPointF scene =
        m_chart->mapToScene(QPointF(inChart.x(), m_chart->plotArea().center().y()));
    return m_view->mapFromScene(scene);
}

QWidget* ChartPanel::viewport() const {
    return m_view->viewport();
}

QString ChartPanel::valuesAt(double timeS) const {
    if (!m_results || m_results->sampleTimesS.empty()) return {};
    // The sample in force at t (Results::sampleAt, as the pending list); the first before it.
    auto sampleAt = [timeS](const Results& r) { return r.sampleAt(timeS).value_or(0); };
    auto value = [](const Results& r, const ChartSeriesSpec& spec, std::size_t k) {
        const Series* s = r.findSeries(spec.metric.toStdString());
        return s && k < s->values.size() ? s->values[k] * spec.scale
                                         : std::numeric_limits<double>::quiet_NaN();
    };
    const std::size_t k = sampleAt(*m_results);
    const std::size_t kb = m_baseline ? sampleAt(*m_baseline) : 0;
    QStringList lines{formatSimTime(timeS)};
    double total = 0, baseTotal = 0;
    for (const ChartSeriesSpec& spec : m_shown) {
        // A line drawn as a mean over replications reads the mean and its interval.
        const SeriesBand* band = nullptr;
        if (m_replications && m_mode == Mode::Lines)
            for (const SeriesBand& b : m_replications->series)
                if (b.name == spec.metric.toStdString()) band = &b;
        const double v =
            band && k < band->mean.size() ? band->mean[k] * spec.scale : value(*m_results, spec, k);
        if (std::isfinite(v)) total += v;
        QString line = QStringLiteral("%1: %2 %3").arg(spec.label, hoverNumber(v), m_unit);
        if (band && k < band->low.size() && std::isfinite(band->low[k]))
            line += tr(" (95 %: %1 to %2)")
                        .arg(hoverNumber(band->low[k] * spec.scale),
                             hoverNumber(band->high[k] * spec.scale));
        if (m_baseline) {
            const double b = value(*m_baseline, spec, kb);
            if (std::isfinite(b)) baseTotal += b;
            if (m_mode == Mode::Lines) line += tr(" (baseline %1)").arg(hoverNumber(b));
        }
        lines << line;
    }
    if (m_mode == Mode::StackedAreas) {
        lines << tr("total: %1 %2").arg(hoverNumber(total), m_unit);
        if (m_baseline) lines << tr("baseline total: %1 %2").arg(hoverNumber(baseTotal), m_unit);
    }
    if (const QString preempted = PreemptionMarkers::hoverLine(*m_results, timeS);
        !preempted.isEmpty())
        lines << preempted;
    lines << m_events->hoverLines(timeS);
    return lines.join(QLatin1Char('\n'));
}

QStringList ChartPanel::drawnTexts() const {
    QStringList texts{m_titleLabel->text(), m_legend->text()};
    for (QGraphicsItem* item : m_view->scene()->items()) {
        if (!item->isVisible()) continue;
        if (auto* t = qgraphicsitem_cast<QGraphicsTextItem*>(item))
            texts << t->toPlainText();
        else if (auto* st = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item))
            texts << st->text();
    }
    return texts;
}

QStringList ChartPanel::timeTickLabels() const {
    return m_x->categoriesLabels();
}

QColor ChartPanel::lineColor(const QColor& c) const {
    // Dark series colours would vanish on a dark background.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    return shownLineColor(c, dark && m_mode == Mode::Lines);
}

void ChartPanel::updateLegend() {
    // Swatches and names as wrapping text: nothing is ever elided.
    QStringList items;
    for (const ChartSeriesSpec& spec : m_shown)
        items << QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3")
                     .arg(lineColor(spec.color).name(),
                          m_mode == Mode::Lines ? QStringLiteral("━━") : QStringLiteral("■"),
                          spec.label.toHtmlEscaped().replace(QLatin1Char(' '),
                                                             QStringLiteral("&nbsp;")));
    if (m_baseline) {
        const QString what = m_mode == Mode::Lines ? tr("dashed: baseline") : tr("baseline total");
        items << QStringLiteral("╍╍&nbsp;%1%2")
                     .arg(what, m_baselineName.isEmpty()
                                    ? QString()
                                    : QStringLiteral(" “%1”").arg(m_baselineName.toHtmlEscaped()));
    }
    m_legend->setText(items.join(QStringLiteral(" &nbsp; ")));
}

bool ChartPanel::updateTicks() {
    if (!m_results) return false;
    const double horizonS = std::max(1.0, m_results->horizonS);
    const QRectF plot = m_chart->plotArea();
    const double plotW = plot.width() > 10 ? plot.width() : std::max(100, width() - 70);
    const double plotH = plot.height() > 10 ? plot.height() : std::max(60, height() - 90);
    // Time: the smallest round step whose labels do not crowd each other.
    const double step = timeAxisStepS(horizonS, plotW, QFontMetrics(m_x->labelsFont()));
    // Values: about one tick per 32 px of height, on round numbers.
    const double top = m_fixedYMax > 0 ? m_fixedYMax : std::max(m_dataYMax * 1.05, 1e-9);
    const double ySteps = std::clamp(std::floor(plotH / 32), 2.0, 10.0);
    double yStep = niceStep(top / ySteps);
    double yMax = m_fixedYMax > 0 ? m_fixedYMax : std::ceil(top / yStep - 1e-9) * yStep;
    if (m_fixedYMax <= 0 && m_dataYMax <= 0) {
        yStep = 1;
        yMax = 1;
    }
    if (step == m_timeStepS && yStep == m_yStep && yMax == m_yMax &&
        m_x->max() == horizonS / kSecondsPerX)
        return false;
    m_timeStepS = step;
    m_yStep = yStep;
    m_yMax = yMax;
    for (const QString& label : m_x->categoriesLabels())
        m_x->remove(label);
    // Labels sit on their category's end value; the first category ends at 0 to label it.
    m_x->setStartValue(-1);
    for (double t = 0; t <= horizonS + 1e-6; t += step)
        m_x->append(formatSimTime(t, TimeLabel::Short), t / kSecondsPerX);
    m_x->setRange(0, horizonS / kSecondsPerX);
    // Dynamic ticks are laid out on every range or interval change: setting a wide range
    // under the old, fine interval would lay out thousands of ticks for a moment (200 ms).
    m_y->setTickInterval(std::max(m_yStep, m_y->tickInterval()));
    m_y->setRange(0, m_yMax);
    m_y->setTickInterval(m_yStep);
    m_y->setLabelFormat(QStringLiteral("%.%1f").arg(decimalsFor(m_yStep)));
    return true;
}

std::vector<QPointF> ChartPanel::points(const Results& r, const ChartSeriesSpec& spec,
                                        const std::vector<double>* base) const {
    std::vector<QPointF> out;
    const Series* s = r.findSeries(spec.metric.toStdString());
    if (!s) return out;
    out.reserve(s->values.size());
    for (std::size_t k = 0; k < s->values.size(); ++k) {
        double v = s->values[k];
        if (!std::isfinite(v)) continue;  // e.g. no job started in the interval
        v *= spec.scale;
        if (base) v += (*base)[k];
        out.emplace_back(r.sampleTimesS[k] / kSecondsPerX, v);
    }
    return out;
}

void ChartPanel::rebuild() {
    // Everything but the axes goes; series are few, so rebuilding is cheaper than diffing.
    for (QAbstractSeries* s : m_chart->series())
        if (s != m_cursor) {
            m_chart->removeSeries(s);
            delete s;
        }
    if (m_chart->series().contains(m_cursor)) m_chart->removeSeries(m_cursor);
    m_current.clear();
    m_shown = shownSpecs();
    // A run without any of the chart's series (an unpriced fleet's cost) says why instead.
    bool absent = m_results && !m_placeholder->text().isEmpty();
    for (const ChartSeriesSpec& spec : m_specs)
        if (absent && m_results->findSeries(spec.metric.toStdString())) absent = false;
    updateLegend();
    m_preemptions->update(nullptr, nullptr, kSecondsPerX, {});
    m_events->setResults(m_results);
    m_events->update(nullptr, kSecondsPerX);
    if (!m_results) {
        showPlaceholder(false);
        return;
    }
    const int columns =
        std::max(50, static_cast<int>(m_chart->plotArea().width() > 10 ? m_chart->plotArea().width()
                                                                       : width() - 60));
    double yMax = 0;

    auto addLine = [&](const std::vector<QPointF>& pts, const QString& name, const QPen& pen) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(pen);
        line->replace(
            toList(decimate(pts, columns)));  // replace(): the fast path (no per-point signals)
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        for (const QPointF& p : pts)
            yMax = std::max(yMax, p.y());
        return line;
    };

    m_bands = 0;
    // Over replications: a series' mean and its interval as a band behind it.
    auto bandOf = [&](const ChartSeriesSpec& spec) -> const SeriesBand* {
        if (!m_replications) return nullptr;
        for (const SeriesBand& b : m_replications->series)
            if (b.name == spec.metric.toStdString()) return &b;
        return nullptr;
    };
    if (m_mode == Mode::Lines) {
        for (const ChartSeriesSpec& spec : m_shown) {
            if (const SeriesBand* band = bandOf(spec)) {
                std::vector<QPointF> mean, low, high;
                for (std::size_t k = 0; k < band->mean.size(); ++k) {
                    const double x = m_replications->sampleTimesS[k] / kSecondsPerX;
                    if (std::isfinite(band->mean[k]))
                        mean.emplace_back(x, band->mean[k] * spec.scale);
                    if (std::isfinite(band->low[k]) && std::isfinite(band->high[k])) {
                        low.emplace_back(x, band->low[k] * spec.scale);
                        high.emplace_back(x, band->high[k] * spec.scale);
                    }
                }
                auto* upper = new QLineSeries;
                upper->replace(toList(decimate(high, columns)));
                auto* lower = new QLineSeries;
                lower->replace(toList(decimate(low, columns)));
                auto* area = new QAreaSeries(upper, lower);
                upper->setParent(area);  // rebuild()'s delete frees the edges too
                lower->setParent(area);
                QColor fill = lineColor(spec.color);
                fill.setAlpha(55);
                area->setColor(fill);
                area->setPen(Qt::NoPen);
                m_chart->addSeries(area);
                area->attachAxis(m_x);
                area->attachAxis(m_y);
                for (const QPointF& p : high)
                    yMax = std::max(yMax, p.y());
                ++m_bands;
                m_current.push_back(
                    addLine(mean, spec.label + tr(" (mean)"), QPen(lineColor(spec.color), 1.6)));
            } else {
                m_current.push_back(addLine(points(*m_results, spec, nullptr), spec.label,
                                            QPen(lineColor(spec.color), 1.6)));
            }
            if (m_baseline) {
                QColor c = lineColor(spec.color);
                c.setAlpha(170);
                addLine(points(*m_baseline, spec, nullptr), spec.label + tr(" (baseline)"),
                        QPen(c, 1.3, Qt::DashLine));
            }
        }
    } else {
        // Stacked areas: each layer sits on the sum of the ones before it.
        std::vector<double> base(m_results->sampleTimesS.size(), 0.0);
        QList<QPointF> previous;  // the upper edge of the layer below
        for (const ChartSeriesSpec& spec : m_shown) {
            const std::vector<QPointF> pts = points(*m_results, spec, &base);
            const Series* s = m_results->findSeries(spec.metric.toStdString());
            if (s)
                for (std::size_t k = 0; k < base.size(); ++k)
                    if (std::isfinite(s->values[k])) base[k] += s->values[k] * spec.scale;
            auto* upper = new QLineSeries;
            upper->replace(toList(decimateMax(pts, columns)));
            QLineSeries* lower = nullptr;
            if (!previous.isEmpty()) {
                lower = new QLineSeries;
                lower->replace(previous);
            }
            auto* area = new QAreaSeries(upper, lower);
            // The area does not own its edges; parenting makes rebuild()'s delete free them.
            upper->setParent(area);
            if (lower) lower->setParent(area);
            area->setName(spec.label);
            area->setColor(spec.color);
            area->setBorderColor(spec.color.darker(120));
            m_chart->addSeries(area);
            area->attachAxis(m_x);
            area->attachAxis(m_y);
            for (const QPointF& p : pts)
                yMax = std::max(yMax, p.y());
            previous = upper->points();
            m_current.push_back(upper);
        }
        if (m_baseline) {
            std::vector<double> total(m_baseline->sampleTimesS.size(), 0.0);
            for (const ChartSeriesSpec& spec : m_shown)
                if (const Series* s = m_baseline->findSeries(spec.metric.toStdString()))
                    for (std::size_t k = 0; k < total.size(); ++k)
                        if (std::isfinite(s->values[k])) total[k] += s->values[k] * spec.scale;
            std::vector<QPointF> pts;
            for (std::size_t k = 0; k < total.size(); ++k)
                pts.emplace_back(m_baseline->sampleTimesS[k] / kSecondsPerX, total[k]);
            addLine(pts, tr("baseline total"),
                    QPen(palette().color(QPalette::Text), 1.3, Qt::DashLine));
        }
    }
    m_dataYMax = yMax;
    m_timeStepS = 0;  // recompute: the horizon or the data may have changed
    updateTicks();
    m_chart->addSeries(m_cursor);
    m_cursor->attachAxis(m_x);
    m_cursor->attachAxis(m_y);
    updateCursor();
    m_preemptions->update(m_results.get(), m_cursor, kSecondsPerX, palette().color(QPalette::Text));
    m_events->update(m_cursor, kSecondsPerX);
    showPlaceholder(absent);
}

void ChartPanel::showPlaceholder(bool shown) {
    m_placeholder->setGeometry(m_view->viewport()->rect());
    m_placeholder->setVisible(shown);
    m_legend->setVisible(!shown);
}

void ChartPanel::updateCursor() {
    if (!m_results) return;
    const double x = m_cursorS / kSecondsPerX;
    m_cursor->replace(QList<QPointF>{QPointF(x, 0), QPointF(x, m_yMax)});
}

int ChartPanel::preemptionMarkers() const {
    return m_preemptions->count();
}

int ChartPanel::plottedPoints(int seriesIndex) const {
    return seriesIndex < static_cast<int>(m_current.size())
               ? static_cast<int>(m_current[seriesIndex]->count())
               : 0;
}

std::unique_ptr<ChartPanel> ChartPanel::laidOutCopy(QSize size) const {
    // Exports get a chart laid out at their own size (fonts, margins, decimation), not a
    // stretched copy of the on-screen one.
    auto copy = std::make_unique<ChartPanel>(m_title, m_unit, m_subtitle, m_mode, m_specs);
    copy->setPalette(palette());
    copy->m_fixedYMax = m_fixedYMax;
    copy->m_onlyPresent = m_onlyPresent;
    copy->m_placeholder->setText(m_placeholder->text());
    copy->setAttribute(Qt::WA_DontShowOnScreen);
    copy->resize(size);
    copy->show();  // offscreen: lays out the view and the chart at `size`
    copy->m_results = m_results;
    copy->m_baseline = m_baseline;
    copy->m_baselineName = m_baselineName;
    copy->m_replications = m_replications;  // the bands the window draws
    copy->m_cursorS = m_cursorS;
    copy->rebuild();
    // The legend and axes lay themselves out through posted events.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    return copy;
}

QImage ChartPanel::toImage(QSize size) const {
    const auto copy = laidOutCopy(size);
    return copy->grab().toImage();
}

bool ChartPanel::saveSvg(const QString& path, QSize size) const {
    const auto copy = laidOutCopy(size);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(m_title);
    QPainter p;
    if (!p.begin(&svg)) return false;
    copy->render(&p);  // title and legend labels too
    return p.end();
}

void ChartPanel::renderInto(QPainter& painter, const QRectF& target, QSize layoutSizePx) const {
    const auto copy = laidOutCopy(layoutSizePx);
    const double scale =
        std::min(target.width() / layoutSizePx.width(), target.height() / layoutSizePx.height());
    painter.save();
    painter.translate(target.topLeft());
    painter.scale(scale, scale);
    copy->QWidget::render(&painter);  // title and legend labels too
    painter.restore();
}

}  // namespace gpuplan::ui
