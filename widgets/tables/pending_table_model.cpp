#include "pending_table_model.hpp"

#include <QBrush>

#include "format/snapshot_guard.hpp"
#include "format/ui_palette.hpp"

namespace gpuplan::ui {

void PendingTableModel::setResults(std::shared_ptr<const Results> results,
                                   std::optional<std::pair<double, std::vector<PendingJob>>> rows) {
    // Job indices mean other jobs in other results: start over.
    beginResetModel();
    m_results = std::move(results);
    m_rows.clear();
    if (rows) {
        m_timeS = rows->first;
        m_rows = std::move(rows->second);
        if (m_results && !pendingRowsMatch(*m_results, m_rows))
            m_rows = m_results->pendingAt(m_timeS);
    } else if (m_results) {
        m_rows = m_results->pendingAt(m_timeS);
    }
    endResetModel();
}

void PendingTableModel::setTime(double timeS) {
    setRows(timeS, m_results ? m_results->pendingAt(timeS) : std::vector<PendingJob>());
}

void PendingTableModel::setRows(double timeS, std::vector<PendingJob> rows) {
    m_timeS = timeS;
    // Rows of other results than ours (job indices of another scenario) are never shown.
    if (m_results && !pendingRowsMatch(*m_results, rows)) rows = m_results->pendingAt(timeS);
    const bool sameJobs =
        std::equal(rows.begin(), rows.end(), m_rows.begin(), m_rows.end(),
                   [](const PendingJob& a, const PendingJob& b) { return a.job == b.job; });
    if (sameJobs) {  // a step or a Play frame within one set of waiting jobs
        m_rows = std::move(rows);
        if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    // Both lists are in job order: move each persistent index (the view's current row and
    // selection) to its job's new row, or drop it when the job no longer waits.
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& i : before) {
        const std::uint32_t job = m_rows[i.row()].job;
        const auto it =
            std::lower_bound(rows.begin(), rows.end(), job,
                             [](const PendingJob& p, std::uint32_t j) { return p.job < j; });
        after.push_back(it != rows.end() && it->job == job
                            ? createIndex(static_cast<int>(it - rows.begin()), i.column())
                            : QModelIndex());
    }
    m_rows = std::move(rows);
    changePersistentIndexList(before, after);
    emit layoutChanged();
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
            case TokenColumn:  // sorts by name, the jobs without one first
                return e.token == ReasonToken::None ? QString()
                                                    : QString::fromLatin1(toString(e.token));
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
    if (o == Qt::Horizontal && role == Qt::ToolTipRole && section == WaitingColumn)
        return tr(
            "Time since the job was submitted. For a job evicted by a node failure and "
            "queued again, this includes the time it ran before the eviction.");
    if (o == Qt::Horizontal && role == Qt::ToolTipRole && section == TokenColumn)
        return tr(
            "Kueue's reason token when quota keeps the job out: ExceedsMaxQuota, "
            "BorrowingLimitReached, WaitingForQuota; Preempted when another job took its place. "
            "Empty for the other reasons a job waits.");
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
        case TokenColumn:
            return tr("Token");
        case WaitingColumn:
            return tr("Waiting");
        case ReasonColumn:
            return tr("Why it is pending");
    }
    return {};
}

}  // namespace gpuplan::ui
