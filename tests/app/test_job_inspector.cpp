// The job inspector's checkpoint, restart and lost-work rows (Results::interruptionsOf), on a
// run whose numbers are worked out by hand.
#include <QtTest>

#include "gpuplan/scenario_io.hpp"
#include "gpuplan/simulate.hpp"
#include "inspector.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

/// The default preset's fleet with two explicit 8-GPU jobs of 10 h from t = 0: "saved"
/// checkpoints every hour, "unsaved" never. Pod "pod-a", where both start, fails at 3.5 h.
Scenario twoJobsWhosePodFails() {
    const Catalog catalog = loadCatalog(GPUPLAN_TEST_PRESETS_DIR "/catalog/catalog.json");
    Scenario s = loadScenario(GPUPLAN_TEST_PRESETS_DIR "/scenarios/default.json", catalog);
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
};

QTEST_MAIN(JobInspectorTest)
#include "test_job_inspector.moc"
