#include "group_kpi_panel.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuplan::ui {

GroupKpiPanel::GroupKpiPanel(QWidget* parent)
    : QWidget(parent),
      m_model(new GroupKpiTableModel(this)),
      m_grouping(new QComboBox(this)),
      m_view(new QTableView(this)) {
    m_grouping->addItem(tr("By team"));
    m_grouping->addItem(tr("By job class"));
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setGrouping(i == 0 ? GroupKpiTableModel::Grouping::Team
                                    : GroupKpiTableModel::Grouping::Class);
    });
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_grouping, 0, Qt::AlignLeft);
    layout->addWidget(m_view);
}

void GroupKpiPanel::setCompact(bool compact) {
    using M = GroupKpiTableModel;
    if (compact) m_grouping->setCurrentIndex(0);  // by team
    m_grouping->setVisible(!compact);
    for (int c = 0; c < M::ColumnCount; ++c) {
        const bool meeting = c == M::NameColumn || c == M::WaitP50Column || c == M::WaitP95Column ||
                             c == M::GpuHoursColumn || c == M::WaitingAtEndColumn ||
                             c == M::AllocationColumn;
        m_view->setColumnHidden(c, compact && !meeting);
    }
}

void GroupKpiPanel::setResults(std::shared_ptr<const Results> results) {
    m_model->setResults(std::move(results));
}

}  // namespace gpuplan::ui
