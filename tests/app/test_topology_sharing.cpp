// Shared GPUs in the topology and the inspector: a GPU's cell is divided among its holders by
// their shares, what the pointer is over is the holder drawn there, and the heat and busy counts
// count shares by their share.
#include <QtTest>

#include "app_test_main.hpp"
#include "checkout_paths.hpp"
#include "editors/inspector.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "topology/gpu_sub_cells.hpp"
#include "topology/topology_view.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

/// A snapshot of `gpus` GPUs where GPU g holds `holds[g]` (job, milli-GPU) in job order.
ClusterSnapshot snapshotOf(const std::vector<std::vector<GpuOccupant>>& holds) {
    ClusterSnapshot s;
    s.occupantBegin.push_back(0);
    for (const auto& gpu : holds) {
        s.occupants.insert(s.occupants.end(), gpu.begin(), gpu.end());
        s.occupantBegin.push_back(static_cast<std::uint32_t>(s.occupants.size()));
        s.gpuJob.push_back(gpu.empty() ? -1 : static_cast<int>(gpu.front().job));
    }
    return s;
}

/// One node of 8 H100s served by MPS, and two explicit share jobs submitted at t = 0 for an
/// hour: 300 and 500 milli-GPU. Shares pack onto the GPU with the least room that fits, so
/// both land on GPU 0 (after "a" takes 300 of it, GPU 0 has 700 left, less than any empty
/// GPU's 1000).
Scenario twoSharesOnMps() {
    const Catalog catalog =
        loadCatalog((gpuplan::checkout::presetsDir() / "catalog/catalog.json").string());
    Scenario s =
        loadScenario((gpuplan::checkout::testDataDir() / "valid-sharing.json").string(), catalog);
    RackDef& rack = s.pods.at(0).racks.at(0);
    rack.count = 1;
    NodeGroupDef mps;
    for (const NodeGroupDef& g : rack.nodes)
        if (g.sharing.mode == SharingMode::Mps) mps = g;
    rack.nodes = {mps};
    s.jobClasses.clear();
    s.jobs.clear();
    for (const auto& [name, milli] : {std::pair{"a", 300}, std::pair{"b", 500}}) {
        JobDef j;
        j.name = name;
        j.traits.team = s.teams.at(0).name;
        j.traits.gpuMilli = milli;
        j.gpus = 1;
        j.durationS = 3600;
        s.jobs.push_back(j);
    }
    return s;
}

}  // namespace

class TopologySharingTest : public QObject {
    Q_OBJECT
private slots:
    void stripesFollowShares() {
        // GPU 0: job 3 holds 300, job 5 holds 500 → [0, 0.3) job 3, [0.3, 0.8) job 5,
        // [0.8, 1) free (200 milli). GPU 1: free, one stripe. GPU 2: held whole by job 7.
        const ClusterSnapshot s = snapshotOf({{{3, 300}, {5, 500}}, {}, {{7, 1000}}});
        std::vector<GpuSubCell> cells;
        gpuSubCells(s, 0, cells);
        QCOMPARE(cells.size(), std::size_t{3});
        QCOMPARE(cells[0].job, 3);
        QCOMPARE(cells[1].job, 5);
        QCOMPARE(cells[2].job, -1);
        QCOMPARE(cells[2].milliGpu, 200);
        QVERIFY(qFuzzyCompare(cells[0].x1, 0.3));
        QVERIFY(qFuzzyCompare(cells[1].x1, 0.8));
        QCOMPARE(cells[2].x1, 1.0);
        gpuSubCells(s, 1, cells);
        QCOMPARE(cells.size(), std::size_t{1});
        QCOMPARE(cells[0].job, -1);
        gpuSubCells(s, 2, cells);
        QCOMPARE(cells.size(), std::size_t{1});
        QCOMPARE(cells[0].job, 7);

        QCOMPARE(jobAtCellX(s, 0, 0.1), 3);
        QCOMPARE(jobAtCellX(s, 0, 0.5), 5);
        QCOMPARE(jobAtCellX(s, 0, 0.9), -1);
        QCOMPARE(jobAtCellX(s, 0, 1.0), -1);  // the right edge belongs to the last stripe
        QCOMPARE(jobAtCellX(s, 2, 0.5), 7);

        // Heat: 0.8 of GPU 0 is held, GPU 2 wholly, GPU 1 not at all.
        QVERIFY(qFuzzyCompare(heldGpuEquivalents(s, 0), 0.8));
        QCOMPARE(heldGpuEquivalents(s, 1), 0.0);
        QCOMPARE(heldGpuEquivalents(s, 2), 1.0);
    }

    void tinySharesStayVisible() {
        // 48 MPS clients of 20 milli each: 0.02 of the cell each is below the 0.04 minimum,
        // so each is widened to 0.04; 48 × 0.04 = 1.92 > 1, so all scale by 1 / 1.92 back to
        // 1/48 each and the GPU (960 milli held) shows no free rest wider than rounding.
        std::vector<GpuOccupant> clients;
        for (std::uint32_t j = 0; j < 48; ++j)
            clients.push_back({j, 20});
        const ClusterSnapshot s = snapshotOf({clients});
        std::vector<GpuSubCell> cells;
        gpuSubCells(s, 0, cells);
        QCOMPARE(cells.size(), std::size_t{48});
        for (const GpuSubCell& c : cells)
            QVERIFY(std::abs((c.x1 - c.x0) - 1.0 / 48) < 1e-9);
        QCOMPARE(jobAtCellX(s, 0, 47.5 / 48), 47);
        // Time-slicing replicas of an oversubscribed GPU (3 × 400 = 1200 > 1000) never
        // overflow the cell, and the GPU counts as one GPU held.
        const ClusterSnapshot over = snapshotOf({{{1, 400}, {2, 400}, {3, 400}}});
        gpuSubCells(over, 0, cells);
        QCOMPARE(cells.size(), std::size_t{3});
        QVERIFY(cells.back().x1 <= 1.0);
        QCOMPARE(heldGpuEquivalents(over, 0), 1.0);
    }

    void migInstancesSitWhereTheirMemorySlicesAre() {
        // An H100 cut "2g.20gb@0, 1g.10gb@2, 3g.40gb@4": instances in start order are
        // 2g@0 (memory slices 0–1), 1g@2 (slice 2), 3g@4 (slices 4–7); slice 3 is in no
        // instance. In eighths of the cell: 2g [0, 0.25), 1g [0.25, 0.375), uncut
        // [0.375, 0.5), 3g [0.5, 1). Job 9 holds the 3g (instance index 2), the others free.
        ClusterSnapshot s = snapshotOf({{{9, 429, 2}}});
        s.migLayouts = {parseMigLayout("2g.20gb@0, 1g.10gb@2, 3g.40gb@4", MigFamily::Gpu80GB)};
        std::vector<GpuSubCell> cells;
        gpuSubCells(s, 0, cells);
        QCOMPARE(cells.size(), std::size_t{4});
        QCOMPARE(cells[0].x1, 0.25);
        QCOMPARE(cells[0].job, -1);
        QVERIFY(!cells[0].uncut);
        QCOMPARE(cells[1].x1, 0.375);
        QVERIFY(cells[2].uncut);
        QCOMPARE(cells[2].x1, 0.5);
        QCOMPARE(cells[3].x0, 0.5);
        QCOMPARE(cells[3].job, 9);
        QCOMPARE(cells[3].milliGpu, 429);  // 3 of 7 compute slices
        QCOMPARE(jobAtCellX(s, 0, 0.75), 9);
        QCOMPARE(jobAtCellX(s, 0, 0.1), -1);
    }

    void pointerPicksTheShareUnderIt() {
        const Results r = simulate(twoSharesOnMps());
        const ClusterSnapshot snap = r.stateAt(1800);
        QCOMPARE(snap.occupantsOf(0).size(), std::size_t{2});  // both on GPU 0 (see above)
        TopologyView view;
        view.resize(800, 600);
        view.setResults(std::make_shared<const Results>(r));
        view.setTime(1800);
        const TopologyLayout& layout = view.layout();
        const QRectF cell = layout.gpuRect(0, 0);
        auto jobAtX = [&](double fraction) {
            return view.jobAt(
                layout.hitTest(QPointF(cell.left() + fraction * cell.width(), cell.center().y())));
        };
        // Job "a" (index 0) holds [0, 0.3), "b" (index 1) [0.3, 0.8), the rest is free.
        QCOMPARE(r.jobName(static_cast<std::uint32_t>(jobAtX(0.15))), std::string("a"));
        QCOMPARE(r.jobName(static_cast<std::uint32_t>(jobAtX(0.55))), std::string("b"));
        QCOMPARE(jobAtX(0.9), -1);

        Inspector inspector;
        inspector.setResults(std::make_shared<const Results>(r));
        inspector.setTime(1800);
        inspector.showGpu(0, 0);
        const QString gpuText = inspector.toPlainText();
        QVERIFY2(gpuText.contains("MPS (8 clients, cap 25 %, 20 GB)"), qPrintable(gpuText));
        QVERIFY2(gpuText.contains("a (300 milli-GPU)"), qPrintable(gpuText));
        QVERIFY2(gpuText.contains("b (500 milli-GPU)"), qPrintable(gpuText));
        inspector.showNode(0);
        // 0.3 + 0.5 = 0.8 GPU-equivalents busy of 8.
        const QString nodeText = inspector.toPlainText();
        QVERIFY2(nodeText.contains("0.8 of 8"), qPrintable(nodeText));
    }
};

GPUPLAN_APP_TEST("test_topology_sharing", TopologySharingTest);
#include "test_topology_sharing.moc"
