// The "Largest job" table: one row per level (node, rack, pod, fleet); first the largest gang
// that could start now, then one column per common gang size with the disjoint slots there
// (headed by the size in GPUs). Given a second table (a repack's "after"), each cell reads
// "before → after".
#pragma once

#include <QAbstractTableModel>
#include <optional>

#include "gpuplan/resources/placeable.hpp"

namespace gpuplan::ui {

class PlaceableTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setTable(const PlaceableSlots& table);
    /// Before and after a repack: cells "0 → 3"; the columns are the before table's sizes.
    void setComparison(const PlaceableSlots& before, const PlaceableSlots& after);
    void clear();
    /// The column of the "largest now" figure; the sizes follow it.
    static constexpr int largestColumn() { return 0; }
    /// The column of a gang size's slots.
    static constexpr int sizeColumn(int sizeIndex) { return sizeIndex + 1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QString cell(long long before, std::optional<long long> after) const;

    PlaceableSlots m_table;
    std::optional<PlaceableSlots> m_after;
    bool m_empty = true;
};

}  // namespace gpuplan::ui
