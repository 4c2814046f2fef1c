// MainWindow's menus and main toolbar: File, Edit, Run, View and Help, and the actions they
// share with the toolbar. The window's docks and wiring are in main_window.cpp.
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
#include "main_window.hpp"
#include "quotas/cohort_dock.hpp"
#include "quotas/quota_dock.hpp"
#include "report/report_export.hpp"
#include "studies/capacity_dock.hpp"
#include "studies/fill_study_view.hpp"
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

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* presets = file->addMenu(tr("&New from preset"));
    m_files->fillPresetsMenu(presets);
    file->addAction(tr("&Open…"), QKeySequence::Open, m_files, &FileController::open);
    QMenu* recent = file->addMenu(tr("Open &recent"));
    m_files->fillRecentMenu(recent);
    connect(m_files, &FileController::recentChanged, this,
            [this, recent] { m_files->fillRecentMenu(recent); });
    QAction* save =
        file->addAction(tr("&Save"), QKeySequence::Save, m_files, &FileController::save);
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, m_files, &FileController::saveAs);
    file->addAction(tr("&Import fleet (Kubernetes, Slurm)…"), this,
                    [this] { m_files->importFleet(); });
    file->addSeparator();
    file->addAction(tr("Export &results (CSV, JSON)…"), this, [this] {
        const auto results = m_session->results();
        if (!results) return;
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Export results into"), FileController::lastFolder(FolderPurpose::Exports));
        if (dir.isEmpty()) return;
        FileController::rememberFolder(FolderPurpose::Exports, dir);
        try {
            exportResults(*results, dir);
            showStatus(tr("Results exported to %1").arg(dir));
        } catch (const std::exception& e) {
            QMessageBox::critical(this, tr("Export failed"), QString::fromUtf8(e.what()));
        }
    });
    for (const QString& format : {QStringLiteral("png"), QStringLiteral("svg")})
        file->addAction(tr("Export charts as %1…").arg(format.toUpper()), this, [this, format] {
            const QString dir = QFileDialog::getExistingDirectory(
                this, tr("Export charts into"), FileController::lastFolder(FolderPurpose::Exports));
            if (dir.isEmpty()) return;
            FileController::rememberFolder(FolderPurpose::Exports, dir);
            try {
                showStatus(tr("Wrote %1")
                               .arg(exportCharts(m_charts->charts(), dir, format)
                                        .join(QStringLiteral(", "))));
            } catch (const std::exception& e) {
                QMessageBox::critical(this, tr("Export failed"), QString::fromUtf8(e.what()));
            }
        });
    auto* timelineExport = new TimelineExport(this);
    connect(timelineExport, &TimelineExport::message, this, &MainWindow::showStatus);
    file->addAction(tr("Export &timeline (Chrome trace JSON)…"), this, [this, timelineExport] {
        timelineExport->exportWithDialog(m_session->results(), m_doc->title());
    });
    auto* reportExport = new ReportExport(*m_session, this);
    connect(reportExport, &ReportExport::message, this, &MainWindow::showStatus);
    file->addAction(tr("Export re&port (PDF)…"), reportExport, &ReportExport::exportWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    routeSpinBoxUndoToDocument(this);
    QAction* redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    // Connected after the stack's own slots, so these run once the step is undone or redone:
    // the status bar then says so instead of keeping the undone action's message.
    connect(undo, &QAction::triggered, this, [this] {
        const QUndoStack* stack = m_doc->undoStack();
        if (const QUndoCommand* c = stack->command(stack->index()))
            showStatus(tr("Undid %1").arg(c->text()));
    });
    connect(redo, &QAction::triggered, this, [this] {
        const QUndoStack* stack = m_doc->undoStack();
        if (const QUndoCommand* c = stack->command(stack->index() - 1))
            showStatus(tr("Redid %1").arg(c->text()));
    });

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    QAction* pin = run->addAction(tr("&Pin as baseline"), QKeySequence(Qt::CTRL | Qt::Key_B),
                                  m_session, &Session::pinBaseline);
    pin->setToolTip(tr("Keep these results: charts draw them dashed, the KPI strip shows deltas"));
    run->addAction(tr("&Clear baseline"), m_session, &Session::clearBaseline);
    m_keepBaseline = run->addAction(tr("&Keep baseline when opening another scenario"));
    m_keepBaseline->setCheckable(true);
    connect(m_keepBaseline, &QAction::toggled, m_session, &Session::setKeepBaselineAcrossScenarios);
    m_keepBaseline->setToolTip(
        tr("Compare across files: the baseline stays, labelled with its scenario's name"));
    run->addAction(tr("Re-run &now"), QKeySequence::Refresh, this,
                   [this] { m_sim.runNow(m_doc->scenario()); });
    run->addAction(tr("&Play / pause time"), QKeySequence(Qt::Key_Space), m_scrubber,
                   &ui::TimeScrubber::togglePlay);
    run->addAction(tr("&Fill study (FGD paper)…"), this, [this] {
        auto* study = findChild<FillStudyView*>();
        if (!study) study = new FillStudyView(m_doc->loadOptions().dataDirs, this);
        study->show(), study->raise(), study->activateWindow();
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_layout = new WindowLayout(this, m_charts, m_topology);
    view->addAction(m_layout->presentAction());
    view->addAction(tr("&Fit the fleet"), QKeySequence(Qt::Key_F), m_topology,
                    &ui::TopologyView::fitAll);
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User guide"), this, [this] {
        if (!m_userGuide) m_userGuide = new UserGuideWindow(this);
        m_userGuide->show();
        m_userGuide->raise();
        m_userGuide->activateWindow();
    });
    guide->setObjectName(QStringLiteral("userGuideAction"));
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About gpuplan"), this, [this] {
        QMessageBox::about(
            this, tr("About gpuplan"),
            tr("<b>gpuplan %1</b><p>A what-if planner for GPU clusters: drag jobs onto the "
               "fleet, watch utilization, fragmentation and pending demand, and ask why a job "
               "is Pending — reservation, provisioning, scheduling or workload.</p>")
                .arg(QStringLiteral(GPUPLAN_VERSION)));
    });

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolbar"));
    bar->addAction(save);
    // The toolbar says what would be undone, like the Edit menu ("Undo Drop notebook"); long
    // names are shortened there and shown whole as the tooltip.
    undo->setIcon(
        QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)));
    redo->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo"),
                                   style()->standardIcon(QStyle::SP_ArrowForward)));
    for (QAction* action : {undo, redo}) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setObjectName(action == undo ? QStringLiteral("undoButton")
                                             : QStringLiteral("redoButton"));
        auto label = [button, action] {
            const QString full = action->text().remove(QLatin1Char('&'));
            button->setText(button->fontMetrics().elidedText(full, Qt::ElideRight, 220));
            button->setToolTip(full);
        };
        connect(action, &QAction::changed, button, label);
        label();
        bar->addWidget(button);
    }
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Placement: "), this));
    m_placement = new QComboBox(this);
    m_placement->addItem(tr("pack (best fit)"));
    m_placement->addItem(tr("spread"));
    m_placement->addItem(tr("topology-aware"));
    m_placement->setToolTip(tr("How the scheduler picks nodes for a job's pods"));
    connect(m_placement, &QComboBox::currentIndexChanged, this,
            [this](int i) { setPlacementPolicy(static_cast<PlacementPolicy>(i)); });
    bar->addWidget(m_placement);
    bar->addSeparator();
    bar->addAction(pin);
    bar->addAction(m_layout->presentAction());
    QToolButton* presetsButton = new QToolButton(this);
    presetsButton->setText(tr("Presets"));
    presetsButton->setMenu(presets);
    presetsButton->setPopupMode(QToolButton::InstantPopup);
    bar->addWidget(presetsButton);
}

}  // namespace gpuplan::app
