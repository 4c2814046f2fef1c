#include "mix_curve_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QProgressBar>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "format/kpi_format.hpp"

namespace gpuplan::ui {

namespace {
const QColor kLineColor(0x4e, 0x79, 0xa7);
const QColor kOptimumColor(0x2c, 0xa0, 0x2c);
const QColor kCurrentColor(0xe1, 0x57, 0x59);

QString durationText(double s) {
    if (s >= 60)
        return QCoreApplication::translate("MixCurveChart", "%1 min").arg(s / 60, 0, 'g', 4);
    return QCoreApplication::translate("MixCurveChart", "%1 s").arg(s, 0, 'g', 4);
}
}  // namespace

MixCurveChart::MixCurveChart(QWidget* parent)
    : QWidget(parent),
      m_chart(new QChart),
      m_view(new QChartView(m_chart, this)),
      m_x(new QValueAxis),
      m_y(new QValueAxis),
      m_line(new QLineSeries),
      m_points(new QScatterSeries),
      m_optimum(new QScatterSeries),
      m_current(new QLineSeries),
      m_caption(new QLabel(this)),
      m_message(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_busyTimer(new QTimer(this)) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();  // the caption names what is drawn: the tab is short
    m_chart->setMargins(QMargins(4, 4, 8, 2));
    m_chart->setBackgroundRoundness(0);
    m_x->setTitleText(tr("reserved nodes"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    for (QValueAxis* axis : {m_x, m_y}) {
        QFont f = axis->titleFont();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        axis->setTitleFont(f);
        axis->setLabelsFont(f);
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    QPen line(kLineColor);
    line.setWidthF(2);
    m_line->setPen(line);
    m_points->setColor(kLineColor);
    m_points->setBorderColor(Qt::white);
    m_points->setMarkerSize(8);
    m_optimum->setColor(kOptimumColor);
    m_optimum->setBorderColor(Qt::white);
    m_optimum->setMarkerSize(13);
    // Its own item, not the series' point label: that one is centred on the point and cut
    // at the plot's edge when the optimum is the last level.
    m_optimumLabel = new QGraphicsSimpleTextItem(m_chart);
    m_optimumLabel->setBrush(kOptimumColor.darker(140));
    m_optimumLabel->setZValue(20);
    connect(m_chart, &QChart::plotAreaChanged, this, &MixCurveChart::placeOptimumLabel);
    QPen current(kCurrentColor);
    current.setWidthF(1.5);
    current.setStyle(Qt::DashLine);
    m_current->setPen(current);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_current), static_cast<QXYSeries*>(m_line),
                         static_cast<QXYSeries*>(m_points), static_cast<QXYSeries*>(m_optimum)}) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    // A click anywhere near a level's point picks it; the optimum's marker lies on top.
    for (QScatterSeries* s : {m_points, m_optimum})
        connect(s, &QScatterSeries::clicked, this, [this](const QPointF& p) {
            if (!m_sweep) return;
            for (std::size_t i = 0; i < m_sweep->levels.size(); ++i)
                if (m_sweep->levels[i].reservedNodes == static_cast<int>(std::lround(p.x())))
                    clickLevel(static_cast<int>(i));
        });

    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(200, 120);
    m_view->setToolTip(tr("Click a level's point to reserve that many nodes (one undo step)"));
    m_view->setCursor(Qt::PointingHandCursor);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    // Two lines, whatever they say: the tab's height (and the window's) must not follow
    // the text (a third line is cut; the tooltip has the details).
    m_caption->setFixedHeight(2 * m_caption->fontMetrics().lineSpacing() + 2);
    m_caption->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_message->setWordWrap(true);
    // Over the plot, never asking for more room than the plot has.
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumHeight(10);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_busyTimer->setSingleShot(true);
    m_busyTimer->setInterval(kBusyShowMs);
    // Only a sweep slower than this shows progress: a quick one would just flicker.
    connect(m_busyTimer, &QTimer::timeout, this, [this] { m_progress->setVisible(true); });

    auto* plot = new QWidget(this);
    auto* stack = new QStackedLayout(plot);
    stack->setStackingMode(QStackedLayout::StackAll);
    stack->addWidget(m_message);  // over the plot, so the layout's height never changes
    stack->addWidget(m_view);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(m_caption);
    column->addWidget(m_progress);
    column->addWidget(plot, 1);
    setMessage(tr("Computing the cost of each reserved level…"));
}

void MixCurveChart::setSweep(const MixSweep& sweep) {
    m_sweep = sweep;
    m_message->clear();
    m_message->setVisible(false);
    m_view->setVisible(true);
    redraw();
}

void MixCurveChart::setCurrent(int reservedNodes, std::optional<double> lastRunCostUsd) {
    m_currentReserved = reservedNodes;
    m_currentCostUsd = lastRunCostUsd;
    redraw();
}

void MixCurveChart::setMessage(const QString& text) {
    m_sweep.reset();
    m_message->setText(text);
    m_message->setVisible(true);
    m_view->setVisible(false);
    redraw();
}

void MixCurveChart::setBusyShowMs(int ms) {
    m_busyTimer->setInterval(ms);
}

void MixCurveChart::setBusy(bool busy) {
    if (busy) {
        m_progress->setValue(0);
        if (!m_busyTimer->isActive() && !m_progress->isVisible()) m_busyTimer->start();
    } else {
        m_busyTimer->stop();
        m_progress->setVisible(false);
    }
    updateCaption();
}

void MixCurveChart::setProgress(double fraction) {
    m_progress->setValue(static_cast<int>(1000 * std::clamp(fraction, 0.0, 1.0)));
}

void MixCurveChart::clickLevel(int index) {
    if (!m_sweep || index < 0 || index >= static_cast<int>(m_sweep->levels.size())) return;
    emit levelClicked(index);
}

QPoint MixCurveChart::levelPosition(int index) const {
    if (index < 0 || index >= m_points->count()) return {};
    const QPointF scene = m_chart->mapToPosition(m_points->at(index), m_points);
    return m_view->mapFromScene(m_chart->mapToScene(scene));
}

QWidget* MixCurveChart::viewport() const {
    return m_view->viewport();
}

int MixCurveChart::levelCount() const {
    return m_sweep ? static_cast<int>(m_sweep->levels.size()) : 0;
}

QString MixCurveChart::optimumLabel() const {
    return m_optimum->count() > 0 ? m_optimumLabel->text() : QString();
}

void MixCurveChart::placeOptimumLabel() {
    m_optimumLabel->setVisible(m_optimum->count() > 0);
    if (m_optimum->count() == 0) return;
    const QRectF plot = m_chart->plotArea();
    const QPointF at = m_chart->mapToPosition(m_optimum->at(0), m_optimum);
    const QRectF text = m_optimumLabel->boundingRect();
    // Below the point, kept inside the plot: the optimum is the cheapest level, so the curve
    // never passes under it (above, the line through its neighbours would cross the text).
    const double x = std::clamp(at.x() - text.width() / 2, plot.left() + 2,
                                std::max(plot.left() + 2, plot.right() - text.width() - 2));
    const double y = std::min(at.y() + 7, plot.bottom() - text.height() - 1);
    m_optimumLabel->setPos(x, y);
}

int MixCurveChart::currentLineAt() const {
    return m_current->count() > 0 ? static_cast<int>(std::lround(m_current->at(0).x())) : -1;
}

QString MixCurveChart::caption() const {
    return m_caption->text();
}

QString MixCurveChart::message() const {
    return m_message->isVisible() ? m_message->text() : QString();
}

bool MixCurveChart::progressShown() const {
    return m_progress->isVisible();
}

void MixCurveChart::redraw() {
    // The y axis reads thousands of USD, or millions past $1M ("$1.45M", not "$1450k").
    double topUsd = 0;
    if (m_sweep)
        for (const MixLevel& l : m_sweep->levels)
            topUsd = std::max(topUsd, l.costUsd);
    const double usdPerAxisUnit = topUsd >= 1e6 ? 1e6 : 1e3;
    m_y->setLabelFormat(topUsd >= 1e6 ? QStringLiteral("$%.2fM") : QStringLiteral("$%.0fk"));
    QList<QPointF> points;
    if (m_sweep)
        for (const MixLevel& l : m_sweep->levels)
            points.append(QPointF(l.reservedNodes, l.costUsd / usdPerAxisUnit));
    // replace(), not append(): Qt Charts appends point by point.
    m_line->replace(points);
    m_points->replace(points);
    m_optimum->clear();
    m_current->clear();
    if (!points.isEmpty()) {
        const MixLevel& best = m_sweep->levels[m_sweep->optimum];
        m_optimum->append(best.reservedNodes, best.costUsd / usdPerAxisUnit);
        m_optimumLabel->setText(
            tr("optimum: %1 nodes, %2").arg(best.reservedNodes).arg(formatUsd(best.costUsd)));
        double lo = points.front().y(), hi = lo;
        for (const QPointF& p : points) {
            lo = std::min(lo, p.y());
            hi = std::max(hi, p.y());
        }
        // Room under the lowest point for the optimum's label.
        const double pad = std::max((hi - lo) * 0.12, std::max(hi, 1.0) * 0.01);
        m_y->setRange(std::max(0.0, lo - 3 * pad), hi + pad);
        m_y->applyNiceNumbers();
        const double right = std::max(points.back().x(), static_cast<double>(m_currentReserved));
        m_x->setRange(0, std::max(1.0, right));
        m_x->setTickCount(std::min(11, static_cast<int>(std::max(1.0, right)) + 1));
        m_x->applyNiceNumbers();
        if (m_currentReserved >= 0) {
            m_current->append(m_currentReserved, m_y->min());
            m_current->append(m_currentReserved, m_y->max());
        }
    }
    updateCaption();
    placeOptimumLabel();
}

void MixCurveChart::updateCaption() {
    // One or two lines: the tab is short. The details go to the tooltip.
    QStringList parts;
    parts << tr("<b>Cost per reserved level</b>");
    QString tip =
        tr("Total cost of the horizon with the first N nodes reserved and the rest\n"
           "bought elastic on demand (each level one run).");
    if (m_sweep) {
        const MixSweep& s = *m_sweep;
        const QString rest = tr("%1 to provision, %2 idle")
                                 .arg(durationText(s.onDemand.provisioningDelayS),
                                      durationText(s.onDemand.idleTimeoutS));
        // Said, because the curve then prices a fleet the scenario does not run.
        parts << (s.onDemandDefaulted ? tr("on demand: <i>defaults</i> (%1)").arg(rest)
                                      : tr("on demand: %1").arg(rest));
        tip += tr("\n%1 levels from 0 to the peak demand of %2 nodes.")
                   .arg(s.levels.size())
                   .arg(s.peakDemandNodes);
        if (s.onDemandDefaulted)
            tip +=
                tr("\nThe scenario sets no elastic on demand: the curve uses the defaults\n"
                   "(provisioned at once, given back after cluster-autoscaler's 10 min);\n"
                   "a run without them pays its on-demand nodes all along, above the curve.");
    }
    m_caption->setToolTip(tip);
    if (m_currentReserved >= 0 && m_sweep)  // without a curve, nothing to place it on
        parts << QStringLiteral("<span style='color:%1'>┆ %2</span>")
                     .arg(kCurrentColor.name(), m_currentCostUsd && std::isfinite(*m_currentCostUsd)
                                                    ? tr("current %1 (last run %2)")
                                                          .arg(m_currentReserved)
                                                          .arg(formatUsd(*m_currentCostUsd))
                                                    : tr("current %1").arg(m_currentReserved));
    if (m_busyTimer->isActive() || m_progress->isVisible()) parts << tr("computing…");
    m_caption->setText(parts.join(QStringLiteral(" · ")));
}

}  // namespace gpuplan::ui
