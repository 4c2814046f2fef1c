#include "capacity_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "chart_panel.hpp"
#include "gpuplan/core/time_format.hpp"
#include "tables/placeable_table_model.hpp"

namespace gpuplan::ui {

namespace {

QTableView* slotTable(PlaceableTableModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->setWordWrap(false);
    return view;
}

QString policyLabel(DefragPolicy p) {
    switch (p) {
        case DefragPolicy::Pack:
            return QObject::tr("pack (best fit)");
        case DefragPolicy::Spread:
            return QObject::tr("spread");
        case DefragPolicy::Topology:
            return QObject::tr("topology-aware");
        case DefragPolicy::Fgd:
            return QObject::tr("FGD");
        case DefragPolicy::BestFit:
            return QObject::tr("BestFit (FGD study)");
    }
    return {};
}

QString gpus(double n) {
    return QObject::tr("%1 GPUs").arg(n);
}

}  // namespace

CapacityView::CapacityView(QWidget* parent) : QWidget(parent) {
    m_chart = new ChartPanel(tr("Largest placeable gang"), tr("GPUs"),
                             tr("largest gang that could start, by where it must fit"),
                             ChartPanel::Mode::Lines,
                             {{"largest_gang_gpus{node}", tr("one node"), QColor("#1f4e79")},
                              {"largest_gang_gpus{rack}", tr("one rack"), QColor("#2e86c1")},
                              {"largest_gang_gpus{pod}", tr("one pod"), QColor("#17a589")},
                              {"largest_gang_gpus{fleet}", tr("anywhere"), QColor("#a04000")}},
                             this);
    connect(m_chart, &ChartPanel::timeClicked, this, &CapacityView::timeClicked);

    m_sentence = new QLabel(this);
    m_sentence->setObjectName(QStringLiteral("capacitySentence"));
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_model = new PlaceableTableModel(this);
    m_tableView = slotTable(m_model, this);
    m_tableView->setObjectName(QStringLiteral("capacityTable"));

    m_policy = new QComboBox(this);
    m_policy->setObjectName(QStringLiteral("defragPolicy"));
    for (DefragPolicy p : kDefragPolicies)
        m_policy->addItem(policyLabel(p), static_cast<int>(p));
    m_repack = new QPushButton(tr("Repack at t"), this);
    m_repack->setObjectName(QStringLiteral("repackButton"));
    m_repack->setToolTip(
        tr("What if every job running at t were drained and placed again, largest first, with "
           "this policy? Changes nothing in the scenario."));
    connect(m_repack, &QPushButton::clicked, this, [this] {
        if (m_repackRunning)
            emit repackCancelled();
        else
            emit repackRequested(policy(), m_timeS);
    });
    m_defragText = new QLabel(this);
    m_defragText->setObjectName(QStringLiteral("defragSummary"));
    m_defragText->setWordWrap(true);
    m_defragText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_defragModel = new PlaceableTableModel(this);
    m_defragView = slotTable(m_defragModel, this);
    m_defragView->setObjectName(QStringLiteral("defragTable"));

    // Three panes side by side (the bottom dock is wide and low): the chart, the table now,
    // the what-if.
    auto* now = new QWidget(this);
    auto* nowCol = new QVBoxLayout(now);
    nowCol->setContentsMargins(4, 0, 4, 0);
    nowCol->addWidget(m_sentence);
    nowCol->addWidget(new QLabel(tr("Largest gang (GPUs), then how many gangs of each size "
                                    "could start at once, each inside one …"),
                                 now));
    nowCol->addWidget(m_tableView, 1);

    auto* whatIf = new QWidget(this);
    auto* whatIfCol = new QVBoxLayout(whatIf);
    whatIfCol->setContentsMargins(4, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Defragment what-if:"), whatIf));
    row->addWidget(m_policy);
    row->addWidget(m_repack);
    row->addStretch(1);
    whatIfCol->addLayout(row);
    whatIfCol->addWidget(m_defragText);
    whatIfCol->addWidget(m_defragView, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_chart);
    split->addWidget(now);
    split->addWidget(whatIf);
    split->setSizes({380, 600, 600});
    m_chart->setMinimumWidth(280);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);
    clearDefrag(tr("Repack to see what draining and re-placing the running jobs would free."));
}

DefragPolicy CapacityView::policy() const {
    return static_cast<DefragPolicy>(m_policy->currentData().toInt());
}

void CapacityView::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_chart->setResults(m_results);
    m_stale = true;
    clearDefrag(tr("Repack to see what draining and re-placing the running jobs would free."));
    if (isVisible()) refresh();
}

void CapacityView::setTime(double timeS) {
    if (timeS == m_timeS && !m_stale) return;
    m_timeS = timeS;
    m_chart->setCursorTime(timeS);
    m_stale = true;
    if (isVisible()) refresh();
}

const PlaceableSlots& CapacityView::table() {
    if (m_stale) refresh();
    return m_table;
}

QString CapacityView::sentence() const {
    return m_sentence->text();
}

QString CapacityView::defragSummary() const {
    return m_defragText->text();
}

void CapacityView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_stale) refresh();
}

void CapacityView::refresh() {
    m_stale = false;
    if (!m_results) {
        m_table = PlaceableSlots{};
        m_model->clear();
        m_sentence->setText(tr("No results yet."));
        return;
    }
    // stateAt walks the run's segments: done only when t or the results change and the view
    // is on screen (the default preset: well under a millisecond).
    m_table = placeableSlotsAt(m_results->fleet, m_results->stateAt(m_timeS));
    m_model->setTable(m_table);
    m_sentence->setText(
        tr("At %1: %2")
            .arg(QString::fromStdString(formatSimTime(m_timeS)),
                 QString::fromStdString(explainPlaceable(m_table, m_results->fleet))));
    if (m_defragModel->rowCount() > 0)
        clearDefrag(tr("The time moved: repack again to see the what-if at %1.")
                        .arg(QString::fromStdString(formatSimTime(m_timeS))));
}

void CapacityView::clearDefrag(const QString& hint) {
    m_defragModel->clear();
    m_defragView->setVisible(false);
    m_defragText->setText(hint);
}

void CapacityView::showDefragError(const QString& message) {
    clearDefrag(tr("The repack failed: %1").arg(message));
}

void CapacityView::setRepackRunning(bool running, double fraction) {
    m_repackRunning = running;
    m_policy->setEnabled(!running);
    m_repack->setText(running ? tr("Cancel repack (%1 %)").arg(static_cast<int>(100 * fraction))
                              : tr("Repack at t"));
}

void CapacityView::showDefrag(std::shared_ptr<const Results> results, const DefragWhatIf& w) {
    if (results != m_results || w.timeS != m_timeS) return;  // stale: asked for another run or t
    m_defragModel->setComparison(w.before, w.after);
    m_defragView->setVisible(true);
    const int moved = static_cast<int>(w.moved.size());
    QString text =
        tr("Repack at %1 with %2: %3 of %4 running jobs move and restart, %5 keep their GPUs; "
           "restarted work %6 GPU-h (work since each started, no checkpoints, plus startup).")
            .arg(QString::fromStdString(formatSimTime(w.timeS)), policyLabel(w.policy))
            .arg(moved)
            .arg(w.runningJobs)
            .arg(w.keptJobs)
            .arg(w.restartedGpuHours, 0, 'f', 1);
    text += QLatin1Char(' ') + tr("Largest rack-local gang %1 → %2, pod-local %3 → %4.")
                                   .arg(gpus(w.before.largest(SlotLevel::Rack)),
                                        gpus(w.after.largest(SlotLevel::Rack)),
                                        gpus(w.before.largest(SlotLevel::Pod)),
                                        gpus(w.after.largest(SlotLevel::Pod)));
    if (!w.unplaced.empty()) {
        QStringList names;
        for (std::size_t i = 0; i < w.unplaced.size() && i < 5; ++i)
            names << QString::fromStdString(m_results->jobName(w.unplaced[i]));
        if (w.unplaced.size() > 5) names << tr("…");
        text += QLatin1Char(' ') + tr("%n job(s) could not be placed again: %1.", "",
                                      static_cast<int>(w.unplaced.size()))
                                       .arg(names.join(QStringLiteral(", ")));
    }
    m_defragText->setText(text);
}

}  // namespace gpuplan::ui
