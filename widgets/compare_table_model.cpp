#include "compare_table_model.hpp"

#include <QBrush>
#include <QColor>

#include "kpi_format.hpp"

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

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_results ? 0 : static_cast<int>(m_results->kpis.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!m_results || !index.isValid()) return {};
    const Kpi& current = m_results->kpis[index.row()];
    const Kpi* base = m_baseline ? m_baseline->findKpi(current.name) : nullptr;
    if (role == Qt::ToolTipRole && index.column() == KpiColumn)
        return QString::fromStdString(current.description);
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
        }
    }
    if (role == Qt::ToolTipRole && index.column() == KpiColumn)
        return QString::fromStdString(current.name);
    if (role == Qt::TextAlignmentRole && index.column() != KpiColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == DeltaColumn && base) {
        const double d = current.value - base->value;
        const int good = goodDirection(current.name);
        if (d != 0 && good != 0)
            return QBrush((d > 0) == (good > 0) ? QColor("#1e8449") : QColor("#c0392b"));
    }
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
    }
    return {};
}

}  // namespace gpuplan::ui
