#include "buying_mix_dock.hpp"

#include "buying_mix_panel.hpp"
#include "main_window.hpp"

namespace gpuplan::app {

BuyingMixDock::BuyingMixDock(MainWindow* window) : QDockWidget(tr("Buying mix"), window) {
    setObjectName(QStringLiteral("buyingMix"));
    m_panel = new BuyingMixPanel(
        window->document(), window->files().presetsDir() + QStringLiteral("/pricebooks"), this);
    setWidget(m_panel);
    // Two tables side by side need more height than the pending list; no more than that, so
    // that the charts keep their titles.
    window->addBottomTab(this, [] { return 250; });

    m_panel->setResults(window->results());
    connect(window, &MainWindow::resultsApplied, this,
            [this, window] { m_panel->setResults(window->results()); });
    connect(m_panel, &BuyingMixPanel::message, this, &BuyingMixDock::message);
}

}  // namespace gpuplan::app
