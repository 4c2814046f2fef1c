// QtTest, offscreen: the Fleet dock's tree model and buttons, and the topology's right-click
// actions (triggered directly, no menu exec). The default preset's fleet, worked out by hand:
//   pod-a: "rack" × 4, each "node" × 4 dgx-h100 (8 GPUs)        → 4 · 4 · 8 = 128 GPUs
//   pod-b: "rack" × 3 of the same + "rack3" × 1 (Provisioning,  → 3 · 32 + 32 = 128 GPUs
//          ready at 48 h)
//   fleet: 256 GPUs; one rack = 4 nodes × 8 GPUs = 32 GPUs.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QSpinBox>
#include <QTreeView>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "fleet/fleet_edits.hpp"
#include "fleet/fleet_panel.hpp"
#include "format/ui_palette.hpp"
#include "gpuplan/model/topology.hpp"
#include "topology/fleet_tree_model.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

std::string json(const ScenarioDocument& doc) {
    return scenarioToJson(doc.scenario());
}

/// Triggers one right-click action on `target` at `timeS`, as the menu would.
void triggerMenuAction(Fixture& f, const FleetTarget& target, double timeS, const char* name) {
    QMenu menu;
    f.window->fleetMenu()->fill(&menu, target, timeS);
    QAction* action = menu.findChild<QAction*>(QLatin1String(name));
    QVERIFY2(action, name);
    action->trigger();
}

FleetTarget rackTarget(const char* pod, const char* rack) {
    return FleetTarget{QLatin1String(pod), QLatin1String(rack), {}};
}

/// Adds an explicit job pinned to `target` (what a drop creates) as one edit.
void addPinnedJob(Fixture& f, PinLevel level, const std::string& target) {
    Scenario s = f.doc.scenario();
    JobDef job;
    job.name = "pinned-probe";
    job.traits.team = s.teams.front().name;
    job.traits.pin = PinDef{level, target};
    job.gpus = 8;
    s.jobs.push_back(job);
    QCOMPARE(f.doc.edit(s, QStringLiteral("pin")), QString());
}

}  // namespace

class FleetEditorTest : public QObject {
    Q_OBJECT
private slots:
    void duplicateRackFromTheTopologyAddsItsGpus() {
        Fixture f;
        QCOMPARE(f.window->results()->fleet.totalGpus, 256);
        // What a right-click on pod-a's second rack targets, from the layout on screen.
        ui::TopologyView* view = f.window->topology();
        const int rack = *f.window->results()->fleet.findRack("pod-a-rack1");
        const ui::TopologyHit hit = view->dropTargetAt(
            view->toWidget(view->layout().rackRect(rack).topLeft() + QPointF(3, 3)));
        const FleetTarget target = f.window->fleetTarget(hit);
        QCOMPARE(target.rack, QStringLiteral("pod-a-rack1"));
        QCOMPARE(target.pod, QStringLiteral("pod-a"));

        const std::string before = json(f.doc);
        triggerMenuAction(f, target, 0, "duplicateRack");
        // One of 4 identical copies: the count grows to 5, the new rack is pod-a-rack4 and
        // the fleet gains 4 nodes × 8 GPUs = 32 GPUs.
        QCOMPARE(f.doc.scenario().pods[0].racks[0].count, 5);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.totalGpus, 256 + 32);
        QVERIFY(f.window->results()->fleet.findRack("pod-a-rack4"));
        QVERIFY(f.status().contains("Duplicate rack pod-a-rack1"));

        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.totalGpus, 256);
    }

    void duplicateTwiceKeepsEveryExistingName() {
        Fixture f;
        // pod-b's "rack" × 3 cannot grow to 4: its rack3 would collide with the "rack3"
        // definition. The copies become definitions of their own, rack4 and rack5, like
        // pod-b-rack1 (ready from the start), and pod-b-rack3 stays the 48 h delivery.
        triggerMenuAction(f, rackTarget("pod-b", "pod-b-rack1"), 0, "duplicateRack2");
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY(f.waitForResults());
        const Fleet& fleet = f.window->results()->fleet;
        QCOMPARE(fleet.totalGpus, 256 + 2 * 32);
        for (const char* name : {"pod-b-rack0", "pod-b-rack1", "pod-b-rack2", "pod-b-rack3",
                                 "pod-b-rack4", "pod-b-rack5"})
            QVERIFY2(fleet.findRack(name), name);
        const int delivery = *fleet.findNode("pod-b-rack3-node0");
        QCOMPARE(fleet.nodes[delivery].readyAtS, 172800.0);
        const int copy = *fleet.findNode("pod-b-rack5-node3");
        QCOMPARE(fleet.nodes[copy].initialState, NodeState::Ready);
    }

    void countEditedInTheTreeChangesTheFleet() {
        Fixture f;
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        const std::string before = json(f.doc);
        const QModelIndex count = model->indexOf({0, 0}, ui::FleetTreeModel::CountColumn);
        QCOMPARE(count.data(Qt::EditRole).toInt(), 4);
        // pod-a's racks: 4 → 6 adds 2 · 32 = 64 GPUs; the tree's totals say so at once.
        QVERIFY(model->setData(count, 6, Qt::EditRole));
        QCOMPARE(f.doc.scenario().pods[0].racks[0].count, 6);
        QCOMPARE(model->indexOf({0}, ui::FleetTreeModel::TotalGpusColumn).data().toString(),
                 QStringLiteral("192"));  // 6 racks × 32
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.totalGpus, 256 + 64);
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(count.data(Qt::EditRole).toInt(), 4);
    }

    // Lesson 3.1's second step in the tree: the maint group (2 empty nodes, cordoned) set to
    // ready passes finetune's filter, so it starts at its submission instead of waiting 11 h
    // for pretrain to end (the lesson's arithmetic).
    void stateColumnStartsAGroupReadyCordonedOrFailed() {
        Fixture f(QStringLiteral("../lessons/scenarios/3.1-filter-score-bind.json"));
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        const std::string before = json(f.doc);
        QCOMPARE(findJob(*f.window->results(), "finetune")->waitS(), 11 * 3600.0);
        const QModelIndex state = model->indexOf({0, 0, 2}, ui::FleetTreeModel::StateColumn);
        QCOMPARE(state.data().toString(), QStringLiteral("cordoned"));
        QCOMPARE(state.data(ui::FleetTreeModel::ChoicesRole).toStringList(),
                 (QStringList{"ready", "cordoned", "failed"}));
        QVERIFY(model->setData(state, QStringLiteral("ready"), Qt::EditRole));
        QCOMPARE(f.doc.scenario().pods[0].racks[0].nodes[2].state, NodeState::Ready);
        QVERIFY(f.waitForResults());
        QCOMPARE(findJob(*f.window->results(), "finetune")->waitS(), 0.0);
        QVERIFY(f.status().contains("Start \"maint\" ready"));
        // A pod has no state; a delivery time makes a group provisioning again.
        QVERIFY(setGroupState(f.doc.scenario(), {0}, NodeState::Ready)
                    .error.find("belongs to a node group") != std::string::npos);
        QVERIFY(setGroupState(f.doc.scenario(), {0, 0, 2}, NodeState::Provisioning)
                    .error.find("delivery time") != std::string::npos);
        // A delivery and a state do not overwrite each other: a cordoned group gets no
        // delivery time, and a group being delivered no state, until the other is undone.
        Scenario cordoned = f.doc.scenario();
        cordoned.pods[0].racks[0].nodes[2].state = NodeState::Cordoned;
        QVERIFY(setReadyAt(cordoned, {0, 0, 2}, 3600).error.find("set its State to ready") !=
                std::string::npos);
        Scenario delivered = f.doc.scenario();
        delivered.pods[0].racks[0].nodes[2].state = NodeState::Provisioning;
        delivered.pods[0].racks[0].nodes[2].readyAtS = 3600;
        QVERIFY(setGroupState(delivered, {0, 0, 2}, NodeState::Cordoned)
                    .error.find("set its Ready at to 0") != std::string::npos);
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
    }

    // Lesson 1.4's fabric: big-train (32 GPUs, s = 0.25) needs a pod but spans two, so it runs
    // 1 + 0.25 · (4 − 1) = 1.75 × longer over 4:1 pod uplinks, and 1 + 0.25 · (2 − 1) = 1.25 ×
    // at 2:1 (topology.hpp's slowdown model).
    void uplinkBoxesSetTheFabricsOversubscription() {
        Fixture f(QStringLiteral("../lessons/scenarios/1.4-across-pods.json"));
        FleetPanel* panel = f.window->fleetPanel();
        const std::string before = json(f.doc);
        QCOMPARE(panel->podUplinksBox()->value(), 4.0);
        QCOMPARE(panel->rackUplinksBox()->value(), 1.0);
        QCOMPARE(findJob(*f.window->results(), "big-train")->slowdown, 1.75f);
        panel->podUplinksBox()->setValue(2);
        QCOMPARE(f.doc.scenario().fabric.podUplinkOversubscription, 2.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(findJob(*f.window->results(), "big-train")->slowdown, 1.25f);
        QVERIFY(setUplinkOversubscription(f.doc.scenario(), true, 0.5).error.find("1:1") !=
                std::string::npos);
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(panel->podUplinksBox()->value(), 4.0);
    }

    void fewerNodesThanTheMixBuysCutTheMixInTheSameStep() {
        // The default fleet (32 nodes) bought by node order, 28 reserved (its book has no spot
        // price), with 24 hot spares. pod-a's racks 4 → 1 leaves 20 nodes: the mix becomes 20
        // reserved and the spares 20, in the same undo step, which brings all of it back.
        Fixture f;
        Scenario s = f.doc.scenario();
        s.buyingMix = BuyingMixDef{28, 0};
        s.failures = FailureDef{FailureDef::kLlama3MtbfGpuHours, 3600, 24};
        QVERIFY(f.doc.edit(s, QStringLiteral("mix")).isEmpty());
        const std::string before = json(f.doc);
        const int steps = f.doc.undoStack()->count();
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        QVERIFY(model->setData(model->indexOf({0, 0}, ui::FleetTreeModel::CountColumn), 1,
                               Qt::EditRole));
        QCOMPARE(f.doc.scenario().pods[0].racks[0].count, 1);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 20);
        QCOMPARE(f.doc.scenario().buyingMix->spotNodes, 0);
        QCOMPARE(f.doc.scenario().failures->hotSpareNodes, 20);
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
        QVERIFY2(f.doc.undoStack()->undoText().contains(
                     "mix cut to 20 reserved, 0 spot, hot spares cut to 20"),
                 qPrintable(f.doc.undoStack()->undoText()));
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
    }

    void countZeroIsRefusedWithItsReason() {
        Fixture f;
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        const std::string before = json(f.doc);
        const QModelIndex count = model->indexOf({0, 0, 0}, ui::FleetTreeModel::CountColumn);
        QSignalSpy refused(model, &ui::FleetTreeModel::editRefused);
        QVERIFY(!model->setData(count, 0, Qt::EditRole));
        QCOMPARE(refused.count(), 1);
        QVERIFY(model->lastRefusal().contains("at least 1"));
        QVERIFY(count.data(Qt::ToolTipRole).toString().startsWith("Refused: count must be"));
        QVERIFY(f.window->fleetPanel()->refusal().contains("at least 1"));
        QVERIFY(f.status().contains("at least 1"));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        // A name the file format refuses: the document's validation says why.
        const QModelIndex name = model->indexOf({1}, ui::FleetTreeModel::NameColumn);
        QVERIFY(!model->setData(name, QStringLiteral("pod b"), Qt::EditRole));
        QVERIFY(model->lastRefusal().contains("may only use letters"));
        QCOMPARE(json(f.doc), before);
    }

    void renamingCarriesPinsAndRemovingAPinnedRackIsRefused() {
        Fixture f;
        addPinnedJob(f, PinLevel::Node, "pod-a-rack1-node2");
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        QVERIFY(model->setData(model->indexOf({0}, ui::FleetTreeModel::NameColumn),
                               QStringLiteral("pod-x"), Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobs.back().traits.pin.target, std::string("pod-x-rack1-node2"));

        const std::string before = json(f.doc);
        const int steps = f.doc.undoStack()->count();
        triggerMenuAction(f, rackTarget("pod-x", "pod-x-rack1"), 0, "removeRack");
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), steps);
        QVERIFY(f.status().contains("job \"pinned-probe\" is pinned to node"));
        // Fewer copies would drop rack1 as well.
        QVERIFY(!model->setData(model->indexOf({0, 0}, ui::FleetTreeModel::CountColumn), 1,
                                Qt::EditRole));
        QVERIFY(model->lastRefusal().contains("pinned-probe"));
        QCOMPARE(json(f.doc), before);
        // Another rack goes; the others keep their names, the pin still points at rack1.
        triggerMenuAction(f, rackTarget("pod-x", "pod-x-rack2"), 0, "removeRack");
        QVERIFY(f.waitForResults());
        const Fleet& fleet = f.window->results()->fleet;
        QCOMPARE(fleet.totalGpus, 256 - 32);
        QVERIFY(fleet.findRack("pod-x-rack3"));
        QVERIFY(!fleet.findRack("pod-x-rack2"));
        QCOMPARE(f.doc.scenario().jobs.back().traits.pin.target, std::string("pod-x-rack1-node2"));
    }

    void nodeEventsFromTheMenuFollowARename() {
        Fixture f;
        f.window->scrubber()->setTime(10 * 3600);
        const FleetTarget node{QStringLiteral("pod-b"), QStringLiteral("pod-b-rack3"),
                               QStringLiteral("pod-b-rack3-node1")};
        triggerMenuAction(f, node, 10 * 3600, "failNode");
        QCOMPARE(f.doc.scenario().nodeEvents.size(), std::size_t(1));
        const NodeEventDef& e = f.doc.scenario().nodeEvents.front();
        QCOMPARE(e.state, NodeState::Failed);
        QCOMPARE(e.timeS, 36000.0);
        QVERIFY(f.waitForResults());
        bool failed = false;
        const int index = f.nodeIndex("pod-b-rack3-node1");
        for (const NodeStateChange& c : f.window->results()->nodeChanges)
            failed |= c.node == static_cast<std::uint32_t>(index) && c.state == NodeState::Failed &&
                      c.timeS == 36000.0;
        QVERIFY(failed);
        // "rack3" × 1 → × 2 renames its rack to rack30: the event follows it.
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        QVERIFY(model->setData(model->indexOf({1, 1}, ui::FleetTreeModel::CountColumn), 2,
                               Qt::EditRole));
        QCOMPARE(f.doc.scenario().nodeEvents.front().node, std::string("pod-b-rack30-node1"));
        // Removing that node takes its event with it, and says so.
        triggerMenuAction(f,
                          FleetTarget{QStringLiteral("pod-b"), QStringLiteral("pod-b-rack30"),
                                      QStringLiteral("pod-b-rack30-node1")},
                          0, "removeNode");
        QVERIFY(f.doc.scenario().nodeEvents.empty());
        QVERIFY(f.status().contains("and 1 node event on it"));
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.totalGpus, 256 + 32 - 8);
        QVERIFY(f.window->results()->fleet.findNode("pod-b-rack30-node2"));
    }

    void drainFromTheMenuFinishesJobsThenRepairs() {
        Fixture f;
        f.window->scrubber()->setTime(10 * 3600);
        const FleetTarget node{QStringLiteral("pod-b"), QStringLiteral("pod-b-rack3"),
                               QStringLiteral("pod-b-rack3-node1")};
        const std::string before = json(f.doc);
        triggerMenuAction(f, node, 10 * 3600, "drainNode");
        QCOMPARE(f.doc.scenario().nodeEvents.size(), std::size_t(1));
        QCOMPARE(f.doc.scenario().nodeEvents.front().state, NodeState::Draining);
        QVERIFY(f.waitForResults());
        // Draining from 10 h, then Repairing when its last job ends (at once if it is empty):
        // no job on it is evicted by the drain, and nothing starts on it meanwhile.
        const Results& r = *f.window->results();
        const auto index = static_cast<std::uint32_t>(f.nodeIndex("pod-b-rack3-node1"));
        double drainS = -1, repairS = -1;
        for (const NodeStateChange& c : r.nodeChanges) {
            if (c.node != index) continue;
            if (c.state == NodeState::Draining) drainS = c.timeS;
            if (c.state == NodeState::Repairing && c.cause == NodeChangeCause::DrainDone)
                repairS = c.timeS;
        }
        QCOMPARE(drainS, 36000.0);
        QVERIFY(repairS >= drainS);
        for (const RunSegment& seg : r.segments)
            for (const PodPlacement& pod : r.placementOf(seg))
                if (pod.node == index) {
                    QVERIFY(seg.startS < drainS || seg.startS >= r.horizonS);
                    if (seg.startS < drainS && seg.endS > drainS)
                        QVERIFY(seg.end != SegmentEnd::Evicted);
                }
        // One undo step restores the scenario.
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
    }

    void deliveryAtTheScrubbersTime() {
        Fixture f;
        const std::string before = json(f.doc);
        // At t = 0 there is nothing to deliver later: the action is off, the edit refused.
        QMenu menu;
        f.window->fleetMenu()->fill(&menu, FleetTarget{QStringLiteral("pod-a"), {}, {}}, 0);
        QAction* early = menu.findChild<QAction*>(QStringLiteral("addDelivery"));
        QVERIFY(early && !early->isEnabled());
        early->trigger();
        QCOMPARE(json(f.doc), before);
        QVERIFY(addDelivery(f.doc.scenario(), "pod-a", 0).error.find("after t = 0") !=
                std::string::npos);
        // At 36 h: a rack like pod-a's (4 × 8 GPUs), Provisioning until 129600 s.
        triggerMenuAction(f, FleetTarget{QStringLiteral("pod-a"), {}, {}}, 36 * 3600,
                          "addDelivery");
        QVERIFY(f.waitForResults());
        const Fleet& fleet = f.window->results()->fleet;
        QCOMPARE(fleet.totalGpus, 256 + 32);
        const int node = *fleet.findNode("pod-a-delivery1-node0");
        QCOMPARE(fleet.nodes[node].initialState, NodeState::Provisioning);
        QCOMPARE(fleet.nodes[node].readyAtS, 129600.0);
        QCOMPARE(fleet.nodes[node].pod, *fleet.findPod("pod-a"));
    }

    void nodeTypeAndDeliveryTimeInTheTree() {
        Fixture f;
        // Without prices: the preset's (Lambda's) have none for GB200, so that type would be
        // refused (tested in test_buying_mix_panel for books).
        Scenario unpriced = f.doc.scenario();
        unpriced.pricing.reset();
        f.doc.reset(unpriced, QString());
        QVERIFY(f.waitForResults());
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        const QModelIndex type = model->indexOf({0, 0, 0}, ui::FleetTreeModel::NodeTypeColumn);
        QVERIFY(model->data(type, ui::FleetTreeModel::ChoicesRole)
                    .toStringList()
                    .contains(QStringLiteral("gb200-nvl72-tray")));
        // pod-a on 4-GPU GB200 trays: 4 racks × 4 nodes × 4 GPUs = 64, fleet 64 + 128 = 192.
        // Chosen in the cell's own editor, as a double-click opens it.
        QTreeView* view = f.window->fleetPanel()->view();
        QAbstractItemDelegate* delegate = view->itemDelegateForIndex(type);
        QStyleOptionViewItem option;
        std::unique_ptr<QWidget> editor(delegate->createEditor(view->viewport(), option, type));
        auto* combo = qobject_cast<QComboBox*>(editor.get());
        QVERIFY(combo);
        delegate->setEditorData(combo, type);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("dgx-h100"));
        QVERIFY(combo->currentText().contains("8 GPUs"));
        combo->setCurrentIndex(combo->findData(QStringLiteral("gb200-nvl72-tray")));
        delegate->setModelData(combo, model, type);
        QCOMPARE(f.doc.scenario().pods[0].racks[0].nodes[0].nodeType,
                 std::string("gb200-nvl72-tray"));
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.totalGpus, 192);
        QCOMPARE(model->indexOf({0, 0, 0}, ui::FleetTreeModel::GpusEachColumn).data().toString(),
                 QStringLiteral("16 (4 × 4)"));
        // pod-b's delivery at 48 h reads d2 00:00 as the scrubber does (days count from 0);
        // moved to 24 h it reads d1 00:00.
        const QModelIndex ready = model->indexOf({1, 1, 0}, ui::FleetTreeModel::ReadyAtColumn);
        QCOMPARE(ready.data(Qt::EditRole).toDouble(), 48.0);
        // Its state is the delivery's (provisioning), set here by Ready at, not by State.
        const QModelIndex state = model->indexOf({1, 1, 0}, ui::FleetTreeModel::StateColumn);
        QCOMPARE(state.data().toString(), QStringLiteral("provisioning"));
        QVERIFY(!(model->flags(state) & Qt::ItemIsEditable));
        QCOMPARE(ready.data().toString(), QStringLiteral("d2 00:00 · 48 h"));
        QVERIFY(model->setData(ready, 24.0, Qt::EditRole));
        QCOMPARE(f.doc.scenario().pods[1].racks[1].nodes[0].readyAtS, 86400.0);
        QCOMPARE(ready.data().toString(), QStringLiteral("d1 00:00 · 24 h"));
        QVERIFY(f.status().contains("Deliver \"node\" at d1 00:00"));
        // 0 h: there from the start.
        QVERIFY(model->setData(ready, 0.0, Qt::EditRole));
        QCOMPARE(f.doc.scenario().pods[1].racks[1].nodes[0].state, NodeState::Ready);
        QCOMPARE(ready.data().toString(), QStringLiteral("from the start"));
        QVERIFY(model->flags(state) & Qt::ItemIsEditable);
        QCOMPARE(model->indexOf({1, 1, 0}, ui::FleetTreeModel::StateColumn).data().toString(),
                 QStringLiteral("ready"));
        QCOMPARE(f.doc.undoStack()->count(), 3);
    }

    void negativeCountTypedInTheCellIsRefused() {
        Fixture f;
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        QTreeView* view = f.window->fleetPanel()->view();
        const std::string before = json(f.doc);
        // pod-a's "rack" × 4: the user selects the cell's text and types -1, as in the trial.
        const QModelIndex count = model->indexOf({0, 0}, ui::FleetTreeModel::CountColumn);
        QAbstractItemDelegate* delegate = view->itemDelegateForIndex(count);
        QStyleOptionViewItem option;
        std::unique_ptr<QWidget> editor(delegate->createEditor(view->viewport(), option, count));
        auto* spin = qobject_cast<QSpinBox*>(editor.get());
        QVERIFY(spin);
        delegate->setEditorData(spin, count);
        QCOMPARE(spin->value(), 4);
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("-1"));
        QCOMPARE(spin->value(), -1);  // not quietly 1
        delegate->setModelData(spin, model, count);
        QVERIFY(model->lastRefusal().contains("count must be at least 1"));
        QVERIFY(f.window->fleetPanel()->refusal().contains("count must be at least 1"));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
    }

    void hugeCountIsRefusedBeforeAnythingIsBuilt() {
        Fixture f;
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        const std::string before = json(f.doc);
        // pod-a's racks × 100000: 100000 · 4 nodes + pod-b's 4 · 4 = 400,016 nodes.
        QVERIFY(!model->setData(model->indexOf({0, 0}, ui::FleetTreeModel::CountColumn), 100000,
                                Qt::EditRole));
        QCOMPARE(model->lastRefusal(),
                 QStringLiteral("the fleet would have 400,016 nodes; at most 200,000"));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);

        // fleet-10k ("pod" × 5 ⊃ "rack" × 10 ⊃ "node" × 25, 250 nodes a pod): pods × 100000
        // would be 25,000,000 nodes (> 6 GB built); refused from the count alone.
        const Scenario s =
            loadScenario((kPresets + "/scenarios/fleet-10k.json").toStdString(), catalog());
        const FleetEdit huge = setCount(s, {0}, 100000);
        QVERIFY(!huge.ok());
        QCOMPARE(huge.error, std::string("the fleet would have 25,000,000 nodes; at most 200,000"));
        // 500 pods are 500 · 250 nodes · 8 GPUs = 1,000,000 GPUs, the limit exactly. One more
        // rack or pod (a pod of one rack) of 25 nodes is 1,000,200 GPUs: refused, by the size,
        // not by the names.
        const FleetEdit full = setCount(s, {0}, 500);
        QVERIFY2(full.ok(), full.error.c_str());
        const std::string past = "the fleet would have 1,000,200 GPUs; at most 1,000,000";
        QCOMPARE(addPod(*full.scenario).error, past);
        QCOMPARE(duplicateRack(*full.scenario, "pod0-rack0", 1).error, past);
        // A rack definition in the pod definition adds a rack to all 500 pods: 1,000,000 +
        // 500 · 25 · 8 = 1,100,000 GPUs.
        QCOMPARE(addRack(*full.scenario, 0).error,
                 std::string("the fleet would have 1,100,000 GPUs; at most 1,000,000"));
    }

    void nodeTypeThereAndBackGivesTheSameScenario() {
        // The default preset: every group is dgx-h100 (GPU model h100).
        const Catalog cat = catalog();
        Scenario s = loadScenario((kPresets + "/scenarios/default.json").toStdString(), cat);
        s.pricing.reset();  // the preset's (Lambda's) prices have none for GB200
        const FleetEdit there = setNodeType(s, {0, 0, 0}, "gb200-nvl72-tray", cat);
        QVERIFY2(there.ok(), there.error.c_str());
        // pod-b still uses dgx-h100: both types are in use, as the reader would list them.
        LoadOptions quick;
        quick.loadTraces = false;
        const Scenario reread = parseScenario(scenarioToJson(*there.scenario), "there", cat, quick);
        QVERIFY(there.scenario->nodeTypes == reread.nodeTypes);
        QVERIFY(there.scenario->gpuModels == reread.gpuModels);
        QCOMPARE(there.scenario->nodeTypes.size(), std::size_t(2));
        const FleetEdit back = setNodeType(*there.scenario, {0, 0, 0}, "dgx-h100", cat);
        QVERIFY2(back.ok(), back.error.c_str());
        // gb200-nvl72-tray (and its GPU model) is used by no group any more: gone again.
        QVERIFY(back.scenario->nodeTypes == s.nodeTypes);
        QVERIFY(back.scenario->gpuModels == s.gpuModels);
        QCOMPARE(scenarioToJson(*back.scenario), scenarioToJson(s));
    }

    void menuAndUndoLabelsReadTheScrubbersTime() {
        Fixture f;
        // t = 30 h: the scrubber reads d1 06:00 (days count from 0), so do the menu and the
        // undo label.
        f.window->scrubber()->setTime(30 * 3600);
        const FleetTarget node{QStringLiteral("pod-b"), QStringLiteral("pod-b-rack3"),
                               QStringLiteral("pod-b-rack3-node1")};
        QMenu menu;
        f.window->fleetMenu()->fill(&menu, node, 30 * 3600);
        QAction* cordon = menu.findChild<QAction*>(QStringLiteral("cordonNode"));
        QVERIFY(cordon);
        QCOMPARE(cordon->text(), QStringLiteral("Cordon from d1 06:00"));
        cordon->trigger();
        QCOMPARE(f.doc.undoStack()->text(0),
                 QStringLiteral("Cordon pod-b-rack3-node1 from d1 06:00"));
        QCOMPARE(ui::formatSimTime(30 * 3600), QStringLiteral("d1 06:00"));
    }

    void panelButtonsAddDuplicateAndRemove() {
        Fixture f;
        FleetPanel* panel = f.window->fleetPanel();
        const std::string before = json(f.doc);
        panel->view()->setCurrentIndex(panel->model()->indexOf({1, 1}));  // pod-b's rack3
        panel->duplicateSelected();
        QCOMPARE(f.doc.scenario().pods[1].racks.size(), std::size_t(3));
        QCOMPARE(f.doc.scenario().pods[1].racks[2].name, std::string("rack4"));
        // The copy is now current: duplicating again copies it (rack5).
        QCOMPARE(ui::FleetTreeModel::pathOf(panel->view()->currentIndex()),
                 (ui::FleetTreePath{1, 2}));
        panel->duplicateSelected();
        QCOMPARE(f.doc.scenario().pods[1].racks[3].name, std::string("rack5"));
        f.doc.undoStack()->undo();
        panel->addPod();
        QCOMPARE(f.doc.scenario().pods.size(), std::size_t(3));
        QVERIFY(f.waitForResults());
        // + a copy of rack3 (32) + a pod of one rack like pod-b's first (32).
        QCOMPARE(f.window->results()->fleet.totalGpus, 256 + 32 + 32);
        // The only rack of the new pod cannot go; the pod can.
        panel->view()->setCurrentIndex(panel->model()->indexOf({2, 0}));
        panel->removeSelected();
        QVERIFY(panel->refusal().contains("remove the pod instead"));
        panel->view()->setCurrentIndex(panel->model()->indexOf({2}));
        panel->removeSelected();
        QCOMPARE(f.doc.scenario().pods.size(), std::size_t(2));
        QCOMPARE(f.doc.undoStack()->count(), 3);
        while (f.doc.undoStack()->canUndo())
            f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
    }

    void editsOnCopiesOfCopies() {
        // Pure functions on fleet-10k: "pod" × 5 ⊃ "rack" × 10 ⊃ "node" × 25 dgx-h100.
        const Scenario s =
            loadScenario((kPresets + "/scenarios/fleet-10k.json").toStdString(), catalog());
        const Fleet before = Fleet::build(s);
        // Duplicating pod2-rack3 adds one rack to pod2 only (pod2-rack10, 25 nodes); the pod
        // definition is split so pod0, pod1, pod3 and pod4 keep 10 racks.
        const FleetEdit dup = duplicateRack(s, "pod2-rack3", 1);
        QVERIFY2(dup.ok(), dup.error.c_str());
        const Fleet grown = Fleet::build(*dup.scenario);
        QCOMPARE(grown.nodes.size(), before.nodes.size() + 25);
        QVERIFY(grown.findRack("pod2-rack10"));
        QVERIFY(!grown.findRack("pod1-rack10"));
        QVERIFY(!grown.findRack("pod4-rack10"));
        QCOMPARE(grown.pods.size(), std::size_t(5));
        // Removing one node of a group of 25 leaves its neighbours' names alone.
        const FleetEdit gone = removeNode(s, "pod0-rack0-node1");
        QVERIFY2(gone.ok(), gone.error.c_str());
        const Fleet smaller = Fleet::build(*gone.scenario);
        QCOMPARE(smaller.nodes.size(), before.nodes.size() - 1);
        QVERIFY(!smaller.findNode("pod0-rack0-node1"));
        QVERIFY(smaller.findNode("pod0-rack0-node0") && smaller.findNode("pod0-rack0-node2"));
        QVERIFY(smaller.findNode("pod0-rack1-node1"));
        // A pod pin follows a pod rename; a pin on a pod that goes away refuses the edit.
        Scenario pinned = s;
        pinned.jobClasses.front().traits.pin = PinDef{PinLevel::Pod, "pod3"};
        const FleetEdit renamed = renameDef(pinned, {0}, "hall");
        QVERIFY2(renamed.ok(), renamed.error.c_str());
        QCOMPARE(renamed.scenario->jobClasses.front().traits.pin.target, std::string("hall3"));
        const FleetEdit fewer = setCount(pinned, {0}, 3);
        QVERIFY(!fewer.ok());
        QVERIFY(fewer.error.find("is pinned to pod \"pod3\"") != std::string::npos);
    }

    void rackOfACopiedPodChangesOnlyThatPod() {
        // Pure function, no window: fleet-10k's "pod" × 5 of "rack" × 10 of 25 nodes.
        const Catalog cat = catalog();
        const Scenario s =
            loadScenario((kPresets + "/scenarios/fleet-10k.json").toStdString(), cat);
        const FleetEdit edit = removeRack(s, "pod2-rack3");
        QVERIFY2(edit.ok(), edit.error.c_str());
        const Fleet before = Fleet::build(s), after = Fleet::build(*edit.scenario);
        // Exactly one rack (25 nodes) less; every other name is still there.
        QCOMPARE(after.nodes.size(), before.nodes.size() - 25);
        QVERIFY(!after.findRack("pod2-rack3"));
        for (const char* name : {"pod0-rack3", "pod2-rack2", "pod2-rack4", "pod4-rack9-node24"})
            QVERIFY2(after.findRack(name) || after.findNode(name), name);
    }
};

GPUPLAN_APP_TEST("test_fleet_editor", FleetEditorTest);
#include "test_fleet_editor.moc"
