#include "group_kpi_table_model.hpp"

#include <QLocale>
#include <algorithm>
#include <cmath>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

void GroupKpiTableModel::setResults(std::shared_ptr<const Results> results) {
    beginResetModel();
    m_results = std::move(results);
    endResetModel();
}

void GroupKpiTableModel::setBaseline(std::shared_ptr<const Results> baseline) {
    m_baseline = std::move(baseline);
    refreshAll();
}

void GroupKpiTableModel::setReplications(std::shared_ptr<const Replications> current,
                                         std::shared_ptr<const Replications> baseline) {
    m_replications = std::move(current);
    m_baselineReplications = std::move(baseline);
    refreshAll();
}

void GroupKpiTableModel::refreshAll() {
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

std::string GroupKpiTableModel::kpiOfColumn(int column) {
    switch (column) {
        case AllocationColumn:
            return "allocation_share";
        case GpuHoursColumn:
            return "gpu_hours_allocated";
        case WaitP50Column:
            return "wait_s_p50";
        case WaitP95Column:
            return "wait_s_p95";
        case CompletedColumn:
            return "jobs_completed";
        case WaitingAtEndColumn:
            return "jobs_waiting_at_end";
        default:
            return {};
    }
}

std::optional<KpiDelta> GroupKpiTableModel::deltaAt(const GroupKpis& group, int column) const {
    const std::string kpi = kpiOfColumn(column);
    const auto* before = baselineGroups();
    if (kpi.empty() || !before) return std::nullopt;
    const auto other = std::find_if(before->begin(), before->end(),
                                    [&](const GroupKpis& b) { return b.name == group.name; });
    if (other == before->end()) return std::nullopt;
    auto find = [&kpi](const std::vector<Kpi>& list) -> std::optional<Kpi> {
        for (const Kpi& k : list)
            if (k.name == kpi) return k;
        return std::nullopt;
    };
    const std::optional<Kpi> now = find(teamKpiList(group)), then = find(teamKpiList(*other));
    if (!now || !then) return std::nullopt;
    std::optional<MeanInterval> paired;
    if (m_grouping == Grouping::Team && m_replications && m_baselineReplications)
        paired = pairedTeamDifference(*m_baselineReplications, *m_replications, group.name, kpi);
    return compareKpi(*now, *then, paired);
}

void GroupKpiTableModel::setGrouping(Grouping grouping) {
    if (grouping == m_grouping) return;
    beginResetModel();
    m_grouping = grouping;
    endResetModel();
}

const std::vector<GroupKpis>* GroupKpiTableModel::groups() const {
    if (!m_results) return nullptr;
    return m_grouping == Grouping::Team ? &m_results->teamKpis : &m_results->classKpis;
}

const std::vector<GroupKpis>* GroupKpiTableModel::baselineGroups() const {
    if (!m_baseline) return nullptr;
    return m_grouping == Grouping::Team ? &m_baseline->teamKpis : &m_baseline->classKpis;
}

int GroupKpiTableModel::rowCount(const QModelIndex& parent) const {
    const auto* g = groups();
    return parent.isValid() || !g ? 0 : static_cast<int>(g->size());
}

int GroupKpiTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupKpiTableModel::data(const QModelIndex& index, int role) const {
    const auto* all = groups();
    if (!all || !index.isValid()) return {};
    const GroupKpis& g = (*all)[index.row()];
    auto wait = [](double s) { return std::isfinite(s) ? formatDuration(s) : QStringLiteral("–"); };
    auto gpus = [](double v) {
        return std::isfinite(v) ? QLocale().toString(v, 'f', 1) : QStringLiteral("–");
    };
    if (role == Qt::DisplayRole && m_baseline) {
        // "3.4 h (+1.2 h)": the value and its change against the baseline's same group.
        const QVariant value = data(index, ValueRole);
        const std::optional<KpiDelta> delta = deltaAt(g, index.column());
        if (!delta || delta->text.isEmpty()) return value;
        return QStringLiteral("%1 (%2)").arg(value.toString(), delta->text);
    }
    if (role == Qt::ForegroundRole) {
        const std::optional<KpiDelta> delta = deltaAt(g, index.column());
        if (delta && delta->tone != DeltaTone::Neutral) return deltaToneColor(delta->tone);
        return {};
    }
    if (role == Qt::ToolTipRole) {
        const std::optional<KpiDelta> delta = deltaAt(g, index.column());
        if (!delta || delta->text.isEmpty()) return {};
        QString tip = tr("%1 against the baseline").arg(delta->text);
        if (!delta->interval.isEmpty())
            tip += tr("; paired 95 % interval %1%2")
                       .arg(delta->interval,
                            delta->significant.value_or(true) ? QString() : tr(" (noise)"));
        return tip;
    }
    if (role == Qt::DisplayRole || role == ValueRole) {
        switch (index.column()) {
            case NameColumn:
                return QString::fromStdString(g.name);
            case AllocationColumn:
                return QStringLiteral("%1 %").arg(100 * g.allocationShare, 0, 'f', 1);
            case GpuHoursColumn:
                return QLocale().toString(g.gpuHours, 'f', 0);
            case WaitP50Column:
                return wait(g.waitP50S);
            case WaitP95Column:
                return wait(g.waitP95S);
            case CompletedColumn:
                return g.completed;
            case WaitingAtEndColumn:
                return g.waitingAtEnd == 0 ? QStringLiteral("0")
                                           : tr("%1 (%2 GPUs)")
                                                 .arg(g.waitingAtEnd)
                                                 .arg(g.gpusWaitingAtEnd, 0, 'f', 0);
            case NominalColumn:
                return gpus(g.nominalGpus);
            case UsedColumn:
                return gpus(g.usedGpusMean);
            case BorrowedColumn:
                return gpus(g.borrowedGpusMean);
            case LentColumn:
                return gpus(g.lentGpusMean);
            case PreemptedColumn:
                return m_grouping == Grouping::Team ? QVariant(g.preemptions)
                                                    : QVariant(QStringLiteral("–"));
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant GroupKpiTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case AllocationColumn:
                return tr(
                    "GPU-hours it held ÷ the fleet's provisioned GPU-hours; the rows add "
                    "up to the fleet's allocation.");
            case WaitP50Column:
            case WaitP95Column:
                return tr(
                    "Time from submit to first start. Jobs still waiting at the end count "
                    "with their wait so far, a lower bound.");
            case WaitingAtEndColumn:
                return tr("Jobs still queued when the run ends, and the GPUs they ask.");
            case NominalColumn:
                return tr(
                    "Its quota's nominal GPU-equivalents, all GPU models (– without a "
                    "quota).");
            case UsedColumn:
                return tr("GPU-equivalents its quota had admitted, averaged over the samples.");
            case BorrowedColumn:
                return tr(
                    "GPU-equivalents it used beyond its nominal quota, borrowed from its "
                    "cohort, averaged over the samples.");
            case LentColumn:
                return tr(
                    "Its unused quota others in its cohort used, averaged over the "
                    "samples (the cohort's borrowing split among the members by the "
                    "unused quota each put in).");
            case PreemptedColumn:
                return tr("Times its jobs were preempted (priority, or quota reclaimed).");
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return m_grouping == Grouping::Team ? tr("Team") : tr("Job class");
        case AllocationColumn:
            return tr("Allocation share");
        case GpuHoursColumn:
            return tr("GPU-h");
        case WaitP50Column:
            return tr("Wait p50");
        case WaitP95Column:
            return tr("Wait p95");
        case CompletedColumn:
            return tr("Completed");
        case WaitingAtEndColumn:
            return tr("Waiting at end");
        case NominalColumn:
            return tr("Nominal");
        case UsedColumn:
            return tr("Used");
        case BorrowedColumn:
            return tr("Borrowed");
        case LentColumn:
            return tr("Lent");
        case PreemptedColumn:
            return tr("Preempted");
    }
    return {};
}

}  // namespace gpuplan::ui
