#include "placeable_table_model.hpp"

#include <QFont>

namespace gpuplan::ui {

void PlaceableTableModel::setTable(const PlaceableSlots& table) {
    beginResetModel();
    m_table = table;
    m_after.reset();
    m_empty = false;
    endResetModel();
}

void PlaceableTableModel::setComparison(const PlaceableSlots& before, const PlaceableSlots& after) {
    beginResetModel();
    m_table = before;
    m_after = after;
    m_empty = false;
    endResetModel();
}

void PlaceableTableModel::clear() {
    beginResetModel();
    m_table = PlaceableSlots{};
    m_after.reset();
    m_empty = true;
    endResetModel();
}

int PlaceableTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || m_empty ? 0 : kSlotLevelCount;
}

int PlaceableTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.gangSizes.size()) + 1;
}

QString PlaceableTableModel::cell(long long before, std::optional<long long> after) const {
    if (!after || *after == before) return QString::number(before);
    return QStringLiteral("%1 → %2").arg(before).arg(*after);
}

QVariant PlaceableTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || m_empty) return {};
    const auto level = static_cast<SlotLevel>(index.row());
    const int col = index.column();
    const bool largest = col == largestColumn();
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole) {
        if (largest)
            return cell(m_table.largest(level),
                        m_after ? std::optional<long long>(m_after->largest(level)) : std::nullopt);
        const int size = m_table.gangSizes[static_cast<std::size_t>(col - 1)];
        return cell(
            m_table.slotsFor(level, size),
            m_after ? std::optional<long long>(m_after->slotsFor(level, size)) : std::nullopt);
    }
    if (role == Qt::ToolTipRole) {
        const QString where = level == SlotLevel::Fleet
                                  ? tr("anywhere in the fleet")
                                  : tr("inside one %1").arg(QString::fromLatin1(toString(level)));
        if (largest) return tr("The largest gang that could start now %1, in GPUs.").arg(where);
        return tr("%1-GPU gangs that could start at once, each %2.")
            .arg(m_table.gangSizes[static_cast<std::size_t>(col - 1)])
            .arg(where);
    }
    if (role == Qt::FontRole && largest) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant PlaceableTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::ToolTipRole)
        return section == largestColumn()
                   ? tr("The largest gang that could start now, in GPUs")
                   : tr("Slots for a gang of %1 GPUs: how many could start at once")
                         .arg(m_table.gangSizes[static_cast<std::size_t>(section - 1)]);
    if (role != Qt::DisplayRole) return {};
    if (o == Qt::Vertical) {
        switch (static_cast<SlotLevel>(section)) {
            case SlotLevel::Node:
                return tr("one node");
            case SlotLevel::Rack:
                return tr("one rack");
            case SlotLevel::Pod:
                return tr("one pod");
            case SlotLevel::Fleet:
                return tr("fleet (any)");
        }
        return {};
    }
    if (section == largestColumn()) return tr("largest now");
    return QString::number(m_table.gangSizes[static_cast<std::size_t>(section - 1)]);
}

}  // namespace gpuplan::ui
