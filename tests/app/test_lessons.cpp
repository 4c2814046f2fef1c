// The Lessons browser (issue 14): it lists every lesson of presets/lessons; opening one makes
// its scenario the document; "Try it" pins the lesson's run as the baseline and applies the
// step, and undo restores the exact scenario; the pane then reports what the runs show;
// "Reset" brings the start back.
#include <QTreeWidget>
#include <QtTest>

#include "app_test_support.hpp"
#include "lessons_dock.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

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
        int items = 0;
        auto* tree = dock->findChild<QTreeWidget*>();
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            items += (*it)->data(0, Qt::UserRole).isValid();
        QCOMPARE(items, static_cast<int>(files.size()));
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

QTEST_MAIN(LessonsTest)
#include "test_lessons.moc"
