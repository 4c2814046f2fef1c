#include "chart_panel.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

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

}  // namespace

ChartPanel::ChartPanel(const QString& title, const QString& unit, Mode mode,
                       std::vector<ChartSeriesSpec> series, QWidget* parent)
    : QWidget(parent), m_title(title), m_unit(unit), m_mode(mode), m_specs(std::move(series)) {
    m_chart = new QChart;
    m_chart->setTitle(title);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_y->setTitleText(unit);
    m_x->setLabelFormat("%.0f");
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_cursor = new QLineSeries;
    followPalette();
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(150);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setToolTip(title);
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    rebuild();
}

void ChartPanel::setBaseline(std::shared_ptr<const Results> baseline) {
    m_baseline = std::move(baseline);
    rebuild();
}

void ChartPanel::setFixedYRange(double, double max) {
    m_fixedYMax = max;
    rebuild();
}

void ChartPanel::setCursorTime(double timeS) {
    m_cursorS = timeS;
    updateCursor();
}

void ChartPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        followPalette();
        rebuild();
    }
}

void ChartPanel::followPalette() {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    m_chart->setTitleBrush(palette().color(QPalette::WindowText));
    m_chart->legend()->setLabelColor(palette().color(QPalette::WindowText));
    for (QValueAxis* axis : {m_x, m_y}) {
        axis->setLabelsColor(palette().color(QPalette::WindowText));
        axis->setTitleBrush(palette().color(QPalette::WindowText));
    }
    m_cursor->setPen(QPen(palette().color(QPalette::Mid), 1.2));
}

void ChartPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    rebuild();
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
        out.emplace_back(r.sampleTimesS[k] / m_timeDivisor, v);
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
    if (!m_results) return;
    const double horizon = m_results->horizonS;
    m_timeDivisor = horizon <= 3 * 86400 ? 3600.0 : 86400.0;
    m_x->setTitleText(m_timeDivisor == 3600 ? tr("hours") : tr("days"));
    m_x->setRange(0, horizon / m_timeDivisor);
    // Round tick steps (1, 2 or 5 × 10^k) whatever the horizon: "day 0, 20, 40…".
    const double span = horizon / m_timeDivisor;
    const double raw = span / 6, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / magnitude < 1.5   ? magnitude
                        : raw / magnitude < 3.5 ? 2 * magnitude
                                                : 5 * magnitude;
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(step);
    const int columns =
        std::max(50, static_cast<int>(m_chart->plotArea().width() > 10 ? m_chart->plotArea().width()
                                                                       : width() - 60));
    double yMax = 0;

    auto addLine = [&](const std::vector<QPointF>& pts, const QString& name, const QPen& pen,
                       bool legend) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(pen);
        line->replace(
            toList(decimate(pts, columns)));  // replace(): the fast path (no per-point signals)
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        if (!legend)
            for (QLegendMarker* m : m_chart->legend()->markers(line))
                m->setVisible(false);
        for (const QPointF& p : pts)
            yMax = std::max(yMax, p.y());
        return line;
    };

    // Dark series colours would vanish on a dark background.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    auto shade = [dark](QColor c) { return dark && c.lightness() < 110 ? c.lighter(180) : c; };
    if (m_mode == Mode::Lines) {
        for (const ChartSeriesSpec& spec : m_specs) {
            m_current.push_back(addLine(points(*m_results, spec, nullptr), spec.label,
                                        QPen(shade(spec.color), 1.6), true));
            if (m_baseline) {
                QColor c = shade(spec.color);
                c.setAlpha(170);
                addLine(points(*m_baseline, spec, nullptr), spec.label + tr(" (baseline)"),
                        QPen(c, 1.3, Qt::DashLine), false);
            }
        }
    } else {
        // Stacked areas: each layer sits on the sum of the ones before it.
        std::vector<double> base(m_results->sampleTimesS.size(), 0.0);
        QList<QPointF> previous;  // the upper edge of the layer below
        for (const ChartSeriesSpec& spec : m_specs) {
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
            for (const ChartSeriesSpec& spec : m_specs)
                if (const Series* s = m_baseline->findSeries(spec.metric.toStdString()))
                    for (std::size_t k = 0; k < total.size(); ++k)
                        if (std::isfinite(s->values[k])) total[k] += s->values[k] * spec.scale;
            std::vector<QPointF> pts;
            for (std::size_t k = 0; k < total.size(); ++k)
                pts.emplace_back(m_baseline->sampleTimesS[k] / m_timeDivisor, total[k]);
            addLine(pts, tr("baseline total"),
                    QPen(palette().color(QPalette::WindowText), 1.3, Qt::DashLine), true);
        }
    }
    if (m_fixedYMax > 0) {
        m_yMax = m_fixedYMax;
        m_y->setRange(0, m_yMax);
    } else {
        m_yMax = yMax > 0 ? yMax * 1.08 : 1;
        m_y->setRange(0, m_yMax);
        m_y->applyNiceNumbers();
    }
    m_chart->addSeries(m_cursor);
    m_cursor->attachAxis(m_x);
    m_cursor->attachAxis(m_y);
    for (QLegendMarker* m : m_chart->legend()->markers(m_cursor))
        m->setVisible(false);
    updateCursor();
}

void ChartPanel::updateCursor() {
    if (!m_results) return;
    const double x = m_cursorS / m_timeDivisor;
    m_cursor->replace(QList<QPointF>{QPointF(x, 0), QPointF(x, m_y->max())});
}

int ChartPanel::plottedPoints(int seriesIndex) const {
    return seriesIndex < static_cast<int>(m_current.size())
               ? static_cast<int>(m_current[seriesIndex]->count())
               : 0;
}

std::unique_ptr<ChartPanel> ChartPanel::laidOutCopy(QSize size) const {
    // Exports get a chart laid out at their own size (fonts, margins, decimation), not a
    // stretched copy of the on-screen one.
    auto copy = std::make_unique<ChartPanel>(m_title, m_unit, m_mode, m_specs);
    copy->setPalette(palette());
    copy->m_fixedYMax = m_fixedYMax;
    copy->setAttribute(Qt::WA_DontShowOnScreen);
    copy->resize(size);
    copy->show();  // offscreen: lays out the view and the chart at `size`
    copy->m_results = m_results;
    copy->m_baseline = m_baseline;
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
    copy->m_view->render(&p, QRectF(QPointF(0, 0), size));
    return p.end();
}

}  // namespace gpuplan::ui
