// Chargeback: what each team's jobs cost (GroupKpis::costUsd: what they held, shares and MIG
// instances by their share, at the held GPUs' prices), biggest payer first, and what no job
// held (idle_unallocated_usd), each with its share of the bill (cost_usd).
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

class ChargebackTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TeamColumn, GpuHoursColumn, CostColumn, ShareColumn, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    /// No rows for an unpriced run.
    void setResults(std::shared_ptr<const Results> results);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    struct Row {
        QString name;
        double gpuHours = 0;  ///< NaN for the idle row
        double costUsd = 0;
        bool idle = false;
    };
    std::vector<Row> m_rows;
    double m_billUsd = 0;
};

}  // namespace gpuplan::ui
