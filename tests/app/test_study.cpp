// The Study dock: a small study runs and draws each chosen KPI against the
// parameter with its interval; Cancel stops a long one within a second; a click on a point
// makes the scenario that value (one undo step); the study saves as a sweep file the engine
// reads back.
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/study_chart.hpp"
#include "gpuplan/studies/sweep.hpp"
#include "studies/study_dock.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

StudyDock* studyOf(test::Fixture& f) {
    auto* dock = f.window->findChild<StudyDock*>();
    dock->raise();
    return dock;
}

void vary(StudyDock* dock, const QString& pointer, const QString& values, int replications) {
    dock->parameterBox()->setCurrentIndex(dock->parameterBox()->findData(pointer));
    QCOMPARE(dock->pointerEdit()->text(), pointer);
    dock->valuesEdit()->setText(values);
    dock->replicationsBox()->setValue(replications);
}

}  // namespace

class StudyTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aSmallStudyDrawsEachKpiWithItsInterval() {
        // Demand × 0.5 and 1.5 of the default preset, 3 seeds each: the p95 wait (and the
        // allocation) rise with demand, each a curve of two points with a band.
        test::Fixture f;
        StudyDock* dock = studyOf(f);
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("0.5, 1.5"), 3);
        QSignalSpy finished(dock, &StudyDock::finished);
        dock->runButton()->click();
        QVERIFY(dock->isRunning() || finished.count() == 1);
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        const auto& curves = dock->chart()->curves();
        QCOMPARE(curves.size(), std::size_t{2});  // wait p95 and allocation, checked by default
        for (const auto& c : curves) {
            QCOMPARE(c.mean.size(), std::size_t{2});
            QVERIFY(c.low[0] <= c.mean[0] && c.mean[0] <= c.high[0]);
            QVERIFY2(c.mean[1] > c.mean[0], qPrintable(c.kpi));
        }
        QVERIFY2(dock->status().startsWith(QStringLiteral("6 run")), qPrintable(dock->status()));
    }

    void cancelStopsALongStudy() {
        // 101 values × 20 seeds of the default preset: seconds of work; Cancel while it runs.
        // Cancelled, it finishes without results (how fast is the benchmarks' business).
        test::Fixture f;
        StudyDock* dock = studyOf(f);
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("0.5..2.5 step 0.02"), 20);
        QSignalSpy finished(dock, &StudyDock::finished);
        dock->runButton()->click();
        QVERIFY(dock->isRunning());  // at once: the work runs off the GUI thread
        dock->cancelButton()->click();
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(dock->status().contains(QStringLiteral("cancelled")));
        QCOMPARE(dock->chart()->curveCount(), 0);
    }

    void aClickOnAPointMakesTheScenarioThatValueAndUndoes() {
        test::Fixture f;
        StudyDock* dock = studyOf(f);
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("0.5, 1.5"), 1);
        QSignalSpy finished(dock, &StudyDock::finished);
        dock->runButton()->click();
        QVERIFY(finished.wait(60000));
        QCOMPARE(f.doc.scenario().demandMultiplier, 1.0);
        emit dock->chart()->pointClicked(1);
        QCOMPARE(f.doc.scenario().demandMultiplier, 1.5);
        QVERIFY(f.status().contains(QStringLiteral("/demandMultiplier = 1.5")));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().demandMultiplier, 1.0);
    }

    void badValuesAreRefusedAndNothingRuns() {
        test::Fixture f;
        StudyDock* dock = studyOf(f);
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("2..1"), 1);
        dock->runButton()->click();
        QVERIFY(!dock->isRunning());
        QVERIFY(dock->status().contains(QStringLiteral("values")));
        // A value the scenario may not hold is refused by the reader's rule, naming it.
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("-1"), 1);
        QSignalSpy finished(dock, &StudyDock::finished);
        dock->runButton()->click();
        QVERIFY(finished.count() == 1 || finished.wait(10000));
        QVERIFY2(dock->status().contains(QStringLiteral("demandMultiplier")),
                 qPrintable(dock->status()));
    }

    void theStudySavesAsASweepFile() {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("fleet.json"));
        QVERIFY(QFile::copy(test::kPresets + "/scenarios/default.json", scenario));
        test::Fixture f;
        QVERIFY(f.window->files().openFile(scenario));
        StudyDock* dock = studyOf(f);
        vary(dock, QStringLiteral("/demandMultiplier"), QStringLiteral("0.8..1.2 step 0.2"), 4);
        const QString sweep = dir.filePath(QStringLiteral("study.json"));
        QCOMPARE(dock->saveSweep(sweep), QString());
        const SweepSpec spec = loadSweepSpec(sweep.toStdString());
        QCOMPARE(spec.replications, 4);
        QCOMPARE(spec.pointers, std::vector<std::string>{"/demandMultiplier"});
        QCOMPARE(spec.points.size(), std::size_t{3});
        QCOMPARE(QFileInfo(QString::fromStdString(spec.scenarioFile.string())).canonicalFilePath(),
                 QFileInfo(scenario).canonicalFilePath());
    }
};

GPUPLAN_APP_TEST("test_study", StudyTest);
#include "test_study.moc"
