// The main window fits the room: on a 1280x720 projector and a 1366x768 laptop it
// opens within the screen, nothing forces a larger minimum, every dock stays reachable, raising
// a bottom tab never grows the window, and the fleet keeps the middle. View ▸ Present shows
// the fleet large with the KPIs, the per-team table and one chart in larger type; Esc returns
// to the working layout exactly.
#include <QDockWidget>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "kpis/kpi_strip.hpp"
#include "shell/window_layout.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

/// A dock the user can reach: shown, or a tab of a tab bar (raise it by its tab).
bool reachable(MainWindow& window, QDockWidget* dock) {
    if (dock->isVisible()) return true;
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == dock->windowTitle() && bar->isVisible()) return true;
    return false;
}

QStringList visibleDocks(MainWindow& window) {
    QStringList names;
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        if (d->isVisible()) names << d->objectName();
    names.sort();
    return names;
}

}  // namespace

class WindowFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void itFitsTheScreen() {
        // ctest runs this on offscreen screens of 1280x720, 1366x768 and 1600x1000.
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(screen.width() >= 1280 && screen.height() >= 720,
                 "run on a screen of at least 1280x720 (tests/app/screens)");
        Fixture f;
        MainWindow& w = *f.window;
        // Every bottom tab built once (the docks that build their content when first shown).
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            d->raise();
        QApplication::processEvents();
        w.fitToSize(QSize(1600, 1000));  // what gpuplan opens at without --size
        QApplication::processEvents();
        // Nothing asks for more than the screen has.
        const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
        QVERIFY2(
            least.width() <= screen.width() && least.height() <= screen.height(),
            qPrintable(QStringLiteral("minimum %1x%2").arg(least.width()).arg(least.height())));
        QVERIFY2(w.width() <= screen.width() && w.height() <= screen.height(),
                 qPrintable(QStringLiteral("window %1x%2").arg(w.width()).arg(w.height())));
        // Every dock is reachable, and raising each one never grows the window.
        const QSize before = w.size();
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
            QVERIFY2(reachable(w, d), qPrintable(d->objectName()));
            d->raise();
            QApplication::processEvents();
            QVERIFY2(w.size() == before, qPrintable(d->objectName()));
            // The fleet keeps the middle: at least 40 % of the width and a third of the height.
            QVERIFY2(w.topology()->width() >= screen.width() * 2 / 5 &&
                         w.topology()->height() >= screen.height() / 3,
                     qPrintable(QStringLiteral("%1: fleet %2x%3")
                                    .arg(d->objectName())
                                    .arg(w.topology()->width())
                                    .arg(w.topology()->height())));
        }
        // The inspector's form (the GPU-sharing editor in it) is not cut at its side: the left
        // column is as wide as the form's narrowest, so its hint wraps instead of scrolling.
        auto* inspector = w.findChild<QDockWidget*>(QStringLiteral("inspector"));
        QVERIFY(inspector);
        inspector->raise();
        QApplication::processEvents();
        auto* form = qobject_cast<QScrollArea*>(inspector->widget());
        QVERIFY(form && form->widget());
        QVERIFY2(!form->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("form needs %1 px, has %2")
                                .arg(form->widget()->minimumSizeHint().width())
                                .arg(form->viewport()->width())));
    }

    void presentShowsTheMeetingLayoutAndEscReturns() {
        Fixture f;
        MainWindow& w = *f.window;
        w.fitToSize(QSize(1280, 720));  // a projector's size on every screen it runs on
        QApplication::processEvents();
        const QStringList working = visibleDocks(w);
        const int workingFont = w.font().pointSize();
        const int fleetWidth = w.topology()->width();
        QVERIFY(!w.presenting());

        w.windowLayout()->presentAction()->trigger();
        QApplication::processEvents();
        QVERIFY(w.presenting());
        QCOMPARE(visibleDocks(w),
                 (QStringList{QStringLiteral("charts"), QStringLiteral("groups")}));
        QVERIFY(w.font().pointSizeF() > 1.3 * workingFont);
        QVERIFY(w.kpiStrip()->isVisible());
        QVERIFY(w.kpiStrip()->width() > w.width() / 2);  // its own row, not squeezed
        QVERIFY(w.topology()->width() > fleetWidth);     // the fleet gets the room
        // One chart of choice.
        QCOMPARE(w.charts()->shownChart(), 0);
        w.windowLayout()->setPresentedChart(5);
        QCOMPARE(w.charts()->shownChart(), 5);
        int shown = 0;
        for (ui::ChartPanel* c : w.charts()->charts())
            shown += c->isVisible();
        QCOMPARE(shown, 1);

        QTest::keyClick(&w, Qt::Key_Escape);
        QApplication::processEvents();
        QVERIFY(!w.presenting());
        QCOMPARE(visibleDocks(w), working);
        QCOMPARE(w.font().pointSize(), workingFont);
        QCOMPARE(w.charts()->shownChart(), -1);
        QVERIFY(!w.windowLayout()->presentAction()->isChecked());
    }
};

GPUPLAN_APP_TEST("test_window_fit", WindowFitTest);
#include "test_window_fit.moc"
