#include "chart_board.hpp"

#include <QGridLayout>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

ChartPanel* ChartBoard::costChart() {
    // One layer per buying class the fleet has (the engine writes a series only for those).
    std::vector<ChartSeriesSpec> classes;
    for (BuyingClass c : kBuyingClasses) {
        const QString name = QString::fromLatin1(toString(c));
        classes.push_back(
            {QStringLiteral("cost_rate_usd_per_h{%1}").arg(name), name, buyingClassColor(c)});
    }
    auto* chart = new ChartPanel(tr("Cost"), tr("USD/h"), tr("USD per hour, by buying class"),
                                 ChartPanel::Mode::StackedAreas, std::move(classes), this);
    chart->setShowsOnlyPresentSeries(true);
    chart->setPlaceholder(
        tr("No prices: pick a price book (Buying mix tab) to see what the "
           "fleet costs."));
    return chart;
}

ChartBoard::ChartBoard(QWidget* parent) : QWidget(parent) {
    using Mode = ChartPanel::Mode;
    m_charts = {
        new ChartPanel(tr("Utilization"), QStringLiteral("%"), tr("% of provisioned GPUs"),
                       Mode::Lines,
                       {{"allocation", tr("allocation"), QColor("#1f4e79"), 100},
                        {"occupancy", tr("occupancy (SM active)"), QColor("#2e86c1"), 100},
                        {"mfu", tr("MFU"), QColor("#48c9b0"), 100}},
                       this),
        new ChartPanel(
            tr("Pending GPUs by layer"), tr("GPUs"), tr("GPUs asked by waiting jobs, stacked"),
            Mode::StackedAreas,
            {{"pending_gpus{reservation}", layerName(Layer::Reservation),
              layerColor(Layer::Reservation)},
             {"pending_gpus{provisioning}", layerName(Layer::Provisioning),
              layerColor(Layer::Provisioning)},
             {"pending_gpus{scheduling}", layerName(Layer::Scheduling),
              layerColor(Layer::Scheduling)},
             {"pending_gpus{workload}", layerName(Layer::Workload), layerColor(Layer::Workload)}},
            this),
        new ChartPanel(tr("Fragmentation"), tr("GPUs"),
                       tr("free GPUs unusable by the job mix (FGD), by any waiting pod"),
                       Mode::Lines,
                       {{"fragmented_gpus", tr("fragmented (FGD)"), QColor("#1a5276")},
                        {"stranded_gpus", tr("stranded GPUs"), QColor("#a04000")}},
                       this),
        new ChartPanel(tr("Queue wait"), tr("min"), tr("minutes waited by jobs started"),
                       Mode::Lines,
                       {{"wait_s_p50", tr("p50"), QColor("#7d3c98"), 1 / 60.0},
                        {"wait_s_p95", tr("p95"), QColor("#c0392b"), 1 / 60.0}},
                       this),
        new ChartPanel(tr("Jobs"), tr("jobs"), tr("running and queued"), Mode::Lines,
                       {{"running_jobs", tr("running"), QColor("#27ae60")},
                        {"queue_length", tr("queued"), QColor("#e67e22")}},
                       this),
        costChart(),
    };
    for (ChartPanel* c : m_charts)
        connect(c, &ChartPanel::timeClicked, this, &ChartBoard::timeClicked);
    m_charts[0]->setFixedYRange(0, 100);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(2, 2, 2, 2);
    grid->setSpacing(4);
    relayout();
}

void ChartBoard::setShownChart(int index) {
    m_shown = index >= 0 && index < static_cast<int>(m_charts.size()) ? index : -1;
    relayout();
}

void ChartBoard::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const int columns = width() >= 2 * kMinChartWidthPx ? 2 : 1;
    if (columns != m_columns) {
        m_columns = columns;
        relayout();
    }
}

void ChartBoard::relayout() {
    auto* grid = static_cast<QGridLayout*>(layout());
    for (ChartPanel* c : m_charts)
        grid->removeWidget(c);
    // Stretch factors of rows and columns a previous layout used must not linger.
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretch(r, 0);
    if (m_shown >= 0) {
        for (std::size_t i = 0; i < m_charts.size(); ++i)
            m_charts[i]->setVisible(static_cast<int>(i) == m_shown);
        grid->addWidget(m_charts[m_shown], 0, 0, 1, 2);
        grid->setRowStretch(0, 1);
        return;
    }
    const int n = static_cast<int>(m_charts.size());
    for (int i = 0; i < n; ++i) {
        // The last chart of an odd count spans both columns.
        const bool spans = m_columns == 2 && i + 1 == n && i % 2 == 0;
        grid->addWidget(m_charts[i], i / m_columns, i % m_columns, 1, spans ? 2 : 1);
        grid->setRowStretch(i / m_columns, 1);
        m_charts[i]->setVisible(true);
    }
}

void ChartBoard::setResults(std::shared_ptr<const Results> results) {
    for (ChartPanel* c : m_charts)
        c->setResults(results);
}

void ChartBoard::setBaseline(std::shared_ptr<const Results> baseline, const QString& name) {
    for (ChartPanel* c : m_charts)
        c->setBaseline(baseline, name);
}

void ChartBoard::setReplications(std::shared_ptr<const Replications> replications) {
    for (ChartPanel* c : m_charts)
        c->setReplications(replications);
}

void ChartBoard::setCursorTime(double timeS) {
    for (ChartPanel* c : m_charts)
        c->setCursorTime(timeS);
}

}  // namespace gpuplan::ui
