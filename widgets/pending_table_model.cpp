#include "pending_table_model.hpp"

#include <QBrush>
#include <cmath>

#include "ui_palette.hpp"

namespace gpuplan::ui {

void PendingTableModel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_sample = static_cast<std::size_t>(-1);
    reload();
}

void PendingTableModel::setTime(double timeS) {
    m_timeS = timeS;
    reload();
}

void PendingTableModel::reload() {
    std::size_t sample = static_cast<std::size_t>(-1);
    if (m_results && !m_results->sampleTimesS.empty() && m_results->sampleIntervalS > 0)
        sample = std::min(m_results->sampleTimesS.size() - 1,
                          static_cast<std::size_t>(
                              std::max(0.0, std::floor(m_timeS / m_results->sampleIntervalS))));
    if (sample == m_sample && !m_rows.empty()) return;
    beginResetModel();
    m_sample = sample;
    m_rows.clear();
    if (m_results && sample != static_cast<std::size_t>(-1)) {
        const auto entries = m_results->pendingAtSample(sample);
        m_rows.assign(entries.begin(), entries.end());
    }
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
    const PendingEntry& e = m_rows[index.row()];
    const JobRecord& job = m_results->jobs[e.job];
    const double sampleS = m_results->sampleTimesS[m_sample];
    const double waitingS = sampleS - job.spec.submitS;
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
                return QString::fromStdString(m_results->reasons[e.reason]);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == ReasonColumn)
        return QString::fromStdString(m_results->reasons[e.reason]);
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
