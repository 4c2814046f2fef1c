// QtTest, offscreen: the workload panel driven through its models as the view drives them
// (setData with the text a user types). Each edit re-runs the scenario the way a worked
// example says, undo restores the exact previous scenario, and an invalid value changes
// nothing and says why.
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/job_palette.hpp"
#include "editors/workload_distribution_dialog.hpp"
#include "format/workload_format.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "tables/workload_models.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;
using ClassCol = ui::JobClassTableModel::Column;
using JobCol = ui::ExplicitJobTableModel::Column;

namespace {

/// Jobs a run generated from the class of that name.
int jobsOfClass(const Results& r, const std::string& name) {
    int n = 0;
    for (const JobRecord& j : r.jobs)
        n += j.spec.source == JobSource::Class && r.classNames[j.spec.sourceIndex] == name;
    return n;
}

int classRow(const Scenario& s, const std::string& name) {
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i)
        if (s.jobClasses[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace

class WorkloadEditorTest : public QObject {
    Q_OBJECT
private slots:
    void demandTimesTwoDoublesAPoissonClass() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        const std::string before = scenarioToJson(f.doc.scenario());
        // batch-inference is Poisson at 4 jobs/h over the 168 h horizon: 672 jobs expected
        // (σ = √672 ≈ 26, 3σ ≈ 78). Demand × 2 gives 8/h: 1344 (σ ≈ 37, 3σ ≈ 110).
        const int n1 = jobsOfClass(*f.window->results(), "batch-inference");
        QVERIFY2(n1 >= 594 && n1 <= 750, qPrintable(QString::number(n1)));
        panel->demandBox()->setValue(2.0);  // what Enter in the box commits
        QCOMPARE(f.doc.scenario().demandMultiplier, 2.0);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY(f.waitForResults());
        const int n2 = jobsOfClass(*f.window->results(), "batch-inference");
        QVERIFY2(n2 >= 1234 && n2 <= 1454, qPrintable(QString::number(n2)));
        // The explicit job is a fixed time: still exactly one.
        QVERIFY(findJob(*f.window->results(), "llama-70b-full-ft"));
        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        QCOMPARE(panel->demandBox()->value(), 1.0);  // the box follows undo
    }

    void theDemandBoxShowsTheValueTheRunUses() {
        Fixture f;
        DemandSpinBox* box = f.window->workload()->demandBox();
        // Values a file may hold, (0, 100]: the box shows each exactly and changes nothing.
        for (double exact : {0.005, 1.234, 0.001, 99.999999}) {
            Scenario s = f.doc.scenario();
            s.demandMultiplier = exact;
            f.doc.reset(s, QString());
            QCOMPARE(box->value(), exact);
            QVERIFY2(box->text().endsWith(QLocale().toString(exact, 'g', 8)),
                     qPrintable(box->text()));
            // Enter or leaving the box without a change is no edit.
            emit box->editingFinished();
            QCOMPARE(f.doc.scenario().demandMultiplier, exact);
            QCOMPARE(f.doc.undoStack()->count(), 0);
        }
        // Finer than the box holds: shown rounded, stated exactly, never written back.
        Scenario s = f.doc.scenario();
        s.demandMultiplier = 1.23456789;
        f.doc.reset(s, QString());
        QVERIFY2(box->toolTip().contains("exactly 1.23456789"), qPrintable(box->toolTip()));
        QCOMPARE(f.doc.scenario().demandMultiplier, 1.23456789);
        QCOMPARE(f.doc.undoStack()->count(), 0);
        // A step is the user's change: 1.234568 + 0.1.
        box->stepUp();
        // Exactly what the box shows, not the sum's last bits (QCOMPARE on doubles is fuzzy).
        QVERIFY(f.doc.scenario().demandMultiplier == 1.334568);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QVERIFY(!box->toolTip().contains("exactly"));
    }

    void rateZeroEmptiesAClassAndUndoRestoresIt() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::JobClassTableModel* m = panel->classModel();
        const int row = classRow(f.doc.scenario(), "batch-inference");
        QVERIFY(jobsOfClass(*f.window->results(), "batch-inference") > 0);
        const std::string before = scenarioToJson(f.doc.scenario());
        QCOMPARE(m->data(m->index(row, ClassCol::RateColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("4 jobs/h"));
        QVERIFY(m->setData(m->index(row, ClassCol::RateColumn), "0", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[row].arrival.ratePerHour, 0.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(jobsOfClass(*f.window->results(), "batch-inference"), 0);
        // maxJobs 0 empties a class too.
        QVERIFY(m->setData(m->index(classRow(f.doc.scenario(), "serving"), ClassCol::MaxJobsColumn),
                           "0", Qt::EditRole));
        QVERIFY(f.waitForResults());
        QCOMPARE(jobsOfClass(*f.window->results(), "serving"), 0);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        QVERIFY(f.waitForResults());
        QVERIFY(jobsOfClass(*f.window->results(), "batch-inference") > 0);
    }

    void invalidValuesChangeNothingAndSayWhy() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::JobClassTableModel* m = panel->classModel();
        const std::string before = scenarioToJson(f.doc.scenario());
        struct Case {
            int column;
            const char* value;
            const char* reason;
        } cases[] = {
            {ClassCol::RateColumn, "-5", "Rate must not be negative"},
            {ClassCol::SmActivityColumn, "150",
             "SM activity must be between 0 and 100 %, got 150 %"},
            {ClassCol::TeamColumn, "ghost", "unknown team \"ghost\""},
            {ClassCol::GpusColumn, "gaussian 4", "unknown distribution \"gaussian\""},
            {ClassCol::DurationColumn, "lognormal 2 h", "lognormal takes a median and σ"},
            {ClassCol::MfuColumn, "lots", "MFU: \"lots\" is not a number"},
        };
        for (const Case& c : cases) {
            QVERIFY(!m->setData(m->index(0, c.column), c.value, Qt::EditRole));
            QVERIFY2(m->lastRefusal().contains(c.reason), qPrintable(m->lastRefusal()));
            QVERIFY2(panel->reason().contains(c.reason), qPrintable(panel->reason()));
            QCOMPARE(scenarioToJson(f.doc.scenario()), before);
            QCOMPARE(f.doc.undoStack()->count(), 0);
        }
        // The demand box refuses nothing it can hold, but the edit function bounds it.
        QVERIFY(setDemandMultiplier(f.doc.scenario(), 0).refusal.contains("above 0"));
    }

    void engineActiveIsEditedBesideSmActivity() {
        // The notebook class is 15 % SM active on whole GPUs: its engine activity may be
        // anything from 15 % up; blank is "as SM activity" (unset).
        Fixture f;
        ui::JobClassTableModel* m = f.window->workload()->classModel();
        const int row = classRow(f.doc.scenario(), "notebook");
        QCOMPARE(ClassCol::EngineActiveColumn, ClassCol::SmActivityColumn + 1);
        QCOMPARE(ui::JobClassTableModel::titles().value(ClassCol::EngineActiveColumn),
                 QStringLiteral("Engine active"));
        const QModelIndex cell = m->index(row, ClassCol::EngineActiveColumn);
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(), QStringLiteral("as SM"));
        const std::string before = scenarioToJson(f.doc.scenario());
        QVERIFY(m->setData(cell, "70", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[row].traits.engineActive, std::optional<double>(0.7));
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(), QStringLiteral("70 %"));
        QVERIFY(m->setData(cell, "", Qt::EditRole));
        QVERIFY(!f.doc.scenario().jobClasses[row].traits.engineActive);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        // Below the SM activity: the reader's rule refuses it, with its place, and nothing
        // changes.
        const std::string unset = scenarioToJson(f.doc.scenario());
        QVERIFY(!m->setData(cell, "10", Qt::EditRole));
        QVERIFY2(m->lastRefusal().contains("below the SM activity it implies, 0.15"),
                 qPrintable(m->lastRefusal()));
        QCOMPARE(scenarioToJson(f.doc.scenario()), unset);
        QCOMPARE(f.doc.undoStack()->count(), 2);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
    }

    void distributionsAreEditedAsText() {
        Fixture f;
        ui::JobClassTableModel* m = f.window->workload()->classModel();
        const int row = classRow(f.doc.scenario(), "notebook");
        const QModelIndex cell = m->index(row, ClassCol::DurationColumn);
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(),
                 QStringLiteral("lognormal median 2 h σ 0.6"));
        QVERIFY(m->setData(cell, "lognormal median 30 min σ 0.5", Qt::EditRole));
        const DistributionDef& d = f.doc.scenario().jobClasses[row].durationS;
        QCOMPARE(d.kind, DistKind::Lognormal);
        QCOMPARE(d.median, 1800.0);
        QCOMPARE(d.sigma, 0.5);
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(),
                 QStringLiteral("lognormal median 30 min σ 0.5"));
        // The arrival process is text too: its shown form reads back unchanged.
        const QModelIndex arrival = m->index(row, ClassCol::ArrivalColumn);
        QCOMPARE(m->data(arrival, Qt::DisplayRole).toString(),
                 QStringLiteral("diurnal ±90 % peak 11 h"));
        QVERIFY(m->setData(arrival, "diurnal 40 % 9", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[row].arrival.amplitude, 0.4);
        QCOMPARE(f.doc.scenario().jobClasses[row].arrival.peakHourOfDay, 9.0);
        QVERIFY(m->setData(arrival, "poisson", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[row].arrival.process, ArrivalProcess::Poisson);
        QCOMPARE(f.doc.undoStack()->count(), 3);
        // Every kind writes text that reads back to the same distribution.
        for (const char* text :
             {"fixed 8 GPUs", "exponential mean 4 GPUs", "uniform 1 to 8 GPUs",
              "empirical 1:3, 8:1 GPUs", "lognormal median 4 GPUs σ 0.5 max 64 GPUs"}) {
            QString error;
            const auto parsed = ui::parseDistribution(text, ui::Quantity::Gpus, &error);
            QVERIFY2(parsed, qPrintable(error));
            QCOMPARE(ui::formatDistribution(*parsed, ui::Quantity::Gpus), QString(text));
        }
        QString error;
        const auto u =
            ui::parseDistribution("uniform 30 to 90 min", ui::Quantity::DurationS, &error);
        QVERIFY2(u, qPrintable(error));
        QCOMPARE(u->low, 1800.0);
        QCOMPARE(u->high, 5400.0);
    }

    void theDistributionDialogWritesTheCellText() {
        Fixture f;
        ui::JobClassTableModel* m = f.window->workload()->classModel();
        const int row = classRow(f.doc.scenario(), "notebook");
        // Opens on the class's lognormal median 2 h σ 0.6.
        ui::DistributionDialog dialog(f.doc.scenario().jobClasses[row].durationS,
                                      ui::Quantity::DurationS);
        QCOMPARE(dialog.kindBox()->currentText(), QStringLiteral("lognormal"));
        QCOMPARE(dialog.firstField()->text(), QStringLiteral("2 h"));
        QCOMPARE(dialog.secondField()->text(), QStringLiteral("0.6"));
        // Uniform between 30 and 90 minutes, at most an hour and a quarter.
        dialog.kindBox()->setCurrentText(QStringLiteral("uniform"));
        dialog.firstField()->setText(QStringLiteral("30 min"));
        dialog.secondField()->setText(QStringLiteral("90 min"));
        dialog.maxField()->setText(QStringLiteral("75 min"));
        QCOMPARE(dialog.error(), QString());
        QCOMPARE(dialog.text(), QStringLiteral("uniform 30 min to 1.5 h max 1.25 h"));
        QVERIFY(m->setData(m->index(row, ClassCol::DurationColumn), dialog.text(), Qt::EditRole));
        const DistributionDef& d = f.doc.scenario().jobClasses[row].durationS;
        QCOMPARE(d.kind, DistKind::Uniform);
        QCOMPARE(d.low, 1800.0);
        QCOMPARE(d.high, 5400.0);
        QCOMPARE(*d.max, 4500.0);
        // Fields that make no distribution keep the dialog open with the reason.
        dialog.firstField()->setText(QStringLiteral("soon"));
        QVERIFY(dialog.error().contains("did not understand \"soon\""));
        QCOMPARE(dialog.text(), QString());
    }

    void renamingATeamFollowsItsReferences() {
        Fixture f;
        ui::TeamTableModel* teams = f.window->workload()->teamModel();
        const std::string before = scenarioToJson(f.doc.scenario());
        int product = -1;
        for (int r = 0; r < teams->rowCount(); ++r)
            if (teams->data(teams->index(r, 0), Qt::DisplayRole) == "product") product = r;
        QVERIFY(product >= 0);
        QVERIFY(teams->setData(teams->index(product, 0), "prod", Qt::EditRole));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        for (const char* cls : {"serving", "batch-inference"})
            QCOMPARE(f.doc.scenario().jobClasses[classRow(f.doc.scenario(), cls)].traits.team,
                     std::string("prod"));
        // A name another team has is refused.
        QVERIFY(!teams->setData(teams->index(product, 0), "research", Qt::EditRole));
        QVERIFY(teams->lastRefusal().contains("already a team \"research\""));
        // A team still running classes cannot be removed.
        QVERIFY(removeTeam(f.doc.scenario(), product).refusal.contains("still runs class serving"));
        // Colours: a picked or typed colour; nonsense refused.
        QVERIFY(teams->setData(teams->index(product, 1), "#112233", Qt::EditRole));
        QCOMPARE(f.doc.scenario().teams[product].color, std::string("#112233"));
        QVERIFY(!teams->setData(teams->index(product, 1), "blurple", Qt::EditRole));
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
    }

    void classesAreAddedDuplicatedAndRemoved() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        const std::string before = scenarioToJson(f.doc.scenario());
        const std::size_t n = f.doc.scenario().jobClasses.size();
        const int serving = classRow(f.doc.scenario(), "serving");
        QVERIFY(panel->commit(duplicateJobClass(f.doc.scenario(), serving)).isEmpty());
        const JobClassDef& copy = f.doc.scenario().jobClasses[serving + 1];
        QCOMPARE(copy.name, std::string("serving-copy"));
        QCOMPARE(copy.traits, f.doc.scenario().jobClasses[serving].traits);
        QVERIFY(panel->commit(addJobClass(f.doc.scenario())).isEmpty());
        QCOMPARE(f.doc.scenario().jobClasses.back().name, std::string("class-1"));
        QVERIFY(panel->commit(removeJobClass(f.doc.scenario(), serving)).isEmpty());
        QCOMPARE(f.doc.scenario().jobClasses.size(), n + 1);
        QCOMPARE(panel->classModel()->rowCount(), static_cast<int>(n + 1));
        QCOMPARE(f.doc.undoStack()->count(), 3);
        QVERIFY(f.waitForResults());
        QVERIFY(jobsOfClass(*f.window->results(), "serving-copy") > 0);
        QCOMPARE(jobsOfClass(*f.window->results(), "serving"), 0);
        for (int i = 0; i < 3; ++i)
            f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
    }

    void explicitJobsIncludingDropsAreEditable() {
        Fixture f;
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node1"), ui::kTemplateMime, "ready:notebook");
        ui::ExplicitJobTableModel* jobs = f.window->workload()->jobModel();
        QCOMPARE(jobs->rowCount(), 2);
        QCOMPARE(jobs->data(jobs->index(1, JobCol::NameColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("drop-notebook-1"));
        QCOMPARE(jobs->data(jobs->index(1, JobCol::PinColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("node pod-a-rack2-node1"));
        const std::string before = scenarioToJson(f.doc.scenario());
        QVERIFY(jobs->setData(jobs->index(1, JobCol::GpusColumn), "4", Qt::EditRole));
        QVERIFY(jobs->setData(jobs->index(1, JobCol::SubmitColumn), "30 min", Qt::EditRole));
        QVERIFY(jobs->setData(jobs->index(1, JobCol::PinColumn), "rack pod-b-rack0", Qt::EditRole));
        QVERIFY(jobs->setData(jobs->index(1, JobCol::TeamColumn), "product", Qt::EditRole));
        const JobDef& j = f.doc.scenario().jobs[1];
        QCOMPARE(j.gpus, 4);
        QCOMPARE(j.submitS, 1800.0);
        QCOMPARE(j.traits.pin.level, PinLevel::Rack);
        QCOMPARE(j.traits.team, std::string("product"));
        QVERIFY(!jobs->setData(jobs->index(1, JobCol::PinColumn), "node nowhere", Qt::EditRole));
        QVERIFY2(jobs->lastRefusal().contains("no node named \"nowhere\""),
                 qPrintable(jobs->lastRefusal()));
        QVERIFY(f.waitForResults());
        const JobRecord* rec = findJob(*f.window->results(), "drop-notebook-1");
        QVERIFY(rec);
        QCOMPARE(rec->spec.gpus, 4);
        for (int i = 0; i < 4; ++i)
            f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
    }

    void droppingAClassTemplateKeepsItsTeamAndPriority() {
        Fixture f;
        // The palette lists the scenario's classes (first) and the built-in templates.
        QListWidget* list = f.window->palette()->list();
        QStringList ids;
        for (int i = 0; i < list->count(); ++i)
            ids << list->item(i)->data(Qt::UserRole).toString();
        QVERIFY(ids.indexOf("class:serving") >= 0);
        QVERIFY(ids.indexOf("ready:notebook") > ids.indexOf("class:serving"));
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node1"), ui::kTemplateMime, "class:serving");
        QVERIFY2(f.doc.scenario().jobs.size() == 2, qPrintable(f.status()));
        const JobDef& dropped = f.doc.scenario().jobs.back();
        QCOMPARE(dropped.traits.team, std::string("product"));
        QCOMPARE(dropped.traits.priority, 1000);
    }

    void choosingATeamInThePaletteGivesThatTeam() {
        Fixture f;
        f.window->palette()->setTeamOverride("data-science");
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node1"), ui::kTemplateMime, "ready:notebook");
        QCOMPARE(f.doc.scenario().jobs.back().traits.team, std::string("data-science"));
        // The choice overrides a class template's team too, keeping its priority.
        f.window->palette()->setTeamOverride("applied");
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node2"), ui::kTemplateMime, "class:serving");
        QCOMPARE(f.doc.scenario().jobs.back().traits.team, std::string("applied"));
        QCOMPARE(f.doc.scenario().jobs.back().traits.priority, 1000);
        QVERIFY(f.doc.undoStack()->undoText().contains("for team applied"));
        // Back to the template's own team.
        f.window->palette()->setTeamOverride(QString());
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node3"), ui::kTemplateMime, "class:serving");
        QCOMPARE(f.doc.scenario().jobs.back().traits.team, std::string("product"));
    }

    void thePaletteSetsADropsPriorityAndSaysWhatItIs() {
        Fixture f;
        ui::JobPalette* palette = f.window->palette();
        // The built-in templates say they run at priority 0, below the default preset's
        // classes (lowest: 20).
        QListWidget* list = palette->list();
        QString tip;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toString() == "ready:fine-tune")
                tip = list->item(i)->toolTip();
        QVERIFY2(tip.contains("Priority 0, below every job class"), qPrintable(tip));
        // Chosen in the palette's boxes, as a user does.
        palette->priorityModeBox()->setCurrentIndex(1);
        palette->priorityBox()->setValue(500);
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node1"), ui::kTemplateMime, "ready:notebook");
        QVERIFY2(f.doc.scenario().jobs.size() == 2, qPrintable(f.status()));
        QCOMPARE(f.doc.scenario().jobs.back().traits.priority, 500);
        QVERIFY(f.doc.undoStack()->undoText().endsWith("at priority 500"));
        // It overrides a class template's priority too; "the template's" gives it back.
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node2"), ui::kTemplateMime, "class:serving");
        QCOMPARE(f.doc.scenario().jobs.back().traits.priority, 500);
        palette->priorityModeBox()->setCurrentIndex(0);
        f.dropOnNode(f.nodeIndex("pod-a-rack2-node3"), ui::kTemplateMime, "class:serving");
        QCOMPARE(f.doc.scenario().jobs.back().traits.priority, 1000);
    }

    void aDropThatWouldNotStartSaysItsPriorityAndWhenItsReasonHolds() {
        Fixture f;
        // An hour before the horizon, one fine-tune takes a whole node for six hours; a
        // second one there cannot start before the horizon whatever the fleet does.
        const double timeS = f.doc.scenario().horizonS - 3600;
        ui::TopologyHit target;
        target.kind = ui::TopologyHit::Kind::Node;
        target.node = f.nodeIndex("pod-a-rack2-node1");
        QVERIFY(f.window->drops()
                    .drop(DropRequest{target, ui::kTemplateMime, "ready:fine-tune", timeS, {}})
                    .accepted);
        QSignalSpy feedback(&f.window->drops(), &DropController::feedback);
        f.window->drops().hover(
            DropRequest{target, ui::kTemplateMime, "ready:fine-tune", timeS, {}});
        QTRY_VERIFY_WITH_TIMEOUT(feedback.last().at(2).toString().contains("horizon"), 10000);
        const QString text = feedback.last().at(2).toString();
        QVERIFY2(text.contains("at priority 0 would not start before the horizon"),
                 qPrintable(text));
        QVERIFY2(text.contains("at the end of the run: "), qPrintable(text));
        QVERIFY2(text.contains("below every job class (20 to 1000)"), qPrintable(text));
    }
};

GPUPLAN_APP_TEST("test_workload_editor", WorkloadEditorTest);
#include "test_workload_editor.moc"
