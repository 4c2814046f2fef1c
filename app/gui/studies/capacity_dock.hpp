// The "Largest job" dock (the largest placeable job and the defragmentation what-if),
// tabbed with the bottom docks. It follows the main window's results and time scrubber, and
// runs a repack off the GUI thread (a FGD repack of a large fleet takes seconds); a repack
// that finishes after the results or t moved on is dropped by the view. It changes nothing in
// the scenario: no undo step.
#pragma once

#include <QDockWidget>
#include <QFutureWatcher>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <stop_token>

#include "gpuplan/resources/placeable.hpp"

namespace gpuplan::ui {
class CapacityView;
}

namespace gpuplan::app {

class MainWindow;

class CapacityDock : public QDockWidget {
    Q_OBJECT
public:
    explicit CapacityDock(MainWindow* window);
    ~CapacityDock() override;

    ui::CapacityView* view() const { return m_view; }
    bool repackRunning() const { return m_watcher.isRunning(); }

signals:
    /// A repack ended (shown, dropped as stale, or failed).
    void repackFinished();

private:
    struct Outcome {
        std::shared_ptr<const Results> results;
        DefragWhatIf whatIf;
        QString error;
    };
    /// What the GUI and the worker share about the repack under way.
    struct Progress {
        std::stop_source stop;
        std::atomic<double> fraction{0};
    };
    void repack(DefragPolicy policy, double timeS);
    void repackDone();
    void cancel();

    ui::CapacityView* m_view;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<Progress> m_progress;
    QTimer m_poll;  ///< shows the progress while a repack runs
};

}  // namespace gpuplan::app
