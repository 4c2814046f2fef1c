// Table models of the workload editor: teams, job classes and explicit jobs of a scenario,
// with units in the cells ("12 jobs/h", "2 h", "80 %"). The models only show and forward: a
// cell edit goes to the model's edit hook, which turns it into a new scenario and commits
// it (the application validates it and makes it one undo step). A refused edit changes
// nothing; the reason is kept in lastRefusal() and announced by refused().
#pragma once

#include <QAbstractTableModel>
#include <functional>
#include <memory>

#include "gpuplan/economics/checkpoint_advice.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan::ui {

/// Roles every workload model answers besides display and edit.
enum WorkloadRole {
    ChoicesRole = Qt::UserRole + 1,  ///< QStringList: the editor offers these (teams, kinds)
    DistributionRole,                ///< int(Quantity) where the cell holds a distribution
};

class WorkloadTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Applies a cell edit (row, column, value as typed); returns the refusal reason or "".
    using EditHook = std::function<QString(int row, int column, const QVariant& value)>;

    using QAbstractTableModel::QAbstractTableModel;
    void setEditHook(EditHook hook) { m_hook = std::move(hook); }
    /// The scenario shown; the three models share one copy.
    void setScenario(std::shared_ptr<const Scenario> scenario);
    const Scenario& scenario() const { return *m_scenario; }
    QString lastRefusal() const { return m_lastRefusal; }

    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

signals:
    void refused(const QString& reason);

protected:
    virtual QStringList headers() const = 0;
    virtual QStringList headerTips() const { return {}; }
    virtual bool editable(int /*row*/, int /*column*/) const { return true; }
    QStringList teamNames() const;

    std::shared_ptr<const Scenario> m_scenario = std::make_shared<const Scenario>();

private:
    EditHook m_hook;
    QString m_lastRefusal;
};

class TeamTableModel : public WorkloadTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ColorColumn, UsedByColumn, ColumnCount };
    using WorkloadTableModel::WorkloadTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

protected:
    QStringList headers() const override;
    bool editable(int row, int column) const override;
};

class JobClassTableModel : public WorkloadTableModel {
    Q_OBJECT
public:
    /// Edit values are text in the shown unit: rate in jobs/h, memory in GB, fractions in %,
    /// distributions as formatDistribution writes them, checkpoint interval and cost as
    /// durations ("" = none), Elastic to in GPUs ("" = fixed size). The Young / Daly column
    /// is read-only, from the last run.
    enum Column {
        NameColumn,
        TeamColumn,
        PriorityColumn,
        ArrivalColumn,
        RateColumn,
        MaxJobsColumn,
        GpusColumn,
        GpusPerPodColumn,
        ElasticColumn,  ///< JobTraitsDef::elasticMaxGpus, beside the size it grows from
        DurationColumn,
        // Beside the duration, the work they save, so that they show without scrolling.
        CheckpointIntervalColumn,
        CheckpointCostColumn,
        CheckpointAdviceColumn,
        MemoryColumn,
        SmActivityColumn,
        EngineActiveColumn,  ///< JobTraitsDef::engineActive ("" = as SM activity)
        MfuColumn,
        TopologyColumn,
        ColumnCount
    };
    /// Column titles, also used to name the field in edits and refusals.
    static QStringList titles();
    using WorkloadTableModel::WorkloadTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    /// The latest run, for the Young / Daly column (its checkpointAdvice); nullptr: none yet.
    void setResults(std::shared_ptr<const Results> results);

protected:
    QStringList headers() const override;
    QStringList headerTips() const override;
    bool editable(int row, int column) const override;

private:
    /// The last run's advice for the class of that name, or nullptr.
    const CheckpointAdvice* adviceOf(const std::string& className) const;
    QVariant adviceData(const JobClassDef& c, int role) const;

    bool m_failuresInRun = false;  ///< the last run drew random failures
    std::vector<CheckpointAdvice> m_advice;
};

class ExplicitJobTableModel : public WorkloadTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TeamColumn,
        PriorityColumn,
        GpusColumn,
        ElasticColumn,  ///< JobTraitsDef::elasticMaxGpus ("" = fixed size)
        DurationColumn,
        PinColumn,
        SubmitColumn,
        ColumnCount
    };
    /// Column titles, also used to name the field in edits and refusals.
    static QStringList titles();
    using WorkloadTableModel::WorkloadTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

protected:
    QStringList headers() const override;
    QStringList headerTips() const override;
};

}  // namespace gpuplan::ui
