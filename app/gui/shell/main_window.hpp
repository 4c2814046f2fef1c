// The main window: the fleet in the middle with the time scrubber under it, the KPI strip on
// top, and docks for the job palette, inspector, charts, pending list and compare table.
// Thin by design: layout, actions and wiring; features live in their own classes.
#pragma once

#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>

#include "dock_host.hpp"
#include "drop_controller.hpp"
#include "file_controller.hpp"
#include "fleet/fleet_context_menu.hpp"
#include "scenario_document.hpp"
#include "session.hpp"
#include "simulation_controller.hpp"

class QComboBox;
class QLabel;
class QProgressBar;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace gpuplan::ui {
class ChartBoard;
class CompareTableModel;
class GpuSharingEditor;
class Inspector;
class JobPalette;
class KpiStrip;
class PendingTableModel;
class GroupKpiPanel;
class TimeScrubber;
class TopologyView;
struct TopologyHit;
}  // namespace gpuplan::ui

namespace gpuplan::app {

class FleetPanel;
class SchedulerPanel;
class SharingController;
class UserGuideWindow;
class WindowLayout;
class WorkloadPanel;

class MainWindow : public QMainWindow, public DockHost {
    Q_OBJECT
public:
    MainWindow(ScenarioDocument* document, const QString& presetsDir, QWidget* parent = nullptr);

    ScenarioDocument* document() const { return m_doc; }
    /// What the docks share: the results and baseline on screen, time, selection, status.
    Session& session() const { return *m_session; }
    SimulationController& simulation() { return m_sim; }
    DropController& drops() { return *m_drops; }
    FileController& files() { return *m_files; }
    ui::TopologyView* topology() const { return m_topology; }
    ui::TimeScrubber* scrubber() const { return m_scrubber; }
    ui::ChartBoard* charts() const { return m_charts; }
    ui::KpiStrip* kpiStrip() const { return m_kpis; }
    ui::PendingTableModel* pendingModel() const { return m_pending; }
    FleetPanel* fleetPanel() const { return m_fleetPanel; }
    SchedulerPanel* schedulerPanel() const { return m_schedulerPanel; }
    FleetContextMenu* fleetMenu() const { return m_fleetMenu; }
    /// The GPU sharing editor under the Inspector and what it edits.
    SharingController* sharing() const { return m_sharing; }
    // DockHost: where the features' docks sit.
    void addBottomTab(QDockWidget* dock, std::function<int()> heightPx) override;
    void addLeftTab(QDockWidget* dock) override;
    QMainWindow* dockWindow() override { return this; }
    /// Resizes the window to `size`, clamped to the screen's available area, and arranges
    /// the docks for it (gpuplan --size).
    void fitToSize(QSize size);
    /// The meeting layout (View ▸ Present) or the working one.
    void setPresenting(bool on);
    bool presenting() const;
    WindowLayout* windowLayout() const { return m_layout; }
    /// Generated names of what a hit on the fleet on screen points at.
    FleetTarget fleetTarget(const ui::TopologyHit& hit) const;
    QComboBox* placementBox() const { return m_placement; }
    WorkloadPanel* workload() const { return m_workload; }
    ui::JobPalette* palette() const { return m_palette; }
    ui::GroupKpiPanel* groupKpiPanel() const { return m_groups; }
    std::shared_ptr<const Results> results() const { return m_session->results(); }
    std::shared_ptr<const Results> baseline() const { return m_session->baseline(); }
    /// Whether a baseline survives opening another scenario (Run ▸ Keep baseline…).
    void setKeepBaselineAcrossScenarios(bool keep);
    /// Widgets refreshed with a result (for tests: stale results must never arrive).
    quint64 appliedGeneration() const { return m_session->appliedGeneration(); }
    /// The status bar's message (a drop's outcome, a refusal's reason).
    QString statusMessage() const;

public slots:
    void setPlacementPolicy(PlacementPolicy policy);

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildActions();
    void buildDocks();
    void buildFleetEditing();  // Fleet and Scheduler & run docks, the fleet's right-click
    void buildWorkloadDock();  // the workload editor, the demand box, the palette's team
    void documentChanged();    // templates and toolbar follow the scenario
    void applyResults(std::shared_ptr<const Results> results, quint64 generation);
    /// A long run's results so far: drawn like results, but never pinned or announced.
    void applyPartialResults(std::shared_ptr<const Results> results);
    /// Shown: resultsShown only (a long run's results so far, or the finished run's again);
    /// Applied: resultsApplied follows (a finished run, to every dock).
    enum class Announce { Shown, Applied };
    /// Hands results to every view, then announces the time if the new horizon clamped it.
    void showResults(std::shared_ptr<const Results> results, quint64 generation, Announce announce);
    void showResultsInViews();       ///< the session's results to the window's views, at t
    void showBaselineInViews();      ///< the baseline (or none) to every view that compares
    void showReplicationsInViews();  ///< the runs behind the results and the baseline
    /// A cancelled or failed run's results so far give way to the last finished run's.
    void dropPartialResults();
    void setTime(double timeS);
    void onSelection(const ui::TopologyHit& hit);
    void onPendingClicked(const QModelIndex& index);
    /// The job selected everywhere: the inspector shows it, the fleet outlines its GPUs (and
    /// a pinned job's target), the pending list selects its row when it waits.
    void showSelectedJob(int job);
    void updateTitle();
    void showStatus(const QString& text);
    /// Name of a node, rack or pod in the fleet on screen (the displayed results').
    QString shownName(const ui::TopologyHit& hit) const;

    ScenarioDocument* m_doc;
    SimulationController m_sim;
    DropController* m_drops;
    FileController* m_files;
    Session* m_session;
    QAction* m_keepBaseline = nullptr;

    ui::TopologyView* m_topology;
    ui::TimeScrubber* m_scrubber;
    ui::KpiStrip* m_kpis;
    ui::ChartBoard* m_charts;
    ui::Inspector* m_inspector;
    ui::GpuSharingEditor* m_sharingEditor;
    SharingController* m_sharing = nullptr;
    ui::JobPalette* m_palette;
    ui::PendingTableModel* m_pending;
    ui::GroupKpiPanel* m_groups;
    QSortFilterProxyModel* m_pendingSorted;
    ui::CompareTableModel* m_compare;
    QComboBox* m_placement;
    FleetPanel* m_fleetPanel;
    SchedulerPanel* m_schedulerPanel;
    FleetContextMenu* m_fleetMenu;
    QLabel* m_statusText;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    WorkloadPanel* m_workload = nullptr;
    WindowLayout* m_layout = nullptr;
    UserGuideWindow* m_userGuide = nullptr;  ///< made when first asked for
};

}  // namespace gpuplan::app
