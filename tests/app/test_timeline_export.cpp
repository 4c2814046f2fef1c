// File ▸ Export timeline: the results on screen written as Chrome trace JSON in the
// background, one slice per (binding × GPU) of the results; a cancelled export leaves the file
// as it was; the menu holds the action.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "timeline/timeline_export.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

class TimelineExportTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theMenuExportsEveryGpuSliceOfTheResultsOnScreen() {
        test::Fixture f;
        bool found = false;
        for (QAction* a : f.window->findChildren<QAction*>())
            found |= a->text().contains(QStringLiteral("Export &timeline"));
        QVERIFY(found);
        auto* exporter = f.window->findChild<TimelineExport*>();
        QVERIFY(exporter);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("default-timeline.json"));
        QSignalSpy finished(exporter, &TimelineExport::finished);
        QVERIFY(exporter->start(f.window->results(), path));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(f.status().contains(QStringLiteral("Timeline written to")));
        // As many complete events as the results have GPU holds: every binding on every GPU.
        const nlohmann::json trace = nlohmann::json::parse(readTextFile(path.toStdString()));
        std::size_t slices = 0;
        for (const auto& e : trace["traceEvents"])
            slices += e["ph"] == "X";
        QCOMPARE(slices, f.window->results()->gpuTimeline.intervalCount());
        QVERIFY(slices > 100);
    }

    void aCancelledExportLeavesTheFileAsItWas() {
        test::Fixture f;
        auto* exporter = f.window->findChild<TimelineExport*>();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kept.json"));
        writeFileAtomic(path.toStdString(), "kept");
        QSignalSpy finished(exporter, &TimelineExport::finished);
        QVERIFY(exporter->start(f.window->results(), path));
        // A second export while one runs is refused, not queued.
        QVERIFY(!exporter->start(f.window->results(), path));
        exporter->cancel();
        QVERIFY(finished.wait(30000));
        // The default run is small: the export may have finished before the cancel arrived.
        if (!finished.first().first().toBool()) {
            QCOMPARE(QString::fromStdString(readTextFile(path.toStdString())),
                     QStringLiteral("kept"));
            QVERIFY(f.status().contains(QStringLiteral("cancelled")));
        }
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".partial")));
    }

    void anUnwritableFileIsReportedByName() {
        test::Fixture f;
        auto* exporter = f.window->findChild<TimelineExport*>();
        QSignalSpy finished(exporter, &TimelineExport::finished);
        QVERIFY(exporter->start(f.window->results(), QStringLiteral("/nonexistent-dir/t.json")));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(f.status().contains(QStringLiteral("/nonexistent-dir/t.json")));
    }
};

GPUPLAN_APP_TEST("test_timeline_export", TimelineExportTest);
#include "test_timeline_export.moc"
