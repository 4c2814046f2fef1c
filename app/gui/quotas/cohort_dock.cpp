#include "cohort_dock.hpp"

#include <QScrollArea>
#include <algorithm>

#include "charts/cohort_view.hpp"
#include "editors/time_scrubber.hpp"
#include "shell/main_window.hpp"
#include "shell/scenario_document.hpp"

namespace gpuplan::app {

CohortDock::CohortDock(MainWindow* window) : QDockWidget(tr("Cohorts"), window) {
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
    window->addBottomTab(this,
                         [this] { return std::min(320, m_view->minimumSizeHint().height() + 60); });

    showResults(window);
    m_view->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, this, [this, window] { showResults(window); });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_view, &ui::CohortView::setTime);
    connect(m_view, &ui::CohortView::timeClicked, window->scrubber(), &ui::TimeScrubber::setTime);
}

void CohortDock::showResults(MainWindow* window) {
    // The results arrive for the scenario the document holds (a newer edit re-simulates and
    // brings its own results); teams its run did not manage are left out by the view.
    const Scenario& scenario = window->document()->scenario();
    m_view->setResults(window->results(), scenario.quotas, scenario.cohorts);
}

}  // namespace gpuplan::app
