// What the fleet pays per GPU-hour: one row per (GPU model, buying class, price) its nodes
// have, with how many GPUs that is, from the run's fleet (Fleet::priced, FleetNode::
// usdPerGpuHour): the prices the run was charged, a node group's own price included.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

class PriceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GpuModelColumn, ClassColumn, GpusColumn, PriceColumn, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    /// No rows for an unpriced run.
    void setResults(std::shared_ptr<const Results> results);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    struct Row {
        QString gpuModel;
        BuyingClass buyingClass = BuyingClass::Reserved;
        double usdPerGpuHour = 0;
        int gpus = 0;
    };
    std::vector<Row> m_rows;
};

}  // namespace gpuplan::ui
