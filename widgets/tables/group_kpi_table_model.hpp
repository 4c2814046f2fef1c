// The KPIs of each team or each job class (Results::teamKpis / classKpis), one row each.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <string>

#include "format/kpi_format.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"

namespace gpuplan::ui {

class GroupKpiTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Grouping { Team, Class };
    /// The value alone, without its delta (DisplayRole adds the delta against a baseline).
    static constexpr int ValueRole = Qt::UserRole + 1;
    enum Column {
        NameColumn,
        AllocationColumn,
        GpuHoursColumn,
        WaitP50Column,
        WaitP95Column,
        CompletedColumn,
        WaitingAtEndColumn,
        // Teams with a quota: GPU-equivalents, used and the rest averaged over the
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
    /// A pinned baseline: each KPI cell then reads "3.4 h (+1.2 h)", coloured as better or
    /// worse by the KPI's direction (compareKpi), for the group of the same name.
    void setBaseline(std::shared_ptr<const Results> baseline);
    /// Replications of both on the same seeds: team deltas are then paired, and neutral when
    /// their interval holds 0.
    void setReplications(std::shared_ptr<const Replications> current,
                         std::shared_ptr<const Replications> baseline);
    /// The KPI of teamKpiList a column shows ("wait_s_p95"), empty for other columns.
    static std::string kpiOfColumn(int column);
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const std::vector<GroupKpis>* groups() const;
    const std::vector<GroupKpis>* baselineGroups() const;
    /// The cell's KPI against the baseline's group of the same name, if there is one.
    std::optional<KpiDelta> deltaAt(const GroupKpis& group, int column) const;
    void refreshAll();

    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const Replications> m_replications, m_baselineReplications;
    Grouping m_grouping = Grouping::Team;
};

}  // namespace gpuplan::ui
