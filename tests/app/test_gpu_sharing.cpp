// QtTest, offscreen: the GPU sharing editor under the Inspector and the sharing edits behind it,
// on the default preset. Its fleet, worked out by hand (as in test_fleet_editor.cpp):
//   pod-a: "rack" × 4, each "node" × 4 dgx-h100 (8 × H100 80GB, MIG family A100/H100 80GB)
//   pod-b: "rack" × 3 of the same + "rack3" × 1 (Provisioning until 48 h)
// so pod-a-rack1-node2 is copy 2 of pod-a's node group, inside copy 1 of its rack definition.
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTreeView>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/gpu_sharing_editor.hpp"
#include "editors/inspector.hpp"
#include "editors/job_template.hpp"
#include "fleet/fleet_panel.hpp"
#include "fleet/sharing_controller.hpp"
#include "fleet/sharing_edits.hpp"
#include "format/sharing_format.hpp"
#include "gpuplan/model/topology.hpp"
#include "topology/fleet_tree_model.hpp"
#include "topology/mig_slot_picture.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

const std::string kNode = "pod-a-rack1-node2";

std::string json(const ScenarioDocument& doc) {
    return scenarioToJson(doc.scenario());
}

/// Every generated node name in fleet order.
std::vector<std::string> nodeNames(const Scenario& s) {
    std::vector<std::string> out;
    for (const FleetNode& n : Fleet::build(s).nodes)
        out.push_back(n.name);
    return out;
}

/// The id of `name` in the H100's MIG family.
int profileId(const char* name) {
    return migProfileByName(MigFamily::Gpu80GB, name)->id;
}

/// The sharing editor, pointed at `name` as a click on it in the topology does.
ui::GpuSharingEditor* editorOn(Fixture& f, const std::string& name) {
    f.window->sharing()->selectGenerated(QStringLiteral("Node"), QString::fromStdString(name));
    return f.window->sharing()->editor();
}

/// Placements of `results` on node `node`: whole GPUs, shares and MIG instances.
struct Held {
    int whole = 0, shares = 0, mig = 0;
};
Held heldOn(const Results& r, int node) {
    Held h;
    for (const PodPlacement& p : r.placements) {
        if (static_cast<int>(p.node) != node) continue;
        h.whole += p.isWhole();
        h.shares += p.isShare();
        h.mig += p.isMig();
    }
    return h;
}

QStringList offered(ui::GpuSharingEditor* editor) {
    QStringList names;
    for (QPushButton* b : editor->profileButtons())
        names << b->text().remove(QStringLiteral("+ "));
    return names;
}

}  // namespace

class GpuSharingTest : public QObject {
    Q_OBJECT
private slots:
    void switchingANodeToMigChangesWhatTheResultsShowThere() {
        Fixture f;
        const int node = f.nodeIndex(kNode);
        // Before: a whole-GPU node in a busy fleet (allocation 66 %) that runs whole-GPU pods.
        QCOMPARE(f.window->results()->fleet.nodes[node].sharing.mode, SharingMode::Whole);
        QVERIFY(heldOn(*f.window->results(), node).whole > 0);
        const std::vector<std::string> names = nodeNames(f.doc.scenario());

        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        QVERIFY(editor->hasTarget());
        // MIG first shows an empty GPU (nothing asked yet: an empty layout is no layout), and
        // every profile fits it.
        editor->chooseMode(SharingMode::Mig);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QCOMPARE(offered(editor), QStringList({"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb",
                                               "3g.40gb", "4g.40gb", "7g.80gb"}));
        // The first instance switches the node: one undo step, named for profile and node.
        editor->addProfile(profileId("3g.40gb"));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.doc.undoStack()->text(0), QStringLiteral("MIG 3g.40gb on pod-a-rack1-node2"));
        // A 2g at slot 0 from the picture, then two 1g where the driver puts them: 3-2-1-1.
        // (The auto-placed 3g took slot 4, leaving 0–3: 2g.20gb at 0–1, 1g at 2 and 3.)
        QCOMPARE(editor->draftLayout()->describe(), std::string("3g.40gb@4"));
        emit editor->picture()->addRequested(profileId("2g.20gb"), 0);
        editor->addProfile(profileId("1g.10gb"));
        editor->addProfile(profileId("1g.10gb"));
        QCOMPARE(f.doc.undoStack()->count(), 4);
        QCOMPARE(f.doc.undoStack()->text(3),
                 QStringLiteral("MIG 3g.40gb+2g.20gb+2×1g.10gb on pod-a-rack1-node2"));
        // Memory 4 + 2 + 1 + 1 = 8 slices: nothing more fits, so nothing is offered.
        QCOMPARE(editor->draftLayout()->memorySlicesUsed(), 8);
        QVERIFY(offered(editor).isEmpty());

        // Only that node changed: its definitions were split, every generated name kept.
        QCOMPARE(nodeNames(f.doc.scenario()), names);
        int migGroups = 0;
        for (const PodDef& pod : f.doc.scenario().pods)
            for (const RackDef& rack : pod.racks)
                for (const NodeGroupDef& g : rack.nodes)
                    if (g.sharing.mode == SharingMode::Mig) migGroups += rack.count * g.count;
        QCOMPARE(migGroups, 1);

        // A pod asking a 1g.10gb instance, pinned there, runs on one of its instances.
        Scenario s = f.doc.scenario();
        JobDef probe;
        probe.name = "mig-probe";
        probe.traits.team = s.teams.front().name;
        probe.traits.migProfile = "1g.10gb";
        probe.traits.pin = PinDef{PinLevel::Node, kNode};
        s.jobs.push_back(probe);
        QCOMPARE(f.doc.edit(s, QStringLiteral("probe")), QString());
        QVERIFY(f.waitForResults());
        const Results& r = *f.window->results();
        QCOMPARE(r.fleet.nodes[node].sharing.mode, SharingMode::Mig);
        QCOMPARE(r.fleet.nodes[node].wholeGpus(), 0);
        // No whole-GPU pod lands on it any more; the probe's instance does.
        QCOMPARE(heldOn(r, node).whole, 0);
        std::uint32_t job = 0;
        QVERIFY(findJob(r, "mig-probe", &job));
        QVERIFY(r.jobs[job].firstStartS >= 0);
        const PodPlacement& p = r.placementOf(r.segments[r.jobs[job].lastSegment]).front();
        QCOMPARE(static_cast<int>(p.node), node);
        QVERIFY(p.isMig());
        QCOMPARE(static_cast<int>(p.migComputeSlices), 1);
        // The inspector says so at the node.
        auto* inspector = f.window->findChild<ui::Inspector*>();
        inspector->showNode(node);
        QVERIFY2(inspector->toPlainText().contains("MIG 3g.40gb+2g.20gb+2×1g.10gb"),
                 qPrintable(inspector->toPlainText()));
    }

    void invalidMigLayoutIsRefusedAndNothingChanges() {
        Fixture f;
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        QVERIFY(editor->applyLayoutText(QStringLiteral("4g.40gb@0, 3g.40gb@4")));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        // 4g (memory 0–3) + 3g (4–7): the GPU is full; nothing is offered.
        QVERIFY(offered(editor).isEmpty());
        const std::string before = json(f.doc);

        // Typed layouts the hardware refuses: the reason shows, the document stays.
        QLineEdit* text = editor->layoutEdit();
        text->setText(QStringLiteral("3g.40gb@0, 4g.40gb"));
        QTest::keyClick(text, Qt::Key_Return);
        QVERIFY2(editor->refusal().contains("4g.40gb can only start at slot 0, which 3g.40gb@0 "
                                            "holds"),
                 qPrintable(editor->refusal()));
        QVERIFY(!editor->applyLayoutText(QStringLiteral("4g.40gb, 4g.40gb")));
        QVERIFY2(editor->refusal().contains("at most 1 × 4g.40gb per GPU"),
                 qPrintable(editor->refusal()));
        // Anything beside 7 × 1g: no profile starts at slot 7.
        QVERIFY(!editor->applyLayoutText(QStringLiteral("7 1g.10gb")));  // not even parsed
        QVERIFY(!editor->applyLayoutText(
            QStringLiteral("1g.10gb,1g.10gb,1g.10gb,1g.10gb,1g.10gb,1g.10gb,1g.10gb,1g.10gb")));
        QVERIFY(editor->refusal().contains("at most 7"));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        // The picture's placement refuses too: a 2g at slot 0 overlaps the 4g.
        editor->applyLayoutText(QStringLiteral("4g.40gb@0"));
        QCOMPARE(f.doc.undoStack()->count(), 2);
        QVERIFY(!offered(editor).contains("4g.40gb"));  // one per GPU
        QVERIFY(offered(editor).contains("3g.40gb"));
        const std::string withOne4g = json(f.doc);
        editor->addProfileAt(profileId("2g.20gb"), 0);
        QVERIFY2(editor->refusal().contains("which 4g.40gb@0 holds"),
                 qPrintable(editor->refusal()));
        QCOMPARE(json(f.doc), withOne4g);
        // The last instance stays: an empty MIG layout is no layout.
        editor->removeInstance(0);
        QVERIFY(editor->refusal().contains("at least one instance"));
        QCOMPARE(json(f.doc), withOne4g);

        // The pure edit refuses a GPU without MIG with the reason (an L40S, made the node
        // type's GPU for the test), and a layout its geometry refuses.
        Scenario noMig = f.doc.scenario();
        noMig.gpuModels.push_back(*f.doc.catalog().findGpu("l40s"));
        for (NodeType& t : noMig.nodeTypes)
            t.gpuModel = "l40s";
        GpuSharingDef mig;
        mig.mode = SharingMode::Mig;
        mig.migLayout = "7g.80gb";
        FleetEdit edit = setSharingOf(noMig, "pod-b-rack0-node1", mig);
        QVERIFY(!edit.ok());
        QCOMPARE(QString::fromStdString(edit.error),
                 QStringLiteral("MIG on pod-b-rack0-node1 refused: NVIDIA L40S has no MIG (the "
                                "catalog gives it no MIG instances)"));
        mig.migLayout = "3g.40gb, 3g.40gb, 1g.10gb";
        edit = setSharingOf(f.doc.scenario(), "pod-b-rack0-node1", mig);
        QVERIFY(!edit.ok());
        QVERIFY2(QString::fromStdString(edit.error).contains("MIG layout item 3"),
                 edit.error.c_str());
    }

    void undoRestoresThePreviousMode() {
        Fixture f;
        const std::string before = json(f.doc);
        const int node = f.nodeIndex(kNode);
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        editor->chooseMode(SharingMode::Mps);
        editor->clientsBox()->setValue(8);      // one more step
        editor->computeCapBox()->setValue(25);  // and one for each cap
        editor->memoryLimitBox()->setValue(10);
        QCOMPARE(f.doc.undoStack()->text(3),
                 QStringLiteral("MPS (8 clients, cap 25 %, 10 GB) on pod-a-rack1-node2"));
        editor->applyLayoutText(QStringLiteral("7g.80gb"));
        QCOMPARE(f.doc.undoStack()->count(), 5);
        QCOMPARE(editor->sharing().mode, SharingMode::Mig);

        f.doc.undoStack()->undo();  // back to MPS with 8 clients, editor and results alike
        QCOMPARE(editor->sharing().mode, SharingMode::Mps);
        QCOMPARE(editor->sharing().mpsClients, 8);
        QCOMPARE(editor->computeCapBox()->value(), 25.0);
        QCOMPARE(editor->memoryLimitBox()->value(), 10.0);
        QCOMPARE(editor->modeBox()->currentText(), QStringLiteral("MPS"));
        QCOMPARE(editor->clientsBox()->value(), 8);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.nodes[node].sharing.mode, SharingMode::Mps);
        QCOMPARE(f.window->results()->fleet.nodes[node].sharing.mpsClients, 8);

        for (int i = 0; i < 4; ++i)
            f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);  // the split definitions are merged back too
        QCOMPARE(editor->modeBox()->currentText(), QStringLiteral("Whole GPUs"));
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fleet.nodes[node].sharing.mode, SharingMode::Whole);
        QVERIFY(heldOn(*f.window->results(), node).whole > 0);
    }

    void dynamicMigStartsUncutAndIsOneUndoStep() {
        // From the MIG page of a whole-GPU node, ticking "dynamic" alone switches it: dynamic
        // GPUs may start uncut (the scheduler cuts them for waiting MIG jobs). One step; the
        // reconfiguration time is another; undo goes back through both.
        Fixture f;
        const std::string before = json(f.doc);
        const int node = f.nodeIndex(kNode);
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        editor->chooseMode(SharingMode::Mig);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QVERIFY(editor->migDynamicBox()->isEnabled());
        editor->migDynamicBox()->setChecked(true);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(editor->sharing().mode, SharingMode::Mig);
        QVERIFY(editor->sharing().migDynamic);
        QCOMPARE(editor->sharing().migLayout, std::string());
        QCOMPARE(f.doc.undoStack()->text(0),
                 QStringLiteral("MIG dynamic (re-cut 180 s) on pod-a-rack1-node2"));
        editor->migReconfigureBox()->setValue(60);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        QVERIFY(f.waitForResults());
        const FleetNode& n = f.window->results()->fleet.nodes[node];
        QCOMPARE(n.sharing.migReconfigureS, 60.0);
        // Nothing asks MIG in the default preset: the uncut GPUs hold nothing, whole or not.
        QCOMPARE(heldOn(*f.window->results(), node).whole, 0);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QVERIFY(!editor->migDynamicBox()->isChecked());
    }

    void fractionalDropLandsOnASharedGpu() {
        Fixture f;
        const int node = f.nodeIndex(kNode);
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        editor->chooseMode(SharingMode::Mps);
        QCOMPARE(f.doc.undoStack()->text(0),
                 QStringLiteral("MPS (48 clients) on pod-a-rack1-node2"));
        QVERIFY(f.waitForResults());
        // A 0.3-GPU template through the palette's drop path (no new code there).
        ui::JobTemplate t;
        t.id = QStringLiteral("ready:share");
        t.label = QStringLiteral("inference 0.3 GPU");
        t.job.traits.gpuMilli = 300;
        t.job.gpus = 1;
        t.job.durationS = 3600;
        f.window->drops().setTemplates({t});
        f.dropOnNode(node, ui::kTemplateMime, "ready:share");
        QVERIFY2(f.status().startsWith("Drop inference 0.3 GPU on node pod-a-rack1-node2"),
                 qPrintable(f.status()));
        QVERIFY(f.waitForResults());
        const Results& r = *f.window->results();
        std::uint32_t job = 0;
        QVERIFY(findJob(r, "drop-share-1", &job));
        QCOMPARE(r.jobs[job].firstStartS, 0.0);  // an MPS GPU has room for 0.3 at t = 0
        const PodPlacement& p = r.placementOf(r.segments[r.jobs[job].lastSegment]).front();
        QCOMPARE(static_cast<int>(p.node), node);
        QVERIFY(p.isShare());
        QCOMPARE(static_cast<int>(p.milliGpu), 300);
        // The snapshot at its start lists it among the GPU's occupants with its 300 milli-GPU.
        const ClusterSnapshot at = r.stateAt(r.jobs[job].firstStartS);
        const int gpu = r.firstGpuOfNode[node] + std::countr_zero(p.gpuMask);
        bool listed = false;
        for (const GpuOccupant& o : at.occupantsOf(gpu))
            listed = listed || (o.job == job && o.milliGpu == 300);
        QVERIFY(listed);
    }

    void fleetPanelSelectionSwitchesSeveralDefinitionsInOneStep() {
        Fixture f;
        QTreeView* view = f.window->fleetPanel()->view();
        ui::FleetTreeModel* model = f.window->fleetPanel()->model();
        QCOMPARE(view->selectionMode(), QAbstractItemView::ExtendedSelection);
        // pod-a's node group and pod-b's rack3 (its one group), Ctrl-selected together.
        view->selectionModel()->select(model->indexOf({0, 0, 0}),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view->selectionModel()->select(model->indexOf({1, 1}),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        ui::GpuSharingEditor* editor = f.window->sharing()->editor();
        QVERIFY(editor->hasTarget());
        editor->chooseMode(SharingMode::TimeSlicing);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.doc.undoStack()->text(0),
                 QStringLiteral("Time-slicing (4 replicas) on 1 rack, 1 node group"));
        const Scenario& s = f.doc.scenario();
        QCOMPARE(s.pods[0].racks[0].nodes[0].sharing.mode, SharingMode::TimeSlicing);
        QCOMPARE(s.pods[1].racks[1].nodes[0].sharing.mode, SharingMode::TimeSlicing);
        QCOMPARE(s.pods[1].racks[0].nodes[0].sharing.mode, SharingMode::Whole);
        // The tree says so in its GPU sharing column.
        QCOMPARE(model->indexOf({0, 0, 0}, ui::FleetTreeModel::SharingColumn).data().toString(),
                 QStringLiteral("time-slicing (4 replicas)"));
        QCOMPARE(model->indexOf({1, 0, 0}, ui::FleetTreeModel::SharingColumn).data().toString(),
                 QStringLiteral("whole GPUs"));
        // The selection survives the edit, so the replicas box edits the same two.
        editor->replicasBox()->setValue(6);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        QCOMPARE(f.doc.scenario().pods[1].racks[1].nodes[0].sharing.timeSliceReplicas, 6);
        QVERIFY(f.waitForResults());
        // 16 + 1 definitions' nodes: pod-a's 4 × 4 and pod-b-rack3's 4.
        int sliced = 0;
        for (const FleetNode& n : f.window->results()->fleet.nodes)
            sliced += n.sharing.mode == SharingMode::TimeSlicing;
        QCOMPARE(sliced, 16 + 4);
    }

    void rightClickSwitchesANodeOrOpensTheEditor() {
        Fixture f;
        QMenu menu;
        const FleetTarget target{QStringLiteral("pod-a"), QStringLiteral("pod-a-rack1"),
                                 QString::fromStdString(kNode)};
        f.window->fleetMenu()->fill(&menu, target, 0);
        QAction* mps = menu.findChild<QAction*>(QStringLiteral("nodeSharingMps"));
        QVERIFY(mps);
        mps->trigger();
        QCOMPARE(f.status(), QStringLiteral("MPS (48 clients) on pod-a-rack1-node2"));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        // The rack's inspector counts its nodes by sharing: node2 MPS, the other three whole.
        QVERIFY(f.waitForResults());
        auto* inspector = f.window->findChild<ui::Inspector*>();
        inspector->showRack(*f.window->results()->fleet.findRack("pod-a-rack1"));
        QVERIFY2(inspector->toPlainText().contains("MPS (48 clients): 1 node") &&
                     inspector->toPlainText().contains("whole GPUs: 3 nodes"),
                 qPrintable(inspector->toPlainText()));
        menu.findChild<QAction*>(QStringLiteral("rackSharingEditor"))->trigger();
        ui::GpuSharingEditor* editor = f.window->sharing()->editor();
        QVERIFY(editor->hasTarget());
        // The rack's nodes now come from three groups (node0–1, node2 with MPS, node3): the
        // editor says they differ, and Whole GPUs (the first group's mode) applies to all.
        QCOMPARE(editor->sharing().mode, SharingMode::Whole);
        editor->chooseMode(SharingMode::Whole);
        QCOMPARE(f.doc.undoStack()->text(1), QStringLiteral("Whole GPUs on pod-a-rack1"));
    }

    // A mode's page must not raise the inspector dock's minimum height and so grow the
    // window, nor leave it grown after undo. Every mode, an instance added and undone, a
    // refusal shown: the window's size and its minimum stay what they were.
    void choosingAModeNeverResizesTheMainWindow_data() {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void choosingAModeNeverResizesTheMainWindow() {
        QFETCH(QSize, screen);
        Fixture f;
        f.window->resize(screen);
        QCoreApplication::processEvents();
        const QSize size = f.window->size();
        const QSize minimum = f.window->minimumSizeHint();
        auto* dock = f.window->findChild<QDockWidget*>(QStringLiteral("inspector"));
        QVERIFY(dock);
        const int dockMinimum = dock->minimumSizeHint().height();
        const auto unchanged = [&](const char* after) {
            QCoreApplication::processEvents();  // the layouts' posted requests
            if (f.window->size() != size || f.window->minimumSizeHint() != minimum ||
                dock->minimumSizeHint().height() != dockMinimum)
                return QStringLiteral(
                           "after %1: window %2×%3 (was %4×%5), its minimum %6×%7 "
                           "(was %8×%9), the dock's minimum height %10 (was %11)")
                    .arg(after)
                    .arg(f.window->width())
                    .arg(f.window->height())
                    .arg(size.width())
                    .arg(size.height())
                    .arg(f.window->minimumSizeHint().width())
                    .arg(f.window->minimumSizeHint().height())
                    .arg(minimum.width())
                    .arg(minimum.height())
                    .arg(dock->minimumSizeHint().height())
                    .arg(dockMinimum);
            return QString();
        };
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        QString problem = unchanged("selecting a node");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (const auto& [mode, name] : {std::pair{SharingMode::Mig, "MIG (empty picture)"},
                                         std::pair{SharingMode::Mps, "MPS"},
                                         std::pair{SharingMode::TimeSlicing, "time-slicing"},
                                         std::pair{SharingMode::Whole, "whole GPUs"},
                                         std::pair{SharingMode::Mig, "MIG again"}}) {
            editor->chooseMode(mode);
            problem = unchanged(name);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        editor->addProfile(profileId("3g.40gb"));
        QCOMPARE(editor->sharing().mode, SharingMode::Mig);
        problem = unchanged("adding a 3g.40gb");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        editor->addProfileAt(profileId("7g.80gb"), 0);  // refused: shown in red, scrolled to
        QVERIFY(!editor->refusal().isEmpty());
        problem = unchanged("a refusal");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        while (f.doc.undoStack()->canUndo())
            f.doc.undoStack()->undo();
        QCOMPARE(editor->sharing().mode, SharingMode::Whole);
        problem = unchanged("undo");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The MIG page scrolls inside the editor where the dock is short (the left column at
    // 1000 px holds the palette and the inspector too); given its size hint, the editor shows
    // the page whole, so a taller dock is all it takes.
    void theEditorAsksForTheWholePage() {
        const Catalog c = catalog();
        ui::GpuSharingEditor editor;
        editor.setTarget(QStringLiteral("Node n"), GpuSharingDef{}, c.findGpu("h100-sxm"));
        editor.chooseMode(SharingMode::Mig);
        editor.resize(editor.sizeHint());
        editor.show();
        QTest::qWait(20);
        auto* scroll = editor.findChild<QScrollArea*>(QStringLiteral("sharingScroll"));
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        QVERIFY(editor.picture()->isVisible());
        // Half as tall: it scrolls, and its minimum stays the whole-GPU page's.
        editor.resize(editor.width(), editor.sizeHint().height() / 2);
        QTest::qWait(20);
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        const int migMinimum = editor.minimumSizeHint().height();
        editor.chooseMode(SharingMode::Whole);  // asks nothing: no document here
        editor.setTarget(QStringLiteral("Node n"), GpuSharingDef{}, c.findGpu("h100-sxm"));
        QTest::qWait(20);
        QCOMPARE(editor.minimumSizeHint().height(), migMinimum);
    }

    // With nothing selected after an undo, the greyed mode box shows no mode (not "MIG").
    void noSelectionShowsNoMode() {
        Fixture f;
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        QVERIFY(editor->applyLayoutText(QStringLiteral("7g.80gb")));
        QCOMPARE(editor->modeBox()->currentText(), QStringLiteral("MIG"));
        f.window->sharing()->selectGenerated(QStringLiteral("Pod"), QString());  // empty space
        QVERIFY(!editor->hasTarget());
        f.doc.undoStack()->undo();
        QVERIFY(!editor->hasTarget());
        QVERIFY(!editor->modeBox()->isEnabled());
        QCOMPARE(editor->modeBox()->currentIndex(), -1);
        QCOMPARE(editor->modeBox()->currentText(), QString());
        QCOMPARE(editor->modeBox()->placeholderText(), QStringLiteral("no selection"));
        // Selected again, it shows the node's mode as the document has it (whole, undone).
        editor = editorOn(f, kNode);
        QCOMPARE(editor->modeBox()->currentText(), QStringLiteral("Whole GPUs"));
        QVERIFY(editor->modeBox()->isEnabled());
    }

    void aNodeWithALayoutPerGpuIsShownAsItIs() {
        // An import gives kNode's GPUs layouts of their own: GPUs 0–3 3g + 2g + 2 × 1g, GPUs
        // 4–7 two 3g. The editor draws one GPU: it shows GPU 0's and says the others differ;
        // ticking dynamic MIG keeps each GPU's own; a layout typed there goes on every GPU.
        Fixture f;
        GpuSharingDef perGpu;
        perGpu.mode = SharingMode::Mig;
        perGpu.migLayouts = {{4, "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb"}, {4, "3g.40gb, 3g.40gb"}};
        QCOMPARE(applyFleetEdit(f.doc, setSharingOf(f.doc.scenario(), kNode, perGpu)), QString());
        const auto groupOfNode = [&]() -> const GpuSharingDef* {
            for (const PodDef& pod : f.doc.scenario().pods)
                for (const RackDef& rack : pod.racks)
                    for (const NodeGroupDef& g : rack.nodes)
                        if (g.sharing.mode == SharingMode::Mig) return &g.sharing;
            return nullptr;
        };
        QVERIFY(groupOfNode());
        const QString summary =
            QStringLiteral("MIG per GPU: 4 × (3g.40gb+2g.20gb+2×1g.10gb), 4 × (2×3g.40gb)");
        ui::GpuSharingEditor* editor = editorOn(f, kNode);
        QCOMPARE(editor->sharing().migLayout, std::string("3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb"));
        QVERIFY(editor->sharing().migLayouts.empty());
        bool noted = false;
        for (QLabel* label : editor->findChildren<QLabel*>())
            noted = noted || (label->text().contains(QStringLiteral("layouts of their own (") +
                                                     summary + QStringLiteral(")")) &&
                              label->text().contains(QStringLiteral("shown: the first GPU's")));
        QVERIFY(noted);
        // The inspector lists every GPU's layout.
        QVERIFY(f.waitForResults());
        auto* inspector = f.window->findChild<ui::Inspector*>();
        inspector->showNode(f.nodeIndex(kNode));
        QVERIFY2(inspector->toPlainText().contains(summary), qPrintable(inspector->toPlainText()));
        // Dynamic MIG: the layouts stay each GPU's own.
        editor->findChild<QCheckBox*>(QStringLiteral("migDynamic"))->setChecked(true);
        QVERIFY(groupOfNode()->migDynamic);
        QCOMPARE(groupOfNode()->migLayouts, perGpu.migLayouts);
        // A layout set in the editor goes on every GPU.
        QVERIFY(editor->applyLayoutText(QStringLiteral("7g.80gb")));
        QVERIFY(groupOfNode()->migLayouts.empty());
        QCOMPARE(groupOfNode()->migLayout, std::string("7g.80gb@0"));
        f.doc.undoStack()->undo();
        QCOMPARE(groupOfNode()->migLayouts, perGpu.migLayouts);
    }
};

GPUPLAN_APP_TEST("test_gpu_sharing", GpuSharingTest);
#include "test_gpu_sharing.moc"
