#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QIcon>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include "buying_mix/buying_mix_dock.hpp"
#include "buying_mix/forecast_dock.hpp"
#include "charts/chart_board.hpp"
#include "document_undo_keys.hpp"
#include "editors/gpu_sharing_editor.hpp"
#include "editors/inspector.hpp"
#include "editors/job_palette.hpp"
#include "editors/time_scrubber.hpp"
#include "export_controller.hpp"
#include "fleet/fleet_panel.hpp"
#include "fleet/sharing_controller.hpp"
#include "format/ui_palette.hpp"
#include "import/fleet_import_dialog.hpp"
#include "kpis/group_kpi_panel.hpp"
#include "kpis/kpi_strip.hpp"
#include "lessons/lessons_dock.hpp"
#include "quotas/cohort_dock.hpp"
#include "quotas/quota_dock.hpp"
#include "report/report_export.hpp"
#include "studies/capacity_dock.hpp"
#include "studies/fill_study_view.hpp"
#include "studies/plan_dock.hpp"
#include "studies/study_dock.hpp"
#include "tables/compare_table_model.hpp"
#include "tables/pending_table_model.hpp"
#include "timeline/timeline_dock.hpp"
#include "timeline/timeline_export.hpp"
#include "topology/topology_view.hpp"
#include "user_guide_window.hpp"
#include "window_layout.hpp"
#include "workload/job_templates.hpp"
#include "workload/scheduler_panel.hpp"
#include "workload/workload_panel.hpp"

namespace gpuplan::app {

MainWindow::MainWindow(ScenarioDocument* document, const QString& presetsDir, QWidget* parent)
    : QMainWindow(parent), m_doc(document) {
    m_drops = new DropController(m_doc, this);
    m_files = new FileController(m_doc, this, presetsDir);
    m_session = new Session(m_doc, &m_sim, m_files, this);

    // Centre: KPI strip, the fleet, the time scrubber.
    auto* centre = new QWidget(this);
    auto* column = new QVBoxLayout(centre);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_topology = new ui::TopologyView(centre);
    m_scrubber = new ui::TimeScrubber(centre);
    column->addWidget(m_topology, 1);
    column->addWidget(m_scrubber);
    setCentralWidget(centre);

    buildDocks();
    buildFleetEditing();
    buildWorkloadDock();
    Session& session = *m_session;
    new CapacityDock(session, *this);  // largest placeable job and the repack what-if
    connect(new QuotaDock(session, *this), &QuotaDock::message, this, &MainWindow::showStatus);
    new CohortDock(session, *this);    // quota use, borrowing and lending per team over time
    new TimelineDock(session, *this);  // every GPU's jobs over time (a placeholder without GL)
    // One parameter swept with replications, its KPIs drawn with their intervals.
    connect(new StudyDock(session, *this), &StudyDock::message, this, &MainWindow::showStatus);
    // The cheapest change that meets the targets, found by search.
    connect(new PlanDock(session, *this), &PlanDock::message, this, &MainWindow::showStatus);
    new ForecastDock(session, *this);  // the demand as history, its forecast, the reservation
    // The course: a lesson's scenario, its explanation and a step to try.
    connect(new LessonsDock(session, *this), &LessonsDock::message, this, &MainWindow::showStatus);
    // The price book, what each GPU-hour costs, break-even and chargeback.
    connect(new BuyingMixDock(session, *this), &BuyingMixDock::message, this,
            &MainWindow::showStatus);
    buildActions();
    // The KPI strip spans the window under the toolbar; it must never widen the window.
    m_kpis = new ui::KpiStrip(this);
    m_kpis->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    auto* kpiBar = new QToolBar(tr("KPIs"), this);
    kpiBar->setObjectName(QStringLiteral("kpiToolbar"));
    kpiBar->setMovable(false);
    kpiBar->addWidget(m_kpis);
    addToolBarBreak();
    addToolBar(Qt::TopToolBarArea, kpiBar);

    m_statusText = new QLabel(this);
    // Long messages (a refusal's reason) must not widen the window: they are elided by the
    // layout and readable in full as the tooltip.
    m_statusText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel run"));
    m_cancel->setVisible(false);
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);

    // Document → simulation → widgets.
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        m_sim.request(m_doc->scenario());
        documentChanged();
    });
    documentChanged();
    // Another fleet: seen whole, whatever the old zoom was.
    connect(m_doc, &ScenarioDocument::replaced, m_topology, &ui::TopologyView::fitAll);
    connect(m_session, &Session::baselineChanged, this, &MainWindow::showBaselineInViews);
    connect(m_session, &Session::statusMessage, this, &MainWindow::showStatus);
    connect(m_session, &Session::jobSelected, this, &MainWindow::showSelectedJob);
    connect(m_session, &Session::timeRequested, m_scrubber, &ui::TimeScrubber::setTime);
    connect(m_doc, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ScenarioDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(&m_sim, &SimulationController::resultsReady, this, &MainWindow::applyResults);
    connect(&m_sim, &SimulationController::partialResultsReady, this,
            &MainWindow::applyPartialResults);
    connect(&m_sim, &SimulationController::replicationsReady, this,
            [this](std::shared_ptr<const Replications> replications) {
                m_session->setReplications(std::move(replications));
            });
    connect(&m_sim, &SimulationController::runFailed, this, [this](const QString& message) {
        dropPartialResults();
        showStatus(tr("Run failed: %1").arg(message));
    });
    connect(&m_sim, &SimulationController::longRun, this, [this](bool active) {
        m_progress->setVisible(active);
        m_cancel->setVisible(active);
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("%p%"));
    });
    connect(&m_sim, &SimulationController::progress, this,
            [this](double f) { m_progress->setValue(static_cast<int>(1000 * f)); });
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        m_sim.cancel();
        dropPartialResults();
        showStatus(tr("Run cancelled; the charts show the last finished run."));
    });

    // Time: the scrubber, and a click on any chart moves it there.
    connect(m_scrubber, &ui::TimeScrubber::timeChanged, this, &MainWindow::setTime);
    connect(m_charts, &ui::ChartBoard::timeClicked, m_scrubber, &ui::TimeScrubber::setTime);

    // Selection and drops on the fleet.
    connect(m_topology, &ui::TopologyView::selectionChanged, this, &MainWindow::onSelection);
    connect(
        m_topology, &ui::TopologyView::dragHovered, this,
        [this](const ui::TopologyHit& target, const QString& format, const QByteArray& payload) {
            m_drops->hover(
                DropRequest{target, format, payload, m_scrubber->time(), shownName(target)});
        });
    connect(m_topology, &ui::TopologyView::dragLeft, m_drops, &DropController::hoverEnded);
    connect(m_drops, &DropController::feedback, m_topology, &ui::TopologyView::setDropFeedback);
    connect(
        m_topology, &ui::TopologyView::dropRequested, this,
        [this](const ui::TopologyHit& target, const QString& format, const QByteArray& payload) {
            const DropOutcome outcome = m_drops->drop(
                DropRequest{target, format, payload, m_scrubber->time(), shownName(target)});
            showStatus(outcome.message);
        });
    connect(m_files, &FileController::message, this, &MainWindow::showStatus);

    m_layout->makeDocksShrinkable();
    resize(1600, 1000);
    m_layout->fitToSize(size());
    updateTitle();
}

void MainWindow::fitToSize(QSize size) {
    m_layout->fitToSize(size);
}

void MainWindow::setPresenting(bool on) {
    m_layout->setPresenting(on);
}

bool MainWindow::presenting() const {
    return m_layout->presenting();
}

void MainWindow::buildDocks() {
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    auto dock = [this](const QString& title, const char* name, QWidget* content,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(content);
        addDockWidget(area, d);
        return d;
    };
    m_palette = new ui::JobPalette(this);
    m_palette->setMinimumWidth(200);
    auto* paletteDock = dock(tr("Job palette"), "palette", m_palette, Qt::LeftDockWidgetArea);
    m_inspector = new ui::Inspector(this);
    m_inspector->setMinimumWidth(200);
    // The selection's GPU sharing, editable, under what the inspector says about it; the
    // editor takes the height it needs, the inspector the rest.
    auto* inspectorPane = new QWidget(this);
    auto* inspectorColumn = new QVBoxLayout(inspectorPane);
    inspectorColumn->setContentsMargins(0, 0, 0, 0);
    m_sharingEditor = new ui::GpuSharingEditor(inspectorPane);
    inspectorColumn->addWidget(m_inspector, 1);
    inspectorColumn->addWidget(m_sharingEditor);
    auto* inspectorDock = dock(tr("Inspector"), "inspector", inspectorPane, Qt::LeftDockWidgetArea);

    // Two columns of charts where there is room, one (scrolled) where there is not.
    m_charts = new ui::ChartBoard(this);
    dock(tr("Charts"), "charts", m_charts, Qt::RightDockWidgetArea);

    m_pending = new ui::PendingTableModel(this);
    m_pendingSorted = new QSortFilterProxyModel(this);
    m_pendingSorted->setSourceModel(m_pending);
    m_pendingSorted->setSortRole(ui::PendingTableModel::SortRole);
    auto* pendingView = new QTableView(this);
    pendingView->setObjectName(QStringLiteral("pendingView"));
    pendingView->setModel(m_pendingSorted);
    pendingView->setSortingEnabled(true);
    pendingView->sortByColumn(ui::PendingTableModel::WaitingColumn, Qt::DescendingOrder);
    pendingView->setSelectionBehavior(QAbstractItemView::SelectRows);
    pendingView->setSelectionMode(QAbstractItemView::SingleSelection);
    pendingView->horizontalHeader()->setStretchLastSection(true);
    // Wide enough for a generated job's name and Kueue's longest token, unclipped.
    const QFontMetrics metrics = pendingView->fontMetrics();
    pendingView->setColumnWidth(
        ui::PendingTableModel::JobColumn,
        metrics.horizontalAdvance(QStringLiteral("batch-inference-0000")) + 16);
    pendingView->setColumnWidth(ui::PendingTableModel::TokenColumn,
                                metrics.horizontalAdvance(QLatin1String(
                                    toString(ReasonToken::WaitingForPreemptedWorkloads))) +
                                    16);
    pendingView->verticalHeader()->hide();
    pendingView->setWordWrap(false);
    connect(pendingView, &QTableView::clicked, this, &MainWindow::onPendingClicked);
    // The keyboard (arrow keys, Page Down…) moves the current row without a click.
    connect(pendingView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) onPendingClicked(current);
            });
    auto* pendingDock = dock(tr("Pending at t"), "pending", pendingView, Qt::BottomDockWidgetArea);

    m_compare = new ui::CompareTableModel(this);
    auto* compareView = new QTableView(this);
    compareView->setModel(m_compare);
    compareView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    compareView->verticalHeader()->hide();
    auto* compareDock =
        dock(tr("Compare with baseline"), "compare", compareView, Qt::BottomDockWidgetArea);
    tabifyDockWidget(pendingDock, compareDock);
    m_groups = new ui::GroupKpiPanel(this);
    tabifyDockWidget(pendingDock,
                     dock(tr("By team / class"), "groups", m_groups, Qt::BottomDockWidgetArea));
    pendingDock->raise();
    resizeDocks({pendingDock}, {170}, Qt::Vertical);
    // The inspector holds the sharing editor (its MIG picture) too: it gets the taller share.
    resizeDocks({paletteDock, inspectorDock}, {200, 600}, Qt::Vertical);
}

void MainWindow::addBottomTab(QDockWidget* dock, std::function<int()> heightPx) {
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (auto* pending = findChild<QDockWidget*>(QStringLiteral("pending"))) {
        tabifyDockWidget(pending, dock);
        pending->raise();
    }
    auto sized = std::make_shared<bool>(false);
    connect(dock, &QDockWidget::visibilityChanged, this,
            [this, dock, sized, heightPx = std::move(heightPx)](bool visible) {
                if (!visible || *sized) return;
                *sized = true;
                // Never more than half the window: the fleet stays in view on a projector.
                resizeDocks({dock}, {std::min(heightPx(), height() / 2)}, Qt::Vertical);
            });
}

void MainWindow::addLeftTab(QDockWidget* dock) {
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspector"))) {
        tabifyDockWidget(inspector, dock);
        inspector->raise();
    }
}

void MainWindow::buildFleetEditing() {
    m_fleetPanel = new FleetPanel(m_doc, this);
    auto* fleetDock = new QDockWidget(tr("Fleet"), this);
    fleetDock->setObjectName(QStringLiteral("fleet"));
    fleetDock->setWidget(m_fleetPanel);
    addDockWidget(Qt::BottomDockWidgetArea, fleetDock);
    if (auto* pending = findChild<QDockWidget*>(QStringLiteral("pending"))) {
        tabifyDockWidget(pending, fleetDock);
        pending->raise();  // the new tabs wait behind the ones a first look needs
    }

    m_schedulerPanel = new SchedulerPanel(m_doc, this);
    // Not "&": dock tabs read it as a mnemonic, title bars do not.
    auto* schedulerDock = new QDockWidget(tr("Scheduler and run"), this);
    schedulerDock->setObjectName(QStringLiteral("scheduler"));
    // Scrolled both ways: its groups (preemption, failures) are taller and its form wider than
    // the left column on a projector, and a dock's minimum would push the window off-screen.
    auto* schedulerScroll = new QScrollArea(schedulerDock);
    schedulerScroll->setObjectName(QStringLiteral("schedulerScroll"));
    schedulerScroll->setWidget(m_schedulerPanel);
    schedulerScroll->setWidgetResizable(true);
    schedulerScroll->setFrameShape(QFrame::NoFrame);
    schedulerDock->setWidget(schedulerScroll);
    addDockWidget(Qt::LeftDockWidgetArea, schedulerDock);
    if (auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspector"))) {
        tabifyDockWidget(inspector, schedulerDock);
        inspector->raise();
    }

    m_fleetMenu = new FleetContextMenu(m_doc, this);
    m_sharing = new SharingController(m_doc, m_sharingEditor, this);
    connect(m_sharing, &SharingController::message, this, &MainWindow::showStatus);
    connect(m_fleetPanel, &FleetPanel::definitionsSelected, m_sharing,
            &SharingController::selectDefinitions);
    connect(m_fleetMenu, &FleetContextMenu::sharingEditorRequested, this,
            [this](const QString& kind, const QString& name) {
                m_sharing->selectGenerated(kind, name);
                if (auto* dock = findChild<QDockWidget*>(QStringLiteral("inspector")))
                    dock->raise();
            });
    connect(m_fleetPanel, &FleetPanel::message, this, &MainWindow::showStatus);
    connect(m_schedulerPanel, &SchedulerPanel::message, this, &MainWindow::showStatus);
    connect(m_fleetMenu, &FleetContextMenu::message, this, &MainWindow::showStatus);
    connect(m_topology, &ui::TopologyView::contextMenuRequested, this,
            [this](const ui::TopologyHit& hit, const QPoint& globalPos) {
                QMenu menu(this);
                m_fleetMenu->fill(&menu, fleetTarget(hit), m_scrubber->time());
                menu.exec(globalPos);
            });
}

FleetTarget MainWindow::fleetTarget(const ui::TopologyHit& hit) const {
    FleetTarget target;
    const auto results = m_session->results();
    if (!results) return target;
    const Fleet& fleet = results->fleet;
    auto name = [](const std::string& s) { return QString::fromStdString(s); };
    if (hit.node >= 0 && hit.node < static_cast<int>(fleet.nodes.size()))
        target.node = name(fleet.nodes[hit.node].name);
    if (hit.rack >= 0 && hit.rack < static_cast<int>(fleet.racks.size()))
        target.rack = name(fleet.racks[hit.rack].name);
    if (hit.pod >= 0 && hit.pod < static_cast<int>(fleet.pods.size()))
        target.pod = name(fleet.pods[hit.pod].name);
    return target;
}

void MainWindow::buildWorkloadDock() {
    m_workload = new WorkloadPanel(m_doc, this);
    auto* dock = new QDockWidget(tr("Workload"), this);
    dock->setObjectName(QStringLiteral("workload"));
    dock->setWidget(m_workload);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (auto* pending = findChild<QDockWidget*>(QStringLiteral("pending"))) {
        tabifyDockWidget(pending, dock);
        pending->raise();
    }
    connect(m_workload, &WorkloadPanel::message, this, &MainWindow::showStatus);
    // "What if demand grows 30 %?" is the quickest question: its box sits on a toolbar too.
    auto* bar = addToolBar(tr("Demand"));
    bar->setObjectName(QStringLiteral("demandToolbar"));
    auto* demand = new DemandSpinBox(m_doc, bar);
    connect(demand, &DemandSpinBox::refused, this, &MainWindow::showStatus);
    bar->addWidget(demand);
    connect(m_palette, &ui::JobPalette::teamOverrideChanged, m_drops,
            &DropController::setTeamOverride);
    connect(m_palette, &ui::JobPalette::priorityOverrideChanged, m_drops,
            &DropController::setPriorityOverride);
}

void MainWindow::documentChanged() {
    m_drops->setTemplates(jobTemplates(m_doc->scenario()));
    m_palette->setTemplates(m_drops->templates());
    QStringList teams;
    for (const TeamDef& t : m_doc->scenario().teams)
        teams << QString::fromStdString(t.name);
    m_palette->setTeams(teams);
    const QSignalBlocker block(m_placement);
    m_placement->setCurrentIndex(static_cast<int>(m_doc->scenario().scheduler.placement));
}

void MainWindow::setPlacementPolicy(PlacementPolicy policy) {
    // One edit path for both placement boxes; a refusal reaches the status bar as a message.
    if (!m_schedulerPanel->setPlacementPolicy(policy).isEmpty()) {
        const QSignalBlocker block(m_placement);  // back to what the document holds
        m_placement->setCurrentIndex(static_cast<int>(m_doc->scenario().scheduler.placement));
    }
}

void MainWindow::applyResults(std::shared_ptr<const Results> results, quint64 generation) {
    showResults(std::move(results), generation, Announce::Applied);
}

void MainWindow::applyPartialResults(std::shared_ptr<const Results> results) {
    m_progress->setFormat(tr("Simulated to %1: %p%").arg(ui::formatSimTime(results->endS)));
    showResults(std::move(results), 0, Announce::Shown);
}

void MainWindow::dropPartialResults() {
    // The finished run's results are back on screen; the docks that skip partial results
    // still hold them, so nothing is announced as applied.
    const auto shown = m_session->results();
    if (shown && shown->partial && m_sim.latest()) showResults(m_sim.latest(), 0, Announce::Shown);
}

void MainWindow::showResults(std::shared_ptr<const Results> results, quint64 generation,
                             Announce announce) {
    m_session->setResults(std::move(results), generation);
    // New results reach every view before the time moves: a shorter horizon clamps the time
    // silently here, and the clamp is announced last, once no view holds the old fleet (a view
    // given a time of the new results while holding the old ones indexed one by the other).
    const bool timeMoved = m_scrubber->setHorizon(m_session->results()->horizonS);
    showResultsInViews();
    m_session->announceResults(announce == Announce::Applied);
    if (timeMoved) m_scrubber->announceTime();
}

void MainWindow::showResultsInViews() {
    // One cluster snapshot for the new results, shared like setTime's (one pendingAt walk).
    const auto results = m_session->results();
    const double timeS = m_scrubber->time();
    auto snapshot = std::make_shared<const ClusterSnapshot>(results->stateAt(timeS));
    m_topology->setResults(results, snapshot);
    m_charts->setResults(results);
    m_charts->setCursorTime(timeS);
    m_kpis->setResults(results);
    m_compare->setResults(results);
    m_groups->setResults(results);
    showReplicationsInViews();
    m_workload->setResults(results);
    m_pending->setResults(results, std::pair{timeS, snapshot->pending});
    m_inspector->setResults(results, snapshot);
}

void MainWindow::setTime(double timeS) {
    m_charts->setCursorTime(timeS);
    if (const auto results = m_session->results()) {
        // One query per time change (about 20 ms on a 225k-job backlog), shared by the fleet
        // view, its header, the inspector and the pending list.
        auto snapshot = std::make_shared<const ClusterSnapshot>(results->stateAt(timeS));
        m_topology->setSnapshot(snapshot);
        m_inspector->setSnapshot(snapshot);
        m_pending->setRows(timeS, snapshot->pending);
    } else {
        m_topology->setTime(timeS);
        m_pending->setTime(timeS);
        m_inspector->setTime(timeS);
    }
    m_session->setShownTime(timeS);
}

void MainWindow::onSelection(const ui::TopologyHit& hit) {
    using K = ui::TopologyHit::Kind;
    m_topology->setHighlightedJob(-1);
    const FleetTarget target = fleetTarget(hit);
    if (!target.node.isEmpty())
        m_sharing->selectGenerated(tr("Node"), target.node);
    else if (!target.rack.isEmpty())
        m_sharing->selectGenerated(tr("Rack"), target.rack);
    else
        m_sharing->selectGenerated(tr("Pod"), target.pod);
    int jobOnGpu = -1;
    switch (hit.kind) {
        case K::Gpu: {
            m_inspector->showGpu(hit.node, hit.slot);
            jobOnGpu = m_topology->jobAt(hit);
            m_topology->setHighlightedJob(jobOnGpu);
            break;
        }
        case K::Node:
            m_inspector->showNode(hit.node);
            break;
        case K::Rack:
            m_inspector->showRack(hit.rack);
            break;
        case K::Pod:
            m_inspector->showPod(hit.pod);
            break;
        case K::None:
            m_inspector->showNothing();
            break;
    }
    m_session->fleetSelected(hit, jobOnGpu);
}

void MainWindow::onPendingClicked(const QModelIndex& index) {
    const auto results = m_session->results();
    if (!results) return;
    // What the click shows is in the Inspector: bring its tab to the front.
    if (auto* inspectorDock = findChild<QDockWidget*>(QStringLiteral("inspector")))
        inspectorDock->raise();
    const int job = m_pendingSorted->data(index, ui::PendingTableModel::JobIndexRole).toInt();
    if (index.column() == ui::PendingTableModel::TeamColumn) {
        m_inspector->showTeam(results->jobs[job].spec.team);
        return;
    }
    m_session->selectJob(job);
}

void MainWindow::showSelectedJob(int job) {
    const auto results = m_session->results();
    if (auto* inspectorDock = findChild<QDockWidget*>(QStringLiteral("inspector")))
        inspectorDock->raise();
    m_inspector->showJob(QString::fromStdString(results->jobName(static_cast<std::uint32_t>(job))));
    m_topology->setHighlightedJob(job);
    // A pinned job: select where it waits to go.
    const JobSpec& s = results->jobs[job].spec;
    ui::TopologyHit hit;
    if (s.pinLevel == PinLevel::Node) {
        hit.kind = ui::TopologyHit::Kind::Node;
        hit.node = s.pinIndex;
    } else if (s.pinLevel == PinLevel::Rack) {
        hit.kind = ui::TopologyHit::Kind::Rack;
        hit.rack = s.pinIndex;
    } else if (s.pinLevel == PinLevel::Pod) {
        hit.kind = ui::TopologyHit::Kind::Pod;
        hit.pod = s.pinIndex;
    }
    m_topology->setSelection(hit);
    // Its row in the pending list when it waits at t; no other job's row stays selected.
    if (auto* pendingView = findChild<QTableView*>(QStringLiteral("pendingView"))) {
        const QModelIndexList rows =
            m_pendingSorted->match(m_pendingSorted->index(0, ui::PendingTableModel::JobColumn),
                                   ui::PendingTableModel::JobIndexRole, job, 1, Qt::MatchExactly);
        if (rows.isEmpty())
            pendingView->clearSelection();
        else if (pendingView->currentIndex().row() != rows.first().row())
            pendingView->selectRow(rows.first().row());
    }
}

void MainWindow::setKeepBaselineAcrossScenarios(bool keep) {
    m_keepBaseline->setChecked(keep);
}

void MainWindow::showBaselineInViews() {
    const auto baseline = m_session->baseline();
    m_charts->setBaseline(
        baseline, m_session->baselineFromOtherScenario() ? m_session->baselineName() : QString());
    m_kpis->setBaseline(baseline);
    m_compare->setBaseline(baseline);
    m_groups->setBaseline(baseline);
    showReplicationsInViews();
}

void MainWindow::showReplicationsInViews() {
    // A snapshot of a single run has no replications; the last finished run's are its own.
    const auto results = m_session->results();
    const auto runs = results && results->partial ? nullptr : m_session->replications();
    const auto baselineRuns = m_session->baselineReplications();
    m_charts->setReplications(runs);
    m_kpis->setReplications(runs, baselineRuns);
    m_compare->setReplications(runs, baselineRuns);
    m_groups->setReplications(runs, baselineRuns);
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — gpuplan").arg(m_doc->title()));
    setWindowModified(m_doc->isModified());
}

QString MainWindow::shownName(const ui::TopologyHit& hit) const {
    const auto results = m_session->results();
    return results ? ui::targetName(results->fleet, hit) : QString();
}

QString MainWindow::statusMessage() const {
    return m_statusText->text();
}

void MainWindow::showStatus(const QString& text) {
    m_statusText->setText(text);
    m_statusText->setToolTip(text);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!m_files->maybeSave()) {
        e->ignore();
        return;
    }
    m_files->removeAutosave();
    e->accept();
}

}  // namespace gpuplan::app
