#include "workload_models.hpp"

#include <QColor>
#include <utility>

#include "format/ui_palette.hpp"
#include "format/workload_format.hpp"

namespace gpuplan::ui {

namespace {

QString percent(double fraction) {
    return QString::number(100 * fraction, 'g', 4);
}

QString number(double v) {
    return QString::number(v, 'g', 6);
}

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// The Elastic to cell: "fixed" (edit text empty) or "up to 16 GPUs" (edit text "16").
QVariant elasticCell(int maxGpus, bool display) {
    if (maxGpus <= 0) return display ? QObject::tr("fixed") : QString();
    return display ? QObject::tr("%1 GPUs").arg(maxGpus) : QString::number(maxGpus);
}

QString elasticTip() {
    return QObject::tr(
        "Elastic: the most GPUs a job grows to, by whole pods, into capacity nobody waits for, "
        "giving the growth back when a queued job needs it (blank or 0 = fixed size; whole "
        "GPUs only, not with a GPU share or a MIG instance)");
}

}  // namespace

void WorkloadTableModel::setScenario(std::shared_ptr<const Scenario> scenario) {
    const int rowsBefore = rowCount();
    // Same rows: update in place, so the view keeps its current cell while editing.
    std::shared_ptr<const Scenario> previous = std::exchange(m_scenario, scenario);
    if (rowCount() == rowsBefore) {
        if (rowsBefore > 0) emit dataChanged(index(0, 0), index(rowsBefore - 1, columnCount() - 1));
        return;
    }
    m_scenario = std::move(previous);
    beginResetModel();
    m_scenario = std::move(scenario);
    endResetModel();
}

QStringList WorkloadTableModel::teamNames() const {
    QStringList names;
    for (const TeamDef& t : m_scenario->teams)
        names << text(t.name);
    return names;
}

bool WorkloadTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || !m_hook) return false;
    // A value typed unchanged is no edit (and no refusal).
    if (data(index, Qt::EditRole) == value) return true;
    const QString refusal = m_hook(index.row(), index.column(), value);
    m_lastRefusal = refusal;
    if (!refusal.isEmpty()) {
        emit refused(refusal);
        return false;
    }
    return true;
}

Qt::ItemFlags WorkloadTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && editable(index.row(), index.column())) f |= Qt::ItemIsEditable;
    return f;
}

QVariant WorkloadTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return QAbstractTableModel::headerData(section, o, role);
    if (role == Qt::DisplayRole) return headers().value(section);
    if (role == Qt::ToolTipRole) return headerTips().value(section);
    return {};
}

// ---- teams ----------------------------------------------------------------------------------

int TeamTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_scenario->teams.size());
}

int TeamTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList TeamTableModel::headers() const {
    return {tr("Team"), tr("Colour"), tr("Used by")};
}

bool TeamTableModel::editable(int, int column) const {
    return column != UsedByColumn;
}

QVariant TeamTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const TeamDef& t = m_scenario->teams[index.row()];
    if (role == Qt::DecorationRole && index.column() == ColorColumn && !t.color.empty())
        return QColor(text(t.color));
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
        case NameColumn:
            return text(t.name);
        case ColorColumn:
            return t.color.empty() && role == Qt::DisplayRole ? tr("automatic") : text(t.color);
        case UsedByColumn: {
            int classes = 0, jobs = 0;
            for (const JobClassDef& c : m_scenario->jobClasses)
                classes += c.traits.team == t.name;
            for (const JobDef& j : m_scenario->jobs)
                jobs += j.traits.team == t.name;
            return (classes == 1 ? tr("1 class") : tr("%1 classes").arg(classes)) +
                   (jobs == 1 ? tr(", 1 job") : tr(", %1 jobs").arg(jobs));
        }
    }
    return {};
}

// ---- job classes ----------------------------------------------------------------------------

int JobClassTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_scenario->jobClasses.size());
}

int JobClassTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList JobClassTableModel::headers() const {
    return titles();
}

QStringList JobClassTableModel::titles() {
    return {tr("Class"),
            tr("Team"),
            tr("Priority"),
            tr("Arrival"),
            tr("Rate"),
            tr("Max jobs"),
            tr("GPUs"),
            tr("GPUs/pod"),
            tr("Elastic to"),
            tr("Duration"),
            tr("Checkpoint every"),
            tr("Checkpoint cost"),
            tr("Young / Daly"),
            tr("Memory/GPU"),
            tr("SM activity"),
            tr("Engine active"),
            tr("MFU"),
            tr("Topology")};
}

QStringList JobClassTableModel::headerTips() const {
    return {tr("The class's name; its jobs are named <class>-<n>"),
            tr("The team its jobs run for"),
            tr("Higher runs first"),
            tr("poisson, diurnal <amplitude %> <peak hour>, or list"),
            tr("Jobs per hour (the daily mean for diurnal), before the demand multiplier"),
            tr("At most this many jobs (empty = no limit)"),
            tr("GPUs per job: fixed 8, uniform 1 to 8, lognormal median 4 σ 0.5, "
               "empirical 1:3, 8:1"),
            tr("GPUs per pod of the gang (automatic = largest divisor that fits a node)"),
            elasticTip(),
            tr("Run time at ideal placement: fixed 2 h, exponential mean 30 min, "
               "lognormal median 2 h σ 1 (bare numbers are hours)"),
            tr("Work between checkpoints (never = an eviction loses all work done); "
               "bare numbers are hours"),
            tr("Progress paused to write one checkpoint (needs an interval); "
               "bare numbers are hours, so type \"30 s\" or \"5 min\""),
            tr("The intervals the last run's failure rate calls for: Young's √(2·cost·MTBF) "
               "and Daly's refinement; — without random failures or a checkpoint cost"),
            tr("HBM each GPU needs, GB (more than the GPU has: the job crash-loops)"),
            tr("DCGM SM_ACTIVE while running, %"),
            tr("Share of time its kernels run, % (DCGM GR_ENGINE_ACTIVE, nvidia-smi's GPU "
               "utilization): what a time-sliced GPU divides; empty = as SM activity"),
            tr("Model FLOPs utilisation while running, %"),
            tr("Share of step time in exposed communication, %")};
}

bool JobClassTableModel::editable(int row, int column) const {
    if (column == CheckpointAdviceColumn) return false;
    const bool tide = m_scenario->jobClasses[row].arrival.process == ArrivalProcess::Tide;
    if (column == DurationColumn && tide) return false;
    return !(column == RateColumn &&
             (m_scenario->jobClasses[row].arrival.process == ArrivalProcess::List ||
              m_scenario->jobClasses[row].arrival.process == ArrivalProcess::Tide));
}

void JobClassTableModel::setResults(std::shared_ptr<const Results> results) {
    m_failuresInRun = results && results->failureMtbfGpuHours > 0;
    m_advice = results ? checkpointAdvice(*results) : std::vector<CheckpointAdvice>{};
    if (rowCount() > 0)
        emit dataChanged(index(0, CheckpointAdviceColumn),
                         index(rowCount() - 1, CheckpointAdviceColumn));
}

const CheckpointAdvice* JobClassTableModel::adviceOf(const std::string& className) const {
    // Classes come first in the advice (source order), before explicit jobs of the same name.
    for (const CheckpointAdvice& a : m_advice)
        if (a.source == className) return &a;
    return nullptr;
}

QVariant JobClassTableModel::adviceData(const JobClassDef& c, int role) const {
    const CheckpointAdvice* a = adviceOf(c.name);
    if (role == Qt::DisplayRole)
        return a ? tr("%1 / %2").arg(formatDuration(a->youngS), formatDuration(a->dalyS)) : tr("—");
    if (role != Qt::ToolTipRole) return {};
    if (!m_failuresInRun)
        return tr("The last run had no random failures (Scheduler and run ▸ Failures)");
    if (!(c.traits.checkpointCostS > 0))
        return tr("Set a checkpoint cost: the intervals weigh it against the failure rate");
    if (!a) return tr("No job of the class ran in the last run");
    return tr("Young %4, Daly %5 (the class checkpoints every %6)\nfor a checkpoint cost of "
              "%1 and a job MTBF of %2\n(its jobs span %3 GPUs on average, in the last run)")
        .arg(formatDurationValue(a->configured.costS), formatDuration(a->mtbfS),
             QString::number(a->gpusExposed, 'f', 0), formatDuration(a->youngS),
             formatDuration(a->dalyS),
             a->configured.intervalS > 0 ? formatDurationValue(a->configured.intervalS)
                                         : tr("never"));
}

QVariant JobClassTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const JobClassDef& c = m_scenario->jobClasses[index.row()];
    const bool display = role == Qt::DisplayRole;
    if (role == ChoicesRole && index.column() == TeamColumn) return teamNames();
    if (role == DistributionRole && index.column() == GpusColumn)
        return static_cast<int>(Quantity::Gpus);
    if (role == DistributionRole && index.column() == DurationColumn)
        return static_cast<int>(Quantity::DurationS);
    if (role == Qt::TextAlignmentRole && index.column() >= PriorityColumn &&
        index.column() != ArrivalColumn && index.column() != GpusColumn &&
        index.column() != DurationColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == CheckpointAdviceColumn) return adviceData(c, role);
    if (!display && role != Qt::EditRole) return {};
    const JobTraitsDef& t = c.traits;
    switch (index.column()) {
        case NameColumn:
            return text(c.name);
        case TeamColumn:
            return text(t.team);
        case PriorityColumn:
            return QString::number(t.priority);
        case ArrivalColumn:
            return formatArrival(c.arrival);
        case RateColumn:
            // Fixed times or a tide's curve: no rate to show or edit.
            if (c.arrival.process == ArrivalProcess::List ||
                c.arrival.process == ArrivalProcess::Tide)
                return display ? tr("—") : QString();
            if (!display) return number(c.arrival.ratePerHour);
            // Under a demand multiplier, the rate the run uses too.
            if (m_scenario->demandMultiplier != 1)
                return tr("%1 jobs/h (× %2 = %3)")
                    .arg(number(c.arrival.ratePerHour), number(m_scenario->demandMultiplier),
                         number(c.arrival.ratePerHour * m_scenario->demandMultiplier));
            return tr("%1 jobs/h").arg(number(c.arrival.ratePerHour));
        case MaxJobsColumn:
            return c.maxJobs ? QString::number(*c.maxJobs) : QString();
        case GpusColumn:
            return formatDistribution(c.gpus, Quantity::Gpus);
        case GpusPerPodColumn:
            if (t.gpusPerPod == 0) return display ? tr("automatic") : QString();
            return QString::number(t.gpusPerPod);
        case ElasticColumn:
            return elasticCell(t.elasticMaxGpus, display);
        case DurationColumn:
            // A tide's replicas run while the curve wants them.
            if (c.arrival.process == ArrivalProcess::Tide)
                return display ? tr("its windows") : QString();
            return formatDistribution(c.durationS, Quantity::DurationS);
        case MemoryColumn:
            return display ? tr("%1 GB").arg(number(t.memoryGbPerGpu)) : number(t.memoryGbPerGpu);
        case SmActivityColumn:
            return display ? percent(t.smActivity) + QStringLiteral(" %") : percent(t.smActivity);
        case EngineActiveColumn:
            if (!t.engineActive) return display ? tr("as SM") : QString();
            return display ? percent(*t.engineActive) + QStringLiteral(" %")
                           : percent(*t.engineActive);
        case MfuColumn:
            return display ? percent(t.mfu) + QStringLiteral(" %") : percent(t.mfu);
        case TopologyColumn:
            return display ? percent(t.topologySensitivity) + QStringLiteral(" %")
                           : percent(t.topologySensitivity);
        case CheckpointIntervalColumn:
            if (t.checkpointIntervalS == 0) return display ? tr("never") : QString();
            return formatDurationValue(t.checkpointIntervalS);
        case CheckpointCostColumn:
            if (t.checkpointCostS == 0) return display ? tr("none") : QString();
            return formatDurationValue(t.checkpointCostS);
    }
    return {};
}

// ---- explicit jobs --------------------------------------------------------------------------

int ExplicitJobTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_scenario->jobs.size());
}

int ExplicitJobTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList ExplicitJobTableModel::headers() const {
    return titles();
}

QStringList ExplicitJobTableModel::titles() {
    return {tr("Job"),        tr("Team"),     tr("Priority"), tr("GPUs"),
            tr("Elastic to"), tr("Duration"), tr("Pin"),      tr("Submit")};
}

QStringList ExplicitJobTableModel::headerTips() const {
    return {tr("Jobs placed by hand (drops are named drop-*)"),
            tr("The team it runs for"),
            tr("Higher runs first"),
            tr("GPUs of the job (an elastic job's minimum)"),
            elasticTip() + tr("; more than its GPUs"),
            tr("Run time at ideal placement (bare numbers are hours)"),
            tr("none, or node|rack|pod and its name"),
            tr("Submit time after the start (bare numbers are hours)")};
}

QVariant ExplicitJobTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const JobDef& j = m_scenario->jobs[index.row()];
    if (role == ChoicesRole && index.column() == TeamColumn) return teamNames();
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn &&
        index.column() != TeamColumn && index.column() != PinColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
        case NameColumn:
            return text(j.name);
        case TeamColumn:
            return text(j.traits.team);
        case PriorityColumn:
            return QString::number(j.traits.priority);
        case GpusColumn:
            return QString::number(j.gpus);
        case ElasticColumn:
            return elasticCell(j.traits.elasticMaxGpus, role == Qt::DisplayRole);
        case DurationColumn:
            return formatDurationValue(j.durationS);
        case PinColumn:
            return formatPin(j.traits.pin);
        case SubmitColumn:
            return formatDurationValue(j.submitS);
    }
    return {};
}

}  // namespace gpuplan::ui
