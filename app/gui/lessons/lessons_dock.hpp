// The Lessons browser: the lessons of PRESETS/lessons by part and chapter. Opening
// one makes its scenario the document (one undo step) and shows its explanation beside the
// fleet; "Try it" pins the lesson's run as the baseline and applies the step as an edit, so
// the charts and the KPI strip show before and after; "Reset" brings the lesson's start back.
// Once the step's run is in, the pane says what the runs show against what the lesson claims.
// The lessons are chosen from one combo box, so the text gets the dock's height; "Read" lifts
// the dock off the window, sized to show the lesson's text whole on the screen it is on.
#pragma once

#include <QDockWidget>
#include <QRect>
#include <optional>
#include <vector>

#include "gpuplan/studies/lesson.hpp"

class QBoxLayout;
class QComboBox;
class QPushButton;
class QMainWindow;
class QShortcut;
class QTextBrowser;

namespace gpuplan::app {

class DockHost;
class Session;
class ScenarioDocument;

class LessonsDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    LessonsDock(Session& session, DockHost& host);

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
    QComboBox* chooser() const { return m_chooser; }
    QTextBrowser* textView() const { return m_text; }

    /// Reading mode: the dock floats over the window, as narrow as lets the lesson's text show
    /// whole within `available` (by default the screen's available geometry) and no taller
    /// than it needs; off (or Esc, or Read again) docks it back where it was.
    void setReading(bool on, std::optional<QRect> available = std::nullopt);
    bool isReading() const { return isFloating(); }
    static constexpr int kReadingWidthPx = 640;

signals:
    void message(const QString& text);

private:
    void showLesson();
    void applyStep(int step);
    void resultsIn();
    /// The lesson index the chooser shows, or -1.
    int chosen() const;
    /// The text's height laid out `widthPx` wide, frame included.
    int textHeightAt(int widthPx) const;
    /// Where the reader goes within `available` for the lesson shown, `chromePx` of its height
    /// not text: at its top left, at least kReadingWidthPx wide (a comfortable line), wider
    /// only as far as the whole text needs.
    QRect readerGeometry(const QRect& available, int chromePx) const;
    /// The floating reader to readerGeometry(m_readingWithin), for the text shown now.
    void fitReader();

    Session* m_session;
    QMainWindow* m_window;  ///< the window the dock sits in (it resizes itself there)
    ScenarioDocument* m_doc;
    std::vector<Lesson> m_lessons;
    QComboBox* m_chooser;
    QWidget* m_body;  // the dock's content: chooser, text, buttons and steps
    QTextBrowser* m_text;
    QBoxLayout* m_header;  ///< the chooser and the buttons
    QBoxLayout* m_stepButtons;
    QPushButton* m_reset;
    QPushButton* m_read;
    QShortcut* m_leaveReading;
    QRect m_readingWithin;    ///< the room the reader was fitted to
    int m_dockedWidthPx = 0;  ///< its width among the docks, given back when it docks again
    int m_open = -1;
    int m_tried = -1;                  ///< the step whose effect the pane reports
    std::optional<int> m_waitingStep;  ///< a Try that waits for the run on screen
    bool m_resultsCurrent = false;     ///< the results on screen are the document's
};

}  // namespace gpuplan::app
