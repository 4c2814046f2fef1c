// The jobs waiting at exactly time t (Results::pendingAt, as gpuplan-cli why), each with the
// layer it is blamed on, Kueue's reason token when quota or preemption keeps it out, and the
// reason in kube-scheduler's (or Kueue's) words. Sort through a
// QSortFilterProxyModel (Qt::UserRole holds numbers).
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

class PendingTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        JobColumn,
        TeamColumn,
        GpusColumn,
        LayerColumn,
        TokenColumn,  ///< Kueue's reason token (WaitingForQuota, Preempted, …), empty for None
        WaitingColumn,
        ReasonColumn,
        ColumnCount
    };
    static constexpr int JobIndexRole = Qt::UserRole + 1;  ///< the job's index in Results::jobs
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;
    /// `rows`: the rows at timeS when the caller has them already (ClusterSnapshot::pending);
    /// otherwise the model asks Results::pendingAt.
    void setResults(std::shared_ptr<const Results> results,
                    std::optional<std::pair<double, std::vector<PendingJob>>> rows = {});
    /// The rows at timeS, from Results::pendingAt.
    void setTime(double timeS);
    /// The rows at timeS, computed by the caller (ClusterSnapshot::pending, so one query per
    /// time change). Not a reset: rows are matched by job, so the view keeps its current
    /// row and selection on the same job while time moves.
    void setRows(double timeS, std::vector<PendingJob> rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const Results> m_results;
    double m_timeS = 0;
    std::vector<PendingJob> m_rows;
};

}  // namespace gpuplan::ui
