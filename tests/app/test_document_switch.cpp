// Every way the document changes — open, new from a preset, recover, a lesson opened or reset,
// an import, undo across a fleet edit — from a time past the new scenario's horizon and with a
// fleet of another size. New results must reach every view before the time moves (a view
// still holding the old fleet would index it by the new scenario's time), and the time then
// lands inside the new horizon.
#include <QFile>
#include <QJsonDocument>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/capacity_view.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "import/fleet_import_dialog.hpp"
#include "lessons/lessons_dock.hpp"
#include "tables/pending_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

constexpr double kDayS = 86400;

int nodeCount(const Scenario& s) {
    int n = 0;
    for (const PodDef& p : s.pods)
        for (const RackDef& r : p.racks)
            for (const NodeGroupDef& g : r.nodes)
                n += g.count * r.count * p.count;
    return n;
}

/// Watches the scrubber: at every time change, every view that follows the time must already
/// hold the results on screen (or none), and the time must lie within their horizon.
class TimeWatch : public QObject {
public:
    explicit TimeWatch(MainWindow* window) : m_window(window) {
        connect(window->scrubber(), &ui::TimeScrubber::timeChanged, this, [this](double t) {
            ++changes;
            const auto results = m_window->results();
            if (!results) return;
            if (t > results->horizonS) failures << QStringLiteral("time past the horizon");
            if (auto* capacity = m_window->findChild<ui::CapacityView*>();
                capacity && capacity->results() && capacity->results() != results)
                failures << QStringLiteral("largest-job view holds other results");
            // The pending list's rows name jobs of the results on screen.
            const ui::PendingTableModel* pending = m_window->pendingModel();
            for (int row = 0; row < pending->rowCount(); ++row) {
                const int job =
                    pending->data(pending->index(row, 0), ui::PendingTableModel::JobIndexRole)
                        .toInt();
                if (job < 0 || job >= static_cast<int>(results->jobs.size()))
                    failures << QStringLiteral("pending row of another scenario");
            }
        });
    }
    int changes = 0;
    QStringList failures;

private:
    MainWindow* m_window;
};

/// A short (2-day) scenario on a fleet of `nodes` nodes, unlike the 7-day shared-cohort one.
Scenario shortScenario(int nodes) {
    Scenario s = defaultPresetOnNodes(nodes);
    s.horizonS = 2 * kDayS;
    return s;
}

QString writeScenario(const QTemporaryDir& dir, const Scenario& s, const QString& name) {
    const QString path = dir.filePath(name);
    saveScenarioAtomic(s, path.toStdString());
    return path;
}

QPushButton* importButton(QDialog* dialog) {
    for (QPushButton* b : dialog->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Import")) return b;
    return nullptr;
}

}  // namespace

class DocumentSwitchTest : public QObject {
    Q_OBJECT

    /// The 7-day shared-cohort preset, its scrubber at day 5, every dock shown once.
    std::unique_ptr<Fixture> atDayFive() {
        auto f = std::make_unique<Fixture>(QStringLiteral("shared-cohort.json"));
        for (QDockWidget* d : f->window->findChildren<QDockWidget*>())
            d->raise();  // the docks that build their views when first shown
        QApplication::processEvents();
        f->window->scrubber()->setTime(5 * kDayS);
        return f;
    }

    /// After the change: the new results are in, the time moved into the new horizon once
    /// every view had them, and every view answers a time of the new results.
    void expectSwitched(Fixture& f, TimeWatch& watch, double horizonS, int nodes) {
        QTRY_VERIFY_WITH_TIMEOUT(f.window->results() && f.window->results()->horizonS == horizonS &&
                                     !f.window->results()->partial,
                                 20000);
        QCOMPARE(static_cast<int>(f.window->results()->fleet.nodes.size()), nodes);
        QVERIFY2(watch.failures.isEmpty(), qPrintable(watch.failures.join(", ")));
        QVERIFY(watch.changes >= 1);  // the clamp was announced
        QCOMPARE(f.window->scrubber()->time(), horizonS);
        // Every view follows a later move within the new fleet.
        f.window->scrubber()->setTime(horizonS / 2);
        QVERIFY2(watch.failures.isEmpty(), qPrintable(watch.failures.join(", ")));
        QApplication::processEvents();
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void openingAShorterScenarioWithAnotherFleet() {
        QTemporaryDir dir;
        const QString path = writeScenario(dir, shortScenario(3), QStringLiteral("short.json"));
        auto f = atDayFive();
        TimeWatch watch(f->window.get());
        QVERIFY(f->window->files().openFile(path));
        expectSwitched(*f, watch, 2 * kDayS, 3);
    }

    void newFromAShorterPreset() {
        // default.json is 7 days on 32 nodes; lesson 0.1's scenario file is a preset too.
        QTemporaryDir dir;
        const QString path = writeScenario(dir, shortScenario(5), QStringLiteral("preset.json"));
        auto f = atDayFive();
        TimeWatch watch(f->window.get());
        QVERIFY(f->window->files().newFromPreset(path));
        expectSwitched(*f, watch, 2 * kDayS, 5);
        QVERIFY(f->doc.filePath().isEmpty());  // a preset opens as a new, unnamed document
    }

    void recoveringAShorterAutosave() {
        auto f = atDayFive();
        FileController& files = f->window->files();
        for (const QString& old : files.orphanedAutosaves())
            QFile::remove(old);
        // An autosave a dead session left: another process's file in the autosave folder.
        const QString orphan = QFileInfo(files.autosavePath())
                                   .dir()
                                   .filePath(QStringLiteral("autosave-999999999.json"));
        QDir().mkpath(QFileInfo(orphan).absolutePath());
        saveScenarioAtomic(shortScenario(2), orphan.toStdString());
        const QStringList orphans = files.orphanedAutosaves();
        QVERIFY2(orphans.contains(orphan), qPrintable(orphans.join(", ")));
        TimeWatch watch(f->window.get());
        QVERIFY(files.recover(orphan));
        expectSwitched(*f, watch, 2 * kDayS, 2);
    }

    void openingAndResettingALesson() {
        auto f = atDayFive();
        auto* lessons = f->window->findChild<LessonsDock*>();
        QVERIFY(lessons);
        int first = -1;
        for (int i = 0; i < static_cast<int>(lessons->lessons().size()); ++i)
            if (lessons->lessons()[i].id == "0.1") first = i;
        QVERIFY(first >= 0);
        const Scenario lesson =
            lessonScenario(lessons->lessons()[first], f->doc.catalog(), f->doc.loadOptions());
        QVERIFY(lesson.horizonS < 5 * kDayS);
        TimeWatch watch(f->window.get());
        lessons->open(first);
        expectSwitched(*f, watch, lesson.horizonS, nodeCount(lesson));

        // Lengthen it and add nodes, go past its own horizon, then Reset: back to the start.
        Scenario longer = f->doc.scenario();
        longer.horizonS = 7 * kDayS;
        longer.pods[0].count += 1;
        QVERIFY(f->doc.edit(longer, QStringLiteral("longer")).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(f->window->results()->horizonS == 7 * kDayS, 20000);
        f->window->scrubber()->setTime(5 * kDayS);
        TimeWatch again(f->window.get());
        lessons->reset();
        expectSwitched(*f, again, lesson.horizonS, nodeCount(lesson));
    }

    void importingAFleet() {
        auto f = atDayFive();
        TimeWatch watch(f->window.get());
        bool driven = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<FleetImportDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            FleetImportRequest r;
            r.nodesFile = QString::fromStdString((testDataDir() / "k8s/nodes.json").string());
            r.workFile = QString::fromStdString((testDataDir() / "k8s/pods.json").string());
            r.horizonDays = 1;
            dialog->setRequest(r);
            QSignalSpy read(dialog, &FleetImportDialog::previewChanged);
            QVERIFY(read.wait(15000));
            QTRY_VERIFY_WITH_TIMEOUT(!dialog->isReading() && dialog->preview(), 15000);
            QTest::mouseClick(importButton(dialog), Qt::LeftButton);
            driven = true;
        });
        QVERIFY(importFleetWithDialog(&f->doc, f->window.get()));
        QVERIFY(driven);
        expectSwitched(*f, watch, kDayS, nodeCount(f->doc.scenario()));
    }

    void undoingAcrossAFleetEdit() {
        // A 2-day, 4-node document; two edits (7 days, then a second rack); at day 5, both
        // are undone before the run starts: the results come back shorter and smaller.
        QTemporaryDir dir;
        const QString path = writeScenario(dir, shortScenario(4), QStringLiteral("four.json"));
        auto f = atDayFive();
        QVERIFY(f->window->files().openFile(path));
        QTRY_VERIFY_WITH_TIMEOUT(f->window->results()->horizonS == 2 * kDayS, 20000);
        Scenario week = f->doc.scenario();
        week.horizonS = 7 * kDayS;
        QVERIFY(f->doc.edit(week, QStringLiteral("a week")).isEmpty());
        Scenario twoRacks = week;
        twoRacks.pods[0].racks[0].count = 2;
        QVERIFY(f->doc.edit(twoRacks, QStringLiteral("a second rack")).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(f->window->results()->fleet.nodes.size() == 8 &&
                                     f->window->results()->horizonS == 7 * kDayS,
                                 20000);
        f->window->scrubber()->setTime(5 * kDayS);
        TimeWatch watch(f->window.get());
        f->doc.undoStack()->undo();
        f->doc.undoStack()->undo();
        expectSwitched(*f, watch, 2 * kDayS, 4);
    }
};

GPUPLAN_APP_TEST("test_document_switch", DocumentSwitchTest);
#include "test_document_switch.moc"
