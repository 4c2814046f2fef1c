// Where a feature's dock sits in the window. Docks receive a DockHost (and the Session they
// show), never the concrete window.
#pragma once

#include <QMainWindow>
#include <functional>

class QDockWidget;

namespace gpuplan::app {

class DockHost {
public:
    /// Adds `dock` as a tab behind the pending list, which stays raised (the tab a first look
    /// needs). The first time the dock is raised, the bottom docks grow to heightPx() (the
    /// user can drag them back), never past half the window.
    virtual void addBottomTab(QDockWidget* dock, std::function<int()> heightPx) = 0;
    /// Adds `dock` as a tab beside the Inspector on the left.
    virtual void addLeftTab(QDockWidget* dock) = 0;
    /// The window the docks belong to (their parent; docks resize themselves in it).
    virtual QMainWindow* dockWindow() = 0;

protected:
    ~DockHost() = default;
};

}  // namespace gpuplan::app
