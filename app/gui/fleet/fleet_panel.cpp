#include "fleet_panel.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "buying_mix/buying_mix_edits.hpp"
#include "topology/fleet_item_delegate.hpp"
#include "topology/fleet_tree_model.hpp"

namespace gpuplan::app {

QString applyFleetEdit(ScenarioDocument& doc, const FleetEdit& edit) {
    if (!edit.ok()) return QString::fromStdString(edit.error);
    Scenario after = *edit.scenario;
    QString label = QString::fromStdString(edit.label);
    // Fewer nodes than the mix buys: the mix comes down with them, in the same undo step.
    if (const QString cut = clampMixToFleet(after); !cut.isEmpty())
        label += QStringLiteral(" (%1)").arg(cut);
    return doc.edit(after, label);
}

FleetPanel::FleetPanel(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    m_model = new ui::FleetTreeModel(this);
    offerNodeTypes();
    m_model->setScenario(doc->scenario());
    m_model->setCommit([this](const ui::FleetTreePath& p, int column, const QVariant& value) {
        return commitCell(p, column, value);
    });

    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(tr("+ Pod"), this, &FleetPanel::addPod)->setToolTip(tr("Add a pod"));
    bar->addAction(tr("+ Rack"), this, &FleetPanel::addRack)
        ->setToolTip(tr("Add a rack to the selected pod"));
    bar->addAction(tr("+ Nodes"), this, &FleetPanel::addNodeGroup)
        ->setToolTip(tr("Add a node group to the selected rack"));
    bar->addAction(tr("Duplicate"), this, &FleetPanel::duplicateSelected)
        ->setToolTip(tr("Copy the selected pod, rack or node group under a fresh name"));
    bar->addAction(tr("Remove"), this, &FleetPanel::removeSelected)
        ->setToolTip(tr("Remove the selected pod, rack or node group"));

    m_view = new QTreeView(this);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new ui::FleetItemDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::SelectedClicked);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setStretchLastSection(false);
    m_view->expandAll();

    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    // The fabric above the nodes: how much slower a gang's traffic is once it leaves a rack
    // or a pod (topology.hpp), e.g. Llama 3's 7:1 above its pods.
    auto uplinkBox = [this](bool rack) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(1, 1000);
        box->setDecimals(2);  // a file's 1.25:1 shows as it is
        box->setSuffix(QStringLiteral(":1"));
        box->setKeyboardTracking(false);  // one undo step per value, not per keystroke
        box->setToolTip(rack ? tr("Oversubscription of the rack uplinks (leaf → spine): "
                                  "traffic between racks shares 1/N of the nodes' bandwidth. "
                                  "1:1 = full bisection")
                             : tr("Oversubscription of the pod uplinks (spine → core): "
                                  "traffic between pods shares 1/N of the bandwidth (Llama 3's "
                                  "fabric: 7:1). 1:1 = full bisection"));
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, box, rack](double ratio) {
            const FabricDef& f = m_doc->scenario().fabric;
            if (ratio == (rack ? f.rackUplinkOversubscription : f.podUplinkOversubscription))
                return;
            if (!run(setUplinkOversubscription(m_doc->scenario(), rack, ratio)).isEmpty())
                syncFabric();
        });
        return box;
    };
    m_rackUplinks = uplinkBox(true);
    m_podUplinks = uplinkBox(false);
    auto* fabricRow = new QHBoxLayout;
    fabricRow->addWidget(new QLabel(tr("Uplinks oversubscribed: racks"), this));
    fabricRow->addWidget(m_rackUplinks);
    fabricRow->addWidget(new QLabel(tr("pods"), this));
    fabricRow->addWidget(m_podUplinks);
    fabricRow->addStretch(1);
    syncFabric();

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(bar);
    column->addWidget(m_view, 1);
    column->addLayout(fabricRow);
    column->addWidget(m_refusal);

    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFabric();
        offerNodeTypes();
        m_model->setScenario(m_doc->scenario());
        m_refusal->setVisible(false);  // a refusal is about the scenario it was refused on
    });
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit definitionsSelected(selectedPaths()); });
    // A reset (definitions added, split or removed) drops the selection without saying so.
    connect(m_model, &QAbstractItemModel::modelReset, this,
            [this] { emit definitionsSelected(selectedPaths()); });
}

std::vector<FleetDefPath> FleetPanel::selectedPaths() const {
    std::vector<FleetDefPath> out;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows()) {
        const ui::FleetTreePath p = ui::FleetTreeModel::pathOf(index);
        if (p.pod >= 0) out.push_back({p.pod, p.rack, p.group});
    }
    return out;
}

QString FleetPanel::refusal() const {
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

QString FleetPanel::run(const FleetEdit& edit) {
    const QString reason = applyFleetEdit(*m_doc, edit);
    m_refusal->setText(reason);
    m_refusal->setVisible(!reason.isEmpty());
    emit message(reason.isEmpty() ? QString::fromStdString(edit.label)
                                  : tr("Fleet edit refused: %1").arg(reason));
    return reason;
}

QString FleetPanel::commitCell(const ui::FleetTreePath& tp, int column, const QVariant& value) {
    using M = ui::FleetTreeModel;
    const Scenario& s = m_doc->scenario();
    const FleetDefPath p{tp.pod, tp.rack, tp.group};
    switch (column) {
        case M::NameColumn:
            return run(renameDef(s, p, value.toString().trimmed().toStdString()));
        case M::CountColumn: {
            bool isNumber = false;
            const int count = value.toInt(&isNumber);
            if (!isNumber) return run(FleetEdit{{}, "a count is a whole number", {}});
            return run(setCount(s, p, count));
        }
        case M::NodeTypeColumn:
            return run(setNodeType(s, p, value.toString().toStdString(), m_doc->catalog()));
        case M::BuyingClassColumn:
            for (BuyingClass b : kBuyingClasses)
                if (value.toString() == QLatin1String(toString(b)))
                    return run(setBuyingClass(s, p, b));
            return run(FleetEdit{{}, "unknown buying class " + value.toString().toStdString(), {}});
        case M::StateColumn:
            for (NodeState state : {NodeState::Ready, NodeState::Cordoned, NodeState::Failed})
                if (value.toString() == QLatin1String(toString(state)))
                    return run(setGroupState(s, p, state));
            return run(FleetEdit{{}, "unknown state " + value.toString().toStdString(), {}});
        case M::ReadyAtColumn:
            return run(setReadyAt(s, p, value.toDouble() * 3600.0));
    }
    return tr("this column cannot be edited");
}

FleetDefPath FleetPanel::selectedPath() const {
    const ui::FleetTreePath p = ui::FleetTreeModel::pathOf(m_view->currentIndex());
    return {p.pod, p.rack, p.group};
}

void FleetPanel::select(const FleetDefPath& p) {
    m_view->setCurrentIndex(m_model->indexOf({p.pod, p.rack, p.group}));
}

void FleetPanel::addPod() {
    if (run(gpuplan::app::addPod(m_doc->scenario())).isEmpty())
        select({static_cast<int>(m_doc->scenario().pods.size()) - 1});
}

void FleetPanel::addRack() {
    const FleetDefPath p = selectedPath();
    const int pod = p.pod >= 0 ? p.pod : static_cast<int>(m_doc->scenario().pods.size()) - 1;
    if (run(gpuplan::app::addRack(m_doc->scenario(), pod)).isEmpty())
        select({pod, static_cast<int>(m_doc->scenario().pods[pod].racks.size()) - 1});
}

void FleetPanel::addNodeGroup() {
    const FleetDefPath p = selectedPath();
    if (p.rack < 0) {
        run(FleetEdit{{}, "select the rack to add nodes to", {}});
        return;
    }
    if (run(gpuplan::app::addNodeGroup(m_doc->scenario(), p.pod, p.rack)).isEmpty())
        select({p.pod, p.rack,
                static_cast<int>(m_doc->scenario().pods[p.pod].racks[p.rack].nodes.size()) - 1});
}

void FleetPanel::duplicateSelected() {
    FleetDefPath p = selectedPath();
    if (!run(duplicateDef(m_doc->scenario(), p)).isEmpty()) return;
    (p.group >= 0 ? p.group : p.rack >= 0 ? p.rack : p.pod) += 1;  // the copy, right after it
    select(p);
}

void FleetPanel::removeSelected() {
    run(removeDef(m_doc->scenario(), selectedPath()));
}

void FleetPanel::syncFabric() {
    const FabricDef& f = m_doc->scenario().fabric;
    const QSignalBlocker rackBlock(m_rackUplinks), podBlock(m_podUplinks);
    m_rackUplinks->setValue(f.rackUplinkOversubscription);
    m_podUplinks->setValue(f.podUplinkOversubscription);
}

void FleetPanel::offerNodeTypes() {
    std::vector<NodeType> types = m_doc->catalog().nodeTypes;
    const auto& own = m_doc->scenario().definedNodeTypes;
    types.insert(types.end(), own.begin(), own.end());
    m_model->setNodeTypes(std::move(types));
}

}  // namespace gpuplan::app
