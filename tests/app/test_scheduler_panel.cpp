// QtTest, offscreen: the Scheduler & run dock drives the scenario's scheduler and run
// settings, follows undo, and stays in step with the toolbar's placement box. The default
// preset runs 7 days (604800 s) sampled every 600 s.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>

#include "app_test_support.hpp"
#include "scheduler_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

std::string json(const ScenarioDocument& doc) {
    return scenarioToJson(doc.scenario());
}

/// Types a value into a spin box and leaves it, as a user does.
void enter(QDoubleSpinBox* box, double value) {
    box->setValue(value);
    emit box->editingFinished();
}

}  // namespace

class SchedulerPanelTest : public QObject {
    Q_OBJECT
private slots:
    void horizonEditChangesTheResultsHorizon() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QCOMPARE(f.window->results()->horizonS, 604800.0);
        QCOMPARE(panel->horizonUnitBox()->currentIndex(), 1);  // whole days read in days
        QCOMPARE(panel->horizonBox()->value(), 7.0);
        const std::string before = json(f.doc);
        // 2 days = 172800 s.
        enter(panel->horizonBox(), 2);
        QCOMPARE(f.doc.scenario().horizonS, 172800.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->horizonS, 172800.0);
        // In hours the same horizon reads 48 h; 36 h = 129600 s.
        panel->horizonUnitBox()->setCurrentIndex(0);
        QCOMPARE(panel->horizonBox()->value(), 48.0);
        enter(panel->horizonBox(), 36);
        QCOMPARE(f.doc.scenario().horizonS, 129600.0);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(panel->horizonBox()->value(), 168.0);
    }

    void leavingABoxUnchangedIsNoEdit() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        // 100000 s reads as 1.2 d and 10.0 min intervals as they are; leaving the boxes
        // must not round the horizon to 1.2 d (103680 s).
        Scenario s = f.doc.scenario();
        s.horizonS = 100000;
        QCOMPARE(f.doc.edit(s, QStringLiteral("odd horizon")), QString());
        QCOMPARE(panel->horizonBox()->value(), 1.2);
        emit panel->horizonBox()->editingFinished();
        emit panel->sampleIntervalMinutesBox()->editingFinished();
        QCOMPARE(f.doc.scenario().horizonS, 100000.0);
        QCOMPARE(f.doc.undoStack()->count(), 1);
    }

    void invalidHorizonChangesNothingAndSaysWhy() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        const std::string before = json(f.doc);
        enter(panel->horizonBox(), 0);
        // In words, not the file's pointer ("/horizonS").
        QVERIFY2(panel->refusal().startsWith("horizon: "), qPrintable(panel->refusal()));
        QVERIFY(f.status().contains("horizon: "));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QCOMPARE(panel->horizonBox()->value(), 7.0);  // the box shows the document again
        QVERIFY(!panel->setHorizonS(-3600).isEmpty());
        QCOMPARE(json(f.doc), before);
        // The next good edit clears the reason.
        enter(panel->horizonBox(), 3);
        QCOMPARE(panel->refusal(), QString());
    }

    void placementFollowsTheToolbarBothWays() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QComboBox* toolbar = f.window->placementBox();
        const std::string before = json(f.doc);
        panel->placementBox()->setCurrentIndex(1);
        emit panel->placementBox()->activated(1);
        QCOMPARE(f.doc.scenario().scheduler.placement, PlacementPolicy::Spread);
        QCOMPARE(toolbar->currentIndex(), 1);
        toolbar->setCurrentIndex(2);  // the toolbar edits the document too
        QCOMPARE(f.doc.scenario().scheduler.placement, PlacementPolicy::TopologyAware);
        QCOMPARE(panel->placementBox()->currentIndex(), 2);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(toolbar->currentIndex(), 0);
        QCOMPARE(panel->placementBox()->currentIndex(), 0);
    }

    void queueBackfillSeedAndSampling() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        // One sample per interval over the horizon: 604800 s / 600 s = 1008.
        QCOMPARE(f.window->results()->sampleTimesS.size(), std::size_t(1008));
        panel->backfillBox()->setCurrentIndex(1);
        emit panel->backfillBox()->activated(1);
        QCOMPARE(f.doc.scenario().scheduler.backfill, BackfillMode::None);
        panel->queueOrderBox()->setCurrentIndex(1);
        emit panel->queueOrderBox()->activated(1);
        QCOMPARE(f.doc.scenario().scheduler.queueOrder, QueueOrder::PrioritySmallestFirst);
        panel->seedEdit()->setText(QStringLiteral("7"));
        emit panel->seedEdit()->editingFinished();
        QCOMPARE(f.doc.scenario().seed, std::uint64_t(7));
        // Every 5 min instead of 10: 604800 s / 300 s = 2016 samples.
        enter(panel->sampleIntervalMinutesBox(), 5);
        QCOMPARE(f.doc.scenario().sampleIntervalS, 300.0);
        QCOMPARE(f.doc.undoStack()->count(), 4);
        // Four edits in a row: the debounced run of the last one is the one to wait for.
        QTRY_COMPARE_WITH_TIMEOUT(f.window->results()->sampleIntervalS, 300.0, 15000);
        QCOMPARE(f.window->results()->sampleTimesS.size(), std::size_t(2016));
    }
};

QTEST_MAIN(SchedulerPanelTest)
#include "test_scheduler_panel.moc"
