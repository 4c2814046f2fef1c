// QtTest, offscreen: the application's promises — drops, refusals, undo, the scrubber, the
// debounce and latest-wins runs, a responsive event loop, safe files, baselines, exports.
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "editors/inspector.hpp"
#include "editors/time_scrubber.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "kpis/kpi_strip.hpp"
#include "shell/export_controller.hpp"
#include "shell/main_window.hpp"
#include "tables/compare_table_model.hpp"
#include "tables/pending_table_model.hpp"
#include "topology/topology_view.hpp"
#include "workload/scheduler_panel.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

class AppTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void templateDroppedOnNodeRunsThere() {
        Fixture f;
        const int node = f.nodeIndex("pod-a-rack2-node1");
        f.window->scrubber()->setTime(4 * 3600);
        const std::size_t jobsBefore = f.doc.scenario().jobs.size();
        f.dropOnNode(node, ui::kTemplateMime, "ready:notebook");
        // The scenario holds a new explicit job pinned to that node, submitted at t.
        QCOMPARE(f.doc.scenario().jobs.size(), jobsBefore + 1);
        const JobDef& added = f.doc.scenario().jobs.back();
        QCOMPARE(added.name, std::string("drop-notebook-1"));
        QCOMPARE(added.traits.pin.level, PinLevel::Node);
        QCOMPARE(added.traits.pin.target, std::string("pod-a-rack2-node1"));
        QCOMPARE(added.submitS, 4 * 3600.0);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY(f.doc.undoStack()->undoText().startsWith("Drop notebook"));
        // The re-run contains it, running on that node.
        QVERIFY(f.waitForResults());
        std::uint32_t index = 0;
        const JobRecord* job = findJob(*f.window->results(), "drop-notebook-1", &index);
        QVERIFY(job);
        QVERIFY(job->firstStartS >= 4 * 3600.0);
        const RunSegment& seg = f.window->results()->segments[job->lastSegment];
        QCOMPARE(static_cast<int>(f.window->results()->placementOf(seg)[0].node), node);
        // And the topology shows it there once the scrubber reaches its start.
        f.window->scrubber()->setTime(job->firstStartS + 1);
        const auto& snap = f.window->topology()->snapshot();
        const int first = f.window->results()->firstGpuOfNode[node];
        bool shown = false;
        for (int g = 0; g < 8; ++g)
            shown |= snap.gpuJob[first + g] == static_cast<int>(index);
        QVERIFY(shown);
    }

    void dropThatCannotFitIsRefused() {
        Fixture f;
        const Scenario before = f.doc.scenario();
        // 64 GPUs pinned to one 8-GPU node can never fit: the reservation layer.
        f.dropOnNode(f.nodeIndex("pod-a-rack0-node0"), ui::kTemplateMime, "ready:pretrain");
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QVERIFY(!f.doc.isModified());
        QVERIFY2(f.status().contains("Refused (Reservation layer)"), qPrintable(f.status()));
        QVERIFY2(f.status().contains("node pod-a-rack0-node0 holds 1 of the 8 pods"),
                 qPrintable(f.status()));
    }

    void undoAndRedoRestoreExactly() {
        Fixture f;
        const Scenario s0 = f.doc.scenario();
        f.dropOnNode(f.nodeIndex("pod-b-rack1-node2"), ui::kTemplateMime, "ready:fine-tune");
        const Scenario s1 = f.doc.scenario();
        f.window->setPlacementPolicy(PlacementPolicy::TopologyAware);
        const Scenario s2 = f.doc.scenario();
        QVERIFY(!(s1 == s0));
        QVERIFY(!(s2 == s1));
        QCOMPARE(f.doc.undoStack()->count(), 2);
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == s1);
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == s0);
        QVERIFY(!f.doc.isModified());
        f.doc.undoStack()->redo();
        QVERIFY(f.doc.scenario() == s1);
        f.doc.undoStack()->redo();
        QVERIFY(f.doc.scenario() == s2);
        QVERIFY(f.doc.isModified());
    }

    void movingAPinnedJobIsOneUndoStep() {
        Fixture f;
        f.dropOnNode(f.nodeIndex("pod-a-rack0-node0"), ui::kTemplateMime, "ready:inference");
        const QByteArray name = QByteArray::fromStdString(f.doc.scenario().jobs.back().name);
        f.dropOnNode(f.nodeIndex("pod-b-rack2-node3"), ui::kMoveJobMime, name);
        QCOMPARE(f.doc.scenario().jobs.back().traits.pin.target, std::string("pod-b-rack2-node3"));
        QVERIFY(f.doc.undoStack()->undoText().startsWith("Move " + QString::fromUtf8(name)));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().jobs.back().traits.pin.target, std::string("pod-a-rack0-node0"));
    }

    void scrubberChangesWhatTheTopologyShows() {
        Fixture f;
        f.window->scrubber()->setTime(0);
        const std::vector<std::int32_t> atStart = f.window->topology()->snapshot().gpuJob;
        f.window->scrubber()->setTime(3 * 86400);
        const ClusterSnapshot& later = f.window->topology()->snapshot();
        QCOMPARE(later.timeS, 3 * 86400.0);
        QVERIFY(later.gpuJob != atStart);
        QVERIFY(!later.runningJobs.empty());
        // Rack pod-b-rack3 is delivered on day 2: not Ready at 0, Ready at day 3.
        const int late = f.nodeIndex("pod-b-rack3-node0");
        QCOMPARE(later.nodeStates[late], NodeState::Ready);
        f.window->scrubber()->setTime(0);
        QCOMPARE(f.window->topology()->snapshot().nodeStates[late], NodeState::Provisioning);
    }

    void rapidEditsMergeAndStaleResultsNeverArrive() {
        Fixture f;
        SimulationController& sim = f.window->simulation();
        const quint64 runsBefore = sim.runsStarted();
        QList<quint64> applied;
        connect(&f.window->session(), &Session::resultsApplied, this, [&] {
            // Whatever reaches the widgets is the newest run started.
            QCOMPARE(f.window->appliedGeneration(), sim.generation());
            applied << f.window->appliedGeneration();
        });
        // The debounce window is held open through the burst (however slow the machine is),
        // then closed: the first edit runs at once (unless a window was open already), the
        // other nineteen merge into one trailing run.
        sim.setDebounceMs(3600 * 1000);
        for (int i = 0; i < 20; ++i)
            f.window->setPlacementPolicy(i % 2 ? PlacementPolicy::Pack : PlacementPolicy::Spread);
        sim.setDebounceMs(0);
        QTRY_VERIFY_WITH_TIMEOUT(
            !sim.isRunning() && applied.size() >= 1 && applied.last() == sim.generation(), 60000);
        QCoreApplication::processEvents();  // the closed window merges nothing more
        QVERIFY(!sim.isRunning());
        QVERIFY2(sim.runsStarted() - runsBefore <= 2,
                 qPrintable(QString::number(sim.runsStarted() - runsBefore)));
        QVERIFY(applied.size() <= 2);
        // The results on screen are those of the last edit (i = 19: pack), as an independent
        // run of that scenario gives them.
        QCOMPARE(f.doc.scenario().scheduler.placement, PlacementPolicy::Pack);
        QCOMPARE(f.window->results()->fingerprint,
                 simulate(f.doc.scenario(), RunOptions{}).fingerprint);
    }

    void staleRunIsDropped() {
        SimulationController sim;
        QSignalSpy ready(&sim, &SimulationController::resultsReady);
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/synthetic-100k.json");
        sim.runNow(doc.scenario());  // long
        ScenarioDocument small(catalog(), LoadOptions{});
        small.load(kPresets + "/scenarios/default.json");
        sim.runNow(small.scenario());  // supersedes it at once
        QVERIFY(ready.wait(15000));
        QTest::qWait(300);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.at(0).at(1).value<quint64>(), quint64(2));
        QCOMPARE(ready.at(0).at(0).value<std::shared_ptr<const Results>>()->fleet.totalGpus, 256);
    }

    void aRunNeverHoldsTheEventLoop() {
        // Whatever the engine's speed: starting a run returns at once, timers keep firing while
        // it works, and its results arrive through the event loop.
        SimulationController sim;
        QSignalSpy ready(&sim, &SimulationController::resultsReady);
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/fleet-10k.json");
        QList<qint64> ticks;
        QElapsedTimer clock;
        clock.start();
        QTimer tick;
        tick.setInterval(10);
        connect(&tick, &QTimer::timeout, this, [&] {
            if (sim.isRunning()) ticks << clock.elapsed();
        });
        tick.start();
        sim.runNow(doc.scenario());
        // Returned before the run ended: results only ever arrive through the event loop.
        QVERIFY(sim.isRunning());
        QCOMPARE(ready.count(), 0);
        QVERIFY(ready.wait(120000));
        // The GUI thread's timers fired while the run worked (how often is the benchmarks'
        // business, not a test's: a busy machine stretches any gap).
        QVERIFY2(!ticks.isEmpty(), "no timer fired while the 10k-GPU run worked");
    }

    void aLongRunShowsProgressAndCanBeCancelled() {
        // "Long" is a threshold (0 here), so the promise holds however fast the engine is.
        SimulationController sim;
        sim.setLongRunMs(0);
        QSignalSpy longRun(&sim, &SimulationController::longRun);
        QSignalSpy progress(&sim, &SimulationController::progress);
        QSignalSpy ready(&sim, &SimulationController::resultsReady);
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/synthetic-100k.json");
        sim.runNow(doc.scenario());
        QTRY_VERIFY_WITH_TIMEOUT(longRun.count() >= 1 || ready.count() == 1, 10000);
        if (ready.count() == 0) {
            QCOMPARE(longRun.first().at(0).toBool(), true);
            QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1 || ready.count() == 1, 10000);
        }
        // Cancelled: it stops at once, the progress goes away and no results arrive.
        sim.runNow(doc.scenario());
        QTRY_VERIFY_WITH_TIMEOUT(longRun.count() >= 1 && longRun.last().at(0).toBool(), 10000);
        const int readyBefore = static_cast<int>(ready.count());
        sim.cancel();
        QVERIFY(!sim.isRunning());
        QCOMPARE(longRun.last().at(0).toBool(), false);
        QTest::qWait(300);
        QCOMPARE(static_cast<int>(ready.count()), readyBefore);
    }

    void aLongRunShowsItsResultsSoFar() {
        // Snapshots at every chance (each 4,096 engine steps): the default preset sampled every
        // 30 s over its horizon takes many more steps than that, so some arrive before the end.
        Fixture f;
        Scenario s = f.doc.scenario();
        s.sampleIntervalS = 30;
        SimulationController& sim = f.window->simulation();
        sim.setPartialEveryS(0);
        QSignalSpy partial(&sim, &SimulationController::partialResultsReady);
        bool shownWhileRunning = false, pinRefused = false;
        connect(&sim, &SimulationController::partialResultsReady, this, [&] {
            // The window drew it (its slot was connected first) and will not pin it.
            shownWhileRunning |= f.window->results()->partial;
            f.window->session().pinBaseline();
            pinRefused |= !f.window->baseline() && f.status().contains("still going");
        });
        sim.runNow(s);
        QVERIFY(f.waitForResults(60000));
        QVERIFY(partial.count() >= 1);
        QVERIFY(shownWhileRunning);
        QVERIFY(pinRefused);
        // The finished run replaces them, and is the run a snapshot-free engine gives.
        QVERIFY(!f.window->results()->partial);
        QCOMPARE(f.window->results()->fingerprint, simulate(s).fingerprint);
    }

    void malformedFileLeavesTheDocumentUntouched() {
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        Scenario edited = doc.scenario();
        edited.seed = 99;
        doc.edit(edited, "seed");
        const Scenario before = doc.scenario();
        const QString pathBefore = doc.filePath();
        for (const char* bad :
             {"truncated.json", "unknown-key.json", "negative-count.json", "deep-nesting.json"}) {
            QVERIFY_THROWS_EXCEPTION(InputError, doc.load(kMalformed + "/" + bad));
            QVERIFY(doc.scenario() == before);
            QCOMPARE(doc.filePath(), pathBefore);
            QCOMPARE(doc.undoStack()->count(), 1);
            QVERIFY(doc.isModified());
        }
    }

    void saveThenOpenRoundTrips() {
        QTemporaryDir dir;
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        Scenario edited = doc.scenario();
        edited.scheduler.placement = PlacementPolicy::Spread;
        doc.edit(edited, "placement");
        const QString path = dir.filePath("saved.json");
        doc.save(path);
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.filePath(), path);
        ScenarioDocument reopened(catalog(), LoadOptions{});
        reopened.load(path);
        QVERIFY(reopened.scenario() == doc.scenario());
    }

    void selectionDoesNotOutliveItsFleet() {
        Fixture f;
        // Select GPU 7 of the last node, then open a scenario whose nodes have 4 GPUs.
        ui::TopologyHit gpu;
        gpu.kind = ui::TopologyHit::Kind::Gpu;
        gpu.node = 31;
        gpu.slot = 7;
        f.window->topology()->setSelection(gpu);
        emit f.window->topology()->selectionChanged(gpu);
        QTemporaryDir dir;
        Scenario small = f.doc.scenario();
        small.pods[0].racks[0].nodes[0].nodeType = "gb200-nvl72-tray";  // 4 GPUs a node
        small.nodeTypes.push_back(*f.doc.catalog().findNodeType("gb200-nvl72-tray"));
        small.gpuModels.push_back(*f.doc.catalog().findGpu("gb200"));
        small.pricing.reset();  // the preset's prices (Lambda's) have none for GB200
        saveScenarioAtomic(small, dir.filePath("small.json").toStdString());
        f.doc.load(dir.filePath("small.json"));
        QVERIFY(f.waitForResults());  // GPU 7 of a 4-GPU node was read before (ASan found it)
        QCOMPARE(f.window->topology()->selection().kind, ui::TopologyHit::Kind::None);
    }

    void dropOnAnOutdatedPictureIsRefused() {
        Fixture f;
        // The screen shows the default fleet; the document becomes the 10k fleet, and its run
        // is cancelled before it finishes.
        f.doc.load(kPresets + "/scenarios/fleet-10k.json");
        f.window->simulation().cancel();
        const Scenario before = f.doc.scenario();
        f.dropOnNode(31, ui::kTemplateMime, "ready:notebook");  // pod-b-rack3-node3 on screen
        QVERIFY(f.doc.scenario() == before);
        QVERIFY2(f.status().contains("not the open scenario's"), qPrintable(f.status()));
    }

    void aMovedJobThatStaysPutIsNoEdit() {
        Fixture f;
        f.dropOnNode(f.nodeIndex("pod-a-rack0-node0"), ui::kTemplateMime, "ready:inference");
        QVERIFY(f.waitForResults());
        const QByteArray name = QByteArray::fromStdString(f.doc.scenario().jobs.back().name);
        f.dropOnNode(f.nodeIndex("pod-a-rack0-node0"), ui::kMoveJobMime, name);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY2(f.status().contains("already on"), qPrintable(f.status()));
    }

    void droppedJobsNeverShareGeneratedNames() {
        Fixture f;
        f.dropOnNode(f.nodeIndex("pod-a-rack0-node1"), ui::kTemplateMime, "class:notebook");
        QCOMPARE(f.doc.scenario().jobs.back().name, std::string("drop-notebook-1"));
        // A hand-written file may not take a generated name either.
        Scenario clash = f.doc.scenario();
        clash.jobs.back().name = "notebook-3";
        QVERIFY_THROWS_EXCEPTION(InputError, validateScenario(clash, f.doc.catalog()));
    }

    void anEditDuringARunMakesItsResultsStale() {
        SimulationController sim;
        QSignalSpy ready(&sim, &SimulationController::resultsReady);
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        Scenario first = doc.scenario(), second = doc.scenario();
        second.seed = 4242;
        sim.request(first);   // runs at once
        sim.request(second);  // inside the debounce window: the first run is out of date
        QVERIFY(ready.wait(5000));
        QTest::qWait(300);
        QCOMPARE(ready.count(), 1);
        const auto results = ready.at(0).at(0).value<std::shared_ptr<const Results>>();
        RunOptions o;
        QCOMPARE(results->fingerprint, simulate(second, o).fingerprint);
    }

    void whatIfResultsAreNotKeptAfterTheDrag() {
        Fixture f;
        ui::TopologyHit target;
        target.kind = ui::TopologyHit::Kind::Node;
        target.node = f.nodeIndex("pod-a-rack1-node0");
        QSignalSpy ready(&f.window->drops().whatIf(), &SimulationController::resultsReady);
        f.window->drops().hover(DropRequest{target, ui::kTemplateMime, "ready:notebook", 3600, {}});
        QVERIFY(ready.wait(5000));
        QVERIFY(f.window->drops().whatIf().latest());
        f.window->drops().hoverEnded();
        QVERIFY(!f.window->drops().whatIf().latest());
    }

    void saveAsElsewhereKeepsTracesFindable() {
        // A scenario whose trace sits next to it; Save As into another folder must still open.
        QTemporaryDir here, there;
        QFile csv(here.filePath("mini.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write(
            "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,aa\n");
        csv.close();
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        Scenario withTrace = doc.scenario();
        TraceDef trace;
        trace.file = "mini.csv";
        withTrace.traces = {trace};
        saveScenarioAtomic(withTrace, here.filePath("s.json").toStdString());
        doc.load(here.filePath("s.json"));
        doc.save(there.filePath("copy.json"));
        ScenarioDocument reopened(catalog(), LoadOptions{});
        reopened.load(there.filePath("copy.json"));
        QCOMPARE(reopened.scenario().traces.size(), std::size_t(1));
        QVERIFY(reopened.scenario().traces[0].data);
    }

    void savingRemovesTheAutosave() {
        Fixture f;
        QTemporaryDir dir;
        f.doc.save(dir.filePath("saved.json"));  // the document has a file now
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        QVERIFY(f.window->files().autosaveNow());
        QVERIFY(QFileInfo::exists(f.window->files().autosavePath()));
        QVERIFY(f.window->files().save());  // File ▸ Save: no dialog for a document with a file
        QVERIFY(!f.doc.isModified());
        QVERIFY(!QFileInfo::exists(f.window->files().autosavePath()));
        QVERIFY(f.window->files().orphanedAutosaves().isEmpty());
    }

    void baselineGivesDeltasAndComparison() {
        Fixture f;
        f.window->session().pinBaseline();
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        QVERIFY(f.waitForResults());
        const QString allocation = f.window->kpiStrip()->text("allocation_mean");
        // "allocation 66.2 % (+0.4 pp)": the value and a signed delta in percentage points.
        QVERIFY2(QRegularExpression(R"(^allocation \d+\.\d % \([+−±]\d+\.\d pp\)$)")
                     .match(allocation)
                     .hasMatch(),
                 qPrintable(allocation));
        auto* compare = f.window->findChild<ui::CompareTableModel*>();
        QVERIFY(compare->rowCount() > 10);
        QVERIFY(
            !compare
                 ->data(compare->index(0, ui::CompareTableModel::BaselineColumn), Qt::DisplayRole)
                 .toString()
                 .isEmpty());
        f.window->session().clearBaseline();
        QVERIFY(!f.window->kpiStrip()->text("allocation_mean").contains('('));
    }

    void pendingListShowsLayersAndReasons() {
        Fixture f;
        // Day 1, 15:30 has a queue in the default preset (see the screenshot).
        f.window->scrubber()->setTime(15.5 * 3600);
        ui::PendingTableModel* pending = f.window->pendingModel();
        QVERIFY(pending->rowCount() > 0);
        const QString reason =
            pending->data(pending->index(0, ui::PendingTableModel::ReasonColumn), Qt::DisplayRole)
                .toString();
        QVERIFY2(reason.contains("nodes are available") || reason.startsWith("Workload"),
                 qPrintable(reason));
        const QString layer =
            pending->data(pending->index(0, ui::PendingTableModel::LayerColumn), Qt::DisplayRole)
                .toString();
        QVERIFY(
            QStringList({"Reservation", "Provisioning", "Scheduling", "Workload"}).contains(layer));
    }

    void dragHoverTellsWhenTheJobWouldStart() {
        Fixture f;
        QSignalSpy feedback(&f.window->drops(), &DropController::feedback);
        ui::TopologyHit target;
        target.kind = ui::TopologyHit::Kind::Node;
        target.node = f.nodeIndex("pod-a-rack1-node0");
        f.window->drops().hover(
            DropRequest{target, ui::kTemplateMime, "ready:notebook", 2 * 3600, {}});
        QVERIFY(feedback.count() >= 1);
        QVERIFY(feedback.last().at(1).toBool());  // fits
        QTRY_VERIFY_WITH_TIMEOUT(feedback.last().at(2).toString().contains("would start"), 5000);
        // Nothing was changed by looking.
        QCOMPARE(f.doc.undoStack()->count(), 0);
    }

    void exportsWriteResultsAndCharts() {
        Fixture f;
        QTemporaryDir dir;
        exportResults(*f.window->results(), dir.path());
        for (const char* file : {"series.csv", "allocation.csv", "jobs.csv", "results.json"})
            QVERIFY2(QFileInfo(dir.filePath(file)).size() > 100, file);
        const QStringList png =
            exportCharts(f.window->charts()->charts(), dir.filePath("png"), "png");
        const QStringList svg =
            exportCharts(f.window->charts()->charts(), dir.filePath("svg"), "svg");
        QCOMPARE(png.size(), 6);  // the Cost chart too
        QCOMPARE(svg.size(), 6);
        QImage image(png.first());
        QCOMPARE(image.size(), QSize(1200, 600));
        QFile svgFile(svg.first());
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
    }

    void baselineBelongsToItsDocument() {
        Fixture f;
        f.window->session().pinBaseline();
        QVERIFY(f.window->baseline());
        // Another scenario opens: the old one's baseline must not be drawn over it.
        QTemporaryDir dir;
        Scenario other = f.doc.scenario();
        other.name = "other-week";
        other.seed = 7;
        saveScenarioAtomic(other, dir.filePath("other.json").toStdString());
        QVERIFY(f.window->files().openFile(dir.filePath("other.json")));
        QVERIFY(!f.window->baseline());
        // Until its own results are in, the screen shows the old scenario's: not pinnable.
        f.window->session().pinBaseline();
        QVERIFY(!f.window->baseline());
        QVERIFY(f.waitForResults());
        QVERIFY(!f.window->kpiStrip()->text("allocation_mean").contains('('));
        for (ui::ChartPanel* chart : f.window->charts()->charts())
            QVERIFY(!chart->drawnTexts().join(' ').contains("baseline"));
        // New from preset clears it as well.
        f.window->session().pinBaseline();
        QVERIFY(f.window->baseline());
        QVERIFY(f.window->files().newFromPreset(kPresets + "/scenarios/default.json"));
        QVERIFY(!f.window->baseline());
    }

    void aKeptBaselineIsLabelledWithItsScenario() {
        Fixture f;
        f.window->setKeepBaselineAcrossScenarios(true);
        f.window->session().pinBaseline();
        const QString name = f.window->session().baselineName();
        QCOMPARE(name, f.doc.title());
        QTemporaryDir dir;
        Scenario other = f.doc.scenario();
        other.name = "other-week";
        other.seed = 7;
        saveScenarioAtomic(other, dir.filePath("other.json").toStdString());
        QVERIFY(f.window->files().openFile(dir.filePath("other.json")));
        QVERIFY(f.waitForResults());
        QVERIFY(f.window->baseline());
        QCOMPARE(f.window->session().baselineName(), name);
        const QString legend = f.window->charts()->charts()[0]->drawnTexts().join(' ');
        QVERIFY2(legend.contains("baseline") && legend.contains(name), qPrintable(legend));
    }

    void pendingListFollowsTheKeyboard() {
        Fixture f;
        f.window->scrubber()->setTime(15.5 * 3600);
        auto* view = f.window->findChild<QTableView*>("pendingView");
        QVERIFY(view);
        QVERIFY(view->model()->rowCount() >= 2);
        auto* inspector = f.window->findChild<ui::Inspector*>();
        view->setFocus();
        view->selectionModel()->setCurrentIndex(view->model()->index(0, 0),
                                                QItemSelectionModel::ClearAndSelect);
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex().row(), 1);
        const QString job =
            view->model()->index(1, ui::PendingTableModel::JobColumn).data().toString();
        QVERIFY2(inspector->toPlainText().startsWith(job),
                 qPrintable(job + " / " + inspector->toPlainText().left(80)));
        QTest::keyClick(view, Qt::Key_Up);
        const QString first =
            view->model()->index(0, ui::PendingTableModel::JobColumn).data().toString();
        QVERIFY(inspector->toPlainText().startsWith(first));
    }

    void undoAndRedoSayWhatTheyDo() {
        Fixture f;
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        QAction* undo = nullptr;
        for (QAction* a : f.window->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Undo)) undo = a;
        QVERIFY(undo);
        QCOMPARE(undo->text().remove('&'), QStringLiteral("Undo Placement: spread"));
        auto* undoButton = f.window->findChild<QToolButton*>("undoButton");
        auto* redoButton = f.window->findChild<QToolButton*>("redoButton");
        QVERIFY(undoButton && redoButton);
        QCOMPARE(undoButton->text(), QStringLiteral("Undo Placement: spread"));
        QCOMPARE(undoButton->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
        f.doc.undoStack()->undo();
        QCOMPARE(redoButton->text(), QStringLiteral("Redo Placement: spread"));
        QVERIFY(!undoButton->isEnabled());
    }

    void demandStepsInABurstAreOneUndoStep() {
        Fixture f;
        const std::string before = scenarioToJson(f.doc.scenario());
        DemandSpinBox* demand = f.window->workload()->demandBox();
        demand->stepUp();  // 1.0 → 1.1
        demand->stepUp();  // → 1.2, within the merge window: the same undo step
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.doc.scenario().demandMultiplier, 1.2);
        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        // Another edit between two steps keeps them apart: three undo steps.
        f.doc.undoStack()->clear();
        demand->stepUp();
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        demand->stepUp();
        QCOMPARE(f.doc.undoStack()->count(), 3);
    }

    void bothPlacementBoxesShareOneEditThatReportsRefusals() {
        Fixture f;
        // A scenario the rules refuse (opened as is, e.g. recovered): every edit of it is
        // refused, the placement one too, and the status bar must say why.
        Scenario broken = f.doc.scenario();
        broken.jobClasses[0].durationS.median = -10800;
        f.doc.reset(broken, QString());
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QVERIFY2(f.status().startsWith("Refused: "), qPrintable(f.status()));
        QVERIFY2(f.window->schedulerPanel()->refusal().contains("-10800"),
                 qPrintable(f.window->schedulerPanel()->refusal()));
        // Both boxes show what the document still holds.
        const int held = static_cast<int>(f.doc.scenario().scheduler.placement);
        QCOMPARE(f.window->placementBox()->currentIndex(), held);
        QCOMPARE(f.window->schedulerPanel()->placementBox()->currentIndex(), held);
        // The toolbar box goes through the same edit.
        f.window->placementBox()->setCurrentIndex(static_cast<int>(PlacementPolicy::TopologyAware));
        QCOMPARE(f.window->placementBox()->currentIndex(), held);
        QVERIFY(f.status().startsWith("Refused: "));
    }

    void aPendingRowBringsTheInspectorToTheFront() {
        Fixture f;
        f.window->scrubber()->setTime(15.5 * 3600);
        auto* view = f.window->findChild<QTableView*>("pendingView");
        QVERIFY(view && view->model()->rowCount() >= 2);
        auto* inspectorDock = f.window->findChild<QDockWidget*>("inspector");
        auto* schedulerDock = f.window->findChild<QDockWidget*>("scheduler");
        QVERIFY(inspectorDock && schedulerDock);
        // A dock behind another tab is moved out of the window: nothing of it shows.
        auto inFront = [&] { return !inspectorDock->visibleRegion().isEmpty(); };
        schedulerDock->raise();  // the "Scheduler and run" tab in front of the Inspector's
        QTRY_VERIFY(!inFront());
        const QModelIndex row = view->model()->index(1, ui::PendingTableModel::JobColumn);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(row).center());
        QTRY_VERIFY(inFront());
        // A keyboard move does the same.
        schedulerDock->raise();
        QTRY_VERIFY(!inFront());
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Up);
        QTRY_VERIFY(inFront());
    }

    void theStatusBarSaysWhatUndoAndRedoDid() {
        Fixture f;
        QAction *undo = nullptr, *redo = nullptr;
        for (QAction* a : f.window->findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(QKeySequence::Undo)) undo = a;
            if (a->shortcut() == QKeySequence(QKeySequence::Redo)) redo = a;
        }
        QVERIFY(undo && redo);
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node1"), ui::kTemplateMime, "ready:notebook");
        QCOMPARE(f.doc.undoStack()->count(), 1);
        const QString dropText = f.doc.undoStack()->text(0);
        QCOMPARE(f.status(), dropText);
        undo->trigger();
        QCOMPARE(f.doc.undoStack()->index(), 0);
        QCOMPARE(f.status(), QStringLiteral("Undid ") + dropText);
        redo->trigger();
        QCOMPARE(f.status(), QStringLiteral("Redid ") + dropText);
    }

    void theWorkloadPanelsRefusalGoesWithTheNextGoodEditOrUndo() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        auto refuse = [&] {
            panel->commit(setDemandMultiplier(f.doc.scenario(), 0));
            QVERIFY(!panel->reason().isEmpty());
        };
        refuse();
        f.window->setPlacementPolicy(PlacementPolicy::Spread);  // a good edit elsewhere
        QCOMPARE(panel->reason(), QString());
        refuse();
        f.doc.undoStack()->undo();
        QCOMPARE(panel->reason(), QString());
    }

    void aChartClickMovesTheScrubber() {
        Fixture f;
        ui::ChartPanel* chart = f.window->charts()->charts()[0];
        f.window->scrubber()->setTime(0);
        const double t = 2.5 * 86400;
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->viewportPosition(t));
        const double perPixelS = f.window->results()->horizonS / chart->viewport()->width();
        QVERIFY2(std::fabs(f.window->scrubber()->time() - t) <= 2 * perPixelS,
                 qPrintable(QString::number(f.window->scrubber()->time())));
        QCOMPARE(f.window->topology()->time(), f.window->scrubber()->time());
    }
};

GPUPLAN_APP_TEST("test_app", AppTest);
#include "test_app.moc"
