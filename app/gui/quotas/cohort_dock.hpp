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

class MainWindow;

class CohortDock : public QDockWidget {
    Q_OBJECT
public:
    explicit CohortDock(MainWindow* window);

    ui::CohortView* view() const { return m_view; }

private:
    void showResults(MainWindow* window);

    ui::CohortView* m_view;
};

}  // namespace gpuplan::app
