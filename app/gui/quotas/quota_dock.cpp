#include "quota_dock.hpp"

#include "quota_panel.hpp"
#include "shell/dock_host.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

QuotaDock::QuotaDock(Session& session, DockHost& host)
    : QDockWidget(tr("Quotas"), host.dockWindow()) {
    setObjectName(QStringLiteral("quotas"));
    m_panel = new QuotaPanel(session.document(), this);
    setWidget(m_panel);
    // The table and the sliders need more height than the pending list.
    host.addBottomTab(this, [] { return 300; });

    m_panel->setResults(session.results());
    m_panel->setTime(session.timeS());
    connect(&session, &Session::resultsApplied, this,
            [this, s = &session] { m_panel->setResults(s->results()); });
    connect(&session, &Session::timeChanged, m_panel, &QuotaPanel::setTime);
    connect(m_panel, &QuotaPanel::message, this, &QuotaDock::message);
}

}  // namespace gpuplan::app
