// QtTest, offscreen: the fleet fitted to its view. With 1 to 16 racks, in views the size a
// 1280×720 and a 1600×1000 window give it, every rack and pod name shows inside its frame and
// clear of every other label, the legend keeps off the header and the fleet, the fit fills
// the area, F after a zoom restores it, pointing stays exact, and a snapshot of another
// fleet is never drawn.
#include <QWheelEvent>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "format/snapshot_guard.hpp"
#include "topology/gpu_sub_cells.hpp"
#include "topology/topology_layout.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;
using namespace gpuplan::app::test;

namespace {

/// The default preset with `racks` racks, split as adding racks by hand does: pod-b keeps
/// its three racks and the provisioning rack3 (delivered after the horizon, so it stays
/// PROVISIONING), pod-a has the rest; one rack is pod-a alone. One day, to run quickly.
Scenario scenarioWithRacks(int racks) {
    Scenario s = loadScenario(kPresets.toStdString() + "/scenarios/default.json", catalog());
    s.horizonS = 86400;
    if (racks < 8) {
        s.pods.resize(1);
        s.pods[0].racks.resize(1);
        s.pods[0].racks[0].count = racks;
    } else {
        s.pods[0].racks[0].count = racks - 4;
    }
    return s;
}

std::shared_ptr<const Results> resultsWithRacks(int racks) {
    return std::make_shared<const Results>(simulate(scenarioWithRacks(racks)));
}

/// Where the fleet's pixels are: the union of its pods on screen.
QRectF fleetOnScreen(const TopologyView& view) {
    QRectF all;
    for (std::size_t p = 0; p < view.layout().podCount(); ++p)
        all = all.united(view.toWidget(view.layout().podRect(static_cast<int>(p))));
    return all;
}

/// Slightly inside: edges that touch are not an overlap.
bool overlaps(const QRectF& a, const QRectF& b) {
    return a.adjusted(0.5, 0.5, -0.5, -0.5).intersects(b.adjusted(0.5, 0.5, -0.5, -0.5));
}

QString describe(const QRectF& r) {
    return QStringLiteral("(%1,%2 %3×%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The view's share of a 1280×720 window (small, and after the lead's layout work), and of
// a 1600×1000 one.
const QList<QSize> kViewSizes = {QSize(700, 400), QSize(960, 540), QSize(1500, 900)};

void paintOnce(TopologyView& view) {
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    view.render(&image);
}

}  // namespace

class TopologyLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void wrapsRacksToTheAreasShape() {
        // 12 racks of 4 DGX nodes in one pod: a rack is 8 × 12 − 2 + 6 + 12 = 112 wide and
        // about 100 tall, so one row is ~1340 × 130 (10:1). A 16:9 area fits it best in
        // rows of a few racks; a tall narrow area in rows of one or two.
        const Results r = simulate(scenarioWithRacks(12));
        FitRequest wide;
        wide.areaPx = QSizeF(1280, 720);
        const FittedShape w = fitShape(r.fleet, wide);
        QVERIFY2(w.shape.racksPerRow > 1 && w.shape.racksPerRow < 12,
                 qPrintable(QString::number(w.shape.racksPerRow)));
        FitRequest tall = wide;
        tall.areaPx = QSizeF(300, 1200);
        const FittedShape t = fitShape(r.fleet, tall);
        QVERIFY(t.shape.racksPerRow < w.shape.racksPerRow);
        // One long row fits a 1280-px width at 1280 / 1352 ≈ 0.95 px a unit; rows fit larger.
        LayoutShape oneRow = w.shape;
        oneRow.racksPerRow = 0;
        oneRow.podsPerRow = 0;
        const QSizeF row = TopologyLayout::boundsOf(r.fleet, oneRow);
        QVERIFY(w.zoom > 1.5 * std::min(1280 / row.width(), 720 / row.height()));
        // The layout of a shape is as large as boundsOf says, and holds every node.
        const TopologyLayout layout(r.fleet, w.shape);
        QCOMPARE(layout.bounds().size(), TopologyLayout::boundsOf(r.fleet, w.shape));
        for (std::size_t n = 0; n < r.fleet.nodes.size(); ++n) {
            const int node = static_cast<int>(n);
            QVERIFY(layout.rackRect(r.fleet.nodes[n].rack).contains(layout.nodeRect(node)));
            QVERIFY(!layout.rackNameStrip(r.fleet.nodes[n].rack).intersects(layout.nodeRect(node)));
        }
    }

    void namesLegendAndHeaderKeepApart_data() {
        QTest::addColumn<int>("racks");
        QTest::addColumn<QSize>("size");
        for (int racks : {1, 4, 11, 16})
            for (const QSize& size : kViewSizes)
                QTest::addRow("%d racks, %dx%d", racks, size.width(), size.height())
                    << racks << size;
    }
    void namesLegendAndHeaderKeepApart() {
        QFETCH(int, racks);
        QFETCH(QSize, size);
        TopologyView view;
        view.resize(size);
        view.setResults(resultsWithRacks(racks));
        paintOnce(view);
        const TopologyLayout& layout = view.layout();
        QCOMPARE(layout.rackCount(), static_cast<std::size_t>(racks));
        const QRectF legend = view.legendRect(), header = view.headerRect();
        QVERIFY2(!overlaps(legend, header), qPrintable(describe(legend) + describe(header)));
        QVERIFY(QRectF(view.rect()).contains(legend));
        QVERIFY(QRectF(view.rect()).contains(header));

        std::vector<QRectF> labels;
        for (std::size_t p = 0; p < layout.podCount(); ++p) {
            const int pod = static_cast<int>(p);
            const QRectF frame = view.toWidget(layout.podRect(pod));
            const QRectF name = view.podNameRect(pod);
            QVERIFY2(!name.isEmpty(), "every pod's name has room");
            QVERIFY2(frame.contains(name), qPrintable(describe(frame) + describe(name)));
            QVERIFY(!overlaps(frame, legend) && !overlaps(frame, header));
            labels.push_back(name);
        }
        for (std::size_t r = 0; r < layout.rackCount(); ++r) {
            const int rack = static_cast<int>(r);
            const QRectF frame = view.toWidget(layout.rackRect(rack));
            const QRectF name = view.rackNameRect(rack);
            QVERIFY2(!name.isEmpty(), qPrintable(QStringLiteral("rack %1 shows its name").arg(r)));
            QVERIFY2(frame.contains(name), qPrintable(describe(frame) + describe(name)));
            QVERIFY2(!overlaps(frame, legend), qPrintable(describe(frame) + describe(legend)));
            QVERIFY(!overlaps(frame, header));
            // Not over its nodes: the strip is above them.
            const FleetRack& fr = view.results()->fleet.racks[r];
            for (int n = fr.firstNode; n < fr.firstNode + fr.nodeCount; ++n)
                QVERIFY(!overlaps(name, view.toWidget(layout.nodeRect(n))));
            // Pod names sit above the racks, not on them.
            for (std::size_t p = 0; p < layout.podCount(); ++p)
                QVERIFY(!overlaps(frame, labels[p]));
            labels.push_back(name);
        }
        for (std::size_t a = 0; a < labels.size(); ++a)
            for (std::size_t b = a + 1; b < labels.size(); ++b)
                QVERIFY2(!overlaps(labels[a], labels[b]),
                         qPrintable(describe(labels[a]) + describe(labels[b])));

        // The fit fills its area in the limiting dimension — or stops at the largest zoom a
        // fit takes (one rack on a wall of a screen), where cells are 48 px.
        const QRectF area = view.fitArea(), fleet = fleetOnScreen(view);
        QVERIFY2(area.contains(fleet.adjusted(1, 1, -1, -1)),
                 qPrintable(describe(area) + describe(fleet)));
        const double fill = std::max(fleet.width() / area.width(), fleet.height() / area.height());
        QVERIFY2(fill > 0.97 || view.zoom() >= 4.8 - 1e-9, qPrintable(QString::number(fill)));
        QVERIFY(area.width() >= 0.6 * size.width() && area.height() >= 0.6 * size.height());
        // Cells large enough for node labels: pod-b's rack3 (when there) says PROVISIONING,
        // whole, inside its node.
        QVERIFY(TopologyLayout::kCell * view.zoom() >= 7);
        for (std::size_t n = 0; n < view.results()->fleet.nodes.size(); ++n) {
            if (view.snapshot().nodeStates[n] == NodeState::Ready) continue;
            const int node = static_cast<int>(n);
            const QRectF label = view.nodeStateLabelRect(node);
            QVERIFY2(!label.isEmpty(), "a not-Ready node says so");
            QVERIFY(view.toWidget(layout.nodeRect(node)).contains(label));
        }
    }

    void aLargeFleetKeepsItsNames() {
        // The 10,000-GPU preset (5 pods × 10 racks × 25 nodes; its jobs dropped, only the
        // fleet matters) in the view of a 1600×1000 window: every pod is named; a rack is
        // 112 units wide, so at the fit (≈ 0.5 px a unit) ~56 px: its name shows as "rack7"
        // (the pod's part dropped inside the pod's frame), clear of the others.
        Scenario s = loadScenario(kPresets.toStdString() + "/scenarios/fleet-10k.json", catalog());
        s.jobClasses.clear();
        s.horizonS = 3600;
        auto r = std::make_shared<const Results>(simulate(s));
        TopologyView view;
        view.resize(1500, 900);
        view.setResults(r);
        paintOnce(view);
        const TopologyLayout& layout = view.layout();
        for (std::size_t p = 0; p < layout.podCount(); ++p) {
            const QRectF name = view.podNameRect(static_cast<int>(p));
            QVERIFY(!name.isEmpty());
            QVERIFY(view.toWidget(layout.podRect(static_cast<int>(p))).contains(name));
        }
        std::vector<QRectF> names;
        for (std::size_t k = 0; k < layout.rackCount(); ++k) {
            const QRectF name = view.rackNameRect(static_cast<int>(k));
            QVERIFY2(!name.isEmpty(), qPrintable(QString::number(view.zoom())));
            QVERIFY(view.toWidget(layout.rackRect(static_cast<int>(k))).contains(name));
            for (const QRectF& other : names)
                QVERIFY(!overlaps(name, other));
            names.push_back(name);
        }
        QVERIFY(!overlaps(view.legendRect(), view.headerRect()));
    }

    void pointingHitsWhatIsDrawn() {
        // Every GPU's centre hits that GPU, a point in a rack's name strip the rack, a point
        // in a pod's the pod, at a wrapped fit.
        TopologyView view;
        view.resize(960, 540);
        view.setResults(resultsWithRacks(11));
        const TopologyLayout& layout = view.layout();
        QVERIFY(layout.shape().racksPerRow > 0);
        const Fleet& fleet = view.results()->fleet;
        for (std::size_t n = 0; n < fleet.nodes.size(); ++n)
            for (int g = 0; g < fleet.nodes[n].gpus; ++g) {
                const int node = static_cast<int>(n);
                const QPointF at = view.toWidget(layout.gpuRect(node, g).center());
                const TopologyHit hit = layout.hitTest(view.toWorld(at));
                QCOMPARE(hit.kind, TopologyHit::Kind::Gpu);
                QCOMPARE(hit.node, node);
                QCOMPARE(hit.slot, g);
                QCOMPARE(view.dropTargetAt(at).node, node);
            }
        for (std::size_t r = 0; r < layout.rackCount(); ++r) {
            const int rack = static_cast<int>(r);
            const TopologyHit hit = layout.hitTest(layout.rackNameStrip(rack).center());
            QCOMPARE(hit.kind, TopologyHit::Kind::Rack);
            QCOMPARE(hit.rack, rack);
        }
        for (std::size_t p = 0; p < layout.podCount(); ++p) {
            const int pod = static_cast<int>(p);
            const TopologyHit hit = layout.hitTest(layout.podNameStrip(pod).center());
            QCOMPARE(hit.kind, TopologyHit::Kind::Pod);
            QCOMPARE(hit.pod, pod);
        }
    }

    void fKeyRestoresTheFitAfterAZoom() {
        TopologyView view;
        view.resize(960, 540);
        view.show();  // a hidden widget's resizes reach it only when shown
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResults(resultsWithRacks(11));
        const double fitZoom = view.zoom();
        const QPointF fitCentre = view.toWorld(QPointF(480, 270));
        QVERIFY(view.followsFit());
        // Two wheel notches in at a corner: zoomed and moved, and no longer following.
        QWheelEvent wheel(QPointF(100, 400), view.mapToGlobal(QPointF(100, 400)), QPoint(),
                          QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(std::abs(view.zoom() / fitZoom - 1.44) < 1e-9);  // 1.2² a notch pair
        QVERIFY(!view.followsFit());
        // A resize now keeps the user's zoom.
        view.resize(1000, 560);
        QVERIFY(std::abs(view.zoom() / fitZoom - 1.44) < 1e-9);
        view.resize(960, 540);
        QTest::keyClick(&view, Qt::Key_F);
        QVERIFY(view.followsFit());
        QCOMPARE(view.zoom(), fitZoom);
        const QPointF centre = view.toWorld(QPointF(480, 270));
        QVERIFY(std::abs(centre.x() - fitCentre.x()) < 1e-9);
        QVERIFY(std::abs(centre.y() - fitCentre.y()) < 1e-9);
        // Following, a resize refits: twice the size, (about) twice the zoom.
        view.resize(1920, 1080);
        QVERIFY2(view.zoom() > 1.6 * fitZoom, qPrintable(QString::number(view.zoom() / fitZoom)));
    }

    void aChangedFleetIsRefittedUnlessTheUserZoomed() {
        TopologyView view;
        view.resize(960, 540);
        view.setResults(resultsWithRacks(4));
        const double fourRacks = view.zoom();
        view.setResults(resultsWithRacks(11));  // racks added: refitted
        QCOMPARE(view.layout().rackCount(), std::size_t{11});
        QVERIFY(view.zoom() < fourRacks);
        const QRectF area = view.fitArea(), fleet = fleetOnScreen(view);
        QVERIFY(area.contains(fleet.adjusted(1, 1, -1, -1)));
        // Zoomed by the user: the next change keeps the zoom and the centre.
        view.setView(view.zoom() * 2, view.layout().rackRect(0).center());
        const double userZoom = view.zoom();
        view.setResults(resultsWithRacks(12));
        QCOMPARE(view.layout().rackCount(), std::size_t{12});
        QCOMPARE(view.zoom(), userZoom);
        QVERIFY(!view.followsFit());
    }

    void aSnapshotOfAnotherFleetIsNeverDrawn() {
        // The view shows 16 racks; it is handed the cluster of a 4-rack run (the order slip
        // of the crash on switching scenarios), then the 4-rack results with the 16-rack cluster.
        const auto big = resultsWithRacks(16), small = resultsWithRacks(4);
        TopologyView view;
        view.resize(960, 540);
        view.setResults(big);
        const auto smallAt = std::make_shared<const ClusterSnapshot>(small->stateAt(3600));
        QVERIFY(!snapshotFitsResults(*smallAt, *big));
        view.setSnapshot(smallAt);
        QCOMPARE(view.snapshot().nodeStates.size(), big->fleet.nodes.size());
        QVERIFY(&view.snapshot() != smallAt.get());
        QVERIFY(snapshotFitsResults(view.snapshot(), *big));
        QCOMPARE(view.time(), 3600.0);  // the time is taken, from our own results
        paintOnce(view);
        (void)view.statusText();
        const auto bigAt = std::make_shared<const ClusterSnapshot>(big->stateAt(7200));
        view.setResults(small, bigAt);
        QCOMPARE(view.snapshot().nodeStates.size(), small->fleet.nodes.size());
        QVERIFY(snapshotFitsResults(view.snapshot(), *small));
        QCOMPARE(view.time(), 7200.0);
        paintOnce(view);
        // Same fleet, other jobs: a job number past the results' jobs is refused too.
        ClusterSnapshot foreign = small->stateAt(3600);
        foreign.runningJobs.push_back(static_cast<std::uint32_t>(small->jobs.size()));
        QVERIFY(!snapshotFitsResults(foreign, *small));
        view.setSnapshot(std::make_shared<const ClusterSnapshot>(foreign));
        QVERIFY(snapshotFitsResults(view.snapshot(), *small));
        paintOnce(view);
    }
};

GPUPLAN_APP_TEST("test_topology_layout", TopologyLayoutTest);
#include "test_topology_layout.moc"
