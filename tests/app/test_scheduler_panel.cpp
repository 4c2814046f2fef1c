// QtTest, offscreen: the Scheduler & run dock drives the scenario's scheduler and run
// settings, follows undo, and stays in step with the toolbar's placement box. The default
// preset runs 7 days (604800 s) sampled every 600 s, without preemption or quotas; the
// scheduler's defaults are grace 0 s, thrashing at 3 preemptions, starved after 86400 s.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "kpis/kpi_strip.hpp"
#include "tables/compare_table_model.hpp"
#include "workload/scheduler_panel.hpp"

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
void enter(QSpinBox* box, int value) {
    box->setValue(value);
    emit box->editingFinished();
}

/// Picks an item of a combo box, as a click does.
void choose(QComboBox* box, int index) {
    box->setCurrentIndex(index);
    emit box->activated(index);
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

    void preemptionAndGraceAreTwoUndoSteps() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QDoubleSpinBox* grace = panel->preemptionGraceBox();
        const std::string before = json(f.doc);
        QCOMPARE(panel->preemptionBox()->currentIndex(), 0);
        QVERIFY(!grace->isEnabled());  // nothing can be preempted: no grace to give
        choose(panel->preemptionBox(), 1);
        QCOMPARE(f.doc.scenario().scheduler.preemption, PreemptionMode::Priority);
        QVERIFY(grace->isEnabled());
        enter(grace, 30);
        QCOMPARE(f.doc.scenario().scheduler.preemptionGraceS, 30.0);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        QCOMPARE(f.doc.undoStack()->text(0), QStringLiteral("Preemption: priority"));
        QCOMPARE(f.doc.undoStack()->text(1), QStringLiteral("Grace period 30 s"));
        // The first undo takes back the grace only.
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().scheduler.preemptionGraceS, 0.0);
        QCOMPARE(f.doc.scenario().scheduler.preemption, PreemptionMode::Priority);
        QCOMPARE(grace->value(), 0.0);
        QVERIFY(grace->isEnabled());
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(panel->preemptionBox()->currentIndex(), 0);
        QVERIFY(!grace->isEnabled());
        f.doc.undoStack()->redo();  // redo follows too
        QCOMPARE(panel->preemptionBox()->currentIndex(), 1);
        QVERIFY(grace->isEnabled());
    }

    void graceBoxFollowsQuotaReclaimToo() {
        // shared-cohort: priority preemption, and a quota reclaiming from borrowers (Any).
        Fixture f(QStringLiteral("shared-cohort.json"));
        SchedulerPanel* panel = f.window->schedulerPanel();
        QDoubleSpinBox* grace = panel->preemptionGraceBox();
        QCOMPARE(panel->preemptionBox()->currentIndex(), 1);
        QVERIFY(grace->isEnabled());
        // Off, reclaim still preempts, and its victims get the grace period.
        choose(panel->preemptionBox(), 0);
        QCOMPARE(f.doc.scenario().scheduler.preemption, PreemptionMode::Off);
        QVERIFY(grace->isEnabled());
        Scenario s = f.doc.scenario();
        for (QuotaDef& q : s.quotas) {
            q.reclaimWithinCohort = ReclaimPolicy::Never;
            q.withinTeam = WithinTeamPolicy::Never;
        }
        QCOMPARE(f.doc.edit(s, QStringLiteral("no reclaim")), QString());
        QVERIFY(!grace->isEnabled());
    }

    void thrashingAndStarvationInTheirUnits() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QCOMPARE(panel->thrashingPreemptionsBox()->value(), 3);
        QCOMPARE(panel->starvationHoursBox()->value(), 24.0);  // 86400 s / 3600
        // They apply to any eviction history: open with preemption off.
        QVERIFY(panel->thrashingPreemptionsBox()->isEnabled());
        QVERIFY(panel->starvationHoursBox()->isEnabled());
        enter(panel->thrashingPreemptionsBox(), 5);
        QCOMPARE(f.doc.scenario().scheduler.thrashingPreemptions, 5);
        // 12 h = 12 × 3600 s = 43200 s; 1.5 h = 5400 s.
        enter(panel->starvationHoursBox(), 12);
        QCOMPARE(f.doc.scenario().scheduler.starvationWaitS, 43200.0);
        enter(panel->starvationHoursBox(), 1.5);
        QCOMPARE(f.doc.scenario().scheduler.starvationWaitS, 5400.0);
        QCOMPARE(f.doc.undoStack()->count(), 3);
        QCOMPARE(f.doc.undoStack()->text(0), QStringLiteral("Thrashing at 5 preemptions"));
        QCOMPARE(f.doc.undoStack()->text(1), QStringLiteral("Starved after 12 h"));
        // The run takes both thresholds (the debounced run of the last edit).
        QTRY_COMPARE_WITH_TIMEOUT(f.window->results()->starvationWaitS, 5400.0, 15000);
        QCOMPARE(f.window->results()->thrashingPreemptions, 5);
        f.doc.undoStack()->undo();
        QCOMPARE(panel->starvationHoursBox()->value(), 12.0);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(panel->thrashingPreemptionsBox()->value(), 3);
        QCOMPARE(panel->starvationHoursBox()->value(), 24.0);
    }

    void elasticGrowWindowInMinutesRerunsAndUndoes() {
        // 10 min by default (600 s); 60 min writes 3600 s, re-runs with it, undo restores.
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QCOMPARE(panel->elasticGrowBox()->value(), 10.0);
        const int steps = f.doc.undoStack()->count();
        emit panel->elasticGrowBox()->editingFinished();  // unchanged: no edit
        QCOMPARE(f.doc.undoStack()->count(), steps);
        enter(panel->elasticGrowBox(), 60);
        QCOMPARE(f.doc.scenario().scheduler.elasticGrowAfterIdleS, 3600.0);
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
        QVERIFY(scenarioToJson(f.doc.scenario()).find("\"elasticGrowAfterIdleS\": 3600") !=
                std::string::npos);
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().scheduler.elasticGrowAfterIdleS, 600.0);
        QCOMPARE(panel->elasticGrowBox()->value(), 10.0);
    }

    void replicationsGiveErrorBarsAndWarmUpMovesTheWindow() {
        // 4 replications: the KPI strip reads mean ± half-width, its allocation the mean of the
        // four runs (the window shows the first); undo is one run again, no ±.
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        QCOMPARE(panel->replicationsBox()->value(), 1);
        QVERIFY(!f.window->kpiStrip()->text("allocation_mean").contains(QStringLiteral("±")));
        panel->replicationsBox()->setValue(4);
        QCOMPARE(f.doc.scenario().replications, 4);
        QVERIFY(f.waitForResults(60000));
        const QString cell = f.window->kpiStrip()->text("allocation_mean");
        QVERIFY2(cell.contains(QStringLiteral("±")), qPrintable(cell));
        // The utilization chart draws each of its three series' mean with a band.
        QCOMPARE(f.window->charts()->charts()[0]->bandCount(), 3);
        // Hovering reads the mean and its interval, as drawn.
        const QString hover = f.window->charts()->charts()[0]->valuesAt(86400);
        QVERIFY2(hover.contains(QStringLiteral("95 %:")), qPrintable(hover));
        // Pinned and compared with itself: every paired difference is 0, not significant.
        f.window->session().pinBaseline();
        f.window->simulation().runNow(f.doc.scenario());
        QVERIFY(f.waitForResults(60000));
        const QString same = f.window->kpiStrip()->text("wait_s_p95");
        QVERIFY2(same.contains(QStringLiteral("not significant")), qPrintable(same));
        // The compare table says the same of every KPI the runs measured.
        auto* compare = f.window->findChild<ui::CompareTableModel*>();
        QVERIFY(compare);
        int noise = 0;
        for (int row = 0; row < compare->rowCount(); ++row) {
            const QString verdict =
                compare->index(row, ui::CompareTableModel::SignificanceColumn).data().toString();
            QVERIFY2(verdict != QStringLiteral("significant"), qPrintable(verdict));
            noise += verdict == QStringLiteral("may be noise");
        }
        QVERIFY(noise > 10);
        f.window->session().clearBaseline();
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().replications, 1);
        QVERIFY(f.waitForResults(60000));
        QVERIFY(!f.window->kpiStrip()->text("allocation_mean").contains(QStringLiteral("±")));
        QCOMPARE(f.window->charts()->charts()[0]->bandCount(), 0);
        // Warm-up in hours: 24 h writes 86400 s and the results measure from it.
        enter(panel->warmupHoursBox(), 24);
        QCOMPARE(f.doc.scenario().warmupS, 86400.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->warmupS, 86400.0);
        f.doc.undoStack()->undo();
        QCOMPARE(panel->warmupHoursBox()->value(), 0.0);
    }

    void leavingPreemptionBoxesUnchangedIsNoEdit() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        // 0.25 s shows with one decimal and 100000 s as 27.78 h (27.777… h); leaving the
        // boxes must not round the scenario to what they show.
        Scenario s = f.doc.scenario();
        s.scheduler.preemption = PreemptionMode::Priority;
        s.scheduler.preemptionGraceS = 0.25;
        s.scheduler.starvationWaitS = 100000;
        QCOMPARE(f.doc.edit(s, QStringLiteral("odd thresholds")), QString());
        QCOMPARE(panel->starvationHoursBox()->value(), 27.78);
        emit panel->preemptionGraceBox()->editingFinished();
        emit panel->thrashingPreemptionsBox()->editingFinished();
        emit panel->starvationHoursBox()->editingFinished();
        QCOMPARE(f.doc.scenario().scheduler.preemptionGraceS, 0.25);
        QCOMPARE(f.doc.scenario().scheduler.starvationWaitS, 100000.0);
        QCOMPARE(f.doc.undoStack()->count(), 1);
    }

    void refusedThresholdsChangeNothingAndSayWhy() {
        Fixture f;
        SchedulerPanel* panel = f.window->schedulerPanel();
        const std::string before = json(f.doc);
        // The box goes down to 0 h; the reader wants at least 1 s.
        enter(panel->starvationHoursBox(), 0);
        QVERIFY2(panel->refusal().contains(QStringLiteral("starvation")),
                 qPrintable(panel->refusal()));
        QVERIFY(f.status().contains(panel->refusal()));
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QCOMPARE(panel->starvationHoursBox()->value(), 24.0);  // the document's value again
        // The grace box stops at a day, as the reader does; past it, the edit is refused.
        QVERIFY(!panel->setPreemptionGraceS(1e6).isEmpty());
        QVERIFY(!panel->refusal().isEmpty());
        QCOMPARE(json(f.doc), before);
        QCOMPARE(panel->preemptionGraceBox()->value(), 0.0);
        // The next good edit clears the reason.
        enter(panel->thrashingPreemptionsBox(), 4);
        QCOMPARE(panel->refusal(), QString());
    }
};

GPUPLAN_APP_TEST("test_scheduler_panel", SchedulerPanelTest);
#include "test_scheduler_panel.moc"
