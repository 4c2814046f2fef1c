// The scenario's fleet definitions as a tree: pods ⊃ racks ⊃ node groups, each with its count
// multiplier, node type, buying class, delivery time and GPUs. The model never changes the
// scenario itself: an edit in a cell goes to the commit function the application sets, which
// answers with the refusal's reason (shown as the cell's tooltip) or an empty string.
#pragma once

#include <QAbstractItemModel>
#include <functional>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::ui {

/// A pod, rack or node group definition; rack and group are −1 above their level.
struct FleetTreePath {
    int pod = -1, rack = -1, group = -1;
    bool operator==(const FleetTreePath&) const = default;
};

class FleetTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CountColumn,
        NodeTypeColumn,
        BuyingClassColumn,
        StateColumn,  ///< a group's state at the start: ready, cordoned or failed
        ReadyAtColumn,
        GpusEachColumn,
        TotalGpusColumn,
        SharingColumn,  ///< read-only here: the GPU sharing editor under the Inspector sets it
        ColumnCount
    };
    /// For combo-box cells: QStringList of the values an editor offers (EditRole values).
    static constexpr int ChoicesRole = Qt::UserRole + 1;
    /// How each of the choices reads in the editor ("dgx-h100 — NVIDIA DGX H100, 8 GPUs").
    static constexpr int ChoiceLabelsRole = Qt::UserRole + 2;

    /// Applies an edit of `column` at `path` to `value` (EditRole); returns the refusal reason
    /// or an empty string.
    using Commit =
        std::function<QString(const FleetTreePath& path, int column, const QVariant& value)>;

    explicit FleetTreeModel(QObject* parent = nullptr);

    /// Node types the type column offers (the catalog's), for GPUs per node too.
    void setNodeTypes(std::vector<NodeType> types);
    void setScenario(const Scenario& scenario);
    void setCommit(Commit commit) { m_commit = std::move(commit); }
    /// Why the last edit was refused; empty after an accepted one.
    QString lastRefusal() const { return m_refusal; }

    static FleetTreePath pathOf(const QModelIndex& index);
    QModelIndex indexOf(const FleetTreePath& path, int column = NameColumn) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    /// An edit was refused; `reason` says why. The scenario is unchanged.
    void editRefused(const QModelIndex& index, const QString& reason);

private:
    int gpusPerNode(const std::string& nodeTypeId) const;
    /// GPUs of one copy of the definition at `path` (a group: count × GPUs per node).
    long long gpusEach(const FleetTreePath& path) const;
    /// GPUs of every copy, all multipliers above included.
    long long totalGpus(const FleetTreePath& path) const;
    QVariant display(const FleetTreePath& path, int column) const;
    QVariant editValue(const FleetTreePath& path, int column) const;
    QString tooltip(const FleetTreePath& path, int column) const;

    Scenario m_scenario;
    std::vector<NodeType> m_types;
    Commit m_commit;
    QString m_refusal;
    FleetTreePath m_refusedPath;
    int m_refusedColumn = -1;
};

/// "d2 00:00 · 48 h" for a delivery time (formatSimTime, as the time scrubber reads).
QString formatReadyAt(double readyAtS);

}  // namespace gpuplan::ui
