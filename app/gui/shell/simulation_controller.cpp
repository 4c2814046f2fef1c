#include "simulation_controller.hpp"

#include <QMetaObject>

#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::app {

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
    // Two workers: a stopped run may still be unwinding while the next one starts.
    m_pool.setMaxThreadCount(2);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        if (!m_pending) return;  // quiet spell over, nothing merged
        Scenario s = std::move(*m_pending);
        m_pending.reset();
        start(s);
        m_debounce.start();  // edits right after the trailing run merge again
    });
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &SimulationController::poll);
}

SimulationController::~SimulationController() {
    if (m_active) m_active->stop.request_stop();
    m_pool.waitForDone();
}

void SimulationController::request(const Scenario& scenario) {
    if (m_debounce.isActive()) {
        m_pending = scenario;  // merged into the trailing run
        abandonActive();       // what is running now answers an older scenario
        m_debounce.start();
        return;
    }
    start(scenario);  // leading edge: the first edit runs at once
    m_debounce.start();
}

void SimulationController::runNow(const Scenario& scenario) {
    m_pending.reset();
    m_debounce.stop();
    start(scenario);
}

void SimulationController::cancel() {
    m_pending.reset();
    m_debounce.stop();
    abandonActive();
}

void SimulationController::abandonActive() {
    if (!m_active) return;
    m_active->stop.request_stop();
    ++m_generation;  // whatever it returns is now stale
    m_active.reset();
    m_poll.stop();
    if (m_longRunShown) {
        m_longRunShown = false;
        emit longRun(false);
    }
}

void SimulationController::start(const Scenario& scenario) {
    if (m_active) m_active->stop.request_stop();
    auto run = std::make_shared<Run>();
    run->generation = ++m_generation;
    run->clock.start();
    run->scenario = std::make_shared<const Scenario>(scenario);
    m_active = run;
    ++m_runsStarted;
    emit runStarted(run->generation);
    if (!m_poll.isActive()) m_poll.start();
    // The worker owns a copy of the scenario (traces are shared, immutable).
    RunOptions options;
    options.partialResultsEveryS = m_partialEveryS;
    options.onPartialResults = [this, generation =
                                          run->generation](std::shared_ptr<const Results> results) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, results] {
                if (generation == m_generation && m_active)
                    emit partialResultsReady(results, generation);
            },
            Qt::QueuedConnection);
    };
    m_pool.start([this, run, scenario, options] {
        std::shared_ptr<const Results> results;
        std::shared_ptr<const Replications> replications;
        QString error;
        const auto progress = [run](double f) {
            run->progress.store(f, std::memory_order_relaxed);
        };
        try {
            if (scenario.replications > 1) {
                // Every seed on the machine's cores; the window shows the first run, the
                // KPIs get their intervals (no partial snapshots: runs end in any order).
                ReplicationOptions replicated;
                replicated.replications = scenario.replications;
                replicated.run = options;
                replicated.run.onPartialResults = nullptr;
                auto all = std::make_shared<Replications>(
                    runReplications(scenario, replicated, progress, run->stop.get_token()));
                if (!all->stopped) {
                    results = all->first;
                    replications = std::move(all);
                }
            } else {
                results = std::make_shared<const Results>(
                    simulate(scenario, options, progress, run->stop.get_token()));
            }
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        const quint64 generation = run->generation;
        // Queued: runs on the GUI thread; dropped by Qt if the controller is gone.
        QMetaObject::invokeMethod(
            this,
            [this, generation, results, replications, error] {
                finished(generation, results, replications, error);
            },
            Qt::QueuedConnection);
    });
}

void SimulationController::finished(quint64 generation, std::shared_ptr<const Results> results,
                                    std::shared_ptr<const Replications> replications,
                                    QString error) {
    if (generation != m_generation) return;  // stale: a newer run was started or it was cancelled
    const std::shared_ptr<const Scenario> scenario = m_active ? m_active->scenario : nullptr;
    m_active.reset();
    m_poll.stop();
    if (m_longRunShown) {
        m_longRunShown = false;
        emit longRun(false);
    }
    if (!error.isEmpty()) {
        emit runFailed(error, generation);
        return;
    }
    if (!results || results->stopped) return;
    m_latest = results;
    m_latestScenario = scenario;
    emit replicationsReady(replications, generation);
    emit resultsReady(results, generation);
}

void SimulationController::poll() {
    if (!m_active) return;
    if (!m_longRunShown && m_active->clock.elapsed() >= m_longRunMs) {
        m_longRunShown = true;
        emit longRun(true);
    }
    if (m_longRunShown) emit progress(m_active->progress.load(std::memory_order_relaxed));
}

}  // namespace gpuplan::app
