// The "Buying mix" dock, tabbed with the bottom docks behind the pending list: the
// buying-mix panel, following the main window's results. Its edits go through the document
// like every other; message() carries their outcome to the status bar.
#pragma once

#include <QDockWidget>

namespace gpuplan::app {

class BuyingMixPanel;
class DockHost;
class Session;

class BuyingMixDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    BuyingMixDock(Session& session, DockHost& host);
    BuyingMixPanel* panel() const { return m_panel; }

signals:
    void message(const QString& text);

private:
    BuyingMixPanel* m_panel;
};

}  // namespace gpuplan::app
