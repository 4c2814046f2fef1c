#include "cohort_dock.hpp"

#include <QScrollArea>
#include <algorithm>

#include "cohort_view.hpp"
#include "main_window.hpp"
#include "scenario_document.hpp"
#include "time_scrubber.hpp"

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
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    if (auto* pending = window->findChild<QDockWidget*>(QStringLiteral("pending"))) {
        window->tabifyDockWidget(pending, this);
        pending->raise();  // the pending list stays the first tab a look needs
    }
    // Strips need more height than the pending list: the first time it is raised, the bottom
    // docks grow to give them room (the user can drag them back).
    connect(this, &QDockWidget::visibilityChanged, this, [this, window](bool visible) {
        if (!visible || m_sized) return;
        m_sized = true;
        // Enough for the strips at their least height, no more: the charts keep their room.
        window->resizeDocks({this}, {std::min(320, m_view->minimumSizeHint().height() + 60)},
                            Qt::Vertical);
    });

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
