// Every KPI of the pinned baseline and of the current run side by side, with the delta.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "gpuplan/results.hpp"

namespace gpuplan::ui {

class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KpiColumn, BaselineColumn, CurrentColumn, DeltaColumn, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const Results> m_results, m_baseline;
};

}  // namespace gpuplan::ui
