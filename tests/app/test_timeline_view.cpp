// The GL timeline in the main window, under Xvfb (Mesa llvmpipe): it renders the run in team
// colours, a click on a job's bar selects that job in the inspector, a GPU picked on the fleet
// scrolls the timeline to its row, the time cursor is the scrubber's both ways, the wheel
// zooms around the pointer, and nothing is drawn while nothing changes. Needs a display:
// registered as "app: timeline view under Xvfb" (xvfb-run), never run offscreen.
#include <QDockWidget>
#include <QOpenGLContext>
#include <QWheelEvent>
#include <QtTest>
#include <bit>
#include <cmath>
#include <set>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/inspector.hpp"
#include "format/ui_palette.hpp"
#include "timeline/timeline_dock.hpp"
#include "timeline/timeline_panel.hpp"
#include "timeline/timeline_view.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

/// The window's timeline, its tab raised and a first frame drawn; nullptr when it is not a GL
/// view or never draws.
ui::TimelineView* openTimeline(test::Fixture& f) {
    auto* dock = f.window->findChild<TimelineDock*>(QStringLiteral("timeline"));
    if (!dock) return nullptr;
    dock->raise();  // the panel is made when the tab first shows
    QElapsedTimer waited;
    waited.start();
    while (!dock->view() && waited.elapsed() < 5000)
        QTest::qWait(20);
    ui::TimelineView* view = dock->view();
    if (!view) return nullptr;
    while (view->framesDrawn() == 0 && waited.elapsed() < 10000)
        QTest::qWait(20);
    QTest::qWait(200);  // the bottom docks take the height the tab asks for
    return view->framesDrawn() > 0 ? view : nullptr;
}

/// Waits for the view to draw a frame after now (what a test set up is on screen).
bool nextFrame(ui::TimelineView* view) {
    const quint64 before = view->framesDrawn();
    view->update();
    QElapsedTimer waited;
    waited.start();
    while (view->framesDrawn() == before && waited.elapsed() < 5000)
        QTest::qWait(10);
    return view->framesDrawn() > before;
}

QString inspectorText(test::Fixture& f) {
    return f.window->findChild<ui::Inspector*>()->toPlainText();
}

}  // namespace

class TimelineViewTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY2(QGuiApplication::platformName() != QLatin1String("offscreen"),
                 "run this test under xvfb-run, not offscreen");
        QString why;
        QVERIFY2(ui::timelineGlAvailable(&why), qPrintable(why));
    }

    void rendersTheRunInTeamColours() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        QVERIFY(view->glReady());
        const QImage image = view->grabFramebuffer();
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), view->size() * view->devicePixelRatio());
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y) & 0xFFFFFF);
        // Bars of several teams, text, the queue lane, the cursor: far more than a blank or
        // one-colour frame.
        QVERIFY2(colours.size() >= 30, qPrintable(QString::number(colours.size())));
        int teamsSeen = 0;
        for (const QColor& team : ui::teamColors(*f.window->results()))
            teamsSeen += colours.count(team.rgb() & 0xFFFFFF) ? 1 : 0;
        QVERIFY2(teamsSeen >= 2, qPrintable(QString::number(teamsSeen)));
        const ui::TimelineFrameStats& stats = view->lastFrameStats();
        QVERIFY2(
            stats.rows >= 8,
            qPrintable(QStringLiteral("%1 rows in %2 px").arg(stats.rows).arg(view->height())));
        QVERIFY(stats.bars >= 8);
    }

    void aClickOnABarSelectsItsJob() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        const Results& r = *f.window->results();
        // The longest binding on a whole GPU, shown from a little before to a little after.
        std::uint32_t pick = 0;
        for (std::uint32_t s = 0; s < r.segments.size(); ++s)
            if (r.segments[s].endS - r.segments[s].startS >
                    r.segments[pick].endS - r.segments[pick].startS &&
                r.placementOf(r.segments[s]).front().gpuMask != 0)
                pick = s;
        const RunSegment& seg = r.segments[pick];
        const PodPlacement& pod = r.placementOf(seg).front();
        const int slot = std::countr_zero(pod.gpuMask);
        const int gpu = r.firstGpuOfNode[pod.node] + slot;
        view->revealGpu(static_cast<int>(pod.node), slot);
        const double padS = (seg.endS - seg.startS) * 0.2;
        view->setTimeWindow(seg.startS - padS, seg.endS + padS);
        QVERIFY(nextFrame(view));
        const auto bar = view->barRect(pick, gpu);
        QVERIFY(bar);
        const QString name = QString::fromStdString(r.jobName(seg.job));
        QVERIFY(!inspectorText(f).contains(name));
        // A quick click: press and release before the next frame (ImGui must still see it).
        QTest::mouseClick(view, Qt::LeftButton, {}, bar->center().toPoint());
        QTRY_COMPARE(view->selectedJob(), static_cast<int>(seg.job));
        QTRY_VERIFY2(inspectorText(f).contains(name), qPrintable(inspectorText(f)));
    }

    void aGpuPickedOnTheFleetScrollsTheTimelineToIt() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        const Results& r = *f.window->results();
        f.window->scrubber()->setTime(r.horizonS / 2);
        // The last GPU of the fleet busy at t: far below the rows on screen at first.
        const ClusterSnapshot& at = f.window->topology()->snapshot();
        int node = -1, slot = -1, job = -1;
        for (int n = static_cast<int>(r.fleet.nodes.size()) - 1; n >= 0 && job < 0; --n)
            for (int s = r.fleet.nodes[n].gpus - 1; s >= 0 && job < 0; --s)
                if (at.gpuJob[r.firstGpuOfNode[n] + s] >= 0)
                    node = n, slot = s, job = at.gpuJob[r.firstGpuOfNode[n] + s];
        QVERIFY(job >= 0);
        view->setScrollPx(0);
        QVERIFY(!view->isGpuRowVisible(node, slot));
        ui::TopologyView* topology = f.window->topology();
        topology->fitAll();
        const QPoint cell =
            topology->toWidget(topology->layout().gpuRect(node, slot).center()).toPoint();
        QTest::mouseClick(topology, Qt::LeftButton, {}, cell);
        QCOMPARE(topology->selection().node, node);
        QTRY_VERIFY(view->isGpuRowVisible(node, slot));
        QCOMPARE(view->selectedJob(), job);
        // The job's bar on that GPU is on screen at t (the view's time is the scrubber's).
        QVERIFY(view->viewFromS() <= r.horizonS / 2 && r.horizonS / 2 <= view->viewToS());
        QVERIFY(nextFrame(view));
    }

    void theTimeCursorIsTheScrubbers() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        const double horizonS = f.window->results()->horizonS;
        f.window->scrubber()->setTime(horizonS * 0.3);
        QCOMPARE(view->time(), horizonS * 0.3);
        // A click on the axis at 60 % of the run moves the scrubber there.
        view->setTimeWindow(0, horizonS);
        QVERIFY(nextFrame(view));
        const ui::TimelineGeometry& g = view->geometry();
        const double x = g.gutterPx + 0.6 * g.barsWidthPx();
        QTest::mouseClick(view, Qt::LeftButton, {},
                          QPoint(static_cast<int>(std::round(x)), static_cast<int>(g.axisPx / 2)));
        // Within a pixel's worth of time.
        const double pxS = horizonS / g.barsWidthPx();
        QTRY_VERIFY2(std::fabs(f.window->scrubber()->time() - 0.6 * horizonS) < 1.5 * pxS,
                     qPrintable(QString::number(f.window->scrubber()->time() / horizonS)));
        QCOMPARE(view->time(), f.window->scrubber()->time());
    }

    void theWheelZoomsAroundThePointer() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        const double horizonS = f.window->results()->horizonS;
        view->setTimeWindow(0, horizonS);
        QVERIFY(nextFrame(view));
        const ui::TimelineGeometry& g = view->geometry();
        // ImGui takes the pointer to whole pixels: a whole-pixel x, and the time there.
        const QPointF at(std::round(g.gutterPx + 0.25 * g.barsWidthPx()), g.rowsTopPx() + 40);
        const double share = (at.x() - g.gutterPx) / g.barsWidthPx();
        const double underS = share * horizonS;
        QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
        // One step in: the window is 0.8 as long and the time under the pointer stays put.
        QTRY_VERIFY(std::fabs((view->viewToS() - view->viewFromS()) - 0.8 * horizonS) <
                    1e-6 * horizonS);
        const double stillS = view->viewFromS() + share * (view->viewToS() - view->viewFromS());
        QVERIFY2(std::fabs(stillS - underS) < 1e-6 * horizonS, qPrintable(QString::number(stillS)));
        // A double click on the axis shows the whole run again.
        QVERIFY(nextFrame(view));
        const QPoint onAxis(static_cast<int>(at.x()), static_cast<int>(g.axisPx / 2));
        // As a display sends one, all before the next frame: press, release, double-click
        // press, release (QTest::mouseDClick alone sends only the third).
        QTest::mouseClick(view, Qt::LeftButton, {}, onAxis);
        QTest::mouseDClick(view, Qt::LeftButton, {}, onAxis);
        QTest::mouseRelease(view, Qt::LeftButton, {}, onAxis);
        QTRY_COMPARE(view->viewToS() - view->viewFromS(), horizonS);
        QCOMPARE(view->viewFromS(), 0.0);
    }

    void nothingIsDrawnWhileNothingChanges() {
        test::Fixture f;
        ui::TimelineView* view = openTimeline(f);
        QVERIFY(view);
        QTest::qWait(300);  // any burst after the first frames ends
        const quint64 settled = view->framesDrawn();
        QTest::qWait(600);
        QCOMPARE(view->framesDrawn(), settled);
        f.window->scrubber()->setTime(f.window->results()->horizonS * 0.7);
        QTRY_VERIFY(view->framesDrawn() > settled);
    }
};

GPUPLAN_APP_TEST("test_timeline_view", TimelineViewTest);
#include "test_timeline_view.moc"
