#include "capacity_dock.hpp"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "charts/capacity_view.hpp"
#include "editors/time_scrubber.hpp"
#include "shell/main_window.hpp"

namespace gpuplan::app {

CapacityDock::CapacityDock(MainWindow* window) : QDockWidget(tr("Largest job"), window) {
    setObjectName(QStringLiteral("capacity"));
    m_view = new ui::CapacityView(this);
    setWidget(m_view);
    // The view needs more height than the pending list.
    window->addBottomTab(this, [] { return 330; });

    m_view->setResults(window->results());
    m_view->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, this, [this, window] {
        cancel();  // it answers the old results: its outcome would be dropped anyway
        m_view->setResults(window->results());
    });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_view, &ui::CapacityView::setTime);
    connect(m_view, &ui::CapacityView::timeClicked, window->scrubber(), &ui::TimeScrubber::setTime);
    connect(m_view, &ui::CapacityView::repackRequested, this, &CapacityDock::repack);
    connect(m_view, &ui::CapacityView::repackCancelled, this, &CapacityDock::cancel);
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_progress) m_view->setRepackRunning(true, m_progress->fraction.load());
    });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &CapacityDock::repackDone);
}

CapacityDock::~CapacityDock() {
    cancel();
    m_watcher.waitForFinished();  // stops within a few dozen jobs
}

void CapacityDock::cancel() {
    if (m_progress) m_progress->stop.request_stop();
}

void CapacityDock::repack(DefragPolicy policy, double timeS) {
    std::shared_ptr<const Results> results = m_view->results();
    if (!results || m_watcher.isRunning()) return;
    m_progress = std::make_shared<Progress>();
    m_view->setRepackRunning(true, 0);
    m_poll.start();
    // The results are immutable and shared: the worker reads them without a lock.
    m_watcher.setFuture(QtConcurrent::run([results, policy, timeS, progress = m_progress] {
        Outcome out{results, {}, {}};
        try {
            out.whatIf = defragWhatIf(
                *results, timeS, policy, [&](double f) { progress->fraction.store(f); },
                progress->stop.get_token());
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
}

void CapacityDock::repackDone() {
    m_poll.stop();
    m_progress.reset();
    m_view->setRepackRunning(false);
    const Outcome out = m_watcher.result();
    if (!out.error.isEmpty())
        m_view->showDefragError(out.error);
    else if (!out.whatIf.stopped)
        m_view->showDefrag(out.results, out.whatIf);
    emit repackFinished();
}

}  // namespace gpuplan::app
