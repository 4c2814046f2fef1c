#include "workload_panel.hpp"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

#include "tables/pod_request_model.hpp"
#include "tables/workload_delegate.hpp"
#include "tables/workload_models.hpp"

namespace gpuplan::app {

DemandSpinBox::DemandSpinBox(ScenarioDocument* document, QWidget* parent)
    : QDoubleSpinBox(parent), m_doc(document) {
    // The file allows (0, 100]: six decimals show every value a person types exactly (0.005,
    // 1.234), and the smallest step above 0 is the minimum. Trailing zeros are not shown.
    setDecimals(kDecimals);
    setRange(std::pow(10.0, -kDecimals), 100);
    setSingleStep(0.1);
    setPrefix(tr("Demand × "));
    setAccelerated(true);
    // Commit on Enter, focus loss or a step, not on every keystroke: one undo step per value.
    setKeyboardTracking(false);
    sync();
    connect(m_doc, &ScenarioDocument::changed, this, &DemandSpinBox::sync);
    connect(this, &QDoubleSpinBox::valueChanged, this, [this](double stepped) {
        // The scenario gets the value as shown: a step's sum (1.2345680000000002) is rounded.
        const double v = valueFromText(textFromValue(stepped));
        // Only a value the user chose reaches the scenario; the box's own rounding never does.
        if (v == m_shown) return;
        const WorkloadEdit e = setDemandMultiplier(m_doc->scenario(), v);
        const QString refusal =
            e.refusal.isEmpty() ? m_doc->edit(e.after, e.text, ScenarioDocument::kMergeDemandSteps)
                                : e.refusal;
        if (!refusal.isEmpty()) {
            sync();
            emit refused(refusal);
        }
    });
}

QString DemandSpinBox::textFromValue(double value) const {
    QString text = locale().toString(value, 'f', kDecimals);
    const QChar point = locale().decimalPoint().front();
    // "1.300000" → "1.3", "2.000000" → "2"
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point)) text.chop(1);
    }
    return text;
}

void DemandSpinBox::sync() {
    const double exact = m_doc->scenario().demandMultiplier;
    {
        const QSignalBlocker block(this);
        setValue(exact);
    }
    m_shown = value();
    QString tip =
        tr("Scales every Poisson and diurnal job class's rate and compresses trace "
           "arrivals; explicit jobs and list arrivals keep their times. 1.3 = demand "
           "grows 30 %.");
    // A value with more decimals than the box holds: say what the run really uses.
    if (m_shown != exact)
        tip = tr("The scenario's demand multiplier is exactly %1; the box shows it rounded and "
                 "changes it only when you change the box.")
                  .arg(QString::number(exact, 'g', QLocale::FloatingPointShortest)) +
              QStringLiteral("\n\n") + tip;
    setToolTip(tip);
}

WorkloadPanel::WorkloadPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document) {
    m_teams = new ui::TeamTableModel(this);
    m_classes = new ui::JobClassTableModel(this);
    m_jobs = new ui::ExplicitJobTableModel(this);
    // Each cell edit: a pure function makes the scenario after, the document validates it.
    m_teams->setEditHook([this](int row, int column, const QVariant& v) {
        return commit(setTeamCell(m_doc->scenario(), row, column, v));
    });
    m_classes->setEditHook([this](int row, int column, const QVariant& v) {
        return commit(setClassCell(m_doc->scenario(), row, column, v));
    });
    m_jobs->setEditHook([this](int row, int column, const QVariant& v) {
        return commit(setJobCell(m_doc->scenario(), row, column, v));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    // The tab bar's corner holds the demand box and the reason of the last refusal, so the
    // tables keep every row the dock has.
    auto* corner = new QWidget(this);
    auto* cornerRow = new QHBoxLayout(corner);
    cornerRow->setContentsMargins(0, 0, 0, 2);
    m_reason = new QLabel(corner);
    m_reason->setStyleSheet(QStringLiteral("color: #b03030;"));
    m_reason->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_reason->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_reason->setMinimumWidth(500);
    cornerRow->addWidget(m_reason, 1);
    m_demand = new DemandSpinBox(m_doc, corner);
    connect(m_demand, &DemandSpinBox::refused, this, &WorkloadPanel::showReason);
    cornerRow->addWidget(m_demand);

    // The tables on the left, the selected class's or job's pod request on the right.
    auto* split = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(split, 1);
    m_tabs = new QTabWidget(split);
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);
    split->addWidget(m_tabs);
    auto* requestPane = new QWidget(split);
    auto* requestColumn = new QVBoxLayout(requestPane);
    requestColumn->setContentsMargins(0, 0, 0, 0);
    requestColumn->setSpacing(2);
    m_podRequestTitle = new QLabel(requestPane);
    m_podRequestTitle->setWordWrap(true);
    requestColumn->addWidget(m_podRequestTitle);
    m_podRequest = new ui::PodRequestModel(this);
    m_podRequest->setEditHook([this](int row, int, const QVariant& v) {
        return commit(setPodRequestValue(m_doc->scenario(), m_podRequest->target(), row, v));
    });
    m_podRequestView = makeView(m_podRequest);
    m_podRequestView->setMinimumHeight(0);
    requestColumn->addWidget(m_podRequestView, 1);
    split->addWidget(requestPane);
    // Room for "Topology sensitivity | 0.25 of a GPU (250m)" without scrolling.
    requestPane->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 44);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto page = [this](QTableView* view, const QString& title,
                       std::initializer_list<std::pair<QString, std::function<void()>>> buttons) {
        auto* w = new QWidget(this);
        auto* v = new QVBoxLayout(w);
        v->setContentsMargins(0, 0, 0, 0);
        v->addWidget(view, 1);
        auto* row = new QHBoxLayout;
        for (const auto& [label, action] : buttons) {
            auto* b = new QPushButton(label, w);
            connect(b, &QPushButton::clicked, this, action);
            row->addWidget(b);
        }
        row->addStretch(1);
        v->addLayout(row);
        m_tabs->addTab(w, title);
    };

    m_classView = makeView(m_classes);
    page(m_classView, tr("Job classes"),
         {{tr("Add class"), [this] { commit(addJobClass(m_doc->scenario())); }},
          {tr("Duplicate"),
           [this] {
               if (int r = currentRow(m_classView); r >= 0)
                   commit(duplicateJobClass(m_doc->scenario(), r));
           }},
          {tr("Remove"), [this] {
               if (int r = currentRow(m_classView); r >= 0)
                   commit(removeJobClass(m_doc->scenario(), r));
           }}});
    m_teamView = makeView(m_teams);
    // The colour cell opens a colour picker (typing "#rrggbb" works too).
    connect(m_teamView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() != ui::TeamTableModel::ColorColumn) return;
        const QColor now(m_teams->data(index, Qt::EditRole).toString());
        const QColor picked =
            QColorDialog::getColor(now.isValid() ? now : Qt::gray, this, tr("Colour of the team"));
        if (picked.isValid()) m_teams->setData(index, picked.name(), Qt::EditRole);
    });
    page(m_teamView, tr("Teams"),
         {{tr("Add team"), [this] { commit(addTeam(m_doc->scenario())); }},
          {tr("Remove"), [this] {
               if (int r = currentRow(m_teamView); r >= 0) commit(removeTeam(m_doc->scenario(), r));
           }}});
    m_jobView = makeView(m_jobs);
    page(m_jobView, tr("Jobs"), {{tr("Remove"), [this] {
                                      if (int r = currentRow(m_jobView); r >= 0)
                                          commit(removeJob(m_doc->scenario(), r));
                                  }}});
    m_teamView->setEditTriggers(QAbstractItemView::EditKeyPressed |
                                QAbstractItemView::AnyKeyPressed |
                                QAbstractItemView::SelectedClicked);

    for (QTableView* v : {m_classView, m_jobView})
        connect(v->selectionModel(), &QItemSelectionModel::currentChanged, this,
                &WorkloadPanel::followSelection);
    connect(m_tabs, &QTabWidget::currentChanged, this, &WorkloadPanel::followSelection);

    connect(m_doc, &ScenarioDocument::changed, this, &WorkloadPanel::refresh);
    refresh();
}

void WorkloadPanel::followSelection() {
    using T = ui::PodRequestModel::Target;
    T target;
    // Each table sits on its own tab page.
    QWidget* page = m_tabs->currentWidget();
    if (QTableView* v = page == m_classView->parentWidget() ? m_classView
                        : page == m_jobView->parentWidget() ? m_jobView
                                                            : nullptr;
        v && v->currentIndex().isValid())
        target = T{v == m_classView ? T::Class : T::Job, v->currentIndex().row()};
    m_podRequest->setTarget(target);
    const QString name = m_podRequest->targetName();
    m_podRequestTitle->setText(
        name.isEmpty() ? tr("<i>Select a job class or a job to edit its pod request.</i>")
                       : tr("<b>Pod request of %1</b>").arg(name.toHtmlEscaped()));
    m_podRequestView->resizeColumnToContents(ui::PodRequestModel::TraitColumn);
}

QTableView* WorkloadPanel::makeView(QAbstractItemModel* model) {
    auto* view = new QTableView(this);
    view->setModel(model);
    view->setItemDelegate(new ui::WorkloadDelegate(view));
    view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    view->setSelectionBehavior(QAbstractItemView::SelectItems);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setMinimumSectionSize(64);
    view->setWordWrap(false);
    const int rowH = view->fontMetrics().height() + 6;
    view->verticalHeader()->setDefaultSectionSize(rowH);
    // Room for the default preset's five classes without scrolling.
    view->setMinimumHeight(6 * rowH + view->horizontalHeader()->sizeHint().height() + 4);
    return view;
}

int WorkloadPanel::currentRow(QTableView* view) {
    const QModelIndex i = view->currentIndex();
    if (!i.isValid()) showReason(tr("select a row first"));
    return i.isValid() ? i.row() : -1;
}

void WorkloadPanel::refresh() {
    const Scenario& s = m_doc->scenario();
    showReason({});  // a refusal is about the scenario it was made against
    const auto shown = std::make_shared<const Scenario>(s);
    m_teams->setScenario(shown);
    m_classes->setScenario(shown);
    m_jobs->setScenario(shown);
    m_podRequest->setScenario(shown);
    followSelection();  // the row may have gone, or been renamed
    m_tabs->setTabText(2, tr("Jobs (%1)").arg(s.jobs.size()));
    // Fit the columns when rows come or go, not on every edit (columns would jump).
    for (QTableView* v : {m_teamView, m_classView, m_jobView}) {
        const int rows = v->model()->rowCount();
        if (v->property("fittedRows").toInt() != rows) v->resizeColumnsToContents();
        v->setProperty("fittedRows", rows);
    }
    m_classView->resizeColumnToContents(ui::JobClassTableModel::RateColumn);  // "× 1.3 = …"
}

void WorkloadPanel::setResults(std::shared_ptr<const Results> results) {
    m_classes->setResults(std::move(results));
    m_classView->resizeColumnToContents(ui::JobClassTableModel::CheckpointAdviceColumn);
}

QString WorkloadPanel::commit(const WorkloadEdit& edit) {
    const QString refusal =
        edit.refusal.isEmpty() ? m_doc->edit(edit.after, edit.text) : edit.refusal;
    showReason(refusal);
    if (refusal.isEmpty()) emit message(edit.text);
    return refusal;
}

void WorkloadPanel::showReason(const QString& reason) {
    m_reason->setText(reason.isEmpty() ? QString() : tr("Refused: %1").arg(reason));
    m_reason->setToolTip(reason);
    if (!reason.isEmpty()) emit message(tr("Refused: %1").arg(reason));
}

QString WorkloadPanel::reason() const {
    return m_reason->toolTip();
}

}  // namespace gpuplan::app
