// QtTest: the "Largest job" dock on the default preset — the table at the scrubber's t is the
// engine's, the sentence answers from it, and "Repack at t" shows the what-if off the GUI
// thread with at least as many large slots after as before.
#include <QComboBox>
#include <QPushButton>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/capacity_view.hpp"
#include "charts/chart_panel.hpp"
#include "gpuplan/resources/placeable.hpp"
#include "studies/capacity_dock.hpp"
#include "tables/placeable_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

QString cellText(QAbstractItemModel* model, SlotLevel level, int column) {
    return model->data(model->index(static_cast<int>(level), column), Qt::DisplayRole).toString();
}

}  // namespace

class CapacityViewTest : public QObject {
    Q_OBJECT
private slots:
    void tableAtTheScrubberMatchesTheEngine() {
        Fixture f;
        auto* dock = f.window->findChild<CapacityDock*>();
        QVERIFY(dock);
        dock->raise();
        ui::CapacityView* view = dock->view();
        const double t = 2 * 86400 + 3 * 3600;
        f.window->scrubber()->setTime(t);
        QCOMPARE(view->time(), t);
        const auto results = f.window->results();
        const PlaceableSlots expected = placeableSlotsAt(results->fleet, results->stateAt(t));
        const PlaceableSlots& shown = view->table();
        QCOMPARE(shown.gangSizes, expected.gangSizes);
        QCOMPARE(shown.freeGpus, expected.freeGpus);
        for (int l = 0; l < kSlotLevelCount; ++l) {
            QCOMPARE(shown.slotCounts[l], expected.slotCounts[l]);
            QCOMPARE(shown.largestGangGpus[l], expected.largestGangGpus[l]);
        }
        // What the table draws: a row per level, a column per size and "largest now".
        ui::PlaceableTableModel* model = view->tableModel();
        QCOMPARE(model->rowCount(), kSlotLevelCount);
        QCOMPARE(model->columnCount(), static_cast<int>(expected.gangSizes.size()) + 1);
        QCOMPARE(cellText(model, SlotLevel::Rack, model->largestColumn()),
                 QString::number(expected.largest(SlotLevel::Rack)));
        QCOMPARE(cellText(model, SlotLevel::Node, ui::PlaceableTableModel::sizeColumn(0)),
                 QString::number(expected.slotsFor(SlotLevel::Node, 1)));
        QVERIFY2(view->sentence().contains(
                     QString::fromStdString(explainPlaceable(expected, results->fleet))),
                 qPrintable(view->sentence()));
        // The chart plots the largest-gang series.
        QVERIFY(view->chart()->plottedPoints(0) > 0);
    }

    void repackShowsAtLeastAsManyLargeSlotsAfter() {
        Fixture f;
        auto* dock = f.window->findChild<CapacityDock*>();
        QVERIFY(dock);
        dock->raise();
        ui::CapacityView* view = dock->view();
        const double t = 2 * 86400 + 3 * 3600;
        f.window->scrubber()->setTime(t);
        view->policyBox()->setCurrentIndex(
            view->policyBox()->findData(static_cast<int>(DefragPolicy::Pack)));
        QSignalSpy done(dock, &CapacityDock::repackFinished);
        QTest::mouseClick(view->repackButton(), Qt::LeftButton);
        QVERIFY(done.wait(15000));
        QCOMPARE(view->repackButton()->text(), QStringLiteral("Repack at t"));
        QVERIFY2(view->defragSummary().contains(QStringLiteral("restarted work")),
                 qPrintable(view->defragSummary()));

        // The same what-if in the engine: large slots (whole nodes and up) never fewer.
        const DefragWhatIf w = defragWhatIf(*f.window->results(), t, DefragPolicy::Pack);
        QVERIFY(w.runningJobs > 0);
        QVERIFY(w.unplaced.empty());
        for (int l = 0; l < kSlotLevelCount; ++l) {
            const auto level = static_cast<SlotLevel>(l);
            QVERIFY(w.after.largest(level) >= w.before.largest(level));
            for (int g : w.before.gangSizes)
                if (g >= 8) QVERIFY(w.after.slotsFor(level, g) >= w.before.slotsFor(level, g));
        }
        // The view shows it: "before → after" (or one number when equal) per cell.
        ui::PlaceableTableModel* model = view->defragModel();
        QCOMPARE(model->rowCount(), kSlotLevelCount);
        const long long before = w.before.largest(SlotLevel::Rack);
        const long long after = w.after.largest(SlotLevel::Rack);
        QCOMPARE(cellText(model, SlotLevel::Rack, model->largestColumn()),
                 before == after ? QString::number(before)
                                 : QStringLiteral("%1 → %2").arg(before).arg(after));

        // Moving the scrubber makes the what-if stale: it is cleared, not shown for another t.
        f.window->scrubber()->setTime(t + 3600);
        QCOMPARE(model->rowCount(), 0);
    }
};

GPUPLAN_APP_TEST("test_capacity_view", CapacityViewTest);
#include "test_capacity_view.moc"
