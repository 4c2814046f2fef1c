// The Lessons browser: it lists every lesson of presets/lessons; opening one makes
// its scenario the document; "Try it" pins the lesson's run as the baseline and applies the
// step, and undo restores the exact scenario; the pane then reports what the runs show;
// "Reset" brings the start back. The text gets the dock's height, and Read shows a lesson whole
// on a 1600×1000 and a 1280×720 screen; lesson 2.2 describes the MIG cells as they are drawn.
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "lessons/lessons_dock.hpp"
#include "topology/gpu_sub_cells.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

int lessonIndex(const LessonsDock* dock, const std::string& id) {
    for (int i = 0; i < static_cast<int>(dock->lessons().size()); ++i)
        if (dock->lessons()[i].id == id) return i;
    return -1;
}

/// Whether the lesson's text shows whole in the dock's text view: nothing to scroll.
bool wholeTextShows(const LessonsDock* dock) {
    QCoreApplication::processEvents();
    return dock->textView()->verticalScrollBar()->maximum() == 0;
}

}  // namespace

class LessonsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theBrowserListsEveryLessonByPart() {
        test::Fixture f;
        auto* dock = f.window->findChild<LessonsDock*>();
        QVERIFY(dock);
        const std::vector<Lesson> files = loadLessons((test::kPresets + "/lessons").toStdString());
        QCOMPARE(dock->lessons().size(), files.size());
        // One chooser: each lesson once, in order, under a heading for its part (not
        // choosable itself).
        QComboBox* chooser = dock->chooser();
        std::vector<int> listed;
        QStringList headings;
        for (int i = 0; i < chooser->count(); ++i) {
            if (chooser->itemData(i).isValid()) {
                listed.push_back(chooser->itemData(i).toInt());
                continue;
            }
            headings << chooser->itemText(i);
            const auto* model = qobject_cast<const QStandardItemModel*>(chooser->model());
            QVERIFY(!(model->item(i)->flags() & Qt::ItemIsEnabled));
        }
        QCOMPARE(static_cast<int>(listed.size()), static_cast<int>(files.size()));
        for (int i = 0; i < static_cast<int>(listed.size()); ++i)
            QCOMPARE(listed[i], i);
        QCOMPARE(headings.first(), QString::fromStdString(files.front().part));
        QCOMPARE(chooser->currentIndex(), -1);  // none chosen yet: the pane says how to start
        QVERIFY(dock->shownText().contains(QStringLiteral("Choose one above")));
        chooser->setCurrentIndex(chooser->findData(1));
        QVERIFY(dock->shownText().contains(QString::fromStdString(files[1].claim)));
    }

    // Docked, the lesson's text has the dock's height but for one line of chooser, one of
    // buttons and the steps; Read floats the dock, sized so every lesson's text shows whole,
    // on a 1600×1000 and a 1280×720 screen, and Read again (or Esc) docks it back.
    void readingShowsEveryLessonWhole_data() {
        QTest::addColumn<QRect>("screen");
        QTest::newRow("1600x1000") << QRect(0, 0, 1600, 1000);
        QTest::newRow("1280x720") << QRect(0, 0, 1280, 720);
    }
    void readingShowsEveryLessonWhole() {
        QFETCH(QRect, screen);
        test::Fixture f;
        f.window->resize(screen.size());
        auto* dock = f.window->findChild<LessonsDock*>();
        const int longest = lessonIndex(dock, "2.4");
        dock->open(longest);
        QVERIFY(f.waitForResults());
        QCoreApplication::processEvents();
        QVERIFY(dock->isVisible() && !dock->isFloating());
        // Docked: the text view is the dock's but for the chooser, the buttons and the steps.
        const int besideText = dock->height() - dock->textView()->height();
        QVERIFY2(besideText < 200, qPrintable(QString::number(besideText)));

        const int dockedWidth = dock->width();
        auto* read = dock->findChild<QPushButton*>(QStringLiteral("lessonRead"));
        QVERIFY(read);
        for (int i = 0; i < static_cast<int>(dock->lessons().size()); ++i) {
            dock->chooser()->setCurrentIndex(dock->chooser()->findData(i));
            dock->setReading(true, screen);
            QVERIFY(dock->isReading());
            QVERIFY(read->isChecked());
            QVERIFY2(screen.contains(dock->geometry()), dock->lessons()[i].id.c_str());
            QVERIFY2(dock->width() >= std::min(LessonsDock::kReadingWidthPx, screen.width()),
                     dock->lessons()[i].id.c_str());
            QVERIFY2(wholeTextShows(dock), dock->lessons()[i].id.c_str());
        }
        // The open lesson with its step's measured effects, the longest text there is.
        dock->chooser()->setCurrentIndex(dock->chooser()->findData(longest));
        dock->tryStep(0);
        QVERIFY(f.waitForResults());
        QVERIFY(dock->shownText().contains(QStringLiteral("the runs show")));
        QVERIFY(screen.contains(dock->geometry()));
        QVERIFY(wholeTextShows(dock));
        // Read again docks it back where it was, in front of the tabs it shares (the
        // inspector's tab was brought forward meanwhile), as wide as it was.
        f.window->findChild<QDockWidget*>(QStringLiteral("inspector"))->raise();
        read->click();
        QVERIFY(!dock->isFloating());
        QVERIFY(!read->isChecked());
        QTRY_VERIFY(dock->isVisible());
        QTRY_COMPARE(dock->width(), dockedWidth);
        // The user docking it by other means (a double click on its title) unchecks Read.
        dock->setReading(true, screen);
        dock->setFloating(false);
        QVERIFY(!read->isChecked());
    }

    // Lesson 2.2 describes MIG GPUs as they are drawn: a cell is stripes on its 8 memory
    // slices (gpu_sub_cells.hpp) with a □ mark, not "7 boxes (□) each". After the step each
    // GPU is cut in seven 1g.10gb instances: seven stripes an eighth wide and the eighth
    // slice uncut (hatched), which is what the text says.
    void lesson22DescribesTheMigCellsAsDrawn() {
        test::Fixture f;
        auto* dock = f.window->findChild<LessonsDock*>();
        const int index = lessonIndex(dock, "2.2");
        QVERIFY(index >= 0);
        const QString lookAt = QString::fromStdString(dock->lessons()[index].lookAt);
        QVERIFY2(!lookAt.contains(QStringLiteral("boxes")), qPrintable(lookAt));
        QVERIFY2(lookAt.contains(QStringLiteral("seven thin stripes, one per 1g.10gb instance")) &&
                     lookAt.contains(QStringLiteral("eighth memory slice hatched")) &&
                     lookAt.contains(QStringLiteral("□ in its corner")),
                 qPrintable(lookAt));
        dock->open(index);
        QVERIFY(f.waitForResults());
        dock->tryStep(0);
        QVERIFY(f.waitForResults());
        const Results& r = *f.window->results();
        const ClusterSnapshot at = r.stateAt(r.horizonS / 2);
        int migGpus = 0;
        std::vector<ui::GpuSubCell> cells;
        for (std::size_t node = 0; node < r.fleet.nodes.size(); ++node) {
            if (r.fleet.nodes[node].sharing.mode != SharingMode::Mig) continue;
            for (int g = 0; g < r.fleet.nodes[node].gpus; ++g) {
                ui::gpuSubCells(at, r.firstGpuOfNode[node] + g, cells);
                QCOMPARE(static_cast<int>(cells.size()), 8);
                for (int c = 0; c < 8; ++c) {
                    QCOMPARE(cells[c].x0, c / 8.0);
                    QCOMPARE(cells[c].x1, (c + 1) / 8.0);
                    QCOMPARE(cells[c].uncut, c == 7);
                }
                ++migGpus;
            }
        }
        QCOMPARE(migGpus, 16);  // two DGX H100 nodes, every GPU cut
    }

    void everyLessonOpensAndItsStepIsOneUndoStep() {
        test::Fixture f;
        auto* dock = f.window->findChild<LessonsDock*>();
        for (int i = 0; i < static_cast<int>(dock->lessons().size()); ++i) {
            const Lesson& lesson = dock->lessons()[i];
            const Scenario start = lessonScenario(lesson, f.doc.catalog(), f.doc.loadOptions());
            dock->open(i);
            QVERIFY2(f.doc.scenario() == start, lesson.id.c_str());
            QVERIFY(f.waitForResults());
            for (int step = 0; step < static_cast<int>(lesson.steps.size()); ++step) {
                dock->tryStep(step);
                QVERIFY(f.window->baseline());  // the lesson's own run, pinned
                const Scenario after =
                    lessonStepScenario(lesson, step, start, f.doc.catalog(), f.doc.loadOptions());
                QVERIFY2(f.doc.scenario() == after, lesson.id.c_str());
                QVERIFY(f.waitForResults());
                QVERIFY2(dock->shownText().contains(QStringLiteral("the runs show")),
                         qPrintable(dock->shownText()));
                f.doc.undoStack()->undo();
                QVERIFY2(f.doc.scenario() == start, lesson.id.c_str());
                QVERIFY(f.waitForResults());
            }
            dock->tryStep(0);
            QVERIFY(f.waitForResults());
            dock->reset();
            QVERIFY(f.doc.scenario() == start);
            QVERIFY(f.waitForResults());
        }
    }
};

GPUPLAN_APP_TEST("test_lessons", LessonsTest);
#include "test_lessons.moc"
