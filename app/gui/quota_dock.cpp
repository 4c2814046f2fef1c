#include "quota_dock.hpp"

#include "main_window.hpp"
#include "quota_panel.hpp"
#include "time_scrubber.hpp"

namespace gpuplan::app {

QuotaDock::QuotaDock(MainWindow* window) : QDockWidget(tr("Quotas"), window) {
    setObjectName(QStringLiteral("quotas"));
    m_panel = new QuotaPanel(window->document(), this);
    setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    if (auto* pending = window->findChild<QDockWidget*>(QStringLiteral("pending"))) {
        window->tabifyDockWidget(pending, this);
        pending->raise();  // the pending list stays the first tab a look needs
    }
    // The table and the sliders need more height than the pending list: the first time the
    // dock is raised, the bottom docks grow to give it room (the user can drag them back).
    connect(this, &QDockWidget::visibilityChanged, this, [this, window](bool visible) {
        if (!visible || m_sized) return;
        m_sized = true;
        window->resizeDocks({this}, {300}, Qt::Vertical);
    });

    m_panel->setResults(window->results());
    m_panel->setTime(window->scrubber()->time());
    connect(window, &MainWindow::resultsApplied, this,
            [this, window] { m_panel->setResults(window->results()); });
    connect(window->scrubber(), &ui::TimeScrubber::timeChanged, m_panel, &QuotaPanel::setTime);
    connect(m_panel, &QuotaPanel::message, this, &QuotaDock::message);
}

}  // namespace gpuplan::app
