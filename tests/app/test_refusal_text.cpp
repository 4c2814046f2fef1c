// QtTest: refusals in a planner's words. The file's JSON pointer becomes the object's name
// from the scenario and the field in words, the reason's numbers get the field's unit, and
// the distribution dialog stays open on a value the document refuses.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/workload_distribution_dialog.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "shell/refusal_text.hpp"
#include "tables/workload_delegate.hpp"
#include "tables/workload_models.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

/// Two classes, one job, two teams and a pod with two racks: enough to name every kind.
Scenario smallScenario() {
    Scenario s;
    s.teams = {TeamDef{"research", ""}, TeamDef{"product", ""}};
    s.jobClasses.resize(2);
    s.jobClasses[0].name = "pretrain";
    s.jobClasses[1].name = "fine-tune";
    s.jobs.resize(1);
    s.jobs[0].name = "drop-notebook-1";
    s.pods.resize(1);
    s.pods[0].name = "pod-a";
    s.pods[0].racks.resize(2);
    s.pods[0].racks[1].name = "rack2";
    s.pods[0].racks[1].nodes.resize(1);
    s.pods[0].racks[1].nodes[0].name = "gpu";
    return s;
}

}  // namespace

class RefusalTextTest : public QObject {
    Q_OBJECT
private slots:
    void anEditOverTheRunBudgetIsRefusedAndChangesNothing() {
        // The document's budget is exactly the default preset's estimated work: the preset
        // fits (≤), doubling its demand adds jobs and pending entries and must not.
        ScenarioDocument probe(catalog(), LoadOptions{});
        probe.load(kPresets + "/scenarios/default.json");
        const Scenario before = probe.scenario();
        Scenario after = before;
        after.demandMultiplier = 2;
        const double beforeOps = estimateRunCost(before, Fleet::build(before)).workOps;
        QVERIFY(estimateRunCost(after, Fleet::build(after)).workOps > beforeOps);

        LoadOptions options;
        options.budget.workOps = beforeOps;
        ScenarioDocument doc(catalog(), options);
        doc.reset(before, QString());
        const QString refusal = doc.edit(after, QStringLiteral("Demand ×2"));
        QVERIFY2(refusal.startsWith(QStringLiteral("the run would take about")),
                 qPrintable(refusal));
        QVERIFY2(refusal.contains(QStringLiteral("most of it from")), qPrintable(refusal));
        QCOMPARE(doc.scenario(), before);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void pointersBecomeNamesAndWords() {
        const Scenario s = smallScenario();
        struct Case {
            const char* pointer;
            const char* words;
        } cases[] = {
            {"/jobClasses/1/durationS/median", "job class \"fine-tune\" · duration median"},
            {"/jobClasses/0/arrival/ratePerHour", "job class \"pretrain\" · arrival rate"},
            {"/jobClasses/0/gpus/weights/2", "job class \"pretrain\" · GPUs weights #3"},
            {"/jobs/0/submitS", "job \"drop-notebook-1\" · submit time"},
            {"/teams/1/color", "team \"product\" · colour"},
            {"/topology/pods/0/racks/1/nodes/0/count",
             "pod \"pod-a\" · rack \"rack2\" · node group \"gpu\" · count"},
            {"/scheduler/placement", "scheduler placement"},
            {"/horizonS", "horizon"},
            // Past the end of its list (a stale index): its position, 1-based.
            {"/jobClasses/7/priority", "job class 8 · priority"},
            // A key the table does not know stays as it is.
            {"/jobClasses/0/someNewKey", "job class \"pretrain\" · someNewKey"},
        };
        for (const Case& c : cases)
            QCOMPARE(describePlace(s, c.pointer), QString::fromUtf8(c.words));
    }

    void theReasonsNumbersGetTheFieldsUnit() {
        const Scenario s = smallScenario();
        // The trial's refusal, in seconds.
        QCOMPARE(refusalText(s, "/jobClasses/1/durationS/median",
                             "must be between 1 and 10000000000, got -10800"),
                 QStringLiteral("job class \"fine-tune\" · duration median: must be between 1 s "
                                "and 10000000000 s, got -10800 s"));
        QCOMPARE(refusalText(s, "/jobClasses/0/memoryGbPerGpu", "must be at least 0, got -1"),
                 QStringLiteral("job class \"pretrain\" · memory per GPU: must be at least 0 GB, "
                                "got -1 GB"));
        // No unit (a fraction): the numbers stay bare; no pointer: the reason alone.
        QCOMPARE(refusalText(s, "/jobClasses/0/mfu", "must be between 0 and 1, got 2"),
                 QStringLiteral("job class \"pretrain\" · MFU: must be between 0 and 1, got 2"));
        QCOMPARE(refusalText(s, "/", "would submit too many jobs"),
                 QStringLiteral("would submit too many jobs"));
        QCOMPARE(unitOfPlace("/jobClasses/0/durationS/median"), QStringLiteral("s"));
        QCOMPARE(unitOfPlace("/jobClasses/0/mfu"), QString());
    }

    void theDocumentRefusesInThoseWords() {
        ScenarioDocument doc{catalog(), LoadOptions{}};
        doc.load(kPresets + "/scenarios/default.json");
        Scenario bad = doc.scenario();
        bad.jobClasses[1].durationS.kind = DistKind::Lognormal;
        bad.jobClasses[1].durationS.median = -10800;
        bad.jobClasses[1].durationS.sigma = 0.5;
        const QString reason = doc.validationError(bad);
        const QString expected = QStringLiteral("job class \"%1\" · duration median: ")
                                     .arg(QString::fromStdString(bad.jobClasses[1].name));
        QVERIFY2(reason.startsWith(expected), qPrintable(reason));
        QVERIFY2(reason.endsWith("got -10800 s"), qPrintable(reason));
        QVERIFY(!reason.contains("/jobClasses"));
    }

    void theDistributionDialogStaysOpenOnARefusedValue() {
        Fixture f;
        ui::JobClassTableModel* m = f.window->workload()->classModel();
        const int row = 0;
        const QModelIndex cell = m->index(row, ui::JobClassTableModel::DurationColumn);
        const std::string before = scenarioToJson(f.doc.scenario());
        ui::DistributionDialog dialog(f.doc.scenario().jobClasses[row].durationS,
                                      ui::Quantity::DurationS);
        dialog.setCommit(ui::WorkloadDelegate::commitTo(m, cell));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // A readable distribution the document refuses: a negative median.
        dialog.kindBox()->setCurrentText(QStringLiteral("lognormal"));
        dialog.firstField()->setText(QStringLiteral("-3 h"));
        dialog.secondField()->setText(QStringLiteral("0.5"));
        dialog.maxField()->clear();
        QCOMPARE(dialog.error(), QString());  // the text itself reads
        dialog.accept();                      // OK
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        bool shown = false;
        for (QLabel* label : dialog.findChildren<QLabel*>())
            shown = shown || label->text().contains("got -10800 s");
        QVERIFY2(shown, qPrintable(m->lastRefusal()));
        // Corrected there, OK commits it and closes.
        dialog.firstField()->setText(QStringLiteral("3 h"));
        dialog.accept();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(f.doc.scenario().jobClasses[row].durationS.median, 10800.0);
    }

    void theCellsDialogButtonCommitsThroughTheDialog() {
        Fixture f;
        QTableView* view = f.window->workload()->classView();
        const int row = 0;
        const QModelIndex cell = view->model()->index(row, ui::JobClassTableModel::DurationColumn);
        view->setCurrentIndex(cell);
        view->edit(cell);
        auto* more = view->viewport()->findChild<QToolButton*>();
        QVERIFY(more);
        // The dialog is modal: answer it from the event loop it runs. A refused value first,
        // then (still open) a good one.
        QString refusalShown;
        bool stayedOpen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<ui::DistributionDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->kindBox()->setCurrentText(QStringLiteral("fixed"));
            dialog->firstField()->setText(QStringLiteral("-3 h"));
            dialog->minField()->clear();
            dialog->maxField()->clear();
            dialog->accept();
            stayedOpen = dialog->isVisible();
            for (QLabel* label : dialog->findChildren<QLabel*>())
                if (label->text().contains("got -10800 s")) refusalShown = label->text();
            dialog->firstField()->setText(QStringLiteral("3 h"));
            dialog->accept();
        });
        more->click();
        QVERIFY(stayedOpen);
        QVERIFY2(refusalShown.startsWith("job class \""), qPrintable(refusalShown));
        QCOMPARE(f.doc.scenario().jobClasses[row].durationS.kind, DistKind::Fixed);
        QCOMPARE(f.doc.scenario().jobClasses[row].durationS.value, 10800.0);
        QCOMPARE(f.doc.undoStack()->count(), 1);
    }
};

GPUPLAN_APP_TEST("test_refusal_text", RefusalTextTest);
#include "test_refusal_text.moc"
