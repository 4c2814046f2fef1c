// The KPIs of each team or each job class (Results::teamKpis / classKpis), one row each.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "gpuplan/results.hpp"

namespace gpuplan::ui {

class GroupKpiTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Grouping { Team, Class };
    enum Column {
        NameColumn,
        AllocationColumn,
        GpuHoursColumn,
        WaitP50Column,
        WaitP95Column,
        CompletedColumn,
        WaitingAtEndColumn,
        // Teams with a quota (issue 9): GPU-equivalents, used and the rest averaged over the
        // samples; "–" for teams without one and for job classes.
        NominalColumn,
        UsedColumn,
        BorrowedColumn,
        LentColumn,
        PreemptedColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;
    void setResults(std::shared_ptr<const Results> results);
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const std::vector<GroupKpis>* groups() const;

    std::shared_ptr<const Results> m_results;
    Grouping m_grouping = Grouping::Team;
};

}  // namespace gpuplan::ui
