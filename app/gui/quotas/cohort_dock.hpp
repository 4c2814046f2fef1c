// The "Cohorts" dock: the cohort view, tabbed with the bottom docks. It follows the
// main window's results (with the quotas of the scenario that produced them) and its time
// scrubber both ways: the cursor follows the scrubber, a click on a strip seeks there. It
// only shows: no undo step.
#pragma once

#include <QDockWidget>

namespace gpuplan::ui {
class CohortView;
}

namespace gpuplan::app {

class DockHost;
class Session;

class CohortDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    CohortDock(Session& session, DockHost& host);

    ui::CohortView* view() const { return m_view; }

private:
    void showResults(const Session& session);

    ui::CohortView* m_view;
};

}  // namespace gpuplan::app
