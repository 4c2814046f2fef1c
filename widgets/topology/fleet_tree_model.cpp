#include "fleet_tree_model.hpp"

#include <QBrush>
#include <QColor>
#include <cmath>

#include "format/sharing_format.hpp"
#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {

// An index's internal id is its path, each level + 1 in 20 bits (0 = not at that level).
constexpr int kBits = 20;
constexpr quintptr kMask = (quintptr(1) << kBits) - 1;

quintptr encode(const FleetTreePath& p) {
    return quintptr(p.pod + 1) | (quintptr(p.rack + 1) << kBits) |
           (quintptr(p.group + 1) << (2 * kBits));
}

FleetTreePath decode(quintptr id) {
    return {static_cast<int>(id & kMask) - 1, static_cast<int>((id >> kBits) & kMask) - 1,
            static_cast<int>((id >> (2 * kBits)) & kMask) - 1};
}

int levelOf(const FleetTreePath& p) {
    return p.group >= 0 ? 2 : p.rack >= 0 ? 1 : 0;
}

}  // namespace

QString formatReadyAt(double readyAtS) {
    return QStringLiteral("%1 · %2 h")
        .arg(formatSimTime(readyAtS))
        .arg(readyAtS / 3600.0, 0, 'g', 4);
}

FleetTreeModel::FleetTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void FleetTreeModel::setNodeTypes(std::vector<NodeType> types) {
    if (types == m_types) return;  // each edit offers them again: no reset, no lost expansion
    beginResetModel();
    m_types = std::move(types);
    endResetModel();
}

void FleetTreeModel::setScenario(const Scenario& scenario) {
    auto shape = [](const Scenario& s) {
        std::vector<std::size_t> sizes{s.pods.size()};
        for (const PodDef& p : s.pods) {
            sizes.push_back(p.racks.size());
            for (const RackDef& r : p.racks)
                sizes.push_back(r.nodes.size());
        }
        return sizes;
    };
    m_refusal.clear();
    m_refusedColumn = -1;
    // Same rows: refresh in place, so an edit in a cell (which lands here through the
    // document) does not reset the view under its own editor.
    if (shape(scenario) == shape(m_scenario)) {
        m_scenario = scenario;
        std::vector<QModelIndex> parents{QModelIndex()};
        for (std::size_t i = 0; i < parents.size(); ++i) {
            const int rows = rowCount(parents[i]);
            if (rows == 0) continue;
            emit dataChanged(index(0, 0, parents[i]), index(rows - 1, ColumnCount - 1, parents[i]));
            for (int r = 0; r < rows; ++r)
                parents.push_back(index(r, 0, parents[i]));
        }
        return;
    }
    beginResetModel();
    m_scenario = scenario;
    endResetModel();
}

FleetTreePath FleetTreeModel::pathOf(const QModelIndex& index) {
    return index.isValid() ? decode(index.internalId()) : FleetTreePath{};
}

QModelIndex FleetTreeModel::indexOf(const FleetTreePath& p, int column) const {
    if (p.pod < 0) return {};
    const int level = levelOf(p);
    const int row = level == 0 ? p.pod : level == 1 ? p.rack : p.group;
    return createIndex(row, column, encode(p));
}

QModelIndex FleetTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
    FleetTreePath p = pathOf(parent);
    if (!parent.isValid())
        p.pod = row;
    else if (p.rack < 0)
        p.rack = row;
    else
        p.group = row;
    return createIndex(row, column, encode(p));
}

QModelIndex FleetTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    FleetTreePath p = pathOf(child);
    if (p.group >= 0) return indexOf({p.pod, p.rack});
    if (p.rack >= 0) return indexOf({p.pod});
    return {};
}

int FleetTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(m_scenario.pods.size());
    if (parent.column() != 0) return 0;
    const FleetTreePath p = pathOf(parent);
    if (p.group >= 0) return 0;
    if (p.rack >= 0) return static_cast<int>(m_scenario.pods[p.pod].racks[p.rack].nodes.size());
    return static_cast<int>(m_scenario.pods[p.pod].racks.size());
}

int FleetTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

int FleetTreeModel::gpusPerNode(const std::string& nodeTypeId) const {
    for (const NodeType& t : m_types)
        if (t.id == nodeTypeId) return t.gpusPerNode;
    const NodeType* t = m_scenario.findNodeType(nodeTypeId);
    return t ? t->gpusPerNode : 0;
}

long long FleetTreeModel::gpusEach(const FleetTreePath& p) const {
    const PodDef& pod = m_scenario.pods[p.pod];
    auto rackGpus = [&](const RackDef& rack) {
        long long sum = 0;
        for (const NodeGroupDef& g : rack.nodes)
            sum += static_cast<long long>(g.count) * gpusPerNode(g.nodeType);
        return sum;
    };
    if (p.group >= 0) {
        const NodeGroupDef& g = pod.racks[p.rack].nodes[p.group];
        return static_cast<long long>(g.count) * gpusPerNode(g.nodeType);
    }
    if (p.rack >= 0) return rackGpus(pod.racks[p.rack]);
    long long sum = 0;
    for (const RackDef& r : pod.racks)
        sum += r.count * rackGpus(r);
    return sum;
}

long long FleetTreeModel::totalGpus(const FleetTreePath& p) const {
    // A group's "each" already counts its copies; racks and pods multiply by theirs.
    const PodDef& pod = m_scenario.pods[p.pod];
    long long total = gpusEach(p) * pod.count;
    if (p.rack >= 0) total *= pod.racks[p.rack].count;
    return total;
}

QVariant FleetTreeModel::display(const FleetTreePath& p, int column) const {
    const PodDef& pod = m_scenario.pods[p.pod];
    const int level = levelOf(p);
    const NodeGroupDef* g = level == 2 ? &pod.racks[p.rack].nodes[p.group] : nullptr;
    switch (column) {
        case NameColumn:
            return level == 0   ? QString::fromStdString(pod.name)
                   : level == 1 ? QString::fromStdString(pod.racks[p.rack].name)
                                : QString::fromStdString(g->name);
        case CountColumn:
            return QStringLiteral("× %1").arg(editValue(p, column).toInt());
        case NodeTypeColumn:
            return g ? QString::fromStdString(g->nodeType) : QVariant();
        case BuyingClassColumn:
            return g ? QString::fromLatin1(toString(g->buyingClass)) : QVariant();
        case StateColumn:
            return g ? QString::fromLatin1(toString(g->state)) : QVariant();
        case ReadyAtColumn:
            if (!g) return {};
            if (g->state == NodeState::Provisioning)
                return g->readyAtS > 0 ? formatReadyAt(g->readyAtS) : tr("provisioning, no date");
            return tr("from the start");  // its state is in the State column
        case GpusEachColumn:
            if (g)
                return tr("%1 (%2 × %3)")
                    .arg(gpusEach(p))
                    .arg(g->count)
                    .arg(gpusPerNode(g->nodeType));
            return QString::number(gpusEach(p));
        case TotalGpusColumn:
            return QString::number(totalGpus(p));
        case SharingColumn: {
            if (!g) return {};
            const NodeType* type = m_scenario.findNodeType(g->nodeType);
            return QString::fromStdString(
                sharingSummary(g->sharing, type ? m_scenario.findGpu(type->gpuModel) : nullptr));
        }
    }
    return {};
}

QVariant FleetTreeModel::editValue(const FleetTreePath& p, int column) const {
    const PodDef& pod = m_scenario.pods[p.pod];
    const int level = levelOf(p);
    const NodeGroupDef* g = level == 2 ? &pod.racks[p.rack].nodes[p.group] : nullptr;
    switch (column) {
        case NameColumn:
            return display(p, column);
        case CountColumn:
            return level == 0 ? pod.count : level == 1 ? pod.racks[p.rack].count : g->count;
        case NodeTypeColumn:
        case BuyingClassColumn:
        case StateColumn:
            return display(p, column);
        case ReadyAtColumn:  // hours; 0 = there from the start
            return g ? QVariant(g->state == NodeState::Provisioning ? g->readyAtS / 3600.0 : 0.0)
                     : QVariant();
    }
    return {};
}

QString FleetTreeModel::tooltip(const FleetTreePath& p, int column) const {
    if (!m_refusal.isEmpty() && p == m_refusedPath && column == m_refusedColumn)
        return tr("Refused: %1").arg(m_refusal);
    switch (column) {
        case CountColumn:
            return tr(
                "Identical copies of this definition; generated names get an index "
                "(rack0, rack1, …) when there is more than one");
        case StateColumn:
            return tr(
                "How the group's nodes start: ready, cordoned (kept out of scheduling, e.g. "
                "for maintenance) or failed (down until a repair event). Provisioning comes "
                "with a delivery time: set Ready at to 0 to change it here");
        case ReadyAtColumn:
            return tr(
                "Delivery time in hours: the nodes are provisioning until then. "
                "0 = there from the start");
        case GpusEachColumn:
            return tr("GPUs in one copy of this definition");
        case TotalGpusColumn:
            return tr("GPUs of all copies, the counts above included");
        case SharingColumn:
            return tr(
                "How the group's GPUs are shared; select rows (Ctrl/Shift for several) and set "
                "it under the Inspector");
    }
    return {};
}

QVariant FleetTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const FleetTreePath p = pathOf(index);
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            return display(p, column);
        case Qt::EditRole:
            return editValue(p, column);
        case Qt::ToolTipRole:
            return tooltip(p, column);
        case Qt::TextAlignmentRole:
            if (column == CountColumn || column == GpusEachColumn || column == TotalGpusColumn)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case Qt::ForegroundRole:
            if (!m_refusal.isEmpty() && p == m_refusedPath && column == m_refusedColumn)
                return QBrush(QColor(0xc0, 0x39, 0x2b));
            return {};
        case ChoicesRole:
            if (levelOf(p) != 2) return {};
            if (column == NodeTypeColumn) {
                QStringList ids;
                for (const NodeType& t : m_types)
                    ids << QString::fromStdString(t.id);
                return ids;
            }
            if (column == BuyingClassColumn) {
                QStringList names;
                for (BuyingClass b : kBuyingClasses)
                    names << QString::fromLatin1(toString(b));
                return names;
            }
            if (column == StateColumn) {
                QStringList names;
                for (NodeState s : {NodeState::Ready, NodeState::Cordoned, NodeState::Failed})
                    names << QString::fromLatin1(toString(s));
                return names;
            }
            return {};
        case ChoiceLabelsRole: {
            QStringList labels = data(index, ChoicesRole).toStringList();
            if (column == NodeTypeColumn)
                for (qsizetype i = 0; i < labels.size(); ++i)
                    labels[i] = tr("%1 — %2, %3 GPUs")
                                    .arg(labels[i], QString::fromStdString(m_types[i].name))
                                    .arg(m_types[i].gpusPerNode);
            return labels;
        }
    }
    return {};
}

QVariant FleetTreeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return tr("Pod / rack / node group");
        case CountColumn:
            return tr("Count");
        case NodeTypeColumn:
            return tr("Node type");
        case BuyingClassColumn:
            return tr("Buying class");
        case StateColumn:
            return tr("State");
        case ReadyAtColumn:
            return tr("Ready at");
        case GpusEachColumn:
            return tr("GPUs each");
        case TotalGpusColumn:
            return tr("Total GPUs");
        case SharingColumn:
            return tr("GPU sharing");
    }
    return {};
}

Qt::ItemFlags FleetTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const int column = index.column();
    const bool group = levelOf(pathOf(index)) == 2;
    if (column == NameColumn || column == CountColumn) f |= Qt::ItemIsEditable;
    if (group &&
        (column == NodeTypeColumn || column == BuyingClassColumn || column == ReadyAtColumn))
        f |= Qt::ItemIsEditable;
    // A group being delivered is provisioning until its Ready at: that column sets it.
    if (group && column == StateColumn) {
        const FleetTreePath p = pathOf(index);
        if (m_scenario.pods[p.pod].racks[p.rack].nodes[p.group].state != NodeState::Provisioning)
            f |= Qt::ItemIsEditable;
    }
    return f;
}

bool FleetTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable) || !m_commit) return false;
    const FleetTreePath p = pathOf(index);
    const int column = index.column();
    if (value == editValue(p, column)) return false;
    const QString reason = m_commit(p, column, value);
    if (reason.isEmpty()) return true;  // the document's change comes back through setScenario
    m_refusal = reason;
    m_refusedPath = p;
    m_refusedColumn = column;
    emit dataChanged(index, index, {Qt::ToolTipRole, Qt::ForegroundRole});
    emit editRefused(index, reason);
    return false;
}

}  // namespace gpuplan::ui
