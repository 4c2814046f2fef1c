#include "buying_mix_dock.hpp"

#include "buying_mix_panel.hpp"
#include "shell/dock_host.hpp"
#include "shell/file_controller.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

BuyingMixDock::BuyingMixDock(Session& session, DockHost& host)
    : QDockWidget(tr("Buying mix"), host.dockWindow()) {
    setObjectName(QStringLiteral("buyingMix"));
    m_panel = new BuyingMixPanel(
        session.document(), session.files().presetsDir() + QStringLiteral("/pricebooks"), this);
    setWidget(m_panel);
    // Two tables side by side need more height than the pending list; no more than that, so
    // that the charts keep their titles.
    host.addBottomTab(this, [] { return 250; });
    // The curve (21 runs a change) is swept only while the tab is in front: behind, it would
    // take the cores from the main run for a curve nobody sees.
    m_panel->setCurveActive(false);
    connect(this, &QDockWidget::visibilityChanged, m_panel, &BuyingMixPanel::setCurveActive);

    m_panel->setResults(session.results());
    connect(&session, &Session::resultsApplied, this,
            [this, s = &session] { m_panel->setResults(s->results()); });
    connect(m_panel, &BuyingMixPanel::message, this, &BuyingMixDock::message);
}

}  // namespace gpuplan::app
