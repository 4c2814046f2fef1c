// Where the main window's docks go, for the screen it is on: the working layout (the fleet in
// the middle, tools around it, sized to the window so nothing asks for more room than a
// 1280x720 projector has) and the presentation layout for a meeting (the fleet large, the KPI
// strip, the per-team table and one chart, in larger type; Esc returns).
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>

class QAction;
class QComboBox;
class QDockWidget;
class QMainWindow;
class QToolBar;

namespace gpuplan::ui {
class ChartBoard;
class TopologyView;
}  // namespace gpuplan::ui

namespace gpuplan::app {

class WindowLayout : public QObject {
    Q_OBJECT
public:
    WindowLayout(QMainWindow* window, ui::ChartBoard* charts, ui::TopologyView* fleet);

    /// Gives every dock a content that may shrink (forms scroll instead of widening or
    /// heightening the window). Call once every dock exists.
    void makeDocksShrinkable();
    /// Resizes the window to `size` clamped to its screen's available area, then arranges the
    /// docks for that size: left and right columns and the bottom tabs take a share of the
    /// window; on a short screen the job palette becomes one of the bottom tabs.
    void fitToSize(QSize size);

    bool presenting() const { return m_presenting; }
    /// The meeting layout (true) or the working one as it was before (false).
    void setPresenting(bool on);
    /// View ▸ Present (checkable, F11): toggles the meeting layout, full screen.
    QAction* presentAction() const { return m_presentAction; }
    /// The chart shown while presenting (its index in ChartBoard::charts()).
    int presentedChart() const;
    void setPresentedChart(int index);

signals:
    void presentingChanged(bool on);

private:
    QDockWidget* dock(const char* name) const;
    void arrangeWorking(QSize size);
    void arrangePresenting();
    QToolBar* presentToolbar();

    QMainWindow* m_window;
    ui::ChartBoard* m_charts;
    ui::TopologyView* m_fleet;
    QAction* m_presentAction;
    QToolBar* m_presentBar = nullptr;
    QComboBox* m_chartChoice = nullptr;
    bool m_presenting = false;
    QByteArray m_workingState;  ///< QMainWindow::saveState before presenting
    Qt::WindowStates m_workingWindowState;
};

/// Share of the window a column or the bottom tabs take, clamped to what their content reads
/// well in: the one rule for the working layout's dock sizes.
struct DockShares {
    int leftPx, rightPx, bottomPx;
    bool paletteInBottomTabs;  ///< a short screen: the job palette is a bottom tab
};
DockShares dockSharesFor(QSize windowSize);

}  // namespace gpuplan::app
