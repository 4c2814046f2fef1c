// The "Quotas" dock, tabbed with the bottom docks behind the pending list: the quota
// panel, following the main window's results and time scrubber. Its edits go through the
// document like every other; message() carries their outcome to the status bar.
#pragma once

#include <QDockWidget>

namespace gpuplan::app {

class DockHost;
class Session;
class QuotaPanel;

class QuotaDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    QuotaDock(Session& session, DockHost& host);
    QuotaPanel* panel() const { return m_panel; }

signals:
    void message(const QString& text);

private:
    QuotaPanel* m_panel;
};

}  // namespace gpuplan::app
