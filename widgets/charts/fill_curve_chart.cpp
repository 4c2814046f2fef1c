#include "fill_curve_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace gpuplan::ui {

FillCurveChart::FillCurveChart(QWidget* parent)
    : QWidget(parent),
      m_chart(new QChart),
      m_view(new QChartView(m_chart, this)),
      m_x(new QValueAxis),
      m_y(new QValueAxis) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_x->setTitleText(tr("arrived GPU demand, % of GPU capacity"));
    m_y->setTitleText(tr("allocation, % of GPU capacity"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_x->setRange(0, 130);
    m_y->setRange(0, 100);
    m_x->setTickCount(14);
    m_y->setTickCount(11);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(360, 240);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void FillCurveChart::setCurves(const std::vector<FillCurve>& curves) {
    m_chart->removeAllSeries();
    double maxX = 0;
    for (const FillCurve& c : curves) {
        auto* s = new QLineSeries;
        s->setName(c.label);
        QPen pen(c.color);
        pen.setWidthF(2);
        s->setPen(pen);
        // replace(), not append(): Qt Charts appends point by point (toolchain.md).
        s->replace(QList<QPointF>(c.points.begin(), c.points.end()));
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        if (!c.points.empty()) maxX = std::max(maxX, c.points.back().x());
    }
    // Whole tens, so the ticks read 0, 10, …; at least to 100 % arrived, the headline point.
    const double top = std::max(100.0, std::ceil(maxX / 10) * 10);
    m_x->setRange(0, top);
    m_x->setTickCount(static_cast<int>(top / 10) + 1);
}

QStringList FillCurveChart::seriesNames() const {
    QStringList names;
    for (QAbstractSeries* s : m_chart->series())
        names << s->name();
    return names;
}

int FillCurveChart::pointCount(int series) const {
    const auto all = m_chart->series();
    if (series < 0 || series >= all.size()) return 0;
    return static_cast<int>(static_cast<QLineSeries*>(all[series])->count());
}

QImage FillCurveChart::toImage(QSize size) const {
    QImage image(size, QImage::Format_ARGB32);
    image.fill(palette().color(QPalette::Window));
    QPainter painter(&image);
    m_view->render(&painter);
    return image;
}

QColor fillPolicyColor(int policyIndex) {
    static const QColor kTableau10[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    return kTableau10[static_cast<std::size_t>(std::max(0, policyIndex)) % std::size(kTableau10)];
}

}  // namespace gpuplan::ui
