#include "timeline_dock.hpp"

#include "shell/dock_host.hpp"
#include "shell/session.hpp"
#include "timeline/timeline_panel.hpp"
#include "timeline/timeline_view.hpp"

namespace gpuplan::app {

TimelineDock::TimelineDock(Session& session, DockHost& host)
    : QDockWidget(tr("Timeline"), host.dockWindow()) {
    setObjectName(QStringLiteral("timeline"));
    // The panel is made the first time the tab shows: until then no GL context is probed, the
    // window keeps Qt's plain raster flush (a QOpenGLWidget anywhere in it makes every repaint
    // a GL composition, which software GL pays for on each topology frame) and re-runs build
    // no timeline index.
    setWidget(new QWidget(this));
    // Rows need room: a rack's worth of GPUs at least.
    host.addBottomTab(this, [] { return 380; });
    connect(this, &QDockWidget::visibilityChanged, this, [this, s = &session](bool visible) {
        if (visible && !m_panelMade) makePanel(*s);
    });
}

void TimelineDock::makePanel(Session& session) {
    m_panelMade = true;
    QWidget* panel = ui::makeTimelinePanel(this);
    delete widget();
    setWidget(panel);
    m_view = qobject_cast<ui::TimelineView*>(panel);
    if (!m_view) return;

    m_view->setResults(session.results());
    m_view->setTime(session.timeS());
    // Finished results and a long run's so far alike.
    connect(&session, &Session::resultsShown, m_view,
            [this, s = &session] { m_view->setResults(s->results()); });
    connect(&session, &Session::timeChanged, m_view, &ui::TimelineView::setTime);
    connect(m_view, &ui::TimelineView::timeClicked, &session, &Session::requestTime);
    connect(m_view, &ui::TimelineView::jobClicked, &session, &Session::selectJob);
    connect(&session, &Session::jobSelected, m_view, &ui::TimelineView::setSelectedJob);
    // A GPU picked on the fleet: its job highlighted and that GPU's row shown; a node: its
    // first GPU's row.
    connect(&session, &Session::fleetSelectionChanged, m_view,
            [this](const ui::TopologyHit& hit, int jobOnGpu) {
                if (hit.kind == ui::TopologyHit::Kind::Gpu) {
                    m_view->setSelectedJob(jobOnGpu);
                    m_view->revealGpu(hit.node, hit.slot);
                } else if (hit.kind == ui::TopologyHit::Kind::Node) {
                    m_view->setSelectedJob(-1);
                    m_view->revealGpu(hit.node, 0);
                }
            });
}

}  // namespace gpuplan::app
