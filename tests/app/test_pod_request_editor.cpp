// QtTest, offscreen: the workload panel's pod request editor. Selecting a class or an explicit
// job in the tables shows its traits; a value typed there is one validated, undoable edit of
// that class or job, read by the units the row shows; a value it cannot read changes nothing
// and says why. Lesson 3.1's first step, done by hand in this editor, has the lesson's effect.
#include <QTableView>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "tables/pod_request_model.hpp"
#include "tables/workload_models.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;
using Row = ui::PodRequestModel::Row;
using Col = ui::PodRequestModel::Column;

namespace {

/// Makes row `row` of the class table (tab 0) or the job table (tab 2) current.
void select(WorkloadPanel* panel, bool job, int row) {
    panel->tabs()->setCurrentIndex(job ? 2 : 0);
    QTableView* view = job ? panel->jobView() : panel->classView();
    view->setCurrentIndex(view->model()->index(row, 0));
}

QString shown(ui::PodRequestModel* m, int row) {
    return m->data(m->index(row, Col::ValueColumn), Qt::DisplayRole).toString();
}

bool type(ui::PodRequestModel* m, int row, const char* text) {
    return m->setData(m->index(row, Col::ValueColumn), QString::fromUtf8(text), Qt::EditRole);
}

}  // namespace

class PodRequestEditorTest : public QObject {
    Q_OBJECT
private slots:
    void aClassRequestIsEditedInItsUnitsAndUndone() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        QCOMPARE(m->rowCount(), 0);  // nothing selected yet
        select(panel, false, 0);
        QCOMPARE(m->rowCount(), int(Row::RowCount));
        QCOMPARE(m->targetName(), QStringLiteral("class ") +
                                      QString::fromStdString(f.doc.scenario().jobClasses[0].name));
        const std::string before = scenarioToJson(f.doc.scenario());
        // 24 cores = 24,000 milli-cores; 0.25 of a GPU and 250m are the same share.
        QVERIFY(type(m, Row::CpuRow, "24"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.cpuMilliPerPod, 24000);
        QCOMPARE(shown(m, Row::CpuRow), QStringLiteral("24 cores"));
        QVERIFY(type(m, Row::HostMemoryRow, "64 GiB"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.memoryMiBPerPod, 64 * 1024);
        QVERIFY(type(m, Row::StartupRow, "5 min"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.startupS, 300.0);
        // The words a user types for the same amounts: 500m = 0.5 cores; 8 CPUs = 8 cores;
        // 64Gi = 64 GiB; 512 MiB stays MiB; 4 GPUs per pod.
        QVERIFY(type(m, Row::CpuRow, "500m"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.cpuMilliPerPod, 500);
        QVERIFY(type(m, Row::CpuRow, "8 CPUs"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.cpuMilliPerPod, 8000);
        QVERIFY(type(m, Row::HostMemoryRow, "512 MiB"));
        QCOMPARE(shown(m, Row::HostMemoryRow), QStringLiteral("512 MiB"));
        QVERIFY(type(m, Row::HostMemoryRow, "64Gi"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.memoryMiBPerPod, 64 * 1024);
        QVERIFY(type(m, Row::GpusPerPodRow, "4 GPUs"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.gpusPerPod, 4);
        // Blank is the default: SM activity 80 %.
        QVERIFY(type(m, Row::SmActivityRow, "60 %"));
        QVERIFY(type(m, Row::SmActivityRow, ""));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.smActivity, 0.8);
        QVERIFY(type(m, Row::PreemptionRow, "never"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.preemptionPolicy, PreemptionPolicy::Never);
        QCOMPARE(f.doc.undoStack()->count(), 11);
        QVERIFY(f.doc.undoStack()->text(0).contains("CPU per pod of class"));
        for (int i = 0; i < 11; ++i)
            f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        QCOMPARE(shown(m, Row::CpuRow), QStringLiteral("not asked"));
    }

    void aShareIsAFractionOrMilliGpus() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        // pretrain's 32- and 64-GPU jobs cannot take a share of one GPU: the reader's rule.
        select(panel, false, 0);
        QVERIFY(!type(m, Row::GpuShareRow, "0.25"));
        QVERIFY2(m->lastRefusal().contains("a pod with a GPU share or a MIG instance has one GPU"),
                 qPrintable(m->lastRefusal()));
        // notebook's jobs have one GPU: a quarter of one is a share.
        select(panel, false, 4);
        QCOMPARE(m->targetName(), QStringLiteral("class notebook"));
        QVERIFY(type(m, Row::GpuShareRow, "0.25"));
        QCOMPARE(f.doc.scenario().jobClasses[4].traits.gpuMilli, 250);
        QCOMPARE(shown(m, Row::GpuShareRow), QStringLiteral("0.25 of a GPU (250m)"));
        QVERIFY(type(m, Row::GpuShareRow, "300m"));
        QCOMPARE(f.doc.scenario().jobClasses[4].traits.gpuMilli, 300);
        QVERIFY(type(m, Row::GpuShareRow, ""));
        QCOMPARE(f.doc.scenario().jobClasses[4].traits.gpuMilli, 1000);
        // A MIG profile as nvidia-smi names it, whatever the case typed.
        QVERIFY(type(m, Row::MigProfileRow, "1G.10GB"));
        QCOMPARE(f.doc.scenario().jobClasses[4].traits.migProfile, std::string("1g.10gb"));
        // An instance replaces a share in one edit (a pod asks one or the other).
        QVERIFY(type(m, Row::MigProfileRow, ""));
        QVERIFY(type(m, Row::GpuShareRow, "0.5"));
        QVERIFY2(type(m, Row::MigProfileRow, "2g.20gb"), qPrintable(m->lastRefusal()));
        QCOMPARE(f.doc.scenario().jobClasses[4].traits.gpuMilli, 1000);
        QCOMPARE(shown(m, Row::GpuShareRow), QStringLiteral("whole GPUs"));
    }

    void valuesItCannotReadChangeNothingAndSayWhy() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        select(panel, false, 0);
        const std::string before = scenarioToJson(f.doc.scenario());
        struct Case {
            int row;
            const char* value;
            const char* reason;
        } cases[] = {
            {Row::GpuShareRow, "2", "a share is 0.001 to 1 GPU"},
            {Row::GpuShareRow, "0.0005", "a share is 0.001 to 1 GPU"},
            {Row::CpuRow, "-4", "CPU per pod must be 0.001 to 100000 cores"},
            {Row::CpuRow, "lots", "CPU per pod"},
            {Row::SmActivityRow, "150", "SM activity must be between 0 and 100 %"},
            // A fraction in a percentage row, and a duration without its unit, are ambiguous.
            {Row::SmActivityRow, "0.6", "write 60 % for a fraction of 0.6"},
            {Row::StartupRow, "300", "add a unit to 300 (s, min or h)"},
            // Nothing rounds to "not asked" or past the reader's bounds unseen.
            {Row::CpuRow, "0.0004", "CPU per pod must be 0.001 to 100000 cores"},
            {Row::CpuRow, "200000", "CPU per pod must be 0.001 to 100000 cores"},
            {Row::HostMemoryRow, "0", "Host memory per pod must be 1 MiB to"},
            {Row::MigProfileRow, "0 GB", "MIG instance must be between 0.001 and 100000 GB"},
            {Row::PreemptionRow, "sometimes", "\"lower priority\" or \"never\""},
            {Row::GpuModelRow, "h900", "h900"},  // the reader's rule: not in the catalog
        };
        for (const Case& c : cases) {
            QVERIFY2(!type(m, c.row, c.value), c.value);
            QVERIFY2(m->lastRefusal().contains(c.reason), qPrintable(m->lastRefusal()));
            QVERIFY2(panel->reason().contains(c.reason), qPrintable(panel->reason()));
            QCOMPARE(scenarioToJson(f.doc.scenario()), before);
            QCOMPARE(f.doc.undoStack()->count(), 0);
        }
    }

    // Precision, matmul share and arithmetic intensity (roofline.hpp): each one undoable edit;
    // what the reader refuses (an unknown format, an intensity of 0) changes nothing.
    void precisionAndIntensityAreEditedAndUndone() {
        Fixture f;
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        select(panel, false, 0);
        const std::string before = scenarioToJson(f.doc.scenario());
        QCOMPARE(shown(m, Row::PrecisionRow), QStringLiteral("BF16"));
        QCOMPARE(shown(m, Row::FlopsPerByteRow), QStringLiteral("compute-bound"));
        QVERIFY(type(m, Row::PrecisionRow, "FP8"));
        QVERIFY(f.doc.scenario().jobClasses[0].traits.precision == Precision::Fp8);
        QCOMPARE(shown(m, Row::PrecisionRow), QStringLiteral("FP8"));
        QVERIFY(type(m, Row::MatmulShareRow, "70"));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.matmulShare, 0.7);
        QVERIFY(type(m, Row::FlopsPerByteRow, "64 FLOP/B"));
        QVERIFY(f.doc.scenario().jobClasses[0].traits.flopsPerByte == 64.0);
        QCOMPARE(shown(m, Row::FlopsPerByteRow), QStringLiteral("64 FLOP/B"));
        const std::string edited = scenarioToJson(f.doc.scenario());
        QVERIFY(!type(m, Row::PrecisionRow, "fp16"));
        QVERIFY2(m->lastRefusal().contains("\"bf16\" or \"fp8\""), qPrintable(m->lastRefusal()));
        QVERIFY(!type(m, Row::FlopsPerByteRow, "0"));
        QVERIFY2(m->lastRefusal().contains("does no work"), qPrintable(m->lastRefusal()));
        QCOMPARE(scenarioToJson(f.doc.scenario()), edited);
        QCOMPARE(f.doc.undoStack()->count(), 3);
        for (int i = 0; i < 3; ++i)
            f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
    }

    // Lesson 3.1, step 1 by hand: finetune's pods ask 8 cores instead of 24, so the prep nodes
    // (16 cores free each) pass the CPU filter with two pods each, and it starts at once
    // instead of waiting 11 h for pretrain to end (the lesson file says so; its test too).
    void lesson31sFirstStepByHand() {
        Fixture f(QStringLiteral("../lessons/scenarios/3.1-filter-score-bind.json"));
        const JobRecord* waiting = findJob(*f.window->results(), "finetune");
        QVERIFY(waiting);
        QCOMPARE(waiting->waitS(), 11 * 3600.0);
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        select(panel, true, 3);
        QCOMPARE(m->targetName(), QStringLiteral("job finetune"));
        QCOMPARE(shown(m, Row::CpuRow), QStringLiteral("24 cores"));
        QVERIFY(type(m, Row::CpuRow, "8 cores"));
        QVERIFY(f.waitForResults());
        const JobRecord* started = findJob(*f.window->results(), "finetune");
        QVERIFY(started);
        QCOMPARE(started->waitS(), 0.0);
        QCOMPARE(f.doc.undoStack()->text(0),
                 QStringLiteral("CPU per pod of job finetune: 8 cores"));
    }

    // Lesson 1.1's step by hand: pretrain's precision typed as fp8 makes its 12 h of BF16 work
    // take (1 − 0.7) + 0.7 ÷ 2 = 0.65 of the time, 7.8 h (the lesson file says so; its test too).
    void lesson11sStepByHand() {
        Fixture f(QStringLiteral("../lessons/scenarios/1.1-flops-and-precision.json"));
        const JobRecord* bf16 = findJob(*f.window->results(), "pretrain");
        QVERIFY(bf16);
        QCOMPARE(bf16->endS, 12 * 3600.0);
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        select(panel, true, 0);
        QCOMPARE(m->targetName(), QStringLiteral("job pretrain"));
        QVERIFY(type(m, Row::PrecisionRow, "fp8"));
        QVERIFY(f.waitForResults());
        const JobRecord* fp8 = findJob(*f.window->results(), "pretrain");
        QVERIFY(fp8);
        QCOMPARE(fp8->endS, 12 * 3600.0 * 0.65);
        QCOMPARE(f.doc.undoStack()->text(0), QStringLiteral("Precision of job pretrain: fp8"));
    }

    // Lesson 2.4's second step by hand: each job asks a MIG instance instead of its MPS share,
    // one edit each, and moves to infer-mig; chat-0 no longer restarts with batch-embed's
    // crashes: it ends at 120 s + 6 h = 21,720 s instead of 26,350 s.
    void lesson24sMigStepByHand() {
        Fixture f(QStringLiteral("../lessons/scenarios/2.4-sharing-backfires.json"));
        QCOMPARE(findJob(*f.window->results(), "chat-0")->endS, 26350.0);
        WorkloadPanel* panel = f.window->workload();
        ui::PodRequestModel* m = panel->podRequestModel();
        for (int job = 0; job < 4; ++job) {
            select(panel, true, job);
            const char* profile = job < 3 ? "2g.20gb" : "1g.10gb";
            QVERIFY2(type(m, Row::MigProfileRow, profile), qPrintable(m->lastRefusal()));
            QCOMPARE(shown(m, Row::GpuShareRow), QStringLiteral("whole GPUs"));
        }
        QVERIFY(f.waitForResults());
        QCOMPARE(findJob(*f.window->results(), "chat-0")->endS, 21720.0);
    }
};

GPUPLAN_APP_TEST("test_pod_request_editor", PodRequestEditorTest);
#include "test_pod_request_editor.moc"
