// The job inspector's checkpoint, restart, lost-work and preemption-health rows
// (Results::interruptionsOf, Results::healthOf) and an elastic job's size and resizes, on runs
// whose numbers are worked out by hand.
#include <QRegularExpression>
#include <QtTest>
#include <tuple>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/inspector.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;
using gpuplan::app::test::defaultPresetOnNodes;

namespace {

/// The default preset's fleet with two explicit 8-GPU jobs of 10 h from t = 0: "saved"
/// checkpoints every hour, "unsaved" never. Pod "pod-a", where both start, fails at 3.5 h.
Scenario twoJobsWhosePodFails() {
    const Catalog catalog =
        loadCatalog((gpuplan::checkout::presetsDir() / "catalog/catalog.json").string());
    Scenario s = loadScenario((gpuplan::checkout::presetsDir() / "scenarios/default.json").string(),
                              catalog);
    s.jobClasses.clear();
    s.jobs.clear();
    for (const char* name : {"saved", "unsaved"}) {
        JobDef j;
        j.name = name;
        j.traits.team = s.teams.at(0).name;
        j.traits.checkpointIntervalS = std::string(name) == "saved" ? 3600 : 0;
        j.gpus = 8;
        j.durationS = 36000;
        s.jobs.push_back(j);
    }
    s.nodeEvents = {{12600, "pod-a", NodeState::Failed}};
    return s;
}

/// One DGX H100 node (8 GPUs) with priority preemption, to 14,000 s. "low" (priority 0,
/// 10 h) starts at 0; "high1" (1 h, priority 10) at 1,000 s, "high2" (1 h) at 5,000 s and
/// "high3" (4 h) at 9,000 s each evict it; it restarts at 4,600 s and 8,600 s, and still
/// waits at the end. Longest stretch in the queue: 9,000 → 14,000 s = 5,000 s ≈ 83 min.
Scenario thriceEvicted() {
    Scenario s = defaultPresetOnNodes(1);
    s.horizonS = 14000;
    s.scheduler.preemption = PreemptionMode::Priority;
    s.scheduler.starvationWaitS = 3600;
    s.jobClasses.clear();
    s.jobs.clear();
    for (auto [name, durationS, submitS, priority] :
         {std::tuple{"low", 36000.0, 0.0, 0}, std::tuple{"high1", 3600.0, 1000.0, 10},
          std::tuple{"high2", 3600.0, 5000.0, 10}, std::tuple{"high3", 14400.0, 9000.0, 10}}) {
        JobDef j;
        j.name = name;
        j.traits.team = s.teams.at(0).name;
        j.traits.priority = priority;
        j.gpus = 8;
        j.durationS = durationS;
        j.submitS = submitS;
        s.jobs.push_back(j);
    }
    return s;
}

/// One rack of two DGX H100 nodes (16 GPUs). "a": 8 GPUs in one pod, elastic to 16, 8 h of
/// work from 0; "b": 8 GPUs for 2 h, submitted at 1 h. As in the engine's elastic tests: "a"
/// grows at once to both nodes; at 3,600 s it gives one back for "b" (7,200 s of its work
/// done); "b" ends at 10,800, when "a" has 14,400 s done and grows again; the 14,400 s left
/// at twice the pace end it at 18,000. Bindings: 16 GPUs [0, 3600), 8 [3600, 10800), 16
/// [10800, 18000): two ended Resized.
Scenario elasticAndAQueuedJob() {
    Scenario s = defaultPresetOnNodes(2);
    s.horizonS = 86400;
    s.jobClasses.clear();
    s.jobs.clear();
    for (auto [name, durationS, submitS, maxGpus] :
         {std::tuple{"a", 28800.0, 0.0, 16}, std::tuple{"b", 7200.0, 3600.0, 0}}) {
        JobDef j;
        j.name = name;
        j.traits.team = s.teams.at(0).name;
        j.traits.gpusPerPod = 8;
        j.traits.elasticMaxGpus = maxGpus;
        j.gpus = 8;
        j.durationS = durationS;
        j.submitS = submitS;
        s.jobs.push_back(j);
    }
    return s;
}

/// One DGX H100 node (8 GPUs) time-sliced into 4 replicas. On GPU 0 (pack): "busy1" to
/// "busy3", 250 milli-GPU at 80 % (SM demand 0.2) whose kernels run 70 % of the time, and
/// "plain", the same with engineActive unset (its time demand = its SM demand, 0.2), all an
/// hour of work from 0: D = 3 × 0.7 + 0.2 = 2.3, each 2.30× slower.
Scenario timeSlicedInference() {
    Scenario s = defaultPresetOnNodes(1);
    s.horizonS = 86400;
    s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::TimeSlicing;
    s.pods[0].racks[0].nodes[0].sharing.timeSliceReplicas = 4;
    s.scheduler.placement = PlacementPolicy::Pack;  // all four on GPU 0
    s.jobClasses.clear();
    s.jobs.clear();
    for (const char* name : {"busy1", "busy2", "busy3", "plain"}) {
        JobDef j;
        j.name = name;
        j.traits.team = s.teams.at(0).name;
        j.traits.gpuMilli = 250;
        j.traits.smActivity = 0.8;
        if (std::string(name) != "plain") j.traits.engineActive = 0.7;
        j.durationS = 3600;
        s.jobs.push_back(j);
    }
    return s;
}

}  // namespace

class JobInspectorTest : public QObject {
    Q_OBJECT
private slots:
    void showsCheckpointsRestartsAndLostWork() {
        auto results = std::make_shared<const Results>(simulate(twoJobsWhosePodFails()));
        Inspector inspector;
        inspector.setResults(results);
        inspector.setTime(20000);
        // "saved" did 12,600 s, kept 3 checkpoints (10,800 s) and lost 1,800 s = 30 min on
        // 8 GPUs: 14,400 GPU-s = 4.0 GPU-h.
        inspector.showJob(QStringLiteral("saved"));
        QString text = inspector.toPlainText();
        QVERIFY2(text.contains("every 60 min of work"), qPrintable(text));
        QVERIFY2(text.contains("1 (evicted and queued again)"), qPrintable(text));
        QVERIFY2(text.contains("30 min (4.0 GPU-h)"), qPrintable(text));
        // "unsaved" lost all 12,600 s = 3.5 h: 8 × 3.5 = 28.0 GPU-h.
        inspector.showJob(QStringLiteral("unsaved"));
        text = inspector.toPlainText();
        QVERIFY2(text.contains("none: an eviction loses all work done"), qPrintable(text));
        QVERIFY2(text.contains("3.5 h (28.0 GPU-h)"), qPrintable(text));
    }

    void flagsAThrashingStarvedJob() {
        auto results = std::make_shared<const Results>(simulate(thriceEvicted()));
        Inspector inspector;
        inspector.setResults(results);
        inspector.setTime(13000);
        // 3 preemptions ≥ the default 3: thrashing; 83 min at a stretch > 60 min: starved.
        inspector.showJob(QStringLiteral("low"));
        QString text = inspector.toPlainText();
        QVERIFY2(text.contains("3 times: thrashing (3 or more)"), qPrintable(text));
        QVERIFY2(text.contains("83 min in the queue at a stretch: starved (over 60 min)"),
                 qPrintable(text));
        QVERIFY2(text.contains("3 (evicted and queued again)"), qPrintable(text));
        // high1 never waited nor was preempted: no health rows.
        inspector.showJob(QStringLiteral("high1"));
        text = inspector.toPlainText();
        QVERIFY2(!text.contains("preempted") && !text.contains("longest wait"), qPrintable(text));
    }

    void anElasticJobsSizeIsWhatItsBindingHoldsAtT() {
        auto results = std::make_shared<const Results>(simulate(elasticAndAQueuedJob()));
        QCOMPARE(results->kpi("elastic_grows"), 2.0);
        QCOMPARE(results->kpi("elastic_shrinks"), 1.0);
        Inspector inspector;
        inspector.setResults(results);
        inspector.showJob(QStringLiteral("a"));
        for (auto [timeS, holds] :
             {std::pair{1800.0, "holds 16 at t"}, std::pair{3600.0, "holds 8 at t"},
              std::pair{5000.0, "holds 8 at t"}, std::pair{10800.5, "holds 16 at t"},
              std::pair{20000.0, "none held at t"}}) {
            inspector.setTime(timeS);
            const QString text = inspector.toPlainText();
            const QString size = QStringLiteral("8–16 GPUs (elastic, pods of 8); ") + holds;
            QVERIFY2(text.contains(size), qPrintable(QString::number(timeS) + ": " + text));
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("resizes\\s+2"))),
                     qPrintable(text));
            // The placement is the binding's at t while it holds one, else its last.
            QCOMPARE(text.contains("placement at t"), timeS < 18000);
            // A resize is no eviction, and the placement's slowdown is shown, not the
            // binding's pace (0.50 while grown).
            QVERIFY2(!text.contains("restarts") && !text.contains("preempted"), qPrintable(text));
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("slowdown\\s+1.00×"))),
                     qPrintable(text));
        }
        // A GPU it holds links to it: how a running job is reached from the fleet.
        inspector.setTime(1800);
        inspector.showGpu(1, 0);
        QVERIFY2(inspector.toHtml().contains("href=\"job:a\""), qPrintable(inspector.toHtml()));
        emit inspector.anchorClicked(QUrl(QStringLiteral("job:a")));
        QVERIFY2(inspector.toPlainText().contains("8–16 GPUs (elastic, pods of 8); holds 16 at t"),
                 qPrintable(inspector.toPlainText()));
        // A fixed-size job keeps its size row as before.
        inspector.showJob(QStringLiteral("b"));
        const QString text = inspector.toPlainText();
        QVERIFY2(text.contains("8 GPUs") && !text.contains("elastic") && !text.contains("resizes"),
                 qPrintable(text));
    }

    void aSharePodShowsItsEngineActivity() {
        auto results = std::make_shared<const Results>(simulate(timeSlicedInference()));
        Inspector inspector;
        inspector.setResults(results);
        inspector.setTime(600);
        inspector.showJob(QStringLiteral("busy1"));
        QString text = inspector.toPlainText();
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("engine active\\s+0.70"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("slowdown\\s+2.30×"))),
                 qPrintable(text));
        inspector.showJob(QStringLiteral("plain"));
        text = inspector.toPlainText();
        QVERIFY2(
            text.contains(QRegularExpression(QStringLiteral("engine active\\s+as SM activity"))),
            qPrintable(text));
    }

    // On one DGX H100 (989.4 dense BF16 TFLOP/s, 3.35 TB/s): "fp8", 70 % of its step in
    // matmuls, runs 1 / (0.3 + 0.35) = 1.54 times as fast and its MFU of 40 % reads 40 ÷ 0.65
    // = 61.5 % of the BF16 peak; "decode" at 16 FLOP/B is capped at 16 × 3.35 ÷ 989.4 =
    // 5.4 %, so its MFU of 60 % reads 0.6 × 5.42 = 3.25 %.
    void showsPrecisionAndTheRooflineCeiling() {
        Scenario s = defaultPresetOnNodes(2);
        s.horizonS = 86400;
        s.jobClasses.clear();
        s.jobs.clear();
        for (const char* name : {"fp8", "decode"}) {
            JobDef j;
            j.name = name;
            j.traits.team = s.teams.at(0).name;
            j.traits.smActivity = 0.9;
            j.gpus = 8;
            j.durationS = 3600;
            s.jobs.push_back(j);
        }
        s.jobs[0].traits.precision = Precision::Fp8;
        s.jobs[0].traits.matmulShare = 0.7;
        s.jobs[0].traits.mfu = 0.4;
        s.jobs[1].traits.flopsPerByte = 16;
        s.jobs[1].traits.mfu = 0.6;
        auto results = std::make_shared<const Results>(simulate(s));
        Inspector inspector;
        inspector.setResults(results);
        inspector.setTime(600);
        inspector.showJob(QStringLiteral("fp8"));
        QString text = inspector.toPlainText();
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("SM activity / MFU\\s+90 % / 61.5 % of the BF16 peak"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("precision\\s+FP8: 1.54× BF16's pace \\(matmuls 70 %"))),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("MFU ceiling")), qPrintable(text));
        inspector.showJob(QStringLiteral("decode"));
        text = inspector.toPlainText();
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("/ 3.25 % of the BF16 peak"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral(
                     "MFU ceiling\\s+5.4 % \\(16 FLOP/B × 3.35 TB/s of 989 TFLOP/s\\)"))),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("FP8")), qPrintable(text));
    }
};

GPUPLAN_APP_TEST("test_job_inspector", JobInspectorTest);
#include "test_job_inspector.moc"
