// The timeline's GL-free parts on hand-made runs: which rows show for a scroll offset and
// after collapsing, which bars a lane draws with sub-pixel holds merged, the markers at their
// ends, the per-column step function and the axis's ticks. Runs offscreen with the others.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/event_markers.hpp"
#include "timeline/timeline_bars.hpp"
#include "timeline/timeline_index.hpp"
#include "timeline/timeline_rows.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;
using Kind = TimelineRow::Kind;

namespace {

/// One pod, two racks of two DGX H100 (8 GPUs each): 32 GPUs, numbered node by node.
Fleet twoRacks() {
    Scenario s = app::test::defaultPresetOnNodes(2);
    s.pods[0].racks[0].count = 2;
    return Fleet::build(s);
}

/// A run on that fleet from hand-placed holds: {startS, endS, end, job, node, gpuMask,
/// milliGpu}; one team per job parity.
struct Hold {
    double startS, endS;
    SegmentEnd end;
    std::uint32_t job;
    std::uint32_t node;
    std::uint64_t gpuMask;
    std::uint16_t milliGpu = 1000;
};

Results runOf(const std::vector<Hold>& holds, std::uint32_t jobs, double horizonS) {
    Results r;
    r.fleet = twoRacks();
    r.firstGpuOfNode = {0};
    for (const FleetNode& n : r.fleet.nodes)
        r.firstGpuOfNode.push_back(r.firstGpuOfNode.back() + n.gpus);
    r.horizonS = horizonS;
    r.teams = {"even", "odd"};
    r.jobs.resize(jobs);
    for (std::uint32_t j = 0; j < jobs; ++j)
        r.jobs[j].spec.team = static_cast<int>(j % 2);
    for (const Hold& h : holds) {
        r.segments.push_back(
            RunSegment{.job = h.job,
                       .startS = h.startS,
                       .endS = h.endS,
                       .placementBegin = static_cast<std::uint32_t>(r.placements.size()),
                       .placementCount = 1,
                       .end = h.end});
        r.placements.push_back({.node = h.node, .milliGpu = h.milliGpu, .gpuMask = h.gpuMask});
    }
    r.gpuTimeline = GpuTimeline(r.segments, r.placements, r.firstGpuOfNode,
                                static_cast<std::size_t>(r.firstGpuOfNode.back()));
    return r;
}

constexpr TimelineRowHeights kHeights{22, 20, 18, 17};

}  // namespace

class TimelineModelTest : public QObject {
    Q_OBJECT
private slots:
    void checkpointMarksWhereTheBindingWroteThem() {
        // Job 0 (explicit source 0: a checkpoint every 1,000 s of work, free to write, 5,000 s
        // long) holds GPU 0 from 0 to 5,000 s at full pace: checkpoints end at 1,000, 2,000,
        // 3,000 and 4,000 s (none at its end). At 100 s a pixel they are marks at x = 10, 20,
        // 30, 40. Job 1, in 10 s-wide binding, has none.
        Results r = runOf({{0, 5000, SegmentEnd::Completed, 0, 0, 1},
                           {6000, 6010, SegmentEnd::Completed, 1, 0, 1}},
                          2, 10000);
        r.jobs[0].spec.source = JobSource::Explicit;
        r.jobs[0].spec.durationS = 5000;
        r.jobs[1].spec.source = JobSource::Class;
        r.sourceTraits.checkpoints[static_cast<std::size_t>(JobSource::Explicit)] = {
            CheckpointPolicy{1000, 0}};
        const TimelineIndex index(r);
        std::vector<TimelineBar> bars;
        std::vector<TimelineMark> marks;
        laneBars(r, index, 0, 0, TimeMapping{0, 0.01, 0}, 0, 100, bars, marks);
        std::vector<float> at;
        for (const TimelineMark& m : marks)
            if (m.kind == TimelineMarkKind::Checkpoint) at.push_back(m.xPx);
        QCOMPARE(at, (std::vector<float>{10, 20, 30, 40}));
        // Zoomed into [1500, 3500] s at 10 s a pixel: only 2,000 and 3,000 s, at x = 50, 150.
        bars.clear(), marks.clear();
        laneBars(r, index, 0, 0, TimeMapping{1500, 0.1, 0}, 0, 200, bars, marks);
        at.clear();
        for (const TimelineMark& m : marks)
            if (m.kind == TimelineMarkKind::Checkpoint) at.push_back(m.xPx);
        QCOMPARE(at, (std::vector<float>{50, 150}));
    }

    void rowsForAScrollOffset() {
        // GPU 1 is shared by two overlapping holds: it needs two lanes, so two rows.
        const Results r = runOf({{0, 100, SegmentEnd::Completed, 0, 0, 0b10, 500},
                                 {50, 150, SegmentEnd::Completed, 1, 0, 0b10, 500}},
                                2, 200);
        QCOMPARE(r.gpuTimeline.lanesOf(1), 2);
        TimelineRows rows;
        rows.build(r.fleet, r.firstGpuOfNode, r.gpuTimeline, kHeights);
        // pod + 2 racks + 4 nodes + 32 GPUs + GPU 1's second lane = 40 rows, and
        // 22 + 2·20 + 4·18 + 33·17 = 22 + 40 + 72 + 561 = 695 px.
        QCOMPARE(rows.size(), std::size_t(40));
        QCOMPARE(rows.contentHeightPx(), 695.0f);
        // Tops: pod 0, rack0 22, node0 42, GPU 0 at 60, GPU 1 lane 0 at 77, lane 1 at 94,
        // GPU 2 at 111, GPU 3 at 128.
        QCOMPARE(rows.row(4).kind, Kind::Gpu);
        QCOMPARE(rows.row(4).gpu, 1);
        QCOMPARE(rows.row(5).lane, std::uint8_t(1));
        QCOMPARE(rows.topPx(6), 111.0f);
        // [0, 100): rows whose top is above 100 → 0..5 (lane 1 starts at 94).
        QCOMPARE(rows.visibleRange(0, 100), std::make_pair(std::size_t(0), std::size_t(6)));
        // [100, 134): lane 1 (94–111), GPU 2 (111–128), GPU 3 (128–145).
        QCOMPARE(rows.visibleRange(100, 34), std::make_pair(std::size_t(5), std::size_t(8)));
        // Past the end: nothing; a y inside GPU 2's row finds it.
        QCOMPARE(rows.visibleRange(700, 50).first, rows.visibleRange(700, 50).second);
        QCOMPARE(*rows.rowAtPx(120), std::size_t(6));
        QVERIFY(!rows.rowAtPx(695));
        QCOMPARE(*rows.findGpuRow(1, 1), std::size_t(5));
    }

    void collapsingHidesRowsAndRevealExpands() {
        const Results r = runOf({}, 0, 100);
        TimelineRows rows;
        rows.build(r.fleet, r.firstGpuOfNode, r.gpuTimeline, kHeights);
        QCOMPARE(rows.size(), std::size_t(39));  // 1 + 2 + 4 + 32
        // Node 0 collapsed: its 8 GPU rows go; its header stays as the summary row.
        rows.setCollapsed(Kind::Node, 0, true);
        QCOMPARE(rows.size(), std::size_t(31));
        QVERIFY(rows.isCollapsed(2));
        QCOMPARE(rows.row(3).kind, Kind::Node);  // node 1 right under it
        QCOMPARE(rows.contentHeightPx(), 22.0f + 40 + 72 + 24 * 17);
        // Rack 1 collapsed: its two nodes and their 16 GPUs go.
        rows.setCollapsed(Kind::Rack, 1, true);
        QCOMPARE(rows.size(), std::size_t(13));
        QVERIFY(!rows.findGpuRow(20));  // node 2 (rack 1) holds GPUs 16–23
        QVERIFY(!rows.findNodeRow(2));
        // Revealing GPU 20 expands rack 1 (its node was never collapsed); node 0 stays as it was.
        const std::size_t row = rows.revealGpuRow(20);
        QCOMPARE(rows.size(), std::size_t(31));
        QCOMPARE(rows.row(row).gpu, 20);
        QCOMPARE(rows.row(row).unit, 2);
        QCOMPARE(rows.row(row).slot, 4);
        QVERIFY(rows.isCollapsed(2));
        // Every node collapsed (Ctrl+click on a node header): pod, 2 racks, 4 summary rows;
        // rack 1's header then comes after rack 0's and its two nodes.
        rows.setAllCollapsed(Kind::Node, true);
        QCOMPARE(rows.size(), std::size_t(7));
        QCOMPARE(*rows.findHeaderRow(Kind::Rack, 1), std::size_t(4));
        QCOMPARE(*rows.findHeaderRow(Kind::Node, 3), std::size_t(6));
        rows.setAllCollapsed(Kind::Node, false);
        rows.setCollapsed(Kind::Node, 0, true);
        // A re-run of the same fleet keeps what was collapsed.
        rows.build(r.fleet, r.firstGpuOfNode, r.gpuTimeline, kHeights, true);
        QCOMPARE(rows.size(), std::size_t(31));
        rows.build(r.fleet, r.firstGpuOfNode, r.gpuTimeline, kHeights, false);
        QCOMPARE(rows.size(), std::size_t(39));
    }

    void subPixelHoldsMergeAndMarkersStandAtTheEnds() {
        // 100 s per pixel (pxPerS 0.01) from t = 0 at x = 0; GPU 0 of node 0, the window
        // [0, 100] px = [0, 10000] s:
        //   a [0, 1000)       10 px: its own bar [0, 10]
        //   b..e 50 s each, 10 s apart from 1000 s: 0.5 px wide, 0.1 px gaps → one merged
        //        run [10, 12.3], 4 holds
        //   f [1500, 1550)    0.5 px, 2.7 px after the run: a run of its own, one hold
        //   g [2000, 5000)    job 6, [20, 50], preempted → a ▼ at 50
        //   h [5000, 6000)    job 6 again: a restart ▶ at 50, bar [50, 60]
        const Results r = runOf({{0, 1000, SegmentEnd::Completed, 0, 0, 1},
                                 {1000, 1050, SegmentEnd::Completed, 1, 0, 1},
                                 {1060, 1110, SegmentEnd::Completed, 2, 0, 1},
                                 {1120, 1170, SegmentEnd::Completed, 3, 0, 1},
                                 {1180, 1230, SegmentEnd::Completed, 4, 0, 1},
                                 {1500, 1550, SegmentEnd::Completed, 5, 0, 1},
                                 {2000, 5000, SegmentEnd::Preempted, 6, 0, 1},
                                 {5000, 6000, SegmentEnd::Completed, 6, 0, 1}},
                                7, 10000);
        const TimelineIndex index(r);
        QVERIFY(index.isRestart(7));
        QVERIFY(!index.isRestart(6));
        QCOMPARE(index.segmentsOf(6).size(), std::size_t(2));
        const TimeMapping map{0, 0.01, 0};
        std::vector<TimelineBar> bars;
        std::vector<TimelineMark> marks;
        laneBars(r, index, 0, 0, map, 0, 100, bars, marks);
        QCOMPARE(bars.size(), std::size_t(5));
        auto near = [](double a, double b) { return std::abs(a - b) < 1e-4; };
        QVERIFY(near(bars[0].x0Px, 0) && near(bars[0].x1Px, 10) && bars[0].count == 1);
        QVERIFY(near(bars[1].x0Px, 10) && near(bars[1].x1Px, 12.3) && bars[1].count == 4);
        QVERIFY(bars[1].merged());
        QVERIFY(near(bars[2].x0Px, 15) && near(bars[2].x1Px, 15.5) && !bars[2].merged());
        QCOMPARE(bars[2].segment, 5u);
        QVERIFY(near(bars[3].x0Px, 20) && near(bars[3].x1Px, 50) && bars[3].segment == 6);
        QVERIFY(near(bars[4].x0Px, 50) && near(bars[4].x1Px, 60) && bars[4].segment == 7);
        QCOMPARE(marks.size(), std::size_t(2));
        QCOMPARE(marks[0].kind, TimelineMarkKind::Preempted);
        QCOMPARE(marks[1].kind, TimelineMarkKind::Restart);
        QVERIFY(near(marks[0].xPx, 50) && near(marks[1].xPx, 50));
        // Hit tests: inside the merged run, in the 2.7 px gap (nothing within 1 px), near f.
        QCOMPARE(barAt(bars, 11, 1)->count, 4u);
        QVERIFY(!barAt(bars, 13.5, 1));
        QCOMPARE(barAt(bars, 14.5, 1)->segment, 5u);
        // Zoomed 10× into [1000, 1300] s (10 s per px): b..e are 5 px wide, each its own bar.
        bars.clear(), marks.clear();
        laneBars(r, index, 0, 0, TimeMapping{1000, 0.1, 0}, 0, 30, bars, marks);
        QCOMPARE(bars.size(), std::size_t(4));
        QVERIFY(std::none_of(bars.begin(), bars.end(),
                             [](const TimelineBar& b) { return b.merged(); }));
    }

    void aDenseLaneDrawsAboutTwoBarsPerColumn() {
        // 20,000 holds on one GPU, 150 s, 30 s and 30 s long in turn with 20 s between: at
        // 0.01 px/s each is 1.5 or 0.3 px wide with 0.2 px gaps, so every wide hold is a bar
        // and each pair of narrow ones between them a merged run. However they fall, no pixel
        // column may be drawn by more than about two bars, nor the row by more than about two
        // per column.
        std::vector<Hold> holds;
        double t = 0;
        for (std::uint32_t i = 0; i < 20000; ++i) {
            const double lengthS = i % 3 == 0 ? 150 : 30;
            holds.push_back({t, t + lengthS, SegmentEnd::Completed, i, 0, 1});
            t += lengthS + 20;
        }
        const Results r = runOf(holds, 20000, t);
        const TimelineIndex index(r);
        const double widthPx = t * 0.01;
        std::vector<TimelineBar> bars;
        std::vector<TimelineMark> marks;
        laneBars(r, index, 0, 0, TimeMapping{0, 0.01, 0}, 0, widthPx, bars, marks);
        QVERIFY2(bars.size() <= 2 * std::ceil(widthPx) + 1,
                 qPrintable(QString::number(bars.size())));
        std::vector<int> perColumn(static_cast<std::size_t>(std::ceil(widthPx)) + 2, 0);
        for (const TimelineBar& b : bars)
            for (long c = static_cast<long>(b.x0Px); c <= static_cast<long>(std::ceil(b.x1Px)) - 1;
                 ++c)
                ++perColumn[std::clamp<long>(c, 0, static_cast<long>(perColumn.size()) - 1)];
        QVERIFY2(
            *std::max_element(perColumn.begin(), perColumn.end()) <= 3,
            qPrintable(QString::number(*std::max_element(perColumn.begin(), perColumn.end()))));
        // Every hold is drawn: the bars' counts add up to all of them.
        std::size_t holdsDrawn = 0;
        for (const TimelineBar& b : bars)
            holdsDrawn += b.count;
        QCOMPARE(holdsDrawn, std::size_t(20000));
        // Zoomed right out (1 px per 10,000 s), all 20,000 are one busy bar.
        bars.clear();
        laneBars(r, index, 0, 0, TimeMapping{0, 1e-4, 0}, 0, t * 1e-4, bars, marks);
        QCOMPARE(bars.size(), std::size_t(1));
        QCOMPARE(bars[0].count, 20000u);
    }

    void stepFunctionsAsLargestValuePerColumn() {
        // 2 from 0 s, 5 from 150 s, 0 from 250 s, until 400 s; 100 s per px:
        //   column 0 [0, 100): 2; column 1 [100, 200): max(2, 5) = 5;
        //   column 2 [200, 300): max(5, 0) = 5; column 3 [300, 400): 0 → left out.
        const std::vector<double> times{0, 150, 250}, values{2, 5, 0};
        const std::vector<ColumnSpan> cols = stepColumns(times, values, 400, {0, 0.01, 0}, 0, 4);
        QCOMPARE(cols.size(), std::size_t(2));
        QCOMPARE(cols[0].x0Px, 0.0f);
        QCOMPARE(cols[0].x1Px, 1.0f);
        QCOMPARE(cols[0].value, 2.0);
        QCOMPARE(cols[1].x0Px, 1.0f);
        QCOMPARE(cols[1].x1Px, 3.0f);
        QCOMPARE(cols[1].value, 5.0);
        // Time-weighted means instead: column 0: 2; column 1: 2·0.5 + 5·0.5 = 3.5;
        // column 2: 5·0.5 + 0·0.5 = 2.5; column 3: 0, left out.
        const std::vector<ColumnSpan> means =
            stepColumns(times, values, 400, {0, 0.01, 0}, 0, 4, ColumnValue::Mean);
        QCOMPARE(means.size(), std::size_t(3));
        QCOMPARE(means[0].value, 2.0);
        QCOMPARE(means[1].value, 3.5);
        QCOMPARE(means[2].value, 2.5);
        QCOMPARE(means[2].x1Px, 3.0f);
    }

    void aCollapsedNodeSumsItsGpus() {
        // Node 0: GPUs 0+1 whole over [0, 100), GPU 2 half over [50, 150):
        // 2 GPUs from 0, 2.5 from 50, 0.5 from 100, 0 from 150.
        const Results r = runOf({{0, 100, SegmentEnd::Completed, 0, 0, 0b011},
                                 {50, 150, SegmentEnd::Completed, 1, 0, 0b100, 500}},
                                2, 200);
        const TimelineIndex index(r);
        const TimelineSteps& held = index.heldGpusOf(r, 0);
        QCOMPARE(held.timesS, (std::vector<double>{0, 50, 100, 150}));
        QCOMPARE(held.values, (std::vector<double>{2, 2.5, 0.5, 0}));
        QVERIFY(index.heldGpusOf(r, 1).timesS.empty());
    }

    void nodeEventsAndNotReadyStretches() {
        // Node 1: a spot reclaim at 500 s (Failed), back at 800 s; node 2 fails at 300 s
        // and is repairing from 400 s to 900 s; node 3 starts Provisioning, Ready at 100 s.
        Results r = runOf({}, 0, 1000);
        r.fleet.nodes[3].initialState = NodeState::Provisioning;
        r.nodeChanges = {{100, 3, NodeState::Ready, NodeChangeCause::Delivery},
                         {300, 2, NodeState::Failed, NodeChangeCause::Failure},
                         {400, 2, NodeState::Repairing, NodeChangeCause::Repair},
                         {500, 1, NodeState::Failed, NodeChangeCause::SpotReclaim},
                         {800, 1, NodeState::Ready, NodeChangeCause::SpotReturn},
                         {900, 2, NodeState::Ready, NodeChangeCause::Repair}};
        const TimelineIndex index(r);
        auto kindId = [](const TimelineNodeEvent& e) {
            return QLatin1String(eventKinds()[e.kind].id);
        };
        QCOMPARE(index.eventsOf(1).size(), std::size_t(1));
        QCOMPARE(kindId(index.eventsOf(1)[0]), QLatin1String("spot_reclaim"));
        QCOMPARE(index.eventsOf(1)[0].timeS, 500.0);
        QCOMPARE(index.eventsOf(2).size(), std::size_t(1));
        QCOMPARE(kindId(index.eventsOf(2)[0]), QLatin1String("node_failure"));
        QVERIFY(index.eventsOf(0).empty());
        // Not Ready: node 1 [500, 800) failed; node 2 [300, 400) failed, [400, 900)
        // repairing; node 3 [0, 100) provisioning; node 0 never.
        QVERIFY(index.notReadyOf(0).empty());
        QCOMPARE(index.notReadyOf(1).size(), std::size_t(1));
        QCOMPARE(index.notReadyOf(1)[0].startS, 500.0);
        QCOMPARE(index.notReadyOf(1)[0].endS, 800.0);
        QCOMPARE(index.notReadyOf(2).size(), std::size_t(2));
        QCOMPARE(index.notReadyOf(2)[1].state, NodeState::Repairing);
        QCOMPARE(index.notReadyOf(2)[1].endS, 900.0);
        QCOMPARE(index.notReadyOf(3).size(), std::size_t(1));
        QCOMPARE(index.notReadyOf(3)[0].state, NodeState::Provisioning);
        QCOMPARE(index.notReadyOf(3)[0].endS, 100.0);
    }

    void ticksAreRoundAndReadable() {
        // 0.01 px/s and at least 50 px apart: the first round step of ≥ 5,000 s is 2 h.
        double stepS = 0;
        const std::vector<TimeTick> ticks = timeTicks({0, 0.01, 0}, 0, 100, 50, &stepS);
        QCOMPARE(stepS, 7200.0);
        QCOMPARE(ticks.size(), std::size_t(2));  // 0 and 7200 s within [0, 10000] s
        QCOMPARE(tickLabel(ticks[1].timeS, stepS), QStringLiteral("d0 02:00"));
        QCOMPARE(tickLabel(2 * 86400, 86400), QStringLiteral("d2"));
        QCOMPARE(tickLabel(90061, 1), QStringLiteral("d1 01:01:01"));
    }
};

GPUPLAN_APP_TEST("test_timeline_model", TimelineModelTest);
#include "test_timeline_model.moc"
