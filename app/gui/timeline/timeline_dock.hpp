// The "Timeline" dock: every GPU's holds over time (ui::TimelineView), tabbed with
// the bottom docks. Its time cursor is the scrubber's, both ways; a click on a bar selects the
// job everywhere (Session::selectJob), and a job selected anywhere, or a GPU or node
// selected on the fleet, scrolls the timeline to it. Where OpenGL is missing (offscreen) it
// holds a placeholder and wires nothing. The panel is made when the tab first shows.
#pragma once

#include <QDockWidget>

namespace gpuplan::ui {
class TimelineView;
}

namespace gpuplan::app {

class DockHost;
class Session;

class TimelineDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    TimelineDock(Session& session, DockHost& host);

    /// The GL timeline, or nullptr where the placeholder shows or before the tab first showed.
    ui::TimelineView* view() const { return m_view; }

private:
    void makePanel(Session& session);

    ui::TimelineView* m_view = nullptr;
    bool m_panelMade = false;
};

}  // namespace gpuplan::app
