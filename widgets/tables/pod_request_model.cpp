#include "pod_request_model.hpp"

#include "format/workload_format.hpp"

namespace gpuplan::ui {

namespace {

QString percent(double fraction) {
    return QString::number(100 * fraction, 'g', 4);
}

QString number(double v) {
    return QString::number(v, 'g', 6);
}

/// What a row shows and what its editor starts from (the same text without decoration where
/// they differ: "24 cores" shows, "24" edits).
std::pair<QString, QString> cell(const JobTraitsDef& t, int row) {
    switch (row) {
        case PodRequestModel::GpuModelRow: {
            const QString id = t.gpuModel ? QString::fromStdString(*t.gpuModel) : QString();
            return {id.isEmpty() ? QObject::tr("any") : id, id};
        }
        case PodRequestModel::GpusPerPodRow:
            if (t.gpusPerPod <= 0) return {QObject::tr("automatic"), QString()};
            return {QString::number(t.gpusPerPod), QString::number(t.gpusPerPod)};
        case PodRequestModel::GpuShareRow:
            if (t.gpuMilli >= 1000) return {QObject::tr("whole GPUs"), QString()};
            return {
                QObject::tr("%1 of a GPU (%2m)").arg(number(t.gpuMilli / 1000.0)).arg(t.gpuMilli),
                number(t.gpuMilli / 1000.0)};
        case PodRequestModel::MigProfileRow: {
            const QString profile = QString::fromStdString(t.migProfile);
            if (!profile.isEmpty()) return {profile, profile};
            if (t.migMemoryGb > 0)
                return {QObject::tr("smallest with %1 GB").arg(number(t.migMemoryGb)),
                        QObject::tr("%1 GB").arg(number(t.migMemoryGb))};
            return {QObject::tr("none"), QString()};
        }
        case PodRequestModel::CpuRow:
            if (t.cpuMilliPerPod <= 0) return {QObject::tr("not asked"), QString()};
            return {QObject::tr("%1 cores").arg(number(t.cpuMilliPerPod / 1000.0)),
                    number(t.cpuMilliPerPod / 1000.0)};
        case PodRequestModel::HostMemoryRow:
            if (t.memoryMiBPerPod <= 0) return {QObject::tr("not asked"), QString()};
            if (t.memoryMiBPerPod % 1024 != 0)  // as stored, not as a long GiB fraction
                return {QObject::tr("%1 MiB").arg(t.memoryMiBPerPod),
                        QObject::tr("%1 MiB").arg(t.memoryMiBPerPod)};
            return {QObject::tr("%1 GiB").arg(t.memoryMiBPerPod / 1024),
                    QString::number(t.memoryMiBPerPod / 1024)};
        case PodRequestModel::GpuMemoryRow:
            if (t.memoryGbPerGpu <= 0) return {QObject::tr("fits any GPU"), QString()};
            return {QObject::tr("%1 GB").arg(number(t.memoryGbPerGpu)), number(t.memoryGbPerGpu)};
        case PodRequestModel::SmActivityRow:
            return {percent(t.smActivity) + QStringLiteral(" %"), percent(t.smActivity)};
        case PodRequestModel::EngineActiveRow:
            if (!t.engineActive) return {QObject::tr("as SM activity"), QString()};
            return {percent(*t.engineActive) + QStringLiteral(" %"), percent(*t.engineActive)};
        case PodRequestModel::MfuRow:
            return {percent(t.mfu) + QStringLiteral(" %"), percent(t.mfu)};
        case PodRequestModel::PrecisionRow: {
            const QString name = QString::fromLatin1(toString(t.precision));
            return {name.toUpper(), name};
        }
        case PodRequestModel::MatmulShareRow:
            // What FP8 speeds up: no effect in BF16, said so beside the value.
            return {percent(t.matmulShare) + (t.precision == Precision::Fp8
                                                  ? QStringLiteral(" %")
                                                  : QObject::tr(" % (counts in FP8)")),
                    percent(t.matmulShare)};
        case PodRequestModel::FlopsPerByteRow:
            if (!t.flopsPerByte) return {QObject::tr("compute-bound"), QString()};
            return {QObject::tr("%1 FLOP/B").arg(number(*t.flopsPerByte)), number(*t.flopsPerByte)};
        case PodRequestModel::TopologyRow:
            return {percent(t.topologySensitivity) + QStringLiteral(" %"),
                    percent(t.topologySensitivity)};
        case PodRequestModel::StartupRow:
            if (t.startupS <= 0) return {QObject::tr("none"), QString()};
            return {formatDurationValue(t.startupS), formatDurationValue(t.startupS)};
        case PodRequestModel::PreemptionRow:
            return t.preemptionPolicy == PreemptionPolicy::Never
                       ? std::pair{QObject::tr("never preempts"), QStringLiteral("never")}
                       : std::pair{QObject::tr("may preempt lower priority"),
                                   QStringLiteral("lower priority")};
        case PodRequestModel::CheckpointIntervalRow:
            if (t.checkpointIntervalS <= 0) return {QObject::tr("never"), QString()};
            return {formatDurationValue(t.checkpointIntervalS),
                    formatDurationValue(t.checkpointIntervalS)};
        case PodRequestModel::CheckpointCostRow:
            if (t.checkpointCostS <= 0) return {QObject::tr("none"), QString()};
            return {formatDurationValue(t.checkpointCostS), formatDurationValue(t.checkpointCostS)};
    }
    return {};
}

QString rowTip(int row) {
    switch (row) {
        case PodRequestModel::GpuModelRow:
            return QObject::tr("A catalog GPU model id (h100-sxm, a100-80gb…), or blank = any");
        case PodRequestModel::GpusPerPodRow:
            return QObject::tr(
                "GPUs per pod of the gang; blank = automatic (the largest divisor that fits a "
                "node)");
        case PodRequestModel::GpuShareRow:
            return QObject::tr(
                "A share of one GPU per pod, served by MPS or time-slicing: 0.25, or 250m "
                "(milli-GPU); blank or 1 = whole GPUs");
        case PodRequestModel::MigProfileRow:
            return QObject::tr(
                "A MIG instance per pod: a profile (1g.10gb, 3g.40gb…) or \"20 GB\" for the "
                "smallest profile with that memory; blank = none");
        case PodRequestModel::CpuRow:
            return QObject::tr(
                "CPU cores per pod: 24, 0.5 or 500m; nodes without enough free cores are "
                "filtered out. Blank = not asked");
        case PodRequestModel::HostMemoryRow:
            return QObject::tr(
                "Host memory per pod: 64 (GiB), 64Gi, 512 MiB, or 64 GB (10^9 bytes); blank = "
                "not asked");
        case PodRequestModel::GpuMemoryRow:
            return QObject::tr(
                "GPU memory the job needs per GPU, GB: more than the GPU has and it "
                "crash-loops (out of memory). Blank = fits any GPU");
        case PodRequestModel::SmActivityRow:
            return QObject::tr(
                "DCGM SM_ACTIVE while running at full speed, in % (60, or 0.6 % if you mean "
                "it); blank = 80 %");
        case PodRequestModel::EngineActiveRow:
            return QObject::tr(
                "Share of time its kernels run, alone at full speed (DCGM GR_ENGINE_ACTIVE, "
                "nvidia-smi's GPU utilization), %: what a time-sliced GPU divides. Never below "
                "the SM activity it implies; blank = as SM activity");
        case PodRequestModel::MfuRow:
            return QObject::tr(
                "Model FLOPs utilisation at full speed in BF16 when compute-bound: achieved "
                "model FLOP/s ÷ the GPU's dense BF16 peak, in %; blank = 35 %");
        case PodRequestModel::PrecisionRow:
            return QObject::tr(
                "Number format of its matrix multiplies: bf16 or fp8. FP8 tensor cores do twice "
                "BF16's FLOPs, so its matmuls run twice as fast (only on GPUs with FP8)");
        case PodRequestModel::MatmulShareRow:
            return QObject::tr(
                "Share of its BF16 step time in matrix multiplies, %: what FP8 speeds up "
                "(softmax, norms, communication and the optimizer do not); blank = 100 %");
        case PodRequestModel::FlopsPerByteRow:
            return QObject::tr(
                "Arithmetic intensity, model FLOPs per byte of HBM traffic (LLM decode: about "
                "its batch size). Below the GPU's ridge point (peak ÷ bandwidth, 295 on an "
                "H100) its MFU is capped by the memory; blank = compute-bound");
        case PodRequestModel::TopologyRow:
            return QObject::tr(
                "Share of step time in exposed communication, %: how much a gang spread over "
                "racks or pods slows down");
        case PodRequestModel::StartupRow:
            return QObject::tr(
                "Bound but not progressing at every start (image pull, model load): 5 min");
        case PodRequestModel::PreemptionRow:
            return QObject::tr(
                "With priority preemption on: may it evict lower-priority jobs (lower "
                "priority), or only wait (never)?");
        case PodRequestModel::CheckpointIntervalRow:
            return QObject::tr("Progress is saved every this much work: 1 h; blank = never");
        case PodRequestModel::CheckpointCostRow:
            return QObject::tr("Work paused to write one checkpoint: 2 min; blank = none");
    }
    return {};
}

}  // namespace

QStringList PodRequestModel::titles() {
    return {tr("GPU model"),
            tr("GPUs per pod"),
            tr("GPU share"),
            tr("MIG instance"),
            tr("CPU per pod"),
            tr("Host memory per pod"),
            tr("GPU memory per GPU"),
            tr("SM activity"),
            tr("Engine active"),
            tr("MFU"),
            tr("Precision"),
            tr("Matmul share"),
            tr("FLOPs per byte"),
            tr("Topology sensitivity"),
            tr("Startup"),
            tr("Preemption"),
            tr("Checkpoint every"),
            tr("Checkpoint cost")};
}

QStringList PodRequestModel::headers() const {
    return {tr("Pod request"), tr("Value")};
}

void PodRequestModel::setTarget(Target target) {
    if (target == m_target) return;
    beginResetModel();
    m_target = target;
    endResetModel();
}

const JobTraitsDef* PodRequestModel::traits() const {
    const Scenario& s = *m_scenario;
    if (m_target.kind == Target::Class && m_target.index >= 0 &&
        m_target.index < static_cast<int>(s.jobClasses.size()))
        return &s.jobClasses[m_target.index].traits;
    if (m_target.kind == Target::Job && m_target.index >= 0 &&
        m_target.index < static_cast<int>(s.jobs.size()))
        return &s.jobs[m_target.index].traits;
    return nullptr;
}

QString PodRequestModel::targetName() const {
    if (!traits()) return {};
    const Scenario& s = *m_scenario;
    return m_target.kind == Target::Class
               ? tr("class %1").arg(QString::fromStdString(s.jobClasses[m_target.index].name))
               : tr("job %1").arg(QString::fromStdString(s.jobs[m_target.index].name));
}

int PodRequestModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !traits() ? 0 : RowCount;
}

int PodRequestModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool PodRequestModel::editable(int, int column) const {
    return column == ValueColumn;
}

QVariant PodRequestModel::data(const QModelIndex& index, int role) const {
    const JobTraitsDef* t = traits();
    if (!t || !index.isValid()) return {};
    if (role == Qt::ToolTipRole) return rowTip(index.row());
    if (index.column() == TraitColumn)
        return role == Qt::DisplayRole ? titles().value(index.row()) : QVariant();
    if (role == ChoicesRole && index.row() == PreemptionRow)
        return QStringList{QStringLiteral("lower priority"), QStringLiteral("never")};
    if (role == ChoicesRole && index.row() == PrecisionRow)
        return QStringList{QStringLiteral("bf16"), QStringLiteral("fp8")};
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    const auto [shown, edited] = cell(*t, index.row());
    return role == Qt::DisplayRole ? shown : edited;
}

}  // namespace gpuplan::ui
