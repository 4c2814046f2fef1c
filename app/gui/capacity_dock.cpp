#include "capacity_dock.hpp"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "capacity_view.hpp"
#include "main_window.hpp"
#include "time_scrubber.hpp"

namespace gpuplan::app {

CapacityDock::CapacityDock(MainWindow* window) : QDockWidget(tr("Largest job"), window) {
    setObjectName(QStringLiteral("capacity"));
    m_view = new ui::CapacityView(this);
    setWidget(m_view);
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    if (auto* pending = window->findChild<QDockWidget*>(QStringLiteral("pending"))) {
        window->tabifyDockWidget(pending, this);
        pending->raise();  // the pending list stays the first tab a look needs
    }

    m_view->setResults(window->results());
    m_view->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, this,
            [this, window] { m_view->setResults(window->results()); });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_view, &ui::CapacityView::setTime);
    connect(m_view, &ui::CapacityView::timeClicked, window->scrubber(), &ui::TimeScrubber::setTime);
    connect(m_view, &ui::CapacityView::repackRequested, this, &CapacityDock::repack);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &CapacityDock::repackDone);
}

CapacityDock::~CapacityDock() {
    m_watcher.waitForFinished();  // the worker holds only its own copies; let it end
}

void CapacityDock::repack(DefragPolicy policy, double timeS) {
    std::shared_ptr<const Results> results = m_view->results();
    if (!results || m_watcher.isRunning()) return;
    m_view->setRepackRunning(true);
    // The results are immutable and shared: the worker reads them without a lock.
    m_watcher.setFuture(QtConcurrent::run([results, policy, timeS] {
        Outcome out{results, {}, {}};
        try {
            out.whatIf = defragWhatIf(*results, timeS, policy);
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
}

void CapacityDock::repackDone() {
    m_view->setRepackRunning(false);
    const Outcome out = m_watcher.result();
    if (out.error.isEmpty()) m_view->showDefrag(out.results, out.whatIf);
    emit repackFinished();
}

}  // namespace gpuplan::app
