#include "frontier_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "axis_scale.hpp"

namespace gpuplan::ui {

namespace {

const QColor kMetColor(0x2c, 0xa0, 0x2c);
const QColor kMissedColor(0x9a, 0x9a, 0x9a);
const QColor kChosenColor(0x1f, 0x4e, 0x79);
const QColor kNowColor(0xe1, 0x57, 0x59);

/// An axis range around [low, high] with a little room, never empty.
std::pair<double, double> padded(double low, double high) {
    if (!(high > low)) {
        const double pad = std::max(std::abs(low) * 0.1, 1.0);
        return {low - pad, high + pad};
    }
    const double pad = (high - low) * 0.08;
    return {low - pad, high + pad};
}

}  // namespace

FrontierChart::FrontierChart(QWidget* parent)
    : QWidget(parent),
      m_chart(new QChart),
      m_view(new QChartView(m_chart, this)),
      m_x(new QValueAxis),
      m_y(new QValueAxis),
      m_met(new QScatterSeries),
      m_missed(new QScatterSeries),
      m_chosenMark(new QScatterSeries),
      m_nowMark(new QScatterSeries),
      m_bound(new QLineSeries),
      m_caption(new QLabel(this)),
      m_message(new QLabel(this)) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();  // the caption says what is drawn
    m_chart->setMargins(QMargins(4, 4, 8, 2));
    m_chart->setBackgroundRoundness(0);
    for (QValueAxis* axis : {m_x, m_y}) {
        QFont f = axis->titleFont();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        axis->setTitleFont(f);
        axis->setLabelsFont(f);
        m_chart->addAxis(axis, axis == m_x ? Qt::AlignBottom : Qt::AlignLeft);
    }
    QPen bound(kMissedColor.darker(130));
    bound.setStyle(Qt::DashLine);
    bound.setWidthF(1.5);
    m_bound->setPen(bound);
    m_chosenMark->setColor(Qt::transparent);
    m_chosenMark->setBorderColor(kChosenColor);
    m_chosenMark->setPen(QPen(kChosenColor, 2.5));
    m_chosenMark->setMarkerSize(20);
    m_nowMark->setColor(kNowColor);
    m_nowMark->setBorderColor(Qt::white);
    m_nowMark->setMarkerSize(9);
    m_nowMark->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    for (auto [series, color] : {std::pair{m_met, kMetColor}, std::pair{m_missed, kMissedColor}}) {
        series->setColor(color);
        series->setBorderColor(Qt::white);
        series->setMarkerSize(10);
    }
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_bound), static_cast<QXYSeries*>(m_missed),
                         static_cast<QXYSeries*>(m_met), static_cast<QXYSeries*>(m_nowMark),
                         static_cast<QXYSeries*>(m_chosenMark)}) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(200, 120);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    m_caption->setFixedHeight(2 * m_caption->fontMetrics().lineSpacing() + 2);
    m_caption->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_message->setWordWrap(true);
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setStyleSheet(QStringLiteral("color: palette(mid);"));
    auto* plot = new QWidget(this);
    auto* stack = new QStackedLayout(plot);
    stack->setStackingMode(QStackedLayout::StackAll);
    stack->addWidget(m_message);
    stack->addWidget(m_view);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(m_caption);
    column->addWidget(plot, 1);
    setMessage(
        tr("Find a plan: each candidate the search judged is drawn here, its cost "
           "against the target that binds."));
}

void FrontierChart::setMessage(const QString& text) {
    m_points.clear();
    m_chosen.reset();
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_bound), static_cast<QXYSeries*>(m_missed),
                         static_cast<QXYSeries*>(m_met), static_cast<QXYSeries*>(m_nowMark),
                         static_cast<QXYSeries*>(m_chosenMark)})
        s->clear();
    m_caption->clear();
    m_message->setText(text);
    m_message->setVisible(true);
    m_view->setVisible(false);
}

void FrontierChart::setFrontier(const Axis& objective, const Axis& target, double targetBound,
                                std::vector<Point> points, std::optional<int> chosen,
                                std::optional<int> now) {
    if (points.empty()) {
        setMessage(tr("No candidate was judged."));
        return;
    }
    m_points = std::move(points);
    m_chosen = chosen;
    double xMax = 0, yMax = std::abs(targetBound);
    for (const Point& p : m_points) {
        xMax = std::max(xMax, std::abs(p.objective));
        if (std::isfinite(p.target)) yMax = std::max(yMax, std::abs(p.target));
    }
    const AxisScale xs = axisScaleFor(objective.unit, xMax), ys = axisScaleFor(target.unit, yMax);
    m_met->clear();
    m_missed->clear();
    m_chosenMark->clear();
    m_nowMark->clear();
    m_bound->clear();
    double xLow = INFINITY, xHigh = -INFINITY, yLow = targetBound * ys.factor,
           yHigh = targetBound * ys.factor;
    for (int i = 0; i < static_cast<int>(m_points.size()); ++i) {
        const Point& p = m_points[static_cast<std::size_t>(i)];
        if (!std::isfinite(p.objective) || !std::isfinite(p.target)) continue;
        const QPointF at(p.objective * xs.factor, p.target * ys.factor);
        (p.met ? m_met : m_missed)->append(at);
        if (chosen && *chosen == i) m_chosenMark->append(at);
        if (now && *now == i) m_nowMark->append(at);
        xLow = std::min(xLow, at.x());
        xHigh = std::max(xHigh, at.x());
        yLow = std::min(yLow, at.y());
        yHigh = std::max(yHigh, at.y());
    }
    if (!std::isfinite(xLow)) {
        setMessage(tr("No candidate reported both the objective and the target."));
        return;
    }
    auto [x0, x1] = padded(xLow, xHigh);
    auto [y0, y1] = padded(std::min(0.0, yLow), yHigh);
    if (yLow >= 0) y0 = 0;  // waits, costs and shares start at zero
    m_x->setRange(x0, x1);
    m_y->setRange(y0, y1);
    m_x->applyNiceNumbers();  // ticks at round values
    m_y->applyNiceNumbers();
    x0 = m_x->min();
    x1 = m_x->max();
    m_x->setTitleText(QStringLiteral("%1 (%2)").arg(objective.title, xs.title));
    m_y->setTitleText(QStringLiteral("%1 (%2)").arg(target.title, ys.title));
    m_bound->append(x0, targetBound * ys.factor);
    m_bound->append(x1, targetBound * ys.factor);
    m_caption->setText(tr("%1 against %2: <span style='color:%3'>●</span> meets every target, "
                          "<span style='color:%4'>●</span> misses one, ◯ the plan, "
                          "<span style='color:%5'>■</span> as it stands; dashed: the %2 target.")
                           .arg(objective.title, target.title, kMetColor.name(),
                                kMissedColor.name(), kNowColor.name()));
    m_message->setVisible(false);
    m_view->setVisible(true);
}

QString FrontierChart::caption() const {
    return m_caption->text();
}

}  // namespace gpuplan::ui
