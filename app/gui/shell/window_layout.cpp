#include "window_layout.hpp"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include "charts/chart_board.hpp"
#include "kpis/group_kpi_panel.hpp"
#include "topology/topology_view.hpp"

namespace gpuplan::app {

namespace {

constexpr double kPresentFontScale = 1.4;
// The left column at most: room for the GPU-sharing editor's widest page (about 335 px).
constexpr int kMaxLeftPx = 360;
// Docks shown in the meeting layout; every other dock hides until Esc.
constexpr const char* kPresentDocks[] = {"groups", "charts"};
// The inspector's tabs in the left column (the palette stacks above them on a tall screen).
constexpr const char* kLeftTabs[] = {"scheduler", "lessons"};

int shareOf(int total, double fraction, int minPx, int maxPx) {
    return std::clamp(static_cast<int>(total * fraction), minPx, maxPx);
}

}  // namespace

DockShares dockSharesFor(QSize windowSize) {
    // The fleet in the middle keeps at least about half the width and half the height; the
    // columns read well from these minimums (a palette row, a chart's time axis).
    DockShares s;
    s.leftPx = shareOf(windowSize.width(), 0.19, 230, kMaxLeftPx - 20);
    s.rightPx = shareOf(windowSize.width(), 0.29, 330, 540);
    s.bottomPx = shareOf(windowSize.height(), 0.24, 140, 280);
    // Below this the palette and the inspector stacked leave each a few rows.
    s.paletteInBottomTabs = windowSize.height() < 860;
    return s;
}

WindowLayout::WindowLayout(QMainWindow* window, ui::ChartBoard* charts, ui::TopologyView* fleet)
    : QObject(window), m_window(window), m_charts(charts), m_fleet(fleet) {
    m_presentAction = new QAction(tr("&Present"), this);
    m_presentAction->setCheckable(true);
    // F11, as full screen elsewhere (F5 re-runs): the meeting layout fills the screen.
    m_presentAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentAction->setToolTip(
        tr("A layout for a meeting, full screen: the fleet large, the KPIs, the per-team table "
           "and one chart, in larger type (Esc returns)"));
    connect(m_presentAction, &QAction::toggled, this, &WindowLayout::setPresenting);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    escape->setContext(Qt::WindowShortcut);
    connect(escape, &QShortcut::activated, this, [this] {
        if (m_presenting) setPresenting(false);
    });
}

QDockWidget* WindowLayout::dock(const char* name) const {
    return m_window->findChild<QDockWidget*>(QLatin1String(name));
}

void WindowLayout::makeDocksShrinkable() {
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>()) {
        QWidget* content = d->widget();
        // Lists and text already scroll; a dock that builds its content later (the timeline)
        // gets a view that may shrink.
        if (!content || qobject_cast<QAbstractScrollArea*>(content) ||
            d->property("scrollsItself").toBool())
            continue;
        auto* scroll = new QScrollArea(d);
        scroll->setObjectName(d->objectName() + QStringLiteral("Scroll"));
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidgetResizable(true);
        scroll->setWidget(content);  // the form keeps its size; the dock may be smaller
        d->setWidget(scroll);
    }
}

void WindowLayout::fitToSize(QSize size) {
    if (const QScreen* screen = m_window->screen()) {
        // The frame (title bar, borders) comes on top of the size under a window manager.
        const QSize frame = m_window->frameGeometry().size() - m_window->geometry().size();
        const QRect available = screen->availableGeometry();
        size = size.boundedTo(available.size() - frame);
        m_window->resize(size);
        QRect placed = m_window->frameGeometry();
        if (!available.contains(placed)) {
            placed.moveTopLeft(available.topLeft());
            m_window->move(placed.topLeft());
        }
    } else {
        m_window->resize(size);
    }
    if (!m_presenting) arrangeWorking(size);
}

void WindowLayout::arrangeWorking(QSize size) {
    const DockShares shares = dockSharesFor(size);
    QDockWidget* palette = dock("palette");
    QDockWidget* inspector = dock("inspector");
    QDockWidget* charts = dock("charts");
    QDockWidget* pending = dock("pending");
    if (!palette || !inspector || !charts || !pending) return;
    if (shares.paletteInBottomTabs) {
        // A short screen: the palette becomes a bottom tab (drag from it onto the fleet above),
        // leaving the left column to the inspector and its tabs, whose names stay readable.
        if (m_window->dockWidgetArea(palette) != Qt::BottomDockWidgetArea) {
            m_window->addDockWidget(Qt::BottomDockWidgetArea, palette);
            m_window->tabifyDockWidget(pending, palette);
        }
    } else if (m_window->dockWidgetArea(palette) != Qt::LeftDockWidgetArea) {
        // Stacked again: the palette above, the inspector and its tabs below.
        m_window->addDockWidget(Qt::LeftDockWidgetArea, palette);
        m_window->splitDockWidget(palette, inspector, Qt::Vertical);
        for (const char* name : kLeftTabs)
            if (QDockWidget* d = dock(name)) m_window->tabifyDockWidget(inspector, d);
    }
    pending->raise();
    inspector->raise();
    // The left column is at least as wide as its tabs' names, so none is cut ("Insp…").
    int leftPx = shares.leftPx;
    for (const QTabBar* bar : m_window->findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == inspector->windowTitle())
                leftPx = std::clamp(bar->sizeHint().width() + 8, leftPx, kMaxLeftPx);
    // ... and as its form's narrowest (the sharing editor's widest page), so the form does not
    // scroll sideways and clip its hint, as far as kMaxLeftPx allows.
    if (const auto* scroll = qobject_cast<const QScrollArea*>(inspector->widget());
        scroll && scroll->widget())
        leftPx = std::clamp(scroll->widget()->minimumSizeHint().width() +
                                scroll->verticalScrollBar()->sizeHint().width(),
                            leftPx, kMaxLeftPx);
    m_window->resizeDocks({inspector, charts}, {leftPx, shares.rightPx}, Qt::Horizontal);
    m_window->resizeDocks({pending}, {shares.bottomPx}, Qt::Vertical);
    // Stacked: the palette's classes above a third, the inspector and its tabs the rest.
    if (!shares.paletteInBottomTabs)
        m_window->resizeDocks({palette, inspector}, {size.height() / 3, 2 * size.height() / 3},
                              Qt::Vertical);
}

QToolBar* WindowLayout::presentToolbar() {
    if (m_presentBar) return m_presentBar;
    m_presentBar = new QToolBar(tr("Present"), m_window);
    m_presentBar->setObjectName(QStringLiteral("presentToolbar"));
    m_presentBar->setMovable(false);
    m_presentBar->addWidget(new QLabel(tr(" Chart: "), m_presentBar));
    m_chartChoice = new QComboBox(m_presentBar);
    m_chartChoice->setObjectName(QStringLiteral("presentedChart"));
    for (ui::ChartPanel* c : m_charts->charts())
        m_chartChoice->addItem(c->title());
    connect(m_chartChoice, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_presenting) m_charts->setShownChart(i);
    });
    m_presentBar->addWidget(m_chartChoice);
    m_presentBar->addSeparator();
    QAction* back = m_presentBar->addAction(tr("Back to work (Esc)"));
    connect(back, &QAction::triggered, this, [this] { setPresenting(false); });
    // In the first row, which holds the working toolbars it replaces: the KPI strip keeps
    // its own row (sharing one, a strip that never asks for width would get none).
    if (auto* main = m_window->findChild<QToolBar*>(QStringLiteral("mainToolbar")))
        m_window->insertToolBar(main, m_presentBar);
    else
        m_window->addToolBar(Qt::TopToolBarArea, m_presentBar);
    m_presentBar->hide();
    return m_presentBar;
}

int WindowLayout::presentedChart() const {
    return m_chartChoice ? m_chartChoice->currentIndex() : 0;
}

void WindowLayout::setPresentedChart(int index) {
    presentToolbar();
    m_chartChoice->setCurrentIndex(index);
}

void WindowLayout::setPresenting(bool on) {
    if (on == m_presenting) return;
    presentToolbar();
    if (on) {
        m_workingState = m_window->saveState();
        m_workingWindowState = m_window->windowState();
        m_presenting = true;
        arrangePresenting();
        m_window->setWindowState(m_workingWindowState | Qt::WindowFullScreen);
    } else {
        m_presenting = false;
        m_charts->setShownChart(-1);
        if (auto* teams = m_window->findChild<ui::GroupKpiPanel*>()) teams->setCompact(false);
        m_presentBar->hide();
        m_window->setFont(QFont());  // back to the application's type
        m_window->setWindowState(m_workingWindowState);
        m_window->restoreState(m_workingState);
    }
    {
        const QSignalBlocker block(m_presentAction);
        m_presentAction->setChecked(on);
    }
    // Once the docks have their room, the fleet fills what is left.
    QTimer::singleShot(0, m_fleet, [fleet = m_fleet] { fleet->fitAll(); });
    emit presentingChanged(on);
}

void WindowLayout::arrangePresenting() {
    for (QToolBar* bar : m_window->findChildren<QToolBar*>())
        bar->setVisible(bar->objectName() == QLatin1String("kpiToolbar"));
    m_presentBar->show();
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
        d->setVisible(std::any_of(std::begin(kPresentDocks), std::end(kPresentDocks),
                                  [d](const char* name) { return d->objectName() == name; }));
    QDockWidget* groups = dock("groups");
    QDockWidget* charts = dock("charts");
    if (groups && charts) {
        m_window->addDockWidget(Qt::RightDockWidgetArea, groups);
        m_window->splitDockWidget(groups, charts, Qt::Vertical);
        groups->show();
        charts->show();
        const QSize size = m_window->size();
        m_window->resizeDocks({groups}, {std::clamp(size.width() * 36 / 100, 360, 760)},
                              Qt::Horizontal);
        m_window->resizeDocks({groups, charts}, {size.height() * 2 / 5, size.height() * 3 / 5},
                              Qt::Vertical);
    }
    m_charts->setShownChart(m_chartChoice->currentIndex());
    if (auto* teams = m_window->findChild<ui::GroupKpiPanel*>()) teams->setCompact(true);
    QFont larger = QApplication::font();
    larger.setPointSizeF(larger.pointSizeF() * kPresentFontScale);
    m_window->setFont(larger);
}

}  // namespace gpuplan::app
