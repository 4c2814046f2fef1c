#include "timeline_bench.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMouseEvent>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include "gpuplan/sim/simulate.hpp"
#include "timeline/timeline_panel.hpp"
#include "timeline/timeline_view.hpp"

namespace gpuplan::app {

namespace {

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))];
}

void pause(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Frames of the view as a person drives it: before each, the rows pan a little and the
/// pointer moves (a hover, with its tooltip), then one frame. Three figures per frame: the
/// whole frame (ImGui frame, llvmpipe rasterising, Qt compositing and flushing the window),
/// paintGL alone (glFinish included) and building the draw lists alone.
struct FrameTimes {
    std::vector<double> repaintMs, paintMs, buildMs;
    ui::TimelineFrameStats busiest;  ///< what the frame with the most bars drew
};

FrameTimes measure(ui::TimelineView& view, int frames, const std::function<void(int)>& step) {
    FrameTimes out;
    for (int i = 0; i < frames; ++i) {
        step(i);
        const QPointF at(view.geometry().gutterPx + 40 + (i * 97) % 1200,
                         view.geometry().rowsTopPx() + 10 + (i * 53) % 600);
        QMouseEvent move(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        // Asked for as input asks for it (update), timed until the frame is drawn: the
        // event loop's hand-over, paintGL, and Qt composing the window and flushing it.
        const quint64 before = view.framesDrawn();
        QElapsedTimer t;
        t.start();
        view.update();
        while (view.framesDrawn() == before && t.elapsed() < 2000)
            QApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        out.repaintMs.push_back(t.nsecsElapsed() / 1e6);
        out.paintMs.push_back(view.lastFrameMs());
        out.buildMs.push_back(view.lastBuildMs());
        const ui::TimelineFrameStats& drawn = view.lastFrameStats();
        if (drawn.bars + drawn.mergedBars >= out.busiest.bars + out.busiest.mergedBars)
            out.busiest = drawn;
        QApplication::processEvents();  // the tooltip's extra frame is not measured
    }
    return out;
}

void print(const char* name, const FrameTimes& f) {
    const double p90 = quantile(f.repaintMs, 0.9);
    std::printf("%-44s %10.2f %10.2f  %s\n", name, quantile(f.repaintMs, 0.5), p90,
                p90 < 16 ? "< 16 ms: meets" : "< 16 ms: MISSES");
    std::printf("%-44s %10.2f %10.2f  %s\n", "  (paintGL alone, glFinish included)",
                quantile(f.paintMs, 0.5), quantile(f.paintMs, 0.9), "(info)");
    std::printf("%-44s %10.2f %10.2f  %s\n", "  (building the draw lists, CPU)",
                quantile(f.buildMs, 0.5), quantile(f.buildMs, 0.9), "(info)");
}

/// The run, or nullptr when it did not finish within the limit.
std::shared_ptr<const Results> run(const Scenario& scenario, double limitS, double* tookS) {
    RunOptions quick;
    quick.checkInvariants = false;
    std::stop_source stop;
    std::jthread watchdog([&stop, limitS](std::stop_token done) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitS);
        while (!done.stop_requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!done.stop_requested()) stop.request_stop();
    });
    QElapsedTimer t;
    t.start();
    auto results = std::make_shared<const Results>(simulate(scenario, quick, {}, stop.get_token()));
    *tookS = t.nsecsElapsed() / 1e9;
    watchdog.request_stop();
    return results->stopped ? nullptr : results;
}

void benchPreset(const std::shared_ptr<const Results>& results, const char* label) {
    ui::TimelineView view;
    view.resize(1600, 900);
    view.setResults(results);
    view.setTime(results->horizonS / 2);
    view.show();
    for (int i = 0; i < 100 && view.framesDrawn() == 0; ++i)
        pause(20);
    if (!view.glReady()) {
        std::printf("(timeline %s: the OpenGL backend did not start; skipped)\n", label);
        return;
    }
    view.setFinishFrames(true);
    const Fleet& fleet = results->fleet;
    char name[64];

    // 1. The whole run at once, every row expanded, panning down through the fleet.
    view.setTimeWindow(0, results->horizonS);
    const float contentPx = view.rows().contentHeightPx();
    const FrameTimes full = measure(
        view, 50, [&](int i) { view.setScrollPx(std::fmod(i * 0.0197f * contentPx, contentPx)); });
    std::snprintf(name, sizeof name, "timeline_frame_%s_full_zoom_out", label);
    print(name, full);
    const ui::TimelineFrameStats stats = full.busiest;

    // 2. One rack's GPUs over six hours around the middle, panning through them in time and
    //    rows (each GPU row of the rack comes on screen).
    const FleetRack& rack = fleet.racks[fleet.racks.size() / 2];
    view.revealGpu(rack.firstNode, 0);
    const std::size_t firstRow = *view.rows().findNodeRow(rack.firstNode);
    const std::size_t lastRow = *view.rows().findNodeRow(rack.firstNode + rack.nodeCount - 1);
    const float rackTopPx = view.rows().topPx(firstRow),
                rackPx = view.rows().topPx(lastRow) - rackTopPx;
    const double spanS = std::min(6 * 3600.0, results->horizonS);
    const FrameTimes oneRack = measure(view, 50, [&](int i) {
        const double fromS = results->horizonS / 2 - spanS / 2 + (i - 25) * spanS / 40;
        view.setTimeWindow(fromS, fromS + spanS);
        view.setScrollPx(rackTopPx + std::fmod(i * 0.07f * rackPx, std::max(1.0f, rackPx)));
    });
    std::snprintf(name, sizeof name, "timeline_frame_%s_one_rack_6h", label);
    print(name, oneRack);

    std::printf(
        "(timeline %s: %d GPUs, %zu rows, %zu jobs, %zu GPU holds; full zoom-out frame: "
        "%zu rows, %zu bars, %zu merged, %zu markers in its busiest frame)\n",
        label, fleet.totalGpus, view.rows().size(), results->jobs.size(),
        results->gpuTimeline.intervalCount(), stats.rows, stats.bars, stats.mergedBars,
        stats.marks);
}

}  // namespace

void runTimelineBenchmarks(const Catalog& catalog, const LoadOptions& options,
                           const QString& presetsDir) {
    QString why;
    if (!ui::timelineGlAvailable(&why)) {
        std::printf("%-44s %10s %10s  skipped: %s (run under xvfb-run)\n", "timeline_frame_*", "-",
                    "-", qPrintable(why));
        return;
    }
    // The floor: a frame with nothing to draw, at the same size. What it costs is Qt
    // composing the panel into its window and flushing it to the display, not the timeline.
    {
        ui::TimelineView empty;
        empty.resize(1600, 900);
        empty.show();
        for (int i = 0; i < 100 && empty.framesDrawn() == 0; ++i)
            pause(20);
        if (empty.glReady()) {
            empty.setFinishFrames(true);
            print("timeline_frame_nothing_drawn (the floor)", measure(empty, 30, [](int) {}));
        }
    }
    for (const auto& [file, label, limitS] : {std::tuple{"fleet-10k.json", "10k", 120.0},
                                              std::tuple{"synthetic-100k.json", "100k", 60.0}}) {
        try {
            const Scenario scenario = loadScenario(
                (presetsDir + QStringLiteral("/scenarios/") + QLatin1String(file)).toStdString(),
                catalog, options);
            double tookS = 0;
            const auto results = run(scenario, limitS, &tookS);
            if (!results) {
                std::printf("(timeline %s: the run took over %.0f s; skipped)\n", label, limitS);
                continue;
            }
            std::printf("(timeline %s: simulated in %.1f s)\n", label, tookS);
            benchPreset(results, label);
        } catch (const std::exception& e) {
            std::printf("(timeline %s: %s; skipped)\n", label, e.what());
        }
    }
}

}  // namespace gpuplan::app
