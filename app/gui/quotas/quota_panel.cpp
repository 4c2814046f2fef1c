#include "quota_panel.hpp"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "format/ui_palette.hpp"
#include "format/workload_format.hpp"
#include "tables/quota_usage_delegate.hpp"
#include "tables/workload_delegate.hpp"

namespace gpuplan::app {

namespace {

using Model = ui::QuotaTableModel;

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

const QuotaDef* quotaOf(const Scenario& s, const std::string& team) {
    for (const QuotaDef& quota : s.quotas)
        if (quota.team == team) return &quota;
    return nullptr;
}

const FlavorQuotaDef* flavorOf(const Scenario& s, const Model::RowKey& row) {
    if (const QuotaDef* quota = quotaOf(s, row.team))
        for (const FlavorQuotaDef& f : quota->flavors)
            if (f.gpuModel == row.gpuModel) return &f;
    return nullptr;
}

/// A GPU count or number typed in a cell, or the reason it is not one.
std::optional<double> parseCell(const QString& field, const QString& text, ui::Quantity quantity,
                                bool plainNumber, QString* error) {
    QString why;
    const std::optional<double> v =
        plainNumber ? ui::parseNumber(text, &why) : ui::parseQuantity(text, quantity, &why);
    if (!v) *error = QStringLiteral("%1: %2").arg(field, why);
    return v;
}

}  // namespace

QuotaPanel::QuotaPanel(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    m_model = new Model(this);
    m_model->setEditHook([this](const Model::RowKey& row, int column, const QVariant& value) {
        return editCell(row, column, value);
    });
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("quotaView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new ui::WorkloadDelegate(m_view));  // line edits, the reclaim combo
    m_view->setItemDelegateForColumn(Model::UsageColumn, new ui::QuotaUsageDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);
    m_view->verticalHeader()->hide();
    // The usage bars take the room left; the other columns fit their contents when rows come
    // or go and when the first results arrive (not on every edit: columns would jump).
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(Model::UsageColumn, QHeaderView::Stretch);
    m_view->setWordWrap(false);

    m_add = new QPushButton(tr("Add quota"), this);
    m_add->setToolTip(
        tr("Gives the selected team a quota: nominal 0 on the fleet's first GPU model, in the "
           "first cohort (a team with a quota gets its next GPU model)."));
    m_remove = new QPushButton(tr("Remove quota"), this);
    m_remove->setToolTip(
        tr("Removes the selected row's quota; a team without any is no longer managed."));
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (!m_selected.team.empty()) commit(addQuota(m_doc->scenario(), m_selected.team));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (!m_selected.gpuModel.empty())
            commit(removeQuota(m_doc->scenario(), m_selected.team, m_selected.gpuModel));
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addSpacing(16);
    m_cohortRow = new QHBoxLayout;
    buttons->addLayout(m_cohortRow);
    buttons->addStretch(1);

    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    auto* tableColumn = new QVBoxLayout;
    tableColumn->addLayout(buttons);
    tableColumn->addWidget(m_view, 1);
    tableColumn->addWidget(m_refusal);

    // The tuning loop: drag and watch the waits move.
    m_tuning = new QGroupBox(tr("Fair-share tuning"), this);
    m_weight = new QSlider(Qt::Horizontal, m_tuning);
    m_weight->setObjectName(QStringLiteral("weightSlider"));
    m_weight->setRange(0, 10 * kWeightSteps);
    m_weight->setPageStep(kWeightSteps);
    m_weight->setToolTip(
        tr("fairSharing.weight of the selected team: a higher weight gets more "
           "of the cohort's spare quota (with fair sharing on)."));
    m_weightValue = new QLabel(m_tuning);
    m_nominal = new QSlider(Qt::Horizontal, m_tuning);
    m_nominal->setObjectName(QStringLiteral("nominalSlider"));
    m_nominal->setPageStep(8);
    m_nominal->setToolTip(tr("nominalQuota of the selected row's GPU model, in GPU-equivalents."));
    m_nominalValue = new QLabel(m_tuning);
    m_nominalLabel = new QLabel(tr("Nominal"), m_tuning);
    for (QLabel* value : {m_weightValue, m_nominalValue}) {
        value->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("8888 GPUs")));
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    m_readout = new QLabel(m_tuning);
    m_readout->setWordWrap(true);
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* weightRow = new QHBoxLayout;
    weightRow->addWidget(m_weight, 1);
    weightRow->addWidget(m_weightValue);
    auto* nominalRow = new QHBoxLayout;
    nominalRow->addWidget(m_nominal, 1);
    nominalRow->addWidget(m_nominalValue);
    auto* form = new QFormLayout;
    form->addRow(tr("Weight"), weightRow);
    form->addRow(m_nominalLabel, nominalRow);
    auto* tuningColumn = new QVBoxLayout(m_tuning);
    tuningColumn->addLayout(form);
    tuningColumn->addWidget(m_readout, 1);
    m_tuning->setMinimumWidth(340);

    auto* layout = new QHBoxLayout(this);
    layout->addLayout(tableColumn, 3);
    layout->addWidget(m_tuning, 1);

    // A drag is one undo step however long the hand rests on the handle.
    connect(m_weight, &QSlider::sliderPressed, this, [this] {
        m_doc->beginGesture(mergeKey("weight", {m_selected.team, {}}));
    });
    connect(m_nominal, &QSlider::sliderPressed, this,
            [this] { m_doc->beginGesture(mergeKey("nominal", m_selected)); });
    for (QSlider* slider : {m_weight, m_nominal})
        connect(slider, &QSlider::sliderReleased, m_doc, &ScenarioDocument::endGesture);
    connect(m_weight, &QSlider::valueChanged, this, [this](int v) {
        const double weight = static_cast<double>(v) / kWeightSteps;
        m_weightValue->setText(QString::number(weight, 'g', 4));
        const QuotaDef* quota = quotaOf(m_doc->scenario(), m_selected.team);
        if (!quota || quota->fairShareWeight == weight) return;
        commit(setFairShareWeight(m_doc->scenario(), m_selected.team, weight),
               mergeKey("weight", {m_selected.team, {}}));
    });
    connect(m_nominal, &QSlider::valueChanged, this, [this](int v) {
        m_nominalValue->setText(tr("%1 GPUs").arg(v));
        const FlavorQuotaDef* flavor = flavorOf(m_doc->scenario(), m_selected);
        if (!flavor || flavor->nominalGpus == v) return;
        commit(setNominalGpus(m_doc->scenario(), m_selected.team, m_selected.gpuModel, v),
               mergeKey("nominal", m_selected));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid()) return;
                m_selected = m_model->rowKey(current.row());
                syncTuning();
                updateReadout();  // the selected team in bold
            });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        // Rows came or went (a quota added or removed): keep the selection on its team.
        int row = m_model->rowOf(m_selected.team, m_selected.gpuModel);
        if (row < 0) row = m_model->rowOf(m_selected.team);
        if (row < 0 && m_model->rowCount() > 0) row = 0;
        if (row >= 0) m_view->selectRow(row);
        m_view->resizeColumnsToContents();
    });
    connect(m_doc, &ScenarioDocument::changed, this, &QuotaPanel::syncFromDocument);
    syncFromDocument();
}

void QuotaPanel::setResults(std::shared_ptr<const Results> results) {
    const bool first = !m_results && results;
    m_results = std::move(results);
    m_model->setResults(m_results);
    if (first) m_view->resizeColumnsToContents();  // the wait p95 column has text now
    syncTuning();                                  // the nominal slider's range follows the fleet
    updateReadout();
}

void QuotaPanel::setTime(double timeS) {
    m_model->setTime(timeS);
}

QCheckBox* QuotaPanel::fairSharingBox(const QString& cohort) const {
    for (const QPointer<QCheckBox>& box : m_cohortBoxes)
        if (box && box->property("cohort").toString() == cohort) return box;
    return nullptr;
}

QString QuotaPanel::refusal() const {
    return m_refusal->toolTip();
}

void QuotaPanel::selectRow(const std::string& team, const std::string& gpuModel) {
    const int row = m_model->rowOf(team, gpuModel);
    if (row >= 0) m_view->selectRow(row);
}

int QuotaPanel::mergeKey(const char* control, const Model::RowKey& row) {
    const QString name =
        QStringLiteral("quota/%1/%2/%3").arg(QLatin1String(control), q(row.team), q(row.gpuModel));
    // Far from the document's small named keys (kMergeDemandSteps …), never kNoMerge.
    return static_cast<int>(0x40000000u | (qHash(name) & 0x3fffffffu));
}

QString QuotaPanel::commit(const QuotaEdit& edit, int mergeKey) {
    const QString refusal =
        edit.refusal.isEmpty() ? m_doc->edit(edit.after, edit.text, mergeKey) : edit.refusal;
    showReason(refusal);
    if (refusal.isEmpty()) emit message(edit.text);
    return refusal;
}

void QuotaPanel::showReason(const QString& reason) {
    m_refusal->setText(reason.isEmpty() ? QString() : tr("Refused: %1").arg(reason));
    m_refusal->setToolTip(reason);
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) emit message(tr("Refused: %1").arg(reason));
}

QString QuotaPanel::editCell(const Model::RowKey& row, int column, const QVariant& value) {
    const Scenario& s = m_doc->scenario();
    const QString text = value.toString();
    const QString field = m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    QString error;
    QuotaEdit edit;
    switch (column) {
        case Model::CohortColumn: {
            const QString cohort = text.trimmed();
            edit = setQuotaCohort(
                s, row.team, cohort == Model::kNoCohort ? std::string() : cohort.toStdString());
            break;
        }
        case Model::NominalColumn: {
            const auto v = parseCell(field, text, ui::Quantity::Gpus, false, &error);
            if (!v) return commit(QuotaEdit{{}, {}, error});
            edit = setNominalGpus(s, row.team, row.gpuModel, *v);
            break;
        }
        case Model::BorrowingLimitColumn:
        case Model::LendingLimitColumn: {
            const auto v = parseLimitGpus(text, &error);
            if (!v) return commit(QuotaEdit{{}, {}, QStringLiteral("%1: %2").arg(field, error)});
            edit = column == Model::BorrowingLimitColumn
                       ? setBorrowingLimitGpus(s, row.team, row.gpuModel, *v)
                       : setLendingLimitGpus(s, row.team, row.gpuModel, *v);
            break;
        }
        case Model::WeightColumn: {
            const auto v = parseCell(field, text, ui::Quantity::Gpus, true, &error);
            if (!v) return commit(QuotaEdit{{}, {}, error});
            edit = setFairShareWeight(s, row.team, *v);
            break;
        }
        case Model::ReclaimColumn: {
            const QStringList choices = {QLatin1String(toString(ReclaimPolicy::Never)),
                                         QLatin1String(toString(ReclaimPolicy::LowerPriority)),
                                         QLatin1String(toString(ReclaimPolicy::Any))};
            const int i = choices.indexOf(text.trimmed());
            if (i < 0)
                return commit(QuotaEdit{
                    {},
                    {},
                    tr("%1: \"%2\" is not one of %3").arg(field, text, choices.join(", "))});
            edit = setReclaimWithinCohort(s, row.team, static_cast<ReclaimPolicy>(i));
            break;
        }
        default:
            return tr("%1 cannot be edited here.").arg(field);
    }
    return commit(edit);
}

void QuotaPanel::syncFromDocument() {
    m_model->setScenario(std::make_shared<const Scenario>(m_doc->scenario()));
    if (!m_view->selectionModel()->currentIndex().isValid() && m_model->rowCount() > 0)
        m_view->selectRow(0);
    syncCohorts();
    syncTuning();
    updateReadout();
}

void QuotaPanel::syncCohorts() {
    const Scenario& s = m_doc->scenario();
    QStringList names;
    for (const CohortDef& c : s.cohorts)
        names << q(c.name);
    QStringList shown;
    for (const QPointer<QCheckBox>& box : m_cohortBoxes)
        if (box) shown << box->property("cohort").toString();
    if (shown != names) {
        for (const QPointer<QCheckBox>& box : m_cohortBoxes)
            delete box.data();
        m_cohortBoxes.clear();
        for (const QString& name : names) {
            auto* box = new QCheckBox(tr("fair sharing in cohort %1").arg(name), this);
            box->setProperty("cohort", name);
            box->setToolTip(
                tr("Kueue's fair sharing in cohort %1: the spare quota goes to the team "
                   "with the lowest share of what it uses above its nominal quota ÷ its "
                   "weight; off: first come (by priority).")
                    .arg(name));
            connect(box, &QCheckBox::toggled, this, [this, name](bool on) {
                commit(setCohortFairSharing(m_doc->scenario(), name.toStdString(), on));
            });
            m_cohortRow->addWidget(box);
            m_cohortBoxes << box;
        }
    }
    for (int i = 0; i < m_cohortBoxes.size(); ++i) {
        const QSignalBlocker block(m_cohortBoxes[i]);
        m_cohortBoxes[i]->setChecked(s.cohorts[i].fairSharing);
    }
}

int QuotaPanel::fleetGpusOf(const std::string& gpuModel) const {
    if (!m_results) return 0;
    const Fleet& fleet = m_results->fleet;
    int gpus = 0;
    for (const FleetNode& node : fleet.nodes)
        if (fleet.gpuModels[node.gpuModel].id == gpuModel) gpus += node.gpus;
    return gpus;
}

void QuotaPanel::syncTuning() {
    const Scenario& s = m_doc->scenario();
    const QuotaDef* quota = quotaOf(s, m_selected.team);
    const FlavorQuotaDef* flavor = flavorOf(s, m_selected);
    m_tuning->setTitle(m_selected.team.empty()
                           ? tr("Fair-share tuning")
                           : tr("Fair-share tuning: %1").arg(q(m_selected.team)));
    m_add->setEnabled(!m_selected.team.empty());
    m_remove->setEnabled(flavor != nullptr);
    m_weight->setEnabled(quota != nullptr);
    m_nominal->setEnabled(flavor != nullptr);
    // Following the document never edits it: the sliders' own signals are blocked here.
    if (quota) {
        const QSignalBlocker block(m_weight);
        const int v = static_cast<int>(std::lround(quota->fairShareWeight * kWeightSteps));
        m_weight->setMaximum(std::max(10 * kWeightSteps, v));
        if (m_weight->value() != v) m_weight->setValue(v);
        m_weightValue->setText(QString::number(quota->fairShareWeight, 'g', 4));
    } else {
        m_weightValue->setText(QStringLiteral("–"));
    }
    if (flavor) {
        const QSignalBlocker block(m_nominal);
        const int nominal = static_cast<int>(std::lround(flavor->nominalGpus));
        const int fleetGpus = fleetGpusOf(flavor->gpuModel);
        m_nominal->setMaximum(std::max({fleetGpus, nominal, 8}));
        m_nominal->setValue(nominal);
        m_nominalLabel->setText(tr("Nominal %1").arg(ui::gpuShortName(flavor->gpuModel)));
        m_nominalValue->setText(tr("%1 GPUs").arg(QString::number(flavor->nominalGpus, 'g', 6)));
    } else {
        m_nominalLabel->setText(tr("Nominal"));
        m_nominalValue->setText(QStringLiteral("–"));
    }
}

void QuotaPanel::updateReadout() {
    // Per team, as the results come in: what the tuning is for.
    if (!m_results) {
        m_readout->setText(tr("<i>Waiting for the first run…</i>"));
        return;
    }
    QString html =
        tr("<table cellspacing=0 cellpadding=3><tr><th align=left>Team</th><th align=right>Wait "
           "p95</th><th align=right>Used (mean)</th><th align=right>GPU-h</th></tr>");
    for (const GroupKpis& k : m_results->teamKpis) {
        const bool selected = k.name == m_selected.team;
        const QString name = selected ? QStringLiteral("<b>%1</b>").arg(q(k.name).toHtmlEscaped())
                                      : q(k.name).toHtmlEscaped();
        const QString wait =
            std::isfinite(k.waitP95S) ? ui::formatDuration(k.waitP95S) : QStringLiteral("–");
        const QString used = std::isfinite(k.usedGpusMean) ? QString::number(k.usedGpusMean, 'f', 1)
                                                           : QStringLiteral("–");
        html += QStringLiteral(
                    "<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                    "<td align=right>%4</td></tr>")
                    .arg(name, wait, used, QString::number(k.gpuHours, 'f', 0));
    }
    html += QStringLiteral("</table>");
    m_readout->setText(html);
}

}  // namespace gpuplan::app
