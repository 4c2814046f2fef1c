#include "compare_table_model.hpp"

#include <QBrush>
#include <QColor>

#include "format/kpi_format.hpp"

namespace gpuplan::ui {

void CompareTableModel::setResults(std::shared_ptr<const Results> results) {
    beginResetModel();
    m_results = std::move(results);
    endResetModel();
}

void CompareTableModel::setBaseline(std::shared_ptr<const Results> baseline) {
    beginResetModel();
    m_baseline = std::move(baseline);
    endResetModel();
}

void CompareTableModel::setReplications(std::shared_ptr<const Replications> current,
                                        std::shared_ptr<const Replications> baseline) {
    beginResetModel();
    m_replications = std::move(current);
    m_baselineReplications = std::move(baseline);
    endResetModel();
}

Kpi CompareTableModel::shown(const Kpi& kpi, const Replications* replications) const {
    Kpi out = kpi;
    if (const KpiEstimate* e = replications ? replications->findKpi(kpi.name) : nullptr)
        out.value = e->interval.mean;
    return out;
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_results ? 0 : static_cast<int>(m_results->kpis.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!m_results || !index.isValid()) return {};
    const Kpi current = shown(m_results->kpis[index.row()], m_replications.get());
    const Kpi* baseKpi = m_baseline ? m_baseline->findKpi(current.name) : nullptr;
    const std::optional<Kpi> base =
        baseKpi ? std::optional(shown(*baseKpi, m_baselineReplications.get())) : std::nullopt;
    const std::optional<MeanInterval> paired =
        base && m_replications && m_baselineReplications
            ? pairedDifference(*m_baselineReplications, *m_replications, current.name)
            : std::nullopt;
    if (role == Qt::ToolTipRole && index.column() == KpiColumn)
        return QString::fromStdString(current.description);
    if (role == HalfWidthRole) {
        const bool isBase = index.column() == BaselineColumn;
        const Replications* r = isBase ? m_baselineReplications.get() : m_replications.get();
        const KpiEstimate* e = r ? r->findKpi(current.name) : nullptr;
        if (!e || (isBase && !base) || (!isBase && index.column() != CurrentColumn)) return {};
        return formatKpiHalfWidth(isBase ? *base : current, e->interval);
    }
    if (role == DeltaIntervalRole && index.column() == DeltaColumn)
        return paired && paired->n >= 2 ? formatDeltaInterval(current, *paired) : QString();
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case KpiColumn:
                return kpiLabel(current.name);
            case BaselineColumn:
                return base ? formatKpiValue(*base) : QStringLiteral("–");
            case CurrentColumn:
                return formatKpiValue(current);
            case DeltaColumn:
                return base ? formatKpiDelta(current, *base) : QString();
            case SignificanceColumn:
                if (!paired || paired->n < 2) return QString();
                return paired->excludesZero() ? tr("significant") : tr("may be noise");
        }
    }
    if (role == Qt::ToolTipRole && index.column() == KpiColumn)
        return QString::fromStdString(current.name);
    if (role == Qt::TextAlignmentRole && index.column() != KpiColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == SignificanceColumn && paired && paired->n >= 2)
        return tr("The 95 % interval of the %n paired difference(s) (same seeds): %1", nullptr,
                  paired->n)
            .arg(formatDeltaInterval(current, *paired));
    if (role == Qt::ForegroundRole && index.column() == DeltaColumn && base)
        // Noise, no change and no direction are grey: kpi_format's one rule.
        return QBrush(deltaToneColor(compareKpi(current, *base, paired).tone));
    return {};
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case KpiColumn:
            return tr("KPI");
        case BaselineColumn:
            return tr("Baseline");
        case CurrentColumn:
            return tr("Current");
        case DeltaColumn:
            return tr("Δ");
        case SignificanceColumn:
            return tr("95 %");
    }
    return {};
}

}  // namespace gpuplan::ui
