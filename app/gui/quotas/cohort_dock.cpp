#include "cohort_dock.hpp"

#include <QScrollArea>
#include <algorithm>

#include "charts/cohort_view.hpp"
#include "shell/dock_host.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

CohortDock::CohortDock(Session& session, DockHost& host)
    : QDockWidget(tr("Cohorts"), host.dockWindow()) {
    setObjectName(QStringLiteral("cohorts"));
    m_view = new ui::CohortView(this);
    // Many teams need more height than the dock has: the strips keep a readable height and
    // scroll.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);
    // Strips need more height than the pending list; enough for them at their least height,
    // no more: the charts keep their room.
    host.addBottomTab(this,
                      [this] { return std::min(320, m_view->minimumSizeHint().height() + 60); });

    showResults(session);
    m_view->setTime(session.timeS());
    connect(&session, &Session::resultsApplied, this, [this, s = &session] { showResults(*s); });
    connect(&session, &Session::timeChanged, m_view, &ui::CohortView::setTime);
    connect(m_view, &ui::CohortView::timeClicked, &session, &Session::requestTime);
}

void CohortDock::showResults(const Session& session) {
    // The results arrive for the scenario the document holds (a newer edit re-simulates and
    // brings its own results); teams its run did not manage are left out by the view.
    const Scenario& scenario = session.document()->scenario();
    m_view->setResults(session.results(), scenario.quotas, scenario.cohorts);
}

}  // namespace gpuplan::app
