#include "timeline_dock.hpp"

#include "main_window.hpp"
#include "time_scrubber.hpp"
#include "timeline_panel.hpp"
#include "timeline_view.hpp"
#include "topology_view.hpp"

namespace gpuplan::app {

TimelineDock::TimelineDock(MainWindow* window) : QDockWidget(tr("Timeline"), window) {
    setObjectName(QStringLiteral("timeline"));
    QWidget* panel = ui::makeTimelinePanel(this);
    setWidget(panel);
    // Rows need room: a rack's worth of GPUs at least.
    window->addBottomTab(this, [] { return 380; });
    m_view = qobject_cast<ui::TimelineView*>(panel);
    if (!m_view) return;

    m_view->setResults(window->results());
    m_view->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, m_view,
            [this, window] { m_view->setResults(window->results()); });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_view, &ui::TimelineView::setTime);
    connect(m_view, &ui::TimelineView::timeClicked, window->scrubber(), &ui::TimeScrubber::setTime);
    connect(m_view, &ui::TimelineView::jobClicked, window, &MainWindow::selectJob);
    connect(window, &MainWindow::jobSelected, m_view, &ui::TimelineView::setSelectedJob);
    // A GPU picked on the fleet: its job highlighted and that GPU's row shown; a node: its
    // first GPU's row.
    ui::TopologyView* topology = window->topology();
    connect(topology, &ui::TopologyView::selectionChanged, m_view,
            [this, topology](const ui::TopologyHit& hit) {
                if (hit.kind == ui::TopologyHit::Kind::Gpu) {
                    m_view->setSelectedJob(topology->jobAt(hit));
                    m_view->revealGpu(hit.node, hit.slot);
                } else if (hit.kind == ui::TopologyHit::Kind::Node) {
                    m_view->setSelectedJob(-1);
                    m_view->revealGpu(hit.node, 0);
                }
            });
}

}  // namespace gpuplan::app
