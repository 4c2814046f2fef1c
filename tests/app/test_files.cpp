// QtTest: the user's work is safe and files land where expected — an edit survives a crash one
// second later (a real child process killed with SIGKILL), dialogs remember their folder, Save
// As proposes a name a file system takes.
#include <signal.h>
#include <unistd.h>

#include <QFileDialog>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {
constexpr char kTestName[] = "test_files";
constexpr char kCrashMode[] = "--edit-then-crash";

/// The child: open the default preset like the application does, make one edit, and die
/// without any clean-up one second later, as the user's trial did.
int editThenCrash() {
    ScenarioDocument doc(catalog(), LoadOptions{});
    doc.load(kPresets + "/scenarios/default.json");
    doc.reset(doc.scenario(), QString());
    MainWindow window(&doc, kPresets);
    window.files().startAutosave();
    window.setPlacementPolicy(PlacementPolicy::Spread);
    QTimer::singleShot(1000, [] { ::kill(::getpid(), SIGKILL); });
    return QApplication::exec();
}
}  // namespace

class FilesTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void anEditSurvivesACrashOneSecondLater() {
        {
            ScenarioDocument doc(catalog(), LoadOptions{});
            MainWindow window(&doc, kPresets);
            for (const QString& old : window.files().orphanedAutosaves())
                QFile::remove(old);
        }
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        child.start(QCoreApplication::applicationFilePath(),
                    {QString::fromLatin1(kTestName), QString::fromLatin1(kCrashMode)});
        QVERIFY(child.waitForStarted(10000));
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        // The next session finds the dead process's autosave and offers it; recovered, it is
        // the edited scenario, unsaved and without a file name.
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        QCOMPARE(doc.scenario().scheduler.placement, PlacementPolicy::Pack);
        MainWindow window(&doc, kPresets);
        const QStringList orphans = window.files().orphanedAutosaves();
        QCOMPARE(orphans.size(), 1);
        QVERIFY(window.files().recover(orphans.first()));
        QCOMPARE(doc.scenario().scheduler.placement, PlacementPolicy::Spread);
        QVERIFY(doc.isModified());
        QVERIFY(doc.filePath().isEmpty());
        QVERIFY(window.files().orphanedAutosaves().isEmpty());
    }

    void autosaveFollowsEdits() {
        // Within a second by configuration (the debounce, and the longest wait while edits keep
        // coming); the test waits for the file itself without timing it (a busy machine).
        static_assert(FileController::kAutosaveDelayMs <= 1000);
        static_assert(FileController::kAutosaveMaxDelayMs <= 3000);
        Fixture f;
        FileController& files = f.window->files();
        files.removeAutosave();
        files.startAutosave();
        QVERIFY(!QFileInfo::exists(files.autosavePath()));  // nothing unsaved yet
        f.window->setPlacementPolicy(PlacementPolicy::Spread);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(files.autosavePath()), 30000);
        ScenarioDocument copy(catalog(), LoadOptions{});
        copy.load(files.autosavePath());
        QCOMPARE(copy.scenario().scheduler.placement, PlacementPolicy::Spread);
        // Undone back to the file: nothing left to recover.
        f.doc.undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(files.autosavePath()), 30000);
    }

    void dialogsRememberTheirFolder() {
        QTemporaryDir scenarios, exports;
        ScenarioDocument doc(catalog(), LoadOptions{});
        MainWindow window(&doc, kPresets);
        const QString file = scenarios.filePath("mine.json");
        QVERIFY(QFile::copy(kPresets + "/scenarios/default.json", file));
        QVERIFY(window.files().openFile(file));
        QCOMPARE(FileController::lastFolder(FolderPurpose::Scenarios),
                 QFileInfo(scenarios.path()).absoluteFilePath());
        FileController::rememberFolder(FolderPurpose::Exports, exports.path());
        QCOMPARE(FileController::lastFolder(FolderPurpose::Exports),
                 QFileInfo(exports.path()).absoluteFilePath());
        QCOMPARE(FileController::lastFolder(FolderPurpose::Scenarios),
                 QFileInfo(scenarios.path()).absoluteFilePath());  // each keeps its own
        // A folder that is gone falls back to home rather than to a dead path.
        const QString gone = exports.path();
        exports.remove();
        QCOMPARE(FileController::lastFolder(FolderPurpose::Exports), QDir::homePath());
        Q_UNUSED(gone);
    }

    // File ▸ Open starts where the user's scenarios are, not in the home folder. Every way a
    // document gets its file makes its folder the one Open starts in — the command line too —
    // across sessions; a preset or an autosave does not.
    void openStartsInTheLastFolderUsed() {
        QTemporaryDir mine, elsewhere;
        FileController::rememberFolder(FolderPurpose::Scenarios, elsewhere.path());
        const QString file = mine.filePath("q3.json");
        QVERIFY(QFile::copy(kPresets + "/scenarios/default.json", file));
        const QString folder = QFileInfo(mine.path()).absoluteFilePath();
        {
            // `gpuplan q3.json`: the document is loaded before the window exists.
            ScenarioDocument doc(catalog(), LoadOptions{});
            doc.load(file);
            MainWindow window(&doc, kPresets);
            QCOMPARE(window.files().openFolder(), folder);
            // A new scenario from a preset and a recovered autosave keep the user's folder.
            QVERIFY(window.files().newFromPreset(kPresets + "/scenarios/default.json"));
            QCOMPARE(window.files().openFolder(), folder);
            window.files().startAutosave();
            window.setPlacementPolicy(PlacementPolicy::Spread);
            QVERIFY(window.files().autosaveNow());
            QVERIFY(window.files().recover(window.files().autosavePath()));
            QCOMPARE(window.files().openFolder(), folder);
            window.files().removeAutosave();
        }
        // The next session: File ▸ Open's dialog starts there.
        ScenarioDocument doc(catalog(), LoadOptions{});
        MainWindow window(&doc, kPresets);
        QString shown;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            shown = QFileInfo(dialog->directory().absolutePath()).absoluteFilePath();
            dialog->reject();
        });
        window.files().open();
        QCOMPARE(shown, folder);
    }

    void saveAsProposesAFileSafeName() {
        QCOMPARE(safeScenarioFileName("GPU week: 256 / H100 plan"),
                 QStringLiteral("GPU-week-256-H100-plan.json"));
        QCOMPARE(safeScenarioFileName("  ../etc/passwd "), QStringLiteral("etc-passwd.json"));
        QCOMPARE(safeScenarioFileName(":::"), QStringLiteral("scenario.json"));
        QCOMPARE(safeScenarioFileName("fleet-10k.json"), QStringLiteral("fleet-10k.json"));

        QTemporaryDir folder;
        FileController::rememberFolder(FolderPurpose::Scenarios, folder.path());
        ScenarioDocument doc(catalog(), LoadOptions{});
        doc.load(kPresets + "/scenarios/default.json");
        Scenario named = doc.scenario();
        named.name = "Q3 plan: 2 racks / spot";
        doc.reset(named, QString());  // a preset copy: no file yet
        MainWindow window(&doc, kPresets);
        QCOMPARE(window.files().proposedSavePath(),
                 QDir(QFileInfo(folder.path()).absoluteFilePath())
                     .filePath("Q3-plan-2-racks-spot.json"));
    }
};

namespace {
/// This file's main: the test, or with --edit-then-crash the child the first test kills.
int filesTestMain(int argc, char** argv) {
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    if (argc > 1 && QByteArray(argv[1]) == kCrashMode) return editThenCrash();
    FilesTest test;
    return QTest::qExec(&test, argc, argv);
}
}  // namespace

static const bool registered [[maybe_unused]] = registerAppTest(kTestName, &filesTestMain);

#include "test_files.moc"
