#include "timeline_dock.hpp"

#include "editors/time_scrubber.hpp"
#include "shell/main_window.hpp"
#include "timeline/timeline_panel.hpp"
#include "timeline/timeline_view.hpp"
#include "topology/topology_view.hpp"

namespace gpuplan::app {

TimelineDock::TimelineDock(MainWindow* window) : QDockWidget(tr("Timeline"), window) {
    setObjectName(QStringLiteral("timeline"));
    // The panel is made the first time the tab shows: until then no GL context is probed, the
    // window keeps Qt's plain raster flush (a QOpenGLWidget anywhere in it makes every repaint
    // a GL composition, which software GL pays for on each topology frame) and re-runs build
    // no timeline index.
    setWidget(new QWidget(this));
    // Rows need room: a rack's worth of GPUs at least.
    window->addBottomTab(this, [] { return 380; });
    connect(this, &QDockWidget::visibilityChanged, this, [this, window](bool visible) {
        if (visible && !m_panelMade) makePanel(window);
    });
}

void TimelineDock::makePanel(MainWindow* window) {
    m_panelMade = true;
    QWidget* panel = ui::makeTimelinePanel(this);
    delete widget();
    setWidget(panel);
    m_view = qobject_cast<ui::TimelineView*>(panel);
    if (!m_view) return;

    m_view->setResults(window->results());
    m_view->setTime(window->scrubber()->time());
    // Finished results and a long run's so far alike.
    connect(window, &MainWindow::resultsShown, m_view,
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
