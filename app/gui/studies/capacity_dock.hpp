// The "Largest job" dock (the largest placeable job and the defragmentation what-if),
// tabbed with the bottom docks. It follows the main window's results and time scrubber, and
// runs a repack off the GUI thread (a FGD repack of a large fleet takes seconds); a repack
// that finishes after the results or t moved on is dropped by the view. It changes nothing in
// the scenario: no undo step.
#pragma once

#include <QDockWidget>
#include <QString>
#include <memory>

#include "gpuplan/resources/placeable.hpp"
#include "shell/background_job.hpp"

namespace gpuplan::ui {
class CapacityView;
}

namespace gpuplan::app {

class DockHost;
class Session;

class CapacityDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    CapacityDock(Session& session, DockHost& host);
    ~CapacityDock() override;

    ui::CapacityView* view() const { return m_view; }
    bool repackRunning() const { return m_repack.isRunning(); }

signals:
    /// A repack ended (shown, dropped as stale, or failed).
    void repackFinished();

private:
    struct Outcome {
        std::shared_ptr<const Results> results;
        DefragWhatIf whatIf;
        QString error;
    };
    void repack(DefragPolicy policy, double timeS);
    void repackDone(const Outcome& out, bool stopped);

    ui::CapacityView* m_view;
    BackgroundJob<Outcome> m_repack;
};

}  // namespace gpuplan::app
