#include "chargeback_table_model.hpp"

#include <QColor>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "format/kpi_format.hpp"

namespace gpuplan::ui {

void ChargebackTableModel::setResults(std::shared_ptr<const Results> results) {
    beginResetModel();
    m_rows.clear();
    m_billUsd = results ? results->kpi("cost_usd") : std::nan("");
    if (results && std::isfinite(m_billUsd)) {
        for (const GroupKpis& g : results->teamKpis)
            if (std::isfinite(g.costUsd))
                m_rows.push_back({QString::fromStdString(g.name), g.gpuHours, g.costUsd, false});
        std::stable_sort(m_rows.begin(), m_rows.end(),
                         [](const Row& a, const Row& b) { return a.costUsd > b.costUsd; });
        m_rows.push_back(
            {tr("(no job: idle)"), std::nan(""), results->kpi("idle_unallocated_usd"), true});
    }
    endResetModel();
}

int ChargebackTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ChargebackTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChargebackTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
    const Row& r = m_rows[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case TeamColumn:
                return r.name;
            case GpuHoursColumn:
                return std::isfinite(r.gpuHours)
                           ? QLocale().toString(std::round(r.gpuHours) + 0.0, 'f', 0)
                           : QStringLiteral("–");
            case CostColumn:
                return formatUsd(r.costUsd);
            case ShareColumn:
                return m_billUsd > 0
                           ? QStringLiteral("%1 %").arg(formatFixed(100 * r.costUsd / m_billUsd, 1))
                           : QStringLiteral("–");
        }
    }
    if (role == Qt::ToolTipRole && r.idle)
        return tr("Paid GPU-hours no job held (idle_unallocated_usd)");
    if (role == Qt::ForegroundRole && r.idle) return QColor(Qt::gray);
    if (role == Qt::TextAlignmentRole && index.column() != TeamColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ChargebackTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case TeamColumn:
            return tr("Team");
        case GpuHoursColumn:
            return tr("GPU-hours");
        case CostColumn:
            return tr("Cost");
        case ShareColumn:
            return tr("Share of the bill");
    }
    return {};
}

}  // namespace gpuplan::ui
