// The scenario's quotas as a table: one row per (team, GPU model) of a team's
// ClusterQueue, and one greyed row for each team without a quota ("not managed"). Usage at the
// scrubber's time comes from the results' quota_used_gpus{team} / quota_borrowed_gpus{team}
// series, the wait p95 from the results' team KPIs (as the By team table shows it).
// The model only shows and forwards: a cell edit goes to the edit hook, which turns it into
// one document edit; a refused edit changes nothing and the cell shows the old value.
#pragma once

#include <QAbstractTableModel>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// "h100-sxm" → "H100": a GPU model as a planner says it (the id's first part).
QString gpuShortName(const std::string& gpuModelId);

/// What the usage bar of a row paints (QuotaTableModel::UsageRole), GPU-equivalents.
struct QuotaUsage {
    double usedGpus = 0;      ///< admitted at t, borrowed part included
    double borrowedGpus = 0;  ///< beyond the nominal quota, from the cohort
    double nominalGpus = 0;
    std::optional<double> borrowingLimitGpus;  ///< nullopt = unlimited
    /// The bar's full width: nominal + borrowing limit (unlimited: the nominal again), or
    /// what it uses when that is more.
    double scaleGpus() const;
    /// "72 / 64 (+8 borrowed)".
    QString text() const;
};

class QuotaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The cohort cell of a team in no cohort (and the first choice of its editor).
    static inline const QString kNoCohort = QStringLiteral("–");
    enum Column {
        TeamColumn,
        CohortColumn,
        GpuModelColumn,
        NominalColumn,
        BorrowingLimitColumn,
        LendingLimitColumn,
        WeightColumn,
        ReclaimColumn,
        UsageColumn,
        WaitP95Column,
        ColumnCount
    };
    enum Role {
        UsageRole = Qt::UserRole + 100,  ///< QuotaUsage, on a team's first managed row at t
        ManagedRole,                     ///< bool: the row's team has a quota
    };
    /// What a row is about; gpuModel is empty on a team without a quota.
    struct RowKey {
        std::string team;
        std::string gpuModel;
        bool operator==(const RowKey&) const = default;
    };
    /// Applies a cell edit (the value as typed); returns the refusal reason or "".
    using EditHook = std::function<QString(const RowKey& row, int column, const QVariant& value)>;

    explicit QuotaTableModel(QObject* parent = nullptr);
    void setEditHook(EditHook hook) { m_hook = std::move(hook); }
    /// The scenario shown. Rows that stay the same keep their place (a slider drag re-sets
    /// the scenario at every step without losing the selection).
    void setScenario(std::shared_ptr<const Scenario> scenario);
    void setResults(std::shared_ptr<const Results> results);
    /// Moves the usage column to time t (only that column repaints).
    void setTime(double timeS);
    double time() const { return m_timeS; }

    RowKey rowKey(int row) const { return m_rows.at(row); }
    /// The row of (team, GPU model); gpuModel "" finds the team's first row. −1 if none.
    int rowOf(const std::string& team, const std::string& gpuModel = {}) const;
    /// The team's quota usage at the time shown (nullopt without results or a quota).
    std::optional<QuotaUsage> usageOf(const std::string& team) const;
    /// The team's wait p95 in the results (NaN when not there).
    double waitP95S(const std::string& team) const;
    QString lastRefusal() const { return m_lastRefusal; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

signals:
    void refused(const QString& reason);

private:
    const QuotaDef* quotaOf(const std::string& team) const;
    const FlavorQuotaDef* flavorOf(const RowKey& key) const;
    bool isFirstRowOfTeam(int row) const;
    QVariant display(int row, int column) const;

    std::shared_ptr<const Scenario> m_scenario;
    std::shared_ptr<const Results> m_results;
    std::vector<RowKey> m_rows;
    double m_timeS = 0;
    EditHook m_hook;
    QString m_lastRefusal;
};

}  // namespace gpuplan::ui

Q_DECLARE_METATYPE(gpuplan::ui::QuotaUsage)
