#include "quota_table_model.hpp"

#include <QApplication>
#include <QBrush>
#include <QFont>
#include <QPalette>
#include <cmath>
#include <limits>

#include "format/ui_palette.hpp"
#include "workload_models.hpp"

namespace gpuplan::ui {

namespace {

QString number(double v) {
    return QString::number(v, 'g', 6);
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

const QStringList& reclaimChoices() {
    // Item order = enum order (ReclaimPolicy): the index is the value.
    static const QStringList choices{QStringLiteral("Never"), QStringLiteral("LowerPriority"),
                                     QStringLiteral("Any")};
    return choices;
}

}  // namespace

QString gpuShortName(const std::string& gpuModelId) {
    return q(gpuModelId).toUpper().section(QLatin1Char('-'), 0, 0);  // "H100-SXM" → "H100"
}

double QuotaUsage::scaleGpus() const {
    return std::max(nominalGpus + borrowingLimitGpus.value_or(nominalGpus), usedGpus);
}

QString QuotaUsage::text() const {
    QString t =
        QStringLiteral("%1 / %2").arg(number(std::round(usedGpus * 10) / 10), number(nominalGpus));
    if (borrowedGpus > 0)
        t += QObject::tr(" (+%1 borrowed)").arg(number(std::round(borrowedGpus * 10) / 10));
    return t;
}

QuotaTableModel::QuotaTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void QuotaTableModel::setScenario(std::shared_ptr<const Scenario> scenario) {
    std::vector<RowKey> rows;
    if (scenario) {
        for (const TeamDef& team : scenario->teams) {
            const QuotaDef* quota = nullptr;
            for (const QuotaDef& qd : scenario->quotas)
                if (qd.team == team.name) quota = &qd;
            if (!quota || quota->flavors.empty()) {
                rows.push_back({team.name, {}});
                continue;
            }
            for (const FlavorQuotaDef& f : quota->flavors)
                rows.push_back({team.name, f.gpuModel});
        }
    }
    if (rows == m_rows) {
        m_scenario = std::move(scenario);
        if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_scenario = std::move(scenario);
    m_rows = std::move(rows);
    endResetModel();
}

void QuotaTableModel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    if (!m_rows.empty())
        emit dataChanged(index(0, UsageColumn), index(rowCount() - 1, WaitP95Column));
}

void QuotaTableModel::setTime(double timeS) {
    if (timeS == m_timeS) return;
    m_timeS = timeS;
    if (!m_rows.empty())
        emit dataChanged(index(0, UsageColumn), index(rowCount() - 1, UsageColumn));
}

int QuotaTableModel::rowOf(const std::string& team, const std::string& gpuModel) const {
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].team == team && (gpuModel.empty() || m_rows[r].gpuModel == gpuModel))
            return static_cast<int>(r);
    return -1;
}

const QuotaDef* QuotaTableModel::quotaOf(const std::string& team) const {
    if (!m_scenario) return nullptr;
    for (const QuotaDef& qd : m_scenario->quotas)
        if (qd.team == team) return &qd;
    return nullptr;
}

const FlavorQuotaDef* QuotaTableModel::flavorOf(const RowKey& key) const {
    const QuotaDef* quota = quotaOf(key.team);
    if (!quota) return nullptr;
    for (const FlavorQuotaDef& f : quota->flavors)
        if (f.gpuModel == key.gpuModel) return &f;
    return nullptr;
}

bool QuotaTableModel::isFirstRowOfTeam(int row) const {
    return row == 0 || m_rows[row - 1].team != m_rows[row].team;
}

std::optional<QuotaUsage> QuotaTableModel::usageOf(const std::string& team) const {
    const QuotaDef* quota = quotaOf(team);
    if (!quota || !m_results) return std::nullopt;
    const Series* used = m_results->findSeries("quota_used_gpus{" + team + "}");
    const Series* borrowed = m_results->findSeries("quota_borrowed_gpus{" + team + "}");
    // The sample in force at t, the one rule charts and the pending list follow.
    const std::optional<std::size_t> k = m_results->sampleAt(m_timeS);
    if (!used || !borrowed || !k || *k >= used->values.size()) return std::nullopt;
    QuotaUsage u;
    u.usedGpus = used->values[*k];
    u.borrowedGpus = borrowed->values[*k];
    // The series are per team, all GPU models together: so are nominal and limit.
    double limit = 0;
    bool limited = true;
    for (const FlavorQuotaDef& f : quota->flavors) {
        u.nominalGpus += f.nominalGpus;
        limited = limited && f.borrowingLimitGpus.has_value();
        limit += f.borrowingLimitGpus.value_or(0);
    }
    if (limited && !quota->cohort.empty()) u.borrowingLimitGpus = limit;
    if (quota->cohort.empty()) u.borrowingLimitGpus = 0;  // nothing to borrow from
    return u;
}

double QuotaTableModel::waitP95S(const std::string& team) const {
    if (m_results)
        for (const GroupKpis& k : m_results->teamKpis)
            if (k.name == team) return k.waitP95S;
    return std::numeric_limits<double>::quiet_NaN();
}

int QuotaTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int QuotaTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant QuotaTableModel::display(int row, int column) const {
    const RowKey& key = m_rows[row];
    const QuotaDef* quota = quotaOf(key.team);
    const FlavorQuotaDef* flavor = flavorOf(key);
    if (column == TeamColumn) return q(key.team);
    if (column == WaitP95Column) {
        const double w = waitP95S(key.team);
        return std::isfinite(w) ? formatDuration(w) : QStringLiteral("–");
    }
    if (!quota || !flavor) return column == GpuModelColumn ? tr("not managed") : QVariant();
    switch (column) {
        case CohortColumn:
            return quota->cohort.empty() ? kNoCohort : q(quota->cohort);
        case GpuModelColumn:
            return gpuShortName(flavor->gpuModel);
        case NominalColumn:
            return number(flavor->nominalGpus);
        case BorrowingLimitColumn:
            return flavor->borrowingLimitGpus ? number(*flavor->borrowingLimitGpus)
                                              : QStringLiteral("none");
        case LendingLimitColumn:
            return flavor->lendingLimitGpus ? number(*flavor->lendingLimitGpus)
                                            : QStringLiteral("none");
        case WeightColumn:
            return number(quota->fairShareWeight);
        case ReclaimColumn:
            return QLatin1String(toString(quota->reclaimWithinCohort));
        case UsageColumn:
            if (!isFirstRowOfTeam(row)) return QStringLiteral("″");
            if (const auto u = usageOf(key.team)) return u->text();
            return QStringLiteral("–");
    }
    return {};
}

QVariant QuotaTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const int row = index.row(), column = index.column();
    const RowKey& key = m_rows[row];
    const bool managed = !key.gpuModel.empty();
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            return display(row, column);
        case ManagedRole:
            return managed;
        case UsageRole:
            if (column == UsageColumn && managed && isFirstRowOfTeam(row))
                if (const auto u = usageOf(key.team)) return QVariant::fromValue(*u);
            return {};
        case ChoicesRole:
            if (column == ReclaimColumn && managed) return reclaimChoices();
            if (column == CohortColumn && managed && m_scenario) {
                QStringList cohorts{kNoCohort};
                for (const CohortDef& c : m_scenario->cohorts)
                    cohorts << q(c.name);
                return cohorts;
            }
            return {};
        case Qt::ForegroundRole:
            if (!managed) return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
            return {};
        case Qt::FontRole:
            if (!managed && column == GpuModelColumn) {
                QFont f;
                f.setItalic(true);
                return f;
            }
            return {};
        case Qt::TextAlignmentRole:
            if ((column >= NominalColumn && column <= WeightColumn) || column == WaitP95Column)
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case Qt::ToolTipRole:
            if (!managed)
                return tr("Team %1 has no quota: Kueue does not manage it, its jobs are admitted "
                          "wherever they fit. \"Add quota\" gives it one.")
                    .arg(q(key.team));
            if (column == UsageColumn && !isFirstRowOfTeam(row))
                return tr("Usage is per team, all its GPU models together: see its first row.");
            if (column == GpuModelColumn && m_scenario)
                if (const GpuModel* m = m_scenario->findGpu(key.gpuModel)) return q(m->name);
            return headerData(column, Qt::Horizontal, Qt::ToolTipRole);
    }
    return {};
}

bool QuotaTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || !m_hook) return false;
    if (!(flags(index) & Qt::ItemIsEditable)) return false;
    // A value typed unchanged is no edit (and no refusal).
    if (data(index, Qt::EditRole).toString() == value.toString().trimmed()) return true;
    const QString refusal = m_hook(m_rows[index.row()], index.column(), value);
    m_lastRefusal = refusal;
    if (!refusal.isEmpty()) {
        emit refused(refusal);
        // The view shows the old value again (the editor may have painted the typed one).
        emit dataChanged(index, index);
        return false;
    }
    return true;
}

Qt::ItemFlags QuotaTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid() || index.row() >= rowCount()) return f;
    const bool managed = !m_rows[index.row()].gpuModel.empty();
    switch (index.column()) {
        case CohortColumn:
        case NominalColumn:
        case BorrowingLimitColumn:
        case LendingLimitColumn:
        case WeightColumn:
        case ReclaimColumn:
            if (managed) f |= Qt::ItemIsEditable;
            break;
        default:
            break;
    }
    return f;
}

QVariant QuotaTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case TeamColumn:
                return tr(
                    "The team's ClusterQueue (Kueue: one per team). Greyed: no quota, not "
                    "managed; its jobs are admitted wherever they fit.");
            case CohortColumn:
                return tr(
                    "spec.cohort: the teams of one cohort lend each other the quota they do not "
                    "use. – = in no cohort: it neither lends nor borrows (a team in none may "
                    "have no borrowing or lending limit).");
            case GpuModelColumn:
                return tr(
                    "The ResourceFlavor: the GPU model this quota of nvidia.com/gpu is for. "
                    "Counted in GPU-equivalents (a MIG instance or a GPU share by its "
                    "fraction).");
            case NominalColumn:
                return tr(
                    "nominalQuota: the GPU-equivalents of this model the team is guaranteed "
                    "(what it may always use, reclaiming it from borrowers where allowed).");
            case BorrowingLimitColumn:
                return tr(
                    "borrowingLimit: the most it may use beyond its nominal quota, borrowed "
                    "from its cohort's unused quota. none = no limit (as much as the cohort "
                    "has unused). Type a number, or leave empty / none to clear it.");
            case LendingLimitColumn:
                return tr(
                    "lendingLimit: the most of its unused nominal quota it lends to its "
                    "cohort; the rest is kept for it alone. none = it lends all of it. At "
                    "most the nominal quota. Type a number, or leave empty / none to clear "
                    "it.");
            case WeightColumn:
                return tr(
                    "fairSharing.weight: with fair sharing on in its cohort, what it uses "
                    "above its nominal quota is divided by this weight; the team with the "
                    "lowest share is admitted first, so a higher weight gets more of the "
                    "spare quota. 0 = it borrows only what nobody else wants.");
            case ReclaimColumn:
                return tr(
                    "preemption.reclaimWithinCohort: whom it may preempt in its cohort to get "
                    "its nominal quota back: Never, LowerPriority (borrowers' jobs of lower "
                    "priority) or Any (any borrower's jobs).");
            case UsageColumn:
                return tr(
                    "GPU-equivalents its quota has admitted at the scrubber's time: used within "
                    "the nominal quota, borrowed beyond it (other colour); the tick marks the "
                    "nominal quota. The bar spans nominal + borrowing limit (no limit: the "
                    "nominal again). Per team, all its GPU models together.");
            case WaitP95Column:
                return tr(
                    "The team's wait p95 over the run: time from submit to first start, jobs "
                    "still waiting counted with their wait so far (as the By team table).");
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case TeamColumn:
            return tr("Team");
        case CohortColumn:
            return tr("Cohort");
        case GpuModelColumn:
            return tr("GPU model");
        case NominalColumn:
            return tr("Nominal");
        case BorrowingLimitColumn:
            return tr("Borrowing limit");
        case LendingLimitColumn:
            return tr("Lending limit");
        case WeightColumn:
            return tr("Weight");
        case ReclaimColumn:
            return tr("Reclaim");
        case UsageColumn:
            return tr("Usage (GPUs)");
        case WaitP95Column:
            return tr("Wait p95");
    }
    return {};
}

}  // namespace gpuplan::ui
