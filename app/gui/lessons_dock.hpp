// The Lessons browser (issue 14): the lessons of PRESETS/lessons by part and chapter. Opening
// one makes its scenario the document (one undo step) and shows its explanation beside the
// fleet; "Try it" pins the lesson's run as the baseline and applies the step as an edit, so
// the charts and the KPI strip show before and after; "Reset" brings the lesson's start back.
// Once the step's run is in, the pane says what the runs show against what the lesson claims.
#pragma once

#include <QDockWidget>
#include <optional>
#include <vector>

#include "gpuplan/lesson.hpp"

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;
class QVBoxLayout;

namespace gpuplan::app {

class MainWindow;
class ScenarioDocument;

class LessonsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LessonsDock(MainWindow* window);

    const std::vector<Lesson>& lessons() const { return m_lessons; }
    /// The lesson open now, or -1.
    int openLesson() const { return m_open; }
    /// Makes lesson `index`'s scenario the document (undoable) and shows its text.
    void open(int index);
    /// Pins the lesson's run as the baseline and applies step `step` (undoable). Waits for
    /// the run of what is on screen first if it is not in yet.
    void tryStep(int step);
    /// The lesson's start again (undoable).
    void reset();
    /// The explanation pane's text, for tests.
    QString shownText() const;

signals:
    void message(const QString& text);

private:
    void showLesson();
    void applyStep(int step);
    void resultsIn();

    MainWindow* m_window;
    ScenarioDocument* m_doc;
    std::vector<Lesson> m_lessons;
    QTreeWidget* m_tree;
    QTextBrowser* m_text;
    QVBoxLayout* m_stepButtons;
    QPushButton* m_reset;
    int m_open = -1;
    int m_tried = -1;                  ///< the step whose effect the pane reports
    std::optional<int> m_waitingStep;  ///< a Try that waits for the run on screen
    bool m_resultsCurrent = false;     ///< the results on screen are the document's
};

}  // namespace gpuplan::app
