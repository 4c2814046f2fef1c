#include "pending_table_model.hpp"

#include <QBrush>

#include "ui_palette.hpp"

namespace gpuplan::ui {

void PendingTableModel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    reload();
}

void PendingTableModel::setTime(double timeS) {
    m_timeS = timeS;
    reload();
}

void PendingTableModel::reload() {
    beginResetModel();
    m_rows.clear();
    if (m_results) m_rows = m_results->pendingAt(m_timeS);
    endResetModel();
}

int PendingTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PendingTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PendingTableModel::data(const QModelIndex& index, int role) const {
    if (!m_results || !index.isValid()) return {};
    const PendingJob& e = m_rows[index.row()];
    const JobRecord& job = m_results->jobs[e.job];
    const double waitingS = e.waitingS;
    if (role == JobIndexRole) return static_cast<int>(e.job);
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (index.column()) {
            case JobColumn:
                return QString::fromStdString(m_results->jobName(e.job));
            case TeamColumn:
                return QString::fromStdString(m_results->teams[job.spec.team]);
            case GpusColumn:
                return job.spec.gpus;
            case LayerColumn:
                return sort ? QVariant(static_cast<int>(e.layer)) : QVariant(layerName(e.layer));
            case WaitingColumn:
                return sort ? QVariant(waitingS) : QVariant(formatDuration(waitingS));
            case ReasonColumn:
                return QString::fromStdString(m_results->reasonText(e.reason));
        }
    }
    if (role == Qt::ToolTipRole && index.column() == ReasonColumn)
        return QString::fromStdString(m_results->reasonText(e.reason));
    if (role == Qt::DecorationRole && index.column() == LayerColumn) return layerColor(e.layer);
    return {};
}

QVariant PendingTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case JobColumn:
            return tr("Job");
        case TeamColumn:
            return tr("Team");
        case GpusColumn:
            return tr("GPUs");
        case LayerColumn:
            return tr("Layer");
        case WaitingColumn:
            return tr("Waiting");
        case ReasonColumn:
            return tr("Why it is pending");
    }
    return {};
}

}  // namespace gpuplan::ui
