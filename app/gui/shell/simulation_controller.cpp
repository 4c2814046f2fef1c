#include "simulation_controller.hpp"

#include <QMetaObject>

#include "gpuplan/sim/simulate.hpp"

namespace gpuplan::app {

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
    // Two workers: a stopped run may still be unwinding while the next one starts.
    m_run.setMaxConcurrent(2);
    m_run.onProgress([this](double f) { showProgress(f); });
    m_run.onFinished([this](Outcome out, bool) { finished(out); });
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        if (!m_pending) return;  // quiet spell over, nothing merged
        Scenario s = std::move(*m_pending);
        m_pending.reset();
        start(s);
        m_debounce.start();  // edits right after the trailing run merge again
    });
}

SimulationController::~SimulationController() = default;  // m_run stops the run and waits

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
    if (!m_run.isRunning()) return;
    m_run.drop();
    ++m_generation;  // its partial results still queued are stale too
    m_runScenario.reset();
    hideLongRun();
}

void SimulationController::start(const Scenario& scenario) {
    const quint64 generation = ++m_generation;
    m_runClock.start();
    m_runScenario = std::make_shared<const Scenario>(scenario);
    ++m_runsStarted;
    emit runStarted(generation);
    // The worker owns a copy of the scenario (traces are shared, immutable).
    RunOptions options;
    options.partialResultsEveryS = m_partialEveryS;
    options.onPartialResults = [this, generation](std::shared_ptr<const Results> results) {
        // Queued to the GUI thread; m_run's destructor waits for the worker, so `this` lives.
        QMetaObject::invokeMethod(
            this,
            [this, generation, results] {
                if (generation == m_generation && m_run.isRunning())
                    emit partialResultsReady(results, generation);
            },
            Qt::QueuedConnection);
    };
    m_run.start([scenario = m_runScenario, options](const JobControl& job) {
        const Scenario& s = *scenario;
        Outcome out;
        try {
            if (s.replications > 1) {
                // Every seed on the machine's cores; the window shows the first run, the
                // KPIs get their intervals (no partial snapshots: runs end in any order).
                ReplicationOptions replicated;
                replicated.replications = s.replications;
                replicated.run = options;
                replicated.run.onPartialResults = nullptr;
                auto all = std::make_shared<Replications>(
                    runReplications(s, replicated, job.progressCallback(), job.stopToken()));
                if (!all->stopped) {
                    out.results = all->first;
                    out.replications = std::move(all);
                }
            } else {
                out.results = std::make_shared<const Results>(
                    simulate(s, options, job.progressCallback(), job.stopToken()));
            }
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
}

void SimulationController::finished(const Outcome& out) {
    // Only the latest run's outcome arrives here: a newer start or a cancel drops the others.
    const std::shared_ptr<const Scenario> scenario = std::move(m_runScenario);
    hideLongRun();
    if (!out.error.isEmpty()) {
        emit runFailed(out.error, m_generation);
        return;
    }
    if (!out.results || out.results->stopped) return;
    m_latest = out.results;
    m_latestScenario = scenario;
    emit replicationsReady(out.replications, m_generation);
    emit resultsReady(out.results, m_generation);
}

void SimulationController::showProgress(double fraction) {
    if (!m_longRunShown && m_runClock.elapsed() >= m_longRunMs) {
        m_longRunShown = true;
        emit longRun(true);
    }
    if (m_longRunShown) emit progress(fraction);
}

void SimulationController::hideLongRun() {
    if (!m_longRunShown) return;
    m_longRunShown = false;
    emit longRun(false);
}

}  // namespace gpuplan::app
