#include "gpu_bench.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "charts/chart_board.hpp"
#include "editors/time_scrubber.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "main_window.hpp"
#include "topology/topology_view.hpp"

namespace gpuplan::app {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))];
}

/// Runs the event loop until `signal` fires or `timeoutMs` passes.
template <class Sender, class Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs) {
    QEventLoop loop;
    bool fired = false;
    auto c = QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return fired;
}

void pause(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// CPU time this thread has used, in ms: on a loaded machine the wall clock also counts the
/// time other processes had the core.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/// Frames of the fleet view on `results` at 1600×1000: fitted (the layout chosen for the view,
/// timed too), then panned and zoomed 1×–16× with a hover's hit test, each frame rendered.
void benchTopologyFrames(const char* name, std::shared_ptr<const Results> results) {
    ui::TopologyView view;
    view.resize(1600, 1000);
    view.setResults(results);
    view.setTime(results->horizonS / 2);
    std::vector<double> fitMs;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        view.fitAll();
        fitMs.push_back(t.nsecsElapsed() / 1e6);
    }
    const double fit = view.zoom();
    const QPointF centre = view.layout().bounds().center();
    QImage frame(view.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frameMs, frameCpuMs;
    for (double factor : {1.0, 2.0, 4.0, 8.0, 16.0}) {
        for (int step = 0; step < 24; ++step) {
            const QPointF pan(std::cos(step * 0.26) * 400 / factor,
                              std::sin(step * 0.26) * 250 / factor);
            QElapsedTimer t;
            t.start();
            const double cpuStartMs = threadCpuMs();
            view.setView(fit * factor, centre + pan);
            (void)view.layout().hitTest(view.toWorld(QPointF(800 + step, 500)));  // hover
            QPainter p(&frame);
            view.render(&p);
            p.end();
            frameMs.push_back(t.nsecsElapsed() / 1e6);
            frameCpuMs.push_back(threadCpuMs() - cpuStartMs);
        }
    }
    std::printf("%-44s %10.2f %10.2f  %s\n", name, median(frameMs), quantile(frameMs, 0.9),
                quantile(frameMs, 0.9) < 16 ? "< 16 ms: meets" : "< 16 ms: MISSES");
    std::printf("%-44s %10.2f %10.2f  %s\n", "  (thread CPU time of the same frames)",
                median(frameCpuMs), quantile(frameCpuMs, 0.9), "(info)");
    std::printf("%-44s %10.2f %10.2f  %s\n", (std::string(name) + " (fit)").c_str(), median(fitMs),
                quantile(fitMs, 0.9), "(info: lay out and fit the view)");
}

}  // namespace

int runGuiBenchmarks(const Catalog& catalog, const LoadOptions& options, const QString& presetsDir,
                     const QElapsedTimer& sinceStart) {
    std::printf("%-44s %10s %10s  %s\n", "benchmark", "median_ms", "p90_ms", "target");

    // 1. Start to first window (and to first results on screen), default preset.
    ScenarioDocument doc(catalog, options);
    doc.load(presetsDir + QStringLiteral("/scenarios/default.json"));
    MainWindow window(&doc, presetsDir);
    window.show();
    window.simulation().runNow(doc.scenario());
    QApplication::processEvents();
    window.repaint();
    const double firstWindowMs = sinceStart.nsecsElapsed() / 1e6;
    // A fast run may already be on screen: wait only when it is not.
    if (!window.results()) waitFor(&window.session(), &Session::resultsApplied, 10000);
    window.repaint();
    const double firstResultsMs = sinceStart.nsecsElapsed() / 1e6;
    std::printf("%-44s %10.1f %10s  %s\n", "start_to_first_window", firstWindowMs, "-",
                firstWindowMs < 1000 ? "< 1000 ms: meets" : "< 1000 ms: MISSES");
    std::printf("%-44s %10.1f %10s  %s\n", "start_to_first_results_drawn", firstResultsMs, "-",
                "(info)");

    // 2. Edit → results → charts and topology redrawn. Edits are spaced past the debounce
    //    window so each is a leading-edge run, as a single user edit is.
    auto editToRedrawn = [&window](const char* name) {
        std::vector<double> editMs;
        for (int i = 0; i < 25; ++i) {
            pause(200);
            QElapsedTimer t;
            t.start();
            // Always a real change, whatever the policy was when this series began.
            const bool packed =
                window.document()->scenario().scheduler.placement == PlacementPolicy::Pack;
            window.setPlacementPolicy(packed ? PlacementPolicy::Spread : PlacementPolicy::Pack);
            if (!waitFor(&window.session(), &Session::resultsApplied, 10000)) break;
            window.topology()->repaint();
            for (QWidget* c : window.charts()->findChildren<QWidget*>())
                c->repaint();
            editMs.push_back(t.nsecsElapsed() / 1e6);
        }
        std::printf("%-44s %10.1f %10.1f  %s\n", name, median(editMs), quantile(editMs, 0.9),
                    editMs.size() < 25     ? "< 100 ms median: MISSES (an edit brought no results)"
                    : median(editMs) < 100 ? "< 100 ms median: meets"
                                           : "< 100 ms median: MISSES");
    };
    editToRedrawn("edit_to_redrawn_default");
    // The same after a fleet edit that doubles the fleet (every pod duplicated): the cost of
    // an edit must follow the fleet's size, not explode with it.
    {
        pause(200);
        Scenario doubled = doc.scenario();
        const std::size_t podDefs = doubled.pods.size();
        for (std::size_t p = 0; p < podDefs; ++p) {
            PodDef copy = doubled.pods[p];
            copy.name += "-copy";
            doubled.pods.push_back(std::move(copy));
        }
        const QString refusal = doc.edit(doubled, QStringLiteral("Double the fleet"));
        if (!refusal.isEmpty()) std::printf("(fleet doubling refused: %s)\n", qPrintable(refusal));
        waitFor(&window.session(), &Session::resultsApplied, 10000);
        std::printf("(fleet doubled: %d GPUs)\n", window.results()->fleet.totalGpus);
        editToRedrawn("edit_to_redrawn_default_fleet_doubled");
    }

    // 3. Topology frames on 10,000 GPUs: pan, zoom and hover at several zoom levels.
    Scenario big = loadScenario(
        (presetsDir + QStringLiteral("/scenarios/fleet-10k.json")).toStdString(), catalog, options);
    RunOptions quick;
    quick.checkInvariants = false;
    auto results = std::make_shared<const Results>(simulate(big, quick));
    benchTopologyFrames("topology_frame_10k_gpus_pan_zoom_hover", results);
    std::printf("(10k preset: %d GPUs, %zu jobs)\n", results->fleet.totalGpus,
                results->jobs.size());
    runTimelineBenchmarks(catalog, options, presetsDir);  // timeline_bench.hpp

    // 4. Scrubbing the 100k-GPU preset: the scrubber moves, the cluster at t is looked up once
    //    and shared, and the window (fleet, charts' cursor, inspector, pending list) is
    //    redrawn.
    ScenarioDocument hugeDoc(catalog, options);
    hugeDoc.load(presetsDir + QStringLiteral("/scenarios/synthetic-100k.json"));
    MainWindow hugeWindow(&hugeDoc, presetsDir);
    hugeWindow.resize(1600, 1000);
    hugeWindow.show();
    hugeWindow.simulation().runNow(hugeDoc.scenario());
    if (!waitFor(&hugeWindow.session(), &Session::resultsApplied, 120000)) {
        std::printf("%-44s %10s %10s  %s\n", "scrub_100k_gpus_redrawn", "-", "-",
                    "no results within 2 min");
        return 0;
    }
    hugeWindow.repaint();
    std::vector<double> scrubMs;
    const double horizonS = hugeWindow.results()->horizonS;
    for (int step = 1; step <= 40; ++step) {
        QElapsedTimer t;
        t.start();
        hugeWindow.scrubber()->setTime(horizonS * step / 41);
        QApplication::processEvents();
        hugeWindow.repaint();
        scrubMs.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf("%-44s %10.2f %10.2f  %s\n", "scrub_100k_gpus_redrawn", median(scrubMs),
                quantile(scrubMs, 0.9),
                quantile(scrubMs, 0.9) < 16 ? "< 16 ms: meets" : "< 16 ms: MISSES");
    std::printf("(100k preset: %d GPUs, %zu jobs, %zu GPU holds)\n",
                hugeWindow.results()->fleet.totalGpus, hugeWindow.results()->jobs.size(),
                hugeWindow.results()->gpuTimeline.intervalCount());
    benchTopologyFrames("topology_frame_100k_gpus_pan_zoom_hover", hugeWindow.results());
    return 0;
}

}  // namespace gpuplan::app
