#include "quota_dock.hpp"

#include "editors/time_scrubber.hpp"
#include "quota_panel.hpp"
#include "shell/main_window.hpp"

namespace gpuplan::app {

QuotaDock::QuotaDock(MainWindow* window) : QDockWidget(tr("Quotas"), window) {
    setObjectName(QStringLiteral("quotas"));
    m_panel = new QuotaPanel(window->document(), this);
    setWidget(m_panel);
    // The table and the sliders need more height than the pending list.
    window->addBottomTab(this, [] { return 300; });

    m_panel->setResults(window->results());
    m_panel->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, this,
            [this, window] { m_panel->setResults(window->results()); });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_panel, &QuotaPanel::setTime);
    connect(m_panel, &QuotaPanel::message, this, &QuotaDock::message);
}

}  // namespace gpuplan::app
