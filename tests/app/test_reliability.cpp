// QtTest, offscreen: failures and checkpoints in the application. The default
// preset (256 H100 GPUs in 32 nodes of 8, one week, priced, no random failures, no
// checkpoint costs) with:
//   - "Mark failed from t" on a node busy at t: the run has the Failed change at t, the
//     charts a failure mark there, the job that was on the node a restart; undo takes all
//     three away;
//   - the Failures group (Scheduler and run): on, MTBF, repair time, hot spares, each an undo
//     step that re-runs; refused values leave the scenario as it was;
//   - the class table's checkpoint interval and cost, and its Young / Daly column from the
//     last run's advice;
//   - thousands of failures merged into marks at least EventMarkers::kMergePx apart.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <cmath>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "buying_mix/reliability_edits.hpp"
#include "buying_mix/reliability_group.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"
#include "charts/event_markers.hpp"
#include "fleet/fleet_context_menu.hpp"
#include "format/ui_palette.hpp"
#include "format/workload_format.hpp"
#include "gpuplan/economics/checkpoint_advice.hpp"
#include "tables/workload_models.hpp"
#include "workload/scheduler_panel.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

constexpr double kHourS = 3600;

std::string json(const ScenarioDocument& doc) {
    return scenarioToJson(doc.scenario());
}

void enter(QDoubleSpinBox* box, double value) {
    box->setValue(value);
    emit box->editingFinished();
}

/// Whether `node` has a Failed change at exactly `timeS` in the run.
bool failedAt(const Results& r, std::uint32_t node, double timeS) {
    for (const NodeStateChange& c : r.nodeChanges)
        if (c.node == node && c.state == NodeState::Failed && c.timeS == timeS) return true;
    return false;
}

/// The marks of node failures on a chart that span `timeS`.
int failureMarksAt(const ui::ChartPanel* chart, double timeS) {
    int n = 0;
    for (const ui::EventMark& m : chart->eventMarkers().marks())
        n += ui::eventKinds()[m.kind].id == std::string("node_failure") && m.firstS <= timeS &&
             timeS <= m.lastS;
    return n;
}

/// The job of that name in a run (generated names are stable from run to run).
std::optional<std::uint32_t> jobNamed(const Results& r, const std::string& name) {
    for (std::uint32_t j = 0; j < r.jobs.size(); ++j)
        if (r.jobName(j) == name) return j;
    return std::nullopt;
}

int classRow(const Scenario& s, const std::string& name) {
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i)
        if (s.jobClasses[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace

class ReliabilityTest : public QObject {
    Q_OBJECT
private slots:
    void markFailedShowsTheFailureAndTheRestartUndoTakesBothAway() {
        Fixture f;
        const std::shared_ptr<const Results> before = f.window->results();
        QVERIFY(!before->findKpi("node_failures") || before->findKpi("node_failures")->value == 0);
        // A job running at 30 h with no restart so far, and a node it runs on.
        const double t = 30 * kHourS;
        std::optional<std::uint32_t> job, node;
        for (const RunSegment& seg : before->segments) {
            if (!(seg.startS < t - 60 && seg.endS > t + 60) || seg.crashLoop) continue;
            if (before->interruptionsOf(seg.job).restarts != 0) continue;
            job = seg.job;
            node = before->placementOf(seg).front().node;
            break;
        }
        QVERIFY(job && node);
        const std::string jobName = before->jobName(*job);
        const std::string nodeName = before->fleet.nodes[*node].name;
        const FleetNode& n = before->fleet.nodes[*node];
        const FleetTarget target{QString::fromStdString(before->fleet.pods[n.pod].name),
                                 QString::fromStdString(before->fleet.racks[n.rack].name),
                                 QString::fromStdString(nodeName)};
        QVERIFY(!failedAt(*before, *node, t));
        for (const ui::ChartPanel* chart : f.window->charts()->charts())
            QCOMPARE(failureMarksAt(chart, t), 0);

        const std::string scenarioBefore = json(f.doc);
        f.window->scrubber()->setTime(t);
        QMenu menu;
        f.window->fleetMenu()->fill(&menu, target, t);
        QAction* fail = menu.findChild<QAction*>(QStringLiteral("failNode"));
        QVERIFY(fail);
        fail->trigger();
        QVERIFY(f.waitForResults());
        const std::shared_ptr<const Results> after = f.window->results();
        QVERIFY(failedAt(*after, *node, t));
        // The mark on the utilization and the cost chart (every chart has it), and what
        // hovering there says.
        ui::ChartBoard* board = f.window->charts();
        for (const ui::ChartPanel* chart : {board->charts().front(), board->cost()}) {
            QCOMPARE(failureMarksAt(chart, t), 1);
            QVERIFY2(chart->valuesAt(t).contains(
                         QStringLiteral("node failure at %1:\n  %2")
                             .arg(ui::formatSimTime(t), QString::fromStdString(nodeName))),
                     qPrintable(chart->valuesAt(t)));
        }
        const auto again = jobNamed(*after, jobName);
        QVERIFY(again);
        QVERIFY(after->interruptionsOf(*again).restarts >= 1);

        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), scenarioBefore);
        QVERIFY(f.waitForResults());
        const std::shared_ptr<const Results> undone = f.window->results();
        QVERIFY(!failedAt(*undone, *node, t));
        for (const ui::ChartPanel* chart : board->charts())
            QCOMPARE(failureMarksAt(chart, t), 0);
        QVERIFY(!board->charts().front()->valuesAt(t).contains("node failure"));
        QCOMPARE(undone->interruptionsOf(*jobNamed(*undone, jobName)).restarts, 0);
    }

    void failuresGroupEditsRerunsAndUndoes() {
        Fixture f;
        ReliabilityGroup* group = f.window->schedulerPanel()->reliabilityGroup();
        QVERIFY(!f.doc.scenario().failures);
        QVERIFY(!group->failuresBox()->isChecked());
        QVERIFY(!group->mtbfBox()->isEnabled());
        // Llama 3's MTBF, shown rounded: 16,384 × 54 × 24 / 419 = 50,676.7.
        QCOMPARE(group->mtbfBox()->value(), 50677.0);
        QVERIFY(group->mtbfBox()->toolTip().contains("16,384 × 54 × 24 / 419"));
        // The group made the Scheduler and run dock taller than the room under the palette:
        // scrolled, it leaves the window within a 1000 px screen.
        QVERIFY2(f.window->minimumSizeHint().height() <= 1000,
                 qPrintable(QString::number(f.window->minimumSizeHint().height())));
        const std::string before = json(f.doc);

        group->failuresBox()->click();
        QVERIFY(f.doc.scenario().failures);
        QCOMPARE(f.doc.scenario().failures->mtbfGpuHours, FailureDef::kLlama3MtbfGpuHours);
        QCOMPARE(f.doc.scenario().failures->repairS, ReliabilityGroup::kStartRepairS);
        QVERIFY(group->mtbfBox()->isEnabled());
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->failureMtbfGpuHours, FailureDef::kLlama3MtbfGpuHours);
        // Leaving the box unchanged keeps the exact MTBF (not the 50,677 it shows).
        const int steps = f.doc.undoStack()->count();
        emit group->mtbfBox()->editingFinished();
        QCOMPARE(f.doc.undoStack()->count(), steps);

        // 500 GPU-h per GPU: 256 GPUs × 168 h / 500 ≈ 86 failures expected in the week.
        enter(group->mtbfBox(), 500);
        QCOMPARE(f.doc.scenario().failures->mtbfGpuHours, 500.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->failureMtbfGpuHours, 500.0);
        const double failures = f.window->results()->findKpi("node_failures")->value;
        QVERIFY2(failures > 40 && failures < 140, qPrintable(QString::number(failures)));
        QVERIFY(f.window->charts()->charts().front()->eventMarkers().eventCount() >= failures);
        enter(group->repairHoursBox(), 12);
        QCOMPARE(f.doc.scenario().failures->repairS, 12 * kHourS);

        // Refused, as the reader refuses them: the scenario and its history stay.
        const std::string accepted = json(f.doc);
        const int acceptedSteps = f.doc.undoStack()->count();
        enter(group->mtbfBox(), 0);
        QVERIFY2(group->refusal().contains("MTBF"), qPrintable(group->refusal()));
        QVERIFY(f.status().startsWith("Refused"));
        QCOMPARE(group->mtbfBox()->value(), 500.0);  // back to what the document holds
        enter(group->repairHoursBox(), 0);
        QVERIFY2(group->refusal().contains("repair time"), qPrintable(group->refusal()));
        QCOMPARE(json(f.doc), accepted);
        QCOMPARE(f.doc.undoStack()->count(), acceptedSteps);

        // The Llama 3 button puts the default back; off, then undo it all.
        group->llama3Button()->click();
        QCOMPARE(f.doc.scenario().failures->mtbfGpuHours, FailureDef::kLlama3MtbfGpuHours);
        group->failuresBox()->click();
        QVERIFY(!f.doc.scenario().failures);
        QVERIFY(!group->failuresBox()->isChecked());
        f.doc.undoStack()->undo();  // on again, Llama 3's MTBF
        QVERIFY(group->failuresBox()->isChecked());
        while (f.doc.undoStack()->canUndo())
            f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QVERIFY(!group->failuresBox()->isChecked());
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->failureMtbfGpuHours, 0.0);
        for (const ui::ChartPanel* chart : f.window->charts()->charts())
            QVERIFY(chart->eventMarkers().marks().empty());
    }

    void checkpointIntervalAndCostPerClassWithYoungAndDaly() {
        Fixture f;
        using C = ui::JobClassTableModel;
        ui::JobClassTableModel* model = f.window->workload()->classModel();
        const int row = classRow(f.doc.scenario(), "pretrain");
        QVERIFY(row >= 0);
        const JobTraitsDef traits = f.doc.scenario().jobClasses[row].traits;
        QCOMPARE(traits.checkpointCostS, 0.0);
        const std::string before = json(f.doc);
        auto cell = [&](int column) { return model->index(row, column); };
        auto shown = [&](int column) { return model->data(cell(column), Qt::DisplayRole); };
        QCOMPARE(shown(C::CheckpointAdviceColumn).toString(), QStringLiteral("—"));
        QVERIFY(model->data(cell(C::CheckpointAdviceColumn), Qt::ToolTipRole)
                    .toString()
                    .contains("no random failures"));
        QVERIFY(!(model->flags(cell(C::CheckpointAdviceColumn)) & Qt::ItemIsEditable));

        // Without an interval, a cost is refused as the reader refuses it.
        if (traits.checkpointIntervalS > 0)
            QVERIFY(model->setData(cell(C::CheckpointIntervalColumn), "never", Qt::EditRole));
        const std::string noInterval = json(f.doc);
        QVERIFY(!model->setData(cell(C::CheckpointCostColumn), "5 min", Qt::EditRole));
        QVERIFY2(model->lastRefusal().contains("checkpoint cost"),
                 qPrintable(model->lastRefusal()));
        QVERIFY(model->lastRefusal().contains("checkpointIntervalS"));
        QCOMPARE(json(f.doc), noInterval);
        QVERIFY(!model->setData(cell(C::CheckpointIntervalColumn), "soon", Qt::EditRole));
        QVERIFY(!model->setData(cell(C::CheckpointIntervalColumn), "-1 h", Qt::EditRole));
        QCOMPARE(json(f.doc), noInterval);

        QVERIFY(model->setData(cell(C::CheckpointIntervalColumn), "1 h", Qt::EditRole));
        QVERIFY(model->setData(cell(C::CheckpointCostColumn), "5 min", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[row].traits.checkpointIntervalS, 3600.0);
        QCOMPARE(f.doc.scenario().jobClasses[row].traits.checkpointCostS, 300.0);
        QCOMPARE(shown(C::CheckpointIntervalColumn).toString(), QStringLiteral("1 h"));
        QCOMPARE(shown(C::CheckpointCostColumn).toString(), QStringLiteral("5 min"));
        // An interval of never while the cost stands is refused too.
        const std::string withCost = json(f.doc);
        QVERIFY(!model->setData(cell(C::CheckpointIntervalColumn), "never", Qt::EditRole));
        QCOMPARE(json(f.doc), withCost);
        QVERIFY(f.waitForResults());
        QCOMPARE(shown(C::CheckpointAdviceColumn).toString(), QStringLiteral("—"));  // no failures

        // Failures on: Young √(2 · 300 s · M) for the class's job MTBF M.
        f.window->schedulerPanel()->reliabilityGroup()->failuresBox()->click();
        enter(f.window->schedulerPanel()->reliabilityGroup()->mtbfBox(), 2000);
        QVERIFY(f.waitForResults());
        const std::vector<CheckpointAdvice> advice = checkpointAdvice(*f.window->results());
        const auto a = std::find_if(advice.begin(), advice.end(), [](const CheckpointAdvice& x) {
            return x.source == "pretrain";
        });
        QVERIFY(a != advice.end());
        QCOMPARE(a->configured.costS, 300.0);
        QVERIFY(a->gpusExposed >= 8);
        const double mtbfS = 2000 * kHourS / a->gpusExposed;
        QVERIFY(std::abs(a->youngS - std::sqrt(2 * 300 * mtbfS)) < 1e-6 * a->youngS);
        QCOMPARE(shown(C::CheckpointAdviceColumn).toString(),
                 QStringLiteral("%1 / %2").arg(ui::formatDuration(a->youngS),
                                               ui::formatDuration(a->dalyS)));
        QVERIFY(model->data(cell(C::CheckpointAdviceColumn), Qt::ToolTipRole)
                    .toString()
                    .contains("checkpoints every 1 h"));
        // Another class without a cost says so.
        const int other = classRow(f.doc.scenario(), "notebook");
        QVERIFY(other >= 0);
        QCOMPARE(
            model->data(model->index(other, C::CheckpointAdviceColumn), Qt::DisplayRole).toString(),
            QStringLiteral("—"));
        QVERIFY(model->data(model->index(other, C::CheckpointAdviceColumn), Qt::ToolTipRole)
                    .toString()
                    .contains("Set a checkpoint cost"));

        while (f.doc.undoStack()->canUndo())
            f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), before);
        QVERIFY(f.waitForResults());
        QCOMPARE(shown(C::CheckpointAdviceColumn).toString(), QStringLiteral("—"));
    }

    void failureEditsKeepTheHotSpares() {
        // A scenario with two hot spares: switching failures on again or changing the MTBF
        // and repair time must not drop them.
        Scenario s;
        s.failures = FailureDef{5000, 3600, 2};
        QCOMPARE(setRandomFailures(s, true, 800, 7200).after.failures->hotSpareNodes, 2);
        QCOMPARE(setMtbfGpuHours(s, 900).after.failures->hotSpareNodes, 2);
        QCOMPARE(setRepairS(s, 60).after.failures->hotSpareNodes, 2);
    }

    void hotSparesBoxCallsSparesInAndUndoes() {
        // Failures at 500 GPU-h per GPU, 12 h repairs: ~86 failures in the week. Two spares
        // (the last two nodes, cordoned until called): each failure brings one in at once.
        Fixture f;
        ReliabilityGroup* group = f.window->schedulerPanel()->reliabilityGroup();
        QVERIFY(!group->sparesBox()->isEnabled());
        group->failuresBox()->click();
        enter(group->mtbfBox(), 500);
        enter(group->repairHoursBox(), 12);
        QVERIFY(group->sparesBox()->isEnabled());
        QCOMPARE(group->sparesBox()->value(), 0);
        QVERIFY(f.waitForResults());
        const std::string noSpares = json(f.doc);
        const auto sparesIn = [&] {
            int n = 0;
            for (const NodeStateChange& c : f.window->results()->nodeChanges)
                n += c.cause == NodeChangeCause::SpareIn;
            return n;
        };
        QCOMPARE(sparesIn(), 0);

        group->sparesBox()->setValue(2);
        QCOMPARE(f.doc.scenario().failures->hotSpareNodes, 2);
        QVERIFY(f.waitForResults());
        QVERIFY2(sparesIn() > 0, qPrintable(QString::number(sparesIn())));

        // More spares than the fleet's 32 nodes: refused by the reader's rule, nothing changes.
        const std::string accepted = json(f.doc);
        group->sparesBox()->setValue(40);
        QVERIFY2(group->refusal().contains("spare"), qPrintable(group->refusal()));
        QCOMPARE(json(f.doc), accepted);
        QCOMPARE(group->sparesBox()->value(), 2);

        f.doc.undoStack()->undo();
        QCOMPARE(json(f.doc), noSpares);
        QCOMPARE(group->sparesBox()->value(), 0);
    }

    void thousandsOfFailuresMergeIntoFewMarks() {
        Fixture f;
        Scenario s = f.doc.scenario();
        // 256 GPUs × 168 h / 10 GPU-h ≈ 4,300 failures in the week.
        s.failures = FailureDef{10, 600};
        QCOMPARE(f.doc.edit(s, QStringLiteral("many failures")), QString());
        QVERIFY(f.waitForResults());
        const double failures = f.window->results()->findKpi("node_failures")->value;
        QVERIFY(failures > 3000);
        for (const ui::ChartPanel* chart : f.window->charts()->charts()) {
            const ui::EventMarkers& markers = chart->eventMarkers();
            const std::vector<ui::EventMark>& marks = markers.marks();
            QVERIFY(!marks.empty());
            QVERIFY2(marks.size() < failures / 4, qPrintable(QString::number(marks.size())));
            std::size_t drawn = 0;
            for (std::size_t i = 0; i < marks.size(); ++i) {
                drawn += marks[i].count;
                if (i > 0) QVERIFY(marks[i].xPx - marks[i - 1].xPx >= ui::EventMarkers::kMergePx);
            }
            QCOMPARE(drawn, markers.eventCount());  // every failure is in some mark
            // A merged mark's hover says how many, names the first and counts the rest.
            const auto busiest = std::max_element(
                marks.begin(), marks.end(),
                [](const ui::EventMark& x, const ui::EventMark& y) { return x.count < y.count; });
            QVERIFY(busiest->count > 1);
            const QString hover = chart->valuesAt(busiest->firstS);
            QVERIFY(hover.contains(QStringLiteral("%1 node failures, ").arg(busiest->count)));
            QVERIFY(hover.contains(QStringLiteral("and %1 more").arg(busiest->count - 1)));
        }
    }
};

GPUPLAN_APP_TEST("test_reliability", ReliabilityTest);
#include "test_reliability.moc"
