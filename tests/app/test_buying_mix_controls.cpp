// QtTest, offscreen: the buying-mix controls and the cost-versus-reserved curve of
// the Buying mix tab, on the default preset (32 DGX H100 nodes of 8 GPUs, all reserved, Lambda's
// prices: H100 reserved $1.85, on demand $2.99 per GPU-hour, no spot price):
//   - a reserved-slider drag edits nothing while the hand is down (the label follows it) and
//     once at the release: the Cost chart gains an on-demand layer and cost_usd changes; undo
//     restores the scenario, the layers and the cost;
//   - the curve finishes in the background, has its levels, its optimum marked and labelled,
//     the current choice drawn; clicking a level reserves that many nodes (undoable);
//   - with a spot price, spot nodes and a high monthly interruption share the charts mark spot
//     reclaims, a kind of its own in its own colour, and no node failure;
//   - refused values (spot nodes the pricing cannot price, a 100 % share) change nothing.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "buying_mix/buying_mix_controls.hpp"
#include "buying_mix/buying_mix_dock.hpp"
#include "buying_mix/buying_mix_panel.hpp"
#include "buying_mix/mix_sweep_runner.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"
#include "charts/event_markers.hpp"
#include "charts/mix_curve_chart.hpp"
#include "format/kpi_format.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

std::string json(const ScenarioDocument& doc) {
    return scenarioToJson(doc.scenario());
}

BuyingMixPanel* panelOf(Fixture& f) {
    auto* dock = f.window->findChild<BuyingMixDock*>();
    return dock ? dock->panel() : nullptr;
}

/// Brings the Buying mix tab to the front (the curve is swept only while it is shown).
BuyingMixPanel* showTab(Fixture& f) {
    auto* dock = f.window->findChild<BuyingMixDock*>();
    dock->raise();
    QCoreApplication::processEvents();
    return dock->panel();
}

double cost(const Fixture& f) {
    return f.window->results()->kpi("cost_usd");
}

int marksOf(const ui::ChartPanel* chart, const char* kind) {
    int n = 0;
    for (const ui::EventMark& m : chart->eventMarkers().marks())
        n += ui::eventKinds()[m.kind].id == std::string(kind);
    return n;
}

int kindIndex(const char* id) {
    for (std::size_t k = 0; k < ui::eventKinds().size(); ++k)
        if (ui::eventKinds()[k].id == std::string(id)) return static_cast<int>(k);
    return -1;
}

/// Waits for the curve of the scenario now: no request waiting out its debounce, no sweep
/// running, a curve drawn. `timeoutMs` only bounds a broken run; nothing here is timed.
bool waitForCurve(BuyingMixPanel* panel, int timeoutMs = 120000) {
    MixSweepRunner* runner = panel->sweepRunner();
    QCoreApplication::processEvents();  // a change's posted events reach the panel first
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        if (!runner->queued() && !runner->running() && runner->sweep() &&
            panel->curve()->levelCount() > 0)
            return true;
        QTest::qWait(50);
    }
    return false;
}

/// The most elastic on-demand nodes up (not Provisioning) at once in the run.
int mostElasticNodesUp(const Results& r) {
    std::vector<NodeState> state(r.fleet.nodes.size(), NodeState::Provisioning);
    int up = 0, most = 0;
    for (const NodeStateChange& c : r.nodeChanges) {
        if (!r.fleet.nodes[c.node].elastic) continue;
        up += (c.state != NodeState::Provisioning) - (state[c.node] != NodeState::Provisioning);
        state[c.node] = c.state;
        most = std::max(most, up);
    }
    return most;
}

}  // namespace

class BuyingMixControlsTest : public QObject {
    Q_OBJECT
private slots:
    void reservedSliderDragIsOneEditThatRepricesAndUndoRestores() {
        Fixture f;
        BuyingMixPanel* panel = panelOf(f);
        QVERIFY(panel);
        BuyingMixControls* c = panel->controls();
        ui::ChartPanel* costChart = f.window->charts()->cost();
        QVERIFY(c->breakevenText().contains("61.9"));  // 1.85 / 2.99
        QVERIFY(!c->reservedSlider()->isEnabled());    // no mix yet: the groups' classes
        QCOMPARE(c->reservedSlider()->value(), 32);

        // The mix on keeps what the groups buy: 32 reserved, nothing else.
        c->mixBox()->click();
        QVERIFY(f.doc.scenario().buyingMix);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 32);
        QVERIFY(f.waitForResults());
        QVERIFY(c->reservedSlider()->isEnabled());
        const std::string mixOn = json(f.doc);
        const double costAllReserved = cost(f);
        const QStringList layersAllReserved = costChart->plottedMetrics();
        QCOMPARE(layersAllReserved, QStringList{"cost_rate_usd_per_h{reserved}"});

        // A drag: nothing is edited (or run) while the hand is down, the label follows it.
        const int steps = f.doc.undoStack()->count();
        QSignalSpy changed(&f.doc, &ScenarioDocument::changed);
        QSlider* slider = c->reservedSlider();
        slider->setSliderDown(true);
        for (int v = 31; v >= 8; --v)
            slider->setValue(v);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(json(f.doc), mixOn);
        QVERIFY2(c->mixText().startsWith("8 reserved · 0 spot · 24 on demand of 32 nodes"),
                 qPrintable(c->mixText()));
        slider->setSliderDown(false);  // the release: one edit
        QCOMPARE(changed.count(), 1);
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 8);
        QVERIFY(f.waitForResults());
        // 24 nodes on demand: an on-demand layer, and a dearer week (the on-demand nodes are
        // not elastic: paid all along at $2.99 instead of $1.85).
        QCOMPARE(costChart->plottedMetrics(),
                 (QStringList{"cost_rate_usd_per_h{reserved}", "cost_rate_usd_per_h{on-demand}"}));
        QVERIFY2(cost(f) > costAllReserved * 1.2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(cost(f)).arg(costAllReserved)));

        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), mixOn);
        QCOMPARE(slider->value(), 32);
        QVERIFY(f.waitForResults());
        QCOMPARE(costChart->plottedMetrics(), layersAllReserved);
        QCOMPARE(cost(f), costAllReserved);
    }

    void theOnDemandCeilingCapsTheNodesUpAndUndoRestoresIt() {
        // 8 reserved, 24 on demand and elastic: the week's peaks bring up more than 4
        // on-demand nodes at once; a ceiling of 4 holds them to 4 (the rest of the demand waits).
        Fixture f;
        BuyingMixControls* c = panelOf(f)->controls();
        c->mixBox()->click();
        c->reservedBox()->setValue(8);
        QVERIFY(!c->ceilingBox()->isEnabled());
        c->elasticBox()->click();
        QVERIFY(c->ceilingBox()->isEnabled());
        QCOMPARE(c->ceilingBox()->maximum(), 24);
        QCOMPARE(c->ceilingBox()->value(), 24);
        QVERIFY(f.waitForResults());
        QVERIFY(f.doc.scenario().onDemand && !f.doc.scenario().onDemand->maxNodes);
        const std::string noCeiling = json(f.doc);
        const int mostUp = mostElasticNodesUp(*f.window->results());
        QVERIFY2(mostUp > 4, qPrintable(QString::number(mostUp)));

        c->ceilingBox()->setValue(4);
        QCOMPARE(f.doc.scenario().onDemand->maxNodes, std::optional<int>(4));
        QCOMPARE(c->ceilingSlider()->value(), 4);
        QVERIFY(f.waitForResults());
        QCOMPARE(mostElasticNodesUp(*f.window->results()), 4);

        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), noCeiling);
        QCOMPARE(c->ceilingBox()->value(), 24);
        QVERIFY(f.waitForResults());
        QCOMPARE(mostElasticNodesUp(*f.window->results()), mostUp);

        // The top of the slider is every on-demand node: no ceiling written.
        c->ceilingBox()->setValue(10);
        c->ceilingBox()->setValue(24);
        QVERIFY(!f.doc.scenario().onDemand->maxNodes);
    }

    void arrowStepsOfABoxAreOneUndoStep() {
        Fixture f;
        BuyingMixControls* c = panelOf(f)->controls();
        c->mixBox()->click();
        c->elasticBox()->click();
        const std::string before = json(f.doc);
        const int steps = f.doc.undoStack()->count();
        for (int i = 0; i < 3; ++i)
            c->reservedBox()->stepDown();
        for (int i = 0; i < 4; ++i)
            c->idleBox()->stepUp();
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 29);
        QCOMPARE(f.doc.scenario().onDemand->idleTimeoutS, 14 * 60.0);  // 10 min + 4 × 1 min
        QCOMPARE(f.doc.undoStack()->count(), steps + 2);               // one per box
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
    }

    void ctrlZInASpinBoxUndoesTheDocument() {
        // Typed into the reserved box and committed with Enter, then Ctrl+Z with the focus
        // still in the box: the document's edit is undone, not the box's text.
        Fixture f;
        BuyingMixControls* c = panelOf(f)->controls();
        c->mixBox()->click();
        const std::string before = json(f.doc);
        showTab(f);
        f.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(f.window.get()));
        QSpinBox* box = c->reservedBox();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("10"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 10);
        QVERIFY(box->hasFocus());
        QTest::keySequence(box, QKeySequence::Undo);
        QCOMPARE(json(f.doc), before);
        QCOMPARE(box->value(), 32);
        QTest::keySequence(box, QKeySequence::Redo);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 10);
    }

    void theCurveFinishesMarksItsOptimumAndAClickReservesALevel() {
        Fixture f;
        BuyingMixPanel* panel = showTab(f);
        QVERIFY(panel);
        ui::MixCurveChart* curve = panel->curve();
        QVERIFY(waitForCurve(panel));
        const MixSweep& sweep = *curve->sweep();
        QVERIFY(curve->levelCount() >= 10);
        QCOMPARE(curve->levelCount(), static_cast<int>(sweep.levels.size()));
        QCOMPARE(sweep.levels.front().reservedNodes, 0);
        QCOMPARE(sweep.levels.back().reservedNodes, sweep.peakDemandNodes);
        const MixLevel& best = sweep.levels[sweep.optimum];
        for (const MixLevel& l : sweep.levels)
            QVERIFY(best.costUsd <= l.costUsd);
        QCOMPARE(curve->optimumLabel(), QStringLiteral("optimum: %1 nodes, %2")
                                            .arg(best.reservedNodes)
                                            .arg(ui::formatUsd(best.costUsd)));
        // No mix: the current choice is the groups' reserved nodes, all 32.
        QCOMPARE(curve->currentLineAt(), 32);
        // The preset sets no elastic on demand: the curve says it used the defaults.
        QVERIFY(sweep.onDemandDefaulted);
        QVERIFY2(curve->caption().contains("defaults"), qPrintable(curve->caption()));
        QVERIFY(curve->message().isEmpty());

        // A level that is not the current choice.
        const int index = sweep.levels[3].reservedNodes != 32 ? 3 : 4;
        const int reserved = sweep.levels[static_cast<std::size_t>(index)].reservedNodes;
        const std::string before = json(f.doc);
        curve->clickLevel(index);
        QVERIFY(f.doc.scenario().buyingMix);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, reserved);
        // The level as the curve priced it: the rest elastic with the sweep's settings.
        QCOMPARE(f.doc.scenario().onDemand, std::optional<OnDemandDef>(sweep.onDemand));
        QCOMPARE(panel->controls()->reservedSlider()->value(), reserved);
        QCOMPARE(curve->currentLineAt(), reserved);
        QVERIFY(f.waitForResults());
        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QCOMPARE(curve->currentLineAt(), 32);

        // A real click on a point (the curve is redrawn for the undone scenario first).
        QVERIFY(waitForCurve(panel));
        QTest::qWait(50);
        const int other = index + 2;
        const int otherReserved =
            curve->sweep()->levels[static_cast<std::size_t>(other)].reservedNodes;
        QTest::mouseClick(curve->viewport(), Qt::LeftButton, Qt::NoModifier,
                          curve->levelPosition(other));
        QVERIFY(f.doc.scenario().buyingMix);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, otherReserved);
    }

    void noPricesNoCurve() {
        Fixture f;
        BuyingMixPanel* panel = showTab(f);
        QVERIFY(panel);
        Scenario s = f.doc.scenario();
        s.pricing.reset();
        f.doc.reset(s, QString());
        QVERIFY2(panel->curve()->message().startsWith("No prices"),
                 qPrintable(panel->curve()->message()));
        QCOMPARE(panel->curve()->levelCount(), 0);
    }

    void theCurveIsSweptOnlyWhenShownAndRestartedOnAChange() {
        Fixture f;
        BuyingMixPanel* panel = panelOf(f);
        MixSweepRunner* runner = panel->sweepRunner();
        QSignalSpy started(runner, &MixSweepRunner::started);
        QSignalSpy finished(runner, &MixSweepRunner::finished);
        // The tab opens behind the pending list: nothing swept while the first run came in.
        QVERIFY(!runner->running() && !runner->sweep());
        // Hidden behind the pending list: a change sweeps nothing.
        f.window->findChild<QDockWidget*>(QStringLiteral("pending"))->raise();
        QCoreApplication::processEvents();
        f.doc.edit(
            [&] {
                Scenario s = f.doc.scenario();
                s.demandMultiplier = 1.5;
                return s;
            }(),
            QStringLiteral("Demand × 1.5"));
        QTest::qWait(MixSweepRunner::kDebounceMs + 200);
        QCOMPARE(started.count(), 0);
        QVERIFY(!runner->sweep());

        QVERIFY(showTab(f));
        QVERIFY(waitForCurve(panel));
        QCOMPARE(started.count(), 1);
        // A change while it runs: the running sweep is dropped, the new one shown.
        Scenario twice = f.doc.scenario();
        twice.demandMultiplier = 2;
        f.doc.edit(twice, QStringLiteral("Demand × 2"));
        QVERIFY(started.wait(5000));
        QVERIFY(runner->running());
        Scenario thrice = f.doc.scenario();
        thrice.demandMultiplier = 1.25;
        f.doc.edit(thrice, QStringLiteral("Demand × 1.25"));
        QVERIFY(waitForCurve(panel));
        QCOMPARE(started.count(), 3);
        QCOMPARE(finished.count(), 2);  // the first and the last: the × 2 one was cancelled
        MixSweepOptions options;
        options.levels = MixSweepRunner::kLevels;
        const MixSweep expected = sweepReservedLevels(thrice, options);
        QCOMPARE(runner->sweep()->levels.size(), expected.levels.size());
        for (std::size_t i = 0; i < expected.levels.size(); ++i)
            QCOMPARE(runner->sweep()->levels[i].costUsd, expected.levels[i].costUsd);

        // Moving the mix's reserved count sweeps nothing: the sweep sets the mix itself.
        panel->controls()->mixBox()->click();
        panel->controls()->reservedSlider()->setValue(10);
        QCOMPARE(f.doc.scenario().buyingMix->reservedNodes, 10);
        QTest::qWait(MixSweepRunner::kDebounceMs + 200);
        QCOMPARE(started.count(), 3);
        QCOMPARE(panel->curve()->currentLineAt(), 10);
    }

    void progressShowsOnlyForASlowSweep() {
        // The delay is the chart's to keep, not the clock's to race: a sweep that ends before
        // it never flickers a bar (a delay no test machine reaches), one that outlasts it
        // shows its progress (a delay of 1 ms).
        ui::MixCurveChart chart;
        chart.show();
        chart.setBusyShowMs(24 * 3600 * 1000);
        chart.setBusy(true);
        QCoreApplication::processEvents();
        QVERIFY(chart.caption().contains("computing"));
        chart.setBusy(false);
        QVERIFY(!chart.progressShown());  // a quick sweep never flickers a bar
        chart.setBusyShowMs(1);
        chart.setBusy(true);
        QTRY_VERIFY_WITH_TIMEOUT(chart.progressShown(), 60000);
        QVERIFY(chart.caption().contains("computing"));
        chart.setBusy(false);
        QVERIFY(!chart.progressShown());
        QVERIFY(!chart.caption().contains("computing"));
    }

    void spotReclaimsAreMarkedApartFromFailures() {
        Fixture f;
        BuyingMixControls* c = panelOf(f)->controls();
        Scenario s = f.doc.scenario();
        s.pricing->gpuModels.front().of(BuyingClass::Spot) = 1.2;  // a spot price for H100
        f.doc.reset(s, QString());
        QVERIFY(f.waitForResults());
        c->mixBox()->click();
        QVERIFY(f.waitForResults());
        // All 32 reserved: no room for spot (the spot range is the nodes not reserved).
        QCOMPARE(c->spotSlider()->maximum(), 0);
        c->reservedSlider()->setValue(16);  // not held: one edit at once (as a key press)
        QVERIFY(f.waitForResults());
        QCOMPARE(c->spotSlider()->maximum(), 16);
        c->spotSlider()->setValue(16);
        QVERIFY(f.waitForResults());
        QCOMPARE(*f.doc.scenario().buyingMix, (BuyingMixDef{16, 16}));

        c->spotReclaimsBox()->click();
        QVERIFY(f.doc.scenario().spot);
        QCOMPARE(f.doc.scenario().spot->noticeS, 120.0);  // AWS's notice by default
        QVERIFY(f.waitForResults());
        c->shareBox()->setValue(99);  // 99 % of instances reclaimed in a month
        QCOMPARE(f.doc.scenario().spot->monthlyInterruptionFraction, 0.99);
        QVERIFY(f.waitForResults());
        const Results& r = *f.window->results();
        int reclaims = 0, failed = 0;
        for (const NodeStateChange& ch : r.nodeChanges) {
            reclaims += ch.cause == NodeChangeCause::SpotReclaim;
            failed += ch.state == NodeState::Failed;
        }
        // 16 nodes × 7 days × −ln(0.01) / 30 days ≈ 17 reclaims expected.
        QVERIFY2(reclaims >= 5, qPrintable(QString::number(reclaims)));
        QCOMPARE(failed, reclaims);  // every Failed change is a reclaim: no random failures
        for (const ui::ChartPanel* chart :
             {f.window->charts()->charts().front(), f.window->charts()->cost()}) {
            QVERIFY(marksOf(chart, "spot_reclaim") > 0);
            QCOMPARE(marksOf(chart, "node_failure"), 0);
        }
        const int spot = kindIndex("spot_reclaim"), failure = kindIndex("node_failure");
        QVERIFY(spot >= 0 && failure >= 0);
        QVERIFY(ui::eventKinds()[spot].color != ui::eventKinds()[failure].color);
        // What hovering over a reclaim says.
        const ui::EventMark& first = [&]() -> const ui::EventMark& {
            for (const ui::EventMark& m : f.window->charts()->cost()->eventMarkers().marks())
                if (m.kind == spot) return m;
            return f.window->charts()->cost()->eventMarkers().marks().front();
        }();
        QVERIFY2(f.window->charts()->cost()->valuesAt(first.firstS).contains("spot reclaim"),
                 qPrintable(f.window->charts()->cost()->valuesAt(first.firstS)));
    }

    void refusedValuesLeaveTheScenario() {
        Fixture f;
        BuyingMixControls* c = panelOf(f)->controls();
        c->mixBox()->click();
        QVERIFY(f.waitForResults());
        c->reservedSlider()->setValue(20);
        QVERIFY(f.waitForResults());
        const std::string before = json(f.doc);
        const int steps = f.doc.undoStack()->count();

        // Lambda's book has no spot price: spot nodes are refused with the reader's reason.
        c->spotBox()->setValue(4);
        QCOMPARE(json(f.doc), before);
        QCOMPARE(f.doc.undoStack()->count(), steps);
        QVERIFY2(c->refusal().contains("price"), qPrintable(c->refusal()));
        QCOMPARE(c->spotBox()->value(), 0);  // the box shows what the document holds
        QVERIFY(f.status().startsWith("Refused"));

        // A share of 100 % a month has no mean time to reclaim: the reader's range refuses it.
        c->spotReclaimsBox()->click();
        const std::string spotOn = json(f.doc);
        c->shareBox()->setValue(100);
        QCOMPARE(json(f.doc), spotOn);
        QVERIFY2(!c->refusal().isEmpty(), "no refusal shown");
        QCOMPARE(f.doc.scenario().spot->monthlyInterruptionFraction, 0.1);
    }
};

GPUPLAN_APP_TEST("test_buying_mix_controls", BuyingMixControlsTest);
#include "test_buying_mix_controls.moc"
