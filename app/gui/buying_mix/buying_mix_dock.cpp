#include "buying_mix_dock.hpp"

#include "buying_mix_panel.hpp"
#include "shell/main_window.hpp"

namespace gpuplan::app {

BuyingMixDock::BuyingMixDock(MainWindow* window) : QDockWidget(tr("Buying mix"), window) {
    setObjectName(QStringLiteral("buyingMix"));
    m_panel = new BuyingMixPanel(
        window->document(), window->files().presetsDir() + QStringLiteral("/pricebooks"), this);
    setWidget(m_panel);
    // Two tables side by side need more height than the pending list; no more than that, so
    // that the charts keep their titles.
    window->addBottomTab(this, [] { return 250; });
    // The curve (21 runs a change) is swept only while the tab is in front: behind, it would
    // take the cores from the main run for a curve nobody sees.
    m_panel->setCurveActive(false);
    connect(this, &QDockWidget::visibilityChanged, m_panel, &BuyingMixPanel::setCurveActive);

    m_panel->setResults(window->results());
    connect(window, &MainWindow::resultsApplied, this,
            [this, window] { m_panel->setResults(window->results()); });
    connect(m_panel, &BuyingMixPanel::message, this, &BuyingMixDock::message);
}

}  // namespace gpuplan::app
