#include "plan_form.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

#include "format/kpi_format.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/studies/plan_words.hpp"
#include "gpuplan/studies/replications.hpp"

namespace gpuplan::app {

namespace {

constexpr int kKpiRole = Qt::UserRole;
constexpr int kTeamRole = Qt::UserRole + 1;
constexpr int kPointerRole = Qt::UserRole;
constexpr int kFilledRole = Qt::UserRole + 2;
constexpr int kUnitRole =
    Qt::UserRole +
    3;  ///< a target's KPI unit (Kpi::unit)  ///< a bound's text as the form filled it

/// How a target's bound is typed: waits in minutes, fractions in percent, else as the KPI is.
struct BoundUnit {
    QString shown;        ///< "min", "%", "jobs"
    double perShown = 1;  ///< the KPI's units per shown unit
};

/// By the unit the engine reports a KPI in (Kpi::unit).
BoundUnit unitOf(const std::string& unit) {
    if (unit == "s") return {QObject::tr("min"), 60};
    if (unit == "fraction") return {QStringLiteral("%"), 0.01};
    return {QString::fromStdString(unit), 1};
}

/// A target row: the KPI, of the fleet or of a team, and which way it must go.
struct TargetRow {
    std::string kpi;
    QString team;  ///< empty: the fleet's
    bool atMost = true;
    std::string unit;  ///< the engine's (Kpi::unit): "s", "fraction", "jobs"
};

QString rowKey(const QString& kpi, const QString& team) {
    return kpi + QLatin1Char('|') + team;
}

/// The KPI's current value: the fleet's, or the team's from the run on screen; NaN without.
double currentValue(const Results* results, const TargetRow& row) {
    if (!results) return std::nan("");
    if (row.team.isEmpty()) return results->kpi(row.kpi);
    for (const GroupKpis& g : results->teamKpis)
        if (QString::fromStdString(g.name) == row.team)
            for (const Kpi& k : teamKpiList(g))
                if (k.name == row.kpi) return k.value;
    return std::nan("");
}

/// The bound a row starts with: what the run on screen reached (the fleet's "as good as
/// now"), rounded outward to what the unit shows; an hour of wait without a run.
QString startingBound(const Results* results, const TargetRow& row) {
    const BoundUnit unit = unitOf(row.unit);
    double v = currentValue(results, row) / unit.perShown;
    if (!std::isfinite(v)) v = row.unit == "s" ? 60 : 0;
    v = row.atMost ? std::ceil(v * 10) / 10 : std::floor(v * 10) / 10;
    if (row.unit == "s") v = std::max(v, 1.0);  // a zero wait is no target
    return QLocale::c().toString(v, 'g', 6);
}

QTableWidgetItem* readOnly(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

void compact(QTableWidget* table) {
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::AllEditTriggers);
}

}  // namespace

PlanForm::PlanForm(QWidget* parent) : QWidget(parent) {
    m_targets = new QTableWidget(0, 4, this);
    m_targets->setHorizontalHeaderLabels({tr("Target"), QString(), tr("Bound"), QString()});
    m_targets->setToolTip(
        tr("Check the targets every plan must meet; type each bound. A "
           "target is met when its 95 % interval is within the bound."));
    compact(m_targets);
    m_changes = new QTableWidget(0, 3, this);
    m_changes->setHorizontalHeaderLabels({tr("What may change"), tr("Now"), tr("Range")});
    m_changes->setToolTip(
        tr("Check what the planner may change; the range is LOW..HIGH (a "
           "count) or a|b|c (node types), as gpuplan-cli plan --vary takes"));
    compact(m_changes);
    m_objective = new QComboBox(this);
    m_objective->setToolTip(tr("What the cheapest plan has least of"));
    m_replications = new QSpinBox(this);
    m_replications->setRange(2, 20);
    m_replications->setValue(5);
    m_replications->setToolTip(
        tr("The most runs per candidate: two at first, more only while "
           "an interval straddles its bound"));
    m_demand = new QDoubleSpinBox(this);
    m_demand->setRange(0.1, 10);
    m_demand->setDecimals(2);
    m_demand->setSingleStep(0.1);
    m_demand->setValue(1.0);
    m_demand->setPrefix(QStringLiteral("× "));
    m_demand->setToolTip(
        tr("The demand the plan is for, against the scenario's: × 1.3 is next "
           "quarter's 30 % growth. Apply changes the fleet, not the demand."));

    auto* settings = new QHBoxLayout;
    settings->addWidget(new QLabel(tr("Objective"), this));
    settings->addWidget(m_objective, 1);
    settings->addWidget(new QLabel(tr("Demand"), this));
    settings->addWidget(m_demand);
    settings->addWidget(new QLabel(tr("Runs ≤"), this));
    settings->addWidget(m_replications);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(settings);
    column->addWidget(m_targets, 1);
    column->addWidget(m_changes, 1);
}

void PlanForm::fill(const Scenario& scenario, const Catalog& catalog, const Results* results) {
    // What the user checked and typed, kept by row.
    std::map<QString, std::pair<bool, QString>> keptTargets, keptChanges;
    for (int r = 0; r < m_targets->rowCount(); ++r) {
        const QTableWidgetItem* name = m_targets->item(r, 0);
        const QTableWidgetItem* bound = m_targets->item(r, 2);
        // A bound still as it was filled follows the run on screen; a typed one is kept.
        const bool typed = bound->text() != bound->data(kFilledRole).toString();
        keptTargets[rowKey(name->data(kKpiRole).toString(), name->data(kTeamRole).toString())] = {
            name->checkState() == Qt::Checked, typed ? bound->text() : QString()};
    }
    for (int r = 0; r < m_changes->rowCount(); ++r)
        keptChanges[m_changes->item(r, 0)->data(kPointerRole).toString()] = {
            m_changes->item(r, 0)->checkState() == Qt::Checked, m_changes->item(r, 2)->text()};
    const bool first = m_targets->rowCount() == 0;

    std::vector<TargetRow> rows{{"wait_s_p95", {}, true, "s"},
                                {"wait_s_mean", {}, true, "s"},
                                {"jobs_waiting_at_end", {}, true, "jobs"},
                                {"allocation_mean", {}, false, "fraction"}};
    QStringList teams;
    for (const TeamDef& t : scenario.teams)
        teams << QString::fromStdString(t.name);
    if (results)
        for (const GroupKpis& g : results->teamKpis)
            if (!teams.contains(QString::fromStdString(g.name)))
                teams << QString::fromStdString(g.name);
    for (const QString& team : teams)
        rows.push_back({"wait_s_p95", team, true, "s"});
    m_targets->setRowCount(0);
    for (const TargetRow& row : rows) {
        const int r = m_targets->rowCount();
        m_targets->insertRow(r);
        const QString label = row.team.isEmpty()
                                  ? ui::kpiLabel(row.kpi)
                                  : tr("%1 · team %2").arg(ui::kpiLabel(row.kpi), row.team);
        auto* name = readOnly(label);
        name->setData(kKpiRole, QString::fromStdString(row.kpi));
        name->setData(kTeamRole, row.team);
        name->setData(kUnitRole, QString::fromStdString(row.unit));
        const auto kept = keptTargets.find(rowKey(QString::fromStdString(row.kpi), row.team));
        const bool checked = kept != keptTargets.end()
                                 ? kept->second.first
                                 : first && row.team.isEmpty() && row.kpi == "wait_s_p95";
        name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        m_targets->setItem(r, 0, name);
        m_targets->setItem(r, 1, readOnly(row.atMost ? QStringLiteral("≤") : QStringLiteral("≥")));
        const QString filled = startingBound(results, row);
        const bool typed = kept != keptTargets.end() && !kept->second.second.isEmpty();
        auto* bound = new QTableWidgetItem(typed ? kept->second.second : filled);
        bound->setData(kFilledRole, filled);
        m_targets->setItem(r, 2, bound);
        m_targets->setItem(r, 3, readOnly(unitOf(row.unit).shown));
    }
    m_targets->resizeColumnToContents(1);
    m_targets->resizeColumnToContents(3);

    // What may change: the places the scenario has, named as the plan's words name them.
    struct Change {
        std::string pointer;
        QString now, range;
    };
    std::vector<Change> changes;
    const auto count = [](int now) {
        return Change{{}, QString::number(now), QStringLiteral("%1..%2").arg(now).arg(2 * now + 4)};
    };
    for (std::size_t p = 0; p < scenario.pods.size(); ++p) {
        const std::string pod = "/topology/pods/" + std::to_string(p);
        for (std::size_t r = 0; r < scenario.pods[p].racks.size(); ++r) {
            const RackDef& rack = scenario.pods[p].racks[r];
            const std::string rackPointer = pod + "/racks/" + std::to_string(r);
            Change c = count(rack.count);
            c.pointer = rackPointer + "/count";
            changes.push_back(c);
            for (std::size_t g = 0; g < rack.nodes.size(); ++g) {
                const NodeGroupDef& group = rack.nodes[g];
                const std::string groupPointer = rackPointer + "/nodes/" + std::to_string(g);
                Change n = count(group.count);
                n.pointer = groupPointer + "/count";
                changes.push_back(n);
                // Node types to choose from: this one first, then the catalog's others that
                // the scenario's prices cover (all of them when it has none) and whose GPUs
                // hold every job this one holds.
                QStringList types{QString::fromStdString(group.nodeType)};
                for (const NodeType& t : catalog.nodeTypes) {
                    if (t.id == group.nodeType) continue;
                    if (scenario.pricing && !scenario.pricing->find(t.gpuModel)) continue;
                    if (!jobsFailingOn(scenario, catalog, group.nodeType, t.id).empty()) continue;
                    types << QString::fromStdString(t.id);
                }
                if (types.size() > 1)
                    changes.push_back({groupPointer + "/nodeType",
                                       QString::fromStdString(group.nodeType),
                                       types.join(QLatin1Char('|'))});
            }
        }
        Change pods = count(scenario.pods[p].count);
        pods.pointer = pod + "/count";
        changes.push_back(pods);
    }
    if (scenario.buyingMix) {
        int nodes = 0;
        for (const PodDef& pod : scenario.pods)
            for (const RackDef& rack : pod.racks)
                for (const NodeGroupDef& g : rack.nodes)
                    nodes += pod.count * rack.count * g.count;
        changes.push_back({"/buyingMix/reservedNodes",
                           QString::number(scenario.buyingMix->reservedNodes),
                           QStringLiteral("0..%1").arg(nodes)});
    }
    for (std::size_t q = 0; q < scenario.quotas.size(); ++q)
        for (std::size_t f = 0; f < scenario.quotas[q].flavors.size(); ++f) {
            const auto now = static_cast<long long>(scenario.quotas[q].flavors[f].nominalGpus);
            changes.push_back(
                {"/quotas/" + std::to_string(q) + "/flavors/" + std::to_string(f) + "/nominalGpus",
                 QString::number(now), QStringLiteral("%1..%2").arg(now / 2).arg(2 * now + 8)});
        }
    m_changes->setRowCount(0);
    for (const Change& c : changes) {
        const int r = m_changes->rowCount();
        m_changes->insertRow(r);
        const QString pointer = QString::fromStdString(c.pointer);
        auto* name = readOnly(QString::fromStdString(describePlanPlace(scenario, c.pointer)));
        name->setData(kPointerRole, pointer);
        name->setToolTip(pointer);
        const auto kept = keptChanges.find(pointer);
        // The first rack group is what a first plan asks about ("how many more racks?").
        const bool checked = kept != keptChanges.end() ? kept->second.first : first && r == 0;
        name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        m_changes->setItem(r, 0, name);
        m_changes->setItem(r, 1, readOnly(c.now));
        m_changes->setItem(
            r, 2, new QTableWidgetItem(kept != keptChanges.end() ? kept->second.second : c.range));
    }
    m_changes->resizeColumnToContents(1);

    const QString objective = m_objective->currentData().toString();
    const QSignalBlocker block(m_objective);
    m_objective->clear();
    if (scenario.pricing) m_objective->addItem(tr("Least cost"), QStringLiteral("cost"));
    m_objective->addItem(tr("Fewest GPU-hours in service"), QStringLiteral("gpus"));
    const int again = m_objective->findData(objective);
    m_objective->setCurrentIndex(again >= 0 ? again : 0);
}

double PlanForm::demandFactor() const {
    return m_demand->value();
}

std::variant<PlanQuestion, QString> PlanForm::question() const {
    PlanQuestion q;
    for (int r = 0; r < m_targets->rowCount(); ++r) {
        const QTableWidgetItem* name = m_targets->item(r, 0);
        if (name->checkState() != Qt::Checked) continue;
        const std::string kpi = name->data(kKpiRole).toString().toStdString();
        const QString team = name->data(kTeamRole).toString();
        bool ok = false;
        const double shown = QLocale::c().toDouble(m_targets->item(r, 2)->text().trimmed(), &ok);
        if (!ok || !std::isfinite(shown))
            return tr("target %1: \"%2\" is not a number")
                .arg(name->text(), m_targets->item(r, 2)->text());
        const double bound =
            shown * unitOf(name->data(kUnitRole).toString().toStdString()).perShown;
        const std::string text =
            (team.isEmpty() ? "" : "team:" + team.toStdString() + ":") + kpi +
            (m_targets->item(r, 1)->text() == QStringLiteral("≤") ? "<=" : ">=") +
            QString::number(bound, 'g', 15).toStdString();
        try {
            q.targets.push_back(parsePlanTarget(text));
        } catch (const InputError& e) {
            return tr("target %1: %2").arg(name->text(), QString::fromStdString(e.message()));
        }
    }
    if (q.targets.empty()) return tr("check at least one target");
    for (int r = 0; r < m_changes->rowCount(); ++r) {
        const QTableWidgetItem* name = m_changes->item(r, 0);
        if (name->checkState() != Qt::Checked) continue;
        const std::string text = name->data(kPointerRole).toString().toStdString() + "=" +
                                 m_changes->item(r, 2)->text().trimmed().toStdString();
        try {
            q.dimensions.push_back(parsePlanDimension(text));
        } catch (const InputError& e) {
            return tr("%1: %2").arg(name->text(), QString::fromStdString(e.message()));
        }
    }
    if (q.dimensions.empty()) return tr("check at least one thing that may change");
    q.objective = m_objective->currentData().toString().toStdString();
    q.replications = m_replications->value();
    return q;
}

bool PlanForm::setTarget(const QString& kpi, const QString& team, const QString& boundText,
                         bool checked) {
    for (int r = 0; r < m_targets->rowCount(); ++r) {
        QTableWidgetItem* name = m_targets->item(r, 0);
        if (name->data(kKpiRole).toString() != kpi || name->data(kTeamRole).toString() != team)
            continue;
        name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        m_targets->item(r, 2)->setText(boundText);
        return true;
    }
    return false;
}

bool PlanForm::setChange(const QString& pointer, const QString& range, bool checked) {
    for (int r = 0; r < m_changes->rowCount(); ++r) {
        QTableWidgetItem* name = m_changes->item(r, 0);
        if (name->data(kPointerRole).toString() != pointer) continue;
        name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        m_changes->item(r, 2)->setText(range);
        return true;
    }
    return false;
}

}  // namespace gpuplan::app
