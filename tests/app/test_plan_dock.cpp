// The Plan tab: Find plan sizes pod-a's racks for a p95 wait target in the background and
// says the plan in words with each target met; Apply makes the scenario the plan in one undo
// step and Undo takes it back; Cancel stops a long search; a question the form cannot say is
// refused before anything runs; the exported report opens with the question and the plan.
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/frontier_chart.hpp"
#include "report/report_export.hpp"
#include "studies/plan_dock.hpp"
#include "studies/plan_form.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

const QString kRacks = QStringLiteral("/topology/pods/0/racks/0/count");

PlanDock* planOf(test::Fixture& f) {
    auto* dock = f.window->findChild<PlanDock*>();
    dock->raise();
    return dock;
}

/// pod-a's racks (4 now) sized 1..8 for the fleet's p95 wait: only that target checked.
void askRacks(PlanDock* dock, const QString& range, const QString& waitMinutes, int runs) {
    PlanForm* form = dock->form();
    for (int r = 0; r < form->targetTable()->rowCount(); ++r)
        form->targetTable()->item(r, 0)->setCheckState(Qt::Unchecked);
    QVERIFY(form->setTarget(QStringLiteral("wait_s_p95"), QString(), waitMinutes));
    for (int r = 0; r < form->changeTable()->rowCount(); ++r)
        form->changeTable()->item(r, 0)->setCheckState(Qt::Unchecked);
    QVERIFY(form->setChange(kRacks, range));
    form->replicationsBox()->setValue(runs);
}

}  // namespace

class PlanDockTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theFormIsFilledFromTheScenarioAndTheRunOnScreen() {
        // A target row per fleet KPI and per team; pod-a's racks first among what may change,
        // checked, from its 4 racks to 2 × 4 + 4; the fleet's p95 wait checked at what the
        // run on screen reached (rounded up to a tenth of a minute, at least a minute).
        test::Fixture f;
        PlanDock* dock = planOf(f);
        PlanForm* form = dock->form();
        QVERIFY(form->targetTable()->rowCount() >= 4 + 4);  // 4 fleet rows, 4 teams
        QCOMPARE(form->changeTable()->item(0, 0)->checkState(), Qt::Checked);
        QCOMPARE(form->changeTable()->item(0, 0)->data(Qt::UserRole).toString(), kRacks);
        QCOMPARE(form->changeTable()->item(0, 1)->text(), QStringLiteral("4"));
        QCOMPARE(form->changeTable()->item(0, 2)->text(), QStringLiteral("4..12"));
        QVERIFY(form->changeTable()->item(0, 0)->text().startsWith(QStringLiteral("racks in")));
        const double p95Minutes = f.window->session().results()->kpi("wait_s_p95") / 60;
        QCOMPARE(form->targetTable()->item(0, 0)->checkState(), Qt::Checked);
        QCOMPARE(form->targetTable()->item(0, 2)->text().toDouble(),
                 std::max(1.0, std::ceil(p95Minutes * 10) / 10));
        const auto q = form->question();
        QVERIFY(std::holds_alternative<PlanQuestion>(q));
        QCOMPARE(std::get<PlanQuestion>(q).objective, std::string("cost"));  // priced
    }

    void findPlanSaysThePlanAndApplyIsOneUndoStep() {
        test::Fixture f;
        PlanDock* dock = planOf(f);
        askRacks(dock, QStringLiteral("1..8"), QStringLiteral("10"), 3);
        QSignalSpy finished(dock, &PlanDock::finished);
        dock->findButton()->click();
        QVERIFY(dock->isRunning() || finished.count() == 1);  // off the GUI thread
        QVERIFY(finished.count() == 1 || finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(dock->status()));
        const PlanSearchResult* r = dock->lastResult();
        QVERIFY(r && r->feasible);
        const long long racks = 1 + r->best.candidate[0];
        // The plan in words, the target met with its interval, the cost against now.
        QVERIFY2(dock->answerText().contains(QStringLiteral("Plan:")),
                 qPrintable(dock->answerText()));
        QVERIFY(dock->answerText().contains(QStringLiteral("(4 → %1)").arg(racks)) || racks == 4);
        QVERIFY(dock->answerText().contains(QStringLiteral("✔ met")));
        QVERIFY(dock->frontier()->pointCount() >= 1);
        QVERIFY(dock->frontier()->chosen().has_value());
        QVERIFY(f.window->session().plan());
        QVERIFY(dock->applyButton()->isEnabled());
        // Apply: the scenario is the plan, one undo step; Undo takes it back.
        const int steps = f.doc.undoStack()->count();
        dock->applyButton()->click();
        QCOMPARE(f.doc.scenario().pods[0].racks[0].count, static_cast<int>(racks));
        QCOMPARE(f.doc.undoStack()->count(), steps + (racks == 4 ? 0 : 1));
        if (racks != 4) {
            QVERIFY(f.status().contains(QStringLiteral("Plan:")));
            f.doc.undoStack()->undo();
            QCOMPARE(f.doc.scenario().pods[0].racks[0].count, 4);
        }
        // The plan stays for the report after the scenario changes (it was found for it).
        QVERIFY(f.window->session().plan());
        // Once the place it sets holds another value, Apply is refused: the same pointer could
        // name another rack by then.
        Scenario edited = f.doc.scenario();
        edited.pods[0].racks[0].count = 3;
        QCOMPARE(f.doc.edit(edited, QStringLiteral("three racks")), QString());
        QVERIFY(!dock->applyPlan());
        QCOMPARE(f.doc.scenario().pods[0].racks[0].count, 3);
        QVERIFY(dock->status().contains(QStringLiteral("Find plan again")));
    }

    void cancelStopsALongSearch() {
        // Node counts 1..400 per rack with 20 runs per candidate at demand × 3: many long
        // runs. Cancel while it runs: it finishes without a plan.
        test::Fixture f;
        PlanDock* dock = planOf(f);
        askRacks(dock, QStringLiteral("1..400"), QStringLiteral("1"), 20);
        dock->form()->demandBox()->setValue(3);
        QSignalSpy finished(dock, &PlanDock::finished);
        dock->findButton()->click();
        QVERIFY(dock->isRunning());
        QVERIFY(!dock->findButton()->isEnabled());
        dock->cancelButton()->click();
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(dock->status().contains(QStringLiteral("cancelled")) ||
                     dock->status().startsWith(QStringLiteral("Not searched")),
                 qPrintable(dock->status()));
        QVERIFY(!dock->applyButton()->isEnabled());
        QVERIFY(dock->findButton()->isEnabled());
    }

    void aQuestionTheFormCannotSayIsRefusedBeforeAnythingRuns() {
        test::Fixture f;
        PlanDock* dock = planOf(f);
        askRacks(dock, QStringLiteral("8..2"), QStringLiteral("10"), 3);
        dock->findButton()->click();
        QVERIFY(!dock->isRunning());
        QVERIFY2(dock->status().contains(QStringLiteral("the range is inverted (8 > 2)")),
                 qPrintable(dock->status()));
        askRacks(dock, QStringLiteral("1..8"), QStringLiteral("ten"), 3);
        dock->findButton()->click();
        QVERIFY(!dock->isRunning());
        QVERIFY2(dock->status().contains(QStringLiteral("\"ten\" is not a number")),
                 qPrintable(dock->status()));
        for (int r = 0; r < dock->form()->targetTable()->rowCount(); ++r)
            dock->form()->targetTable()->item(r, 0)->setCheckState(Qt::Unchecked);
        dock->findButton()->click();
        QVERIFY(dock->status().contains(QStringLiteral("check at least one target")));
        // A count of 0 racks is no scenario: the reader's rule refuses it, naming the place.
        askRacks(dock, QStringLiteral("0..8"), QStringLiteral("10"), 3);
        QSignalSpy finished(dock, &PlanDock::finished);
        dock->findButton()->click();
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        QVERIFY2(dock->status().contains(QStringLiteral("must be between 1 and")),
                 qPrintable(dock->status()));
    }

    void theReportOpensWithTheQuestionAndThePlan() {
        test::Fixture f;
        PlanDock* dock = planOf(f);
        askRacks(dock, QStringLiteral("1..8"), QStringLiteral("10"), 3);
        QSignalSpy finished(dock, &PlanDock::finished);
        dock->findButton()->click();
        QVERIFY(finished.count() == 1 || finished.wait(120000));
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("plan.pdf"));
        ReportExport exporter(f.window->session(), f.window.get());
        QVERIFY(exporter.write(pdf));
        QProcess p;
        p.start(QStringLiteral("pdftotext"),
                {QStringLiteral("-raw"), QStringLiteral("-f"), QStringLiteral("1"),
                 QStringLiteral("-l"), QStringLiteral("1"), pdf, QStringLiteral("-")});
        QVERIFY2(p.waitForFinished(60000) && p.exitCode() == 0,
                 "pdftotext failed: install poppler-utils (installers/dev.sh does)");
        const QString page1 = QString::fromUtf8(p.readAllStandardOutput());
        for (const char* text : {"The question", "Recommendation", "wait p95", "95 % interval",
                                 "against the scenario as it stood"})
            QVERIFY2(page1.contains(QString::fromUtf8(text)),
                     qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(text, page1)));
    }
};

GPUPLAN_APP_TEST("test_plan_dock", PlanDockTest);
#include "test_plan_dock.moc"
