#include "capacity_dock.hpp"

#include <exception>

#include "charts/capacity_view.hpp"
#include "shell/dock_host.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

CapacityDock::CapacityDock(Session& session, DockHost& host)
    : QDockWidget(tr("Largest job"), host.dockWindow()) {
    setObjectName(QStringLiteral("capacity"));
    m_view = new ui::CapacityView(this);
    setWidget(m_view);
    // The view needs more height than the pending list.
    host.addBottomTab(this, [] { return 330; });

    m_view->setResults(session.results());
    m_view->setTime(session.timeS());
    connect(&session, &Session::resultsApplied, this, [this, s = &session] {
        m_repack.cancel();  // it answers the old results: its outcome is not shown
        m_view->setResults(s->results());
    });
    connect(&session, &Session::timeChanged, m_view, &ui::CapacityView::setTime);
    connect(m_view, &ui::CapacityView::timeClicked, &session, &Session::requestTime);
    connect(m_view, &ui::CapacityView::repackRequested, this, &CapacityDock::repack);
    connect(m_view, &ui::CapacityView::repackCancelled, this, [this] { m_repack.cancel(); });
    m_repack.onProgress([this](double f) { m_view->setRepackRunning(true, f); });
    m_repack.onFinished([this](Outcome out, bool stopped) { repackDone(out, stopped); });
}

CapacityDock::~CapacityDock() = default;  // the repack stops within a few dozen jobs

void CapacityDock::repack(DefragPolicy policy, double timeS) {
    std::shared_ptr<const Results> results = m_view->results();
    if (!results || m_repack.isRunning()) return;
    m_view->setRepackRunning(true, 0);
    // The results are immutable and shared: the worker reads them without a lock.
    m_repack.start([results, policy, timeS](const JobControl& job) {
        Outcome out{results, {}, {}};
        try {
            out.whatIf =
                defragWhatIf(*results, timeS, policy, job.progressCallback(), job.stopToken());
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
}

void CapacityDock::repackDone(const Outcome& out, bool stopped) {
    m_view->setRepackRunning(false);
    if (!out.error.isEmpty())
        m_view->showDefragError(out.error);
    else if (!stopped && !out.whatIf.stopped)
        m_view->showDefrag(out.results, out.whatIf);
    emit repackFinished();
}

}  // namespace gpuplan::app
