// Every KPI of the pinned baseline and of the current run side by side, with the delta. With
// replications on the same seeds: means, and whether each delta is significant (its paired
// difference's 95 % interval holds no 0) or may be noise.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"

namespace gpuplan::ui {

class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KpiColumn,
        BaselineColumn,
        CurrentColumn,
        DeltaColumn,
        SignificanceColumn,
        ColumnCount
    };

    /// CurrentColumn (and BaselineColumn): "± 2.9 h", the half-width of the value's 95 %
    /// interval over replications; empty for one run.
    static constexpr int HalfWidthRole = Qt::UserRole + 1;
    /// DeltaColumn: "[−1.2, +0.4]", the 95 % interval of the paired difference; empty without.
    static constexpr int DeltaIntervalRole = Qt::UserRole + 2;

    using QAbstractTableModel::QAbstractTableModel;
    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline);
    /// The runs behind the current results and the baseline (null: one run each).
    void setReplications(std::shared_ptr<const Replications> current,
                         std::shared_ptr<const Replications> baseline);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    /// The KPI as shown: the mean over replications when there are some.
    Kpi shown(const Kpi& kpi, const Replications* replications) const;

    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const Replications> m_replications, m_baselineReplications;
};

}  // namespace gpuplan::ui
