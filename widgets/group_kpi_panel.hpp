// "By team / class": the group KPI table with a switch between teams and job classes.
#pragma once

#include <QWidget>
#include <memory>

#include "group_kpi_table_model.hpp"

class QComboBox;
class QTableView;

namespace gpuplan::ui {

class GroupKpiPanel : public QWidget {
    Q_OBJECT
public:
    explicit GroupKpiPanel(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const Results> results);

    GroupKpiTableModel* model() const { return m_model; }
    QComboBox* groupingBox() const { return m_grouping; }

private:
    GroupKpiTableModel* m_model;
    QComboBox* m_grouping;
    QTableView* m_view;
};

}  // namespace gpuplan::ui
