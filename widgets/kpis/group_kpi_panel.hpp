// "By team / class": the group KPI table with a switch between teams and job classes.
#pragma once

#include <QWidget>
#include <memory>

#include "tables/group_kpi_table_model.hpp"

class QComboBox;
class QTableView;

namespace gpuplan::ui {

class GroupKpiPanel : public QWidget {
    Q_OBJECT
public:
    explicit GroupKpiPanel(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const Results> results);
    void setBaseline(std::shared_ptr<const Results> baseline) { m_model->setBaseline(baseline); }
    void setReplications(std::shared_ptr<const Replications> current,
                         std::shared_ptr<const Replications> baseline) {
        m_model->setReplications(std::move(current), std::move(baseline));
    }
    /// The meeting's columns only (wait p50 / p95, GPU-hours, waiting at the end, share), by
    /// team; or every column.
    void setCompact(bool compact);

    GroupKpiTableModel* model() const { return m_model; }
    QComboBox* groupingBox() const { return m_grouping; }

private:
    GroupKpiTableModel* m_model;
    QComboBox* m_grouping;
    QTableView* m_view;
};

}  // namespace gpuplan::ui
