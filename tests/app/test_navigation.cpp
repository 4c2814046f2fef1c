// QtTest: moving around — the scrubber jumps where its track is clicked; the fleet pans with
// the middle button or Space+drag from anywhere, over GPUs too; a Space tap still plays; F
// in the window brings back the fit after a zoom, and a fleet edit refits while it follows.
#include <QSlider>
#include <QWheelEvent>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {
void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), QPointF(w->mapToGlobal(pos)), button, buttons,
                  Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}
}  // namespace

class NavigationTest : public QObject {
    Q_OBJECT
private slots:
    void clickingTheScrubberTrackJumpsThere() {
        Fixture f;
        ui::TimeScrubber* scrubber = f.window->scrubber();
        scrubber->setTime(0);
        QSlider* slider = scrubber->slider();
        const double horizon = f.window->results()->horizonS;
        const QPoint at(static_cast<int>(slider->width() * 0.75), slider->height() / 2);
        QTest::mouseClick(slider, Qt::LeftButton, {}, at);
        // Three quarters of the way, give or take the handle's width (not one page step).
        QVERIFY2(std::fabs(scrubber->time() / horizon - 0.75) < 0.05,
                 qPrintable(QString::number(scrubber->time() / horizon)));
    }

    void middleButtonPansFromAnywhere() {
        Fixture f;
        ui::TopologyView* view = f.window->topology();
        const QPoint onGpu =
            view->toWidget(view->layout().gpuRect(f.nodeIndex("pod-a-rack1-node1"), 3).center())
                .toPoint();
        const QPointF centreBefore =
            view->toWorld(QPointF(view->width() / 2.0, view->height() / 2.0));
        const double zoom = view->zoom();
        sendMouse(view, QEvent::MouseButtonPress, onGpu, Qt::MiddleButton, Qt::MiddleButton);
        sendMouse(view, QEvent::MouseMove, onGpu + QPoint(60, 40), Qt::NoButton, Qt::MiddleButton);
        sendMouse(view, QEvent::MouseButtonRelease, onGpu + QPoint(60, 40), Qt::MiddleButton,
                  Qt::NoButton);
        const QPointF centreAfter =
            view->toWorld(QPointF(view->width() / 2.0, view->height() / 2.0));
        // Dragging the picture right and down by (60, 40) px moves the view's centre the other
        // way by as many world units as those pixels span.
        QVERIFY(std::fabs((centreBefore.x() - centreAfter.x()) - 60 / zoom) < 1e-6);
        QVERIFY(std::fabs((centreBefore.y() - centreAfter.y()) - 40 / zoom) < 1e-6);
        QCOMPARE(view->selection().kind, ui::TopologyHit::Kind::None);  // nothing selected
    }

    void spaceDragPansAndASpaceTapStillPlays() {
        Fixture f;
        ui::TopologyView* view = f.window->topology();
        view->setFocus();
        const QPoint onGpu =
            view->toWidget(view->layout().gpuRect(f.nodeIndex("pod-b-rack0-node2"), 5).center())
                .toPoint();
        const QPointF centreBefore =
            view->toWorld(QPointF(view->width() / 2.0, view->height() / 2.0));
        QTest::keyPress(view, Qt::Key_Space);
        sendMouse(view, QEvent::MouseButtonPress, onGpu, Qt::LeftButton, Qt::LeftButton);
        sendMouse(view, QEvent::MouseMove, onGpu + QPoint(-50, 30), Qt::NoButton, Qt::LeftButton);
        sendMouse(view, QEvent::MouseButtonRelease, onGpu + QPoint(-50, 30), Qt::LeftButton,
                  Qt::NoButton);
        QTest::keyRelease(view, Qt::Key_Space);
        const QPointF centreAfter =
            view->toWorld(QPointF(view->width() / 2.0, view->height() / 2.0));
        QVERIFY(std::fabs((centreAfter.x() - centreBefore.x()) - 50 / view->zoom()) < 1e-6);
        QVERIFY(std::fabs((centreBefore.y() - centreAfter.y()) - 30 / view->zoom()) < 1e-6);
        QCOMPARE(view->selection().kind, ui::TopologyHit::Kind::None);
        QVERIFY(!f.window->scrubber()->playing());  // holding Space to pan is no "play"
        // A tap of Space is still Play / pause.
        QTest::keyClick(view, Qt::Key_Space);
        QVERIFY(f.window->scrubber()->playing());
        QTest::keyClick(view, Qt::Key_Space);
        QVERIFY(!f.window->scrubber()->playing());
    }

    void fInTheWindowRestoresTheFitAndAnAddedRackIsFitted() {
        Fixture f;
        ui::TopologyView* view = f.window->topology();
        view->setFocus();
        QVERIFY(view->followsFit());
        const double fitZoom = view->zoom();
        const QPoint at(view->width() / 3, view->height() / 2);
        QWheelEvent wheel(QPointF(at), QPointF(view->mapToGlobal(at)), QPoint(), QPoint(0, 360),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
        QVERIFY(view->zoom() > 1.7 * fitZoom);  // 1.2³ ≈ 1.73
        QVERIFY(!view->followsFit());
        // F (View ▸ Fit the fleet, or the view's own key): the fit again, and following.
        QTest::keyClick(view, Qt::Key_F);
        QCOMPARE(view->zoom(), fitZoom);
        QVERIFY(view->followsFit());
        // A rack added (pod-a's racks 4 → 5) while following: every rack in the fit area.
        Scenario more = f.doc.scenario();
        more.pods.at(0).racks.at(0).count += 1;
        QVERIFY(f.doc.edit(more, QStringLiteral("Add a rack")).isEmpty());
        QVERIFY(f.waitForResults());
        const ui::TopologyLayout& layout = view->layout();
        QCOMPARE(layout.rackCount(), f.window->results()->fleet.racks.size());
        for (std::size_t r = 0; r < layout.rackCount(); ++r) {
            const QRectF rack = view->toWidget(layout.rackRect(static_cast<int>(r)));
            QVERIFY(view->fitArea().adjusted(-1, -1, 1, 1).contains(rack));
            QVERIFY(!view->rackNameRect(static_cast<int>(r)).isEmpty());
        }
    }
};

GPUPLAN_APP_TEST("test_navigation", NavigationTest);
#include "test_navigation.moc"
