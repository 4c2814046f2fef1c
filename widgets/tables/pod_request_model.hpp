// The pod request editor of the workload panel: every trait of the job class or explicit job
// selected in the tables above, one per row ("CPU per pod | 24 cores"), so what a pod asks
// (GPU model, share, MIG instance, CPU, memory) and how it behaves (SM activity, MFU,
// precision and arithmetic intensity, startup, preemption, checkpoints) can be edited for classes
// and jobs alike: they share JobTraitsDef, so they share this editor. The model only shows and
// forwards; the edit hook turns a value into a new scenario (app/gui/workload/workload_edits.cpp,
// setPodRequestValue).
#pragma once

#include "workload_models.hpp"

namespace gpuplan::ui {

class PodRequestModel : public WorkloadTableModel {
    Q_OBJECT
public:
    /// Rows, in the order shown.
    enum Row {
        GpuModelRow,
        GpusPerPodRow,
        GpuShareRow,
        MigProfileRow,
        CpuRow,
        HostMemoryRow,
        GpuMemoryRow,
        SmActivityRow,
        EngineActiveRow,
        MfuRow,
        PrecisionRow,
        MatmulShareRow,
        FlopsPerByteRow,
        TopologyRow,
        StartupRow,
        PreemptionRow,
        CheckpointIntervalRow,
        CheckpointCostRow,
        RowCount
    };
    enum Column { TraitColumn, ValueColumn, ColumnCount };
    /// Whose traits are shown: a job class or an explicit job, by index; none = no rows.
    struct Target {
        enum Kind { None, Class, Job } kind = None;
        int index = -1;
        bool operator==(const Target&) const = default;
    };

    /// Row titles, also used to name the field in edits and refusals.
    static QStringList titles();
    using WorkloadTableModel::WorkloadTableModel;
    void setTarget(Target target);
    Target target() const { return m_target; }
    /// The target's name ("class train", "job big-train"), or "" when none.
    QString targetName() const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

protected:
    QStringList headers() const override;
    bool editable(int row, int column) const override;

private:
    /// The target's traits, or nullptr when it no longer exists in the scenario shown.
    const JobTraitsDef* traits() const;
    Target m_target;
};

}  // namespace gpuplan::ui
