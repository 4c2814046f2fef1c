// Runs the engine off the GUI thread, latest request wins.
//
// An edit calls request(scenario). The first edit after a quiet spell runs at once (so a
// single edit feels instant); edits that follow within the debounce window (150 ms) are
// merged into one trailing run when the window closes. Each run gets a copy of the scenario
// and a generation number; starting a run asks the previous one to stop; results of a stale
// generation are dropped and never reach the widgets. The engine never calls into the UI:
// results come back as an immutable snapshot through a queued call.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"
#include "shell/background_job.hpp"

namespace gpuplan::app {

class SimulationController : public QObject {
    Q_OBJECT
public:
    explicit SimulationController(QObject* parent = nullptr);
    ~SimulationController() override;

    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    /// Runs taking longer than this show progress (signal longRun).
    void setLongRunMs(int ms) { m_longRunMs = ms; }
    /// A long run hands over its results so far this often (signal partialResultsReady).
    void setPartialEveryS(double seconds) { m_partialEveryS = seconds; }

    /// Something changed: simulate this scenario soon (see the class comment).
    void request(const Scenario& scenario);
    /// Simulate now, skipping the debounce.
    void runNow(const Scenario& scenario);
    /// Stops the current run; its results are dropped.
    void cancel();

    bool isRunning() const { return m_run.isRunning(); }
    quint64 generation() const { return m_generation; }
    quint64 runsStarted() const { return m_runsStarted; }
    std::shared_ptr<const Results> latest() const { return m_latest; }
    /// The scenario latest() was run from (an edit may have changed the document since).
    std::shared_ptr<const Scenario> latestScenario() const { return m_latestScenario; }
    void clearLatest() { m_latest.reset(); }

signals:
    void runStarted(quint64 generation);
    /// A run has gone on past the long-run threshold; progress follows until it ends.
    void longRun(bool active);
    void progress(double fraction);
    void resultsReady(std::shared_ptr<const gpuplan::Results> results, quint64 generation);
    /// Just before resultsReady when the scenario asks for replications (its results are the
    /// first replication's); null when it does not.
    void replicationsReady(std::shared_ptr<const gpuplan::Replications> replications,
                           quint64 generation);
    /// The current run's results so far (Results::partial), while it goes on.
    void partialResultsReady(std::shared_ptr<const gpuplan::Results> results, quint64 generation);
    void runFailed(const QString& message, quint64 generation);

private:
    struct Outcome {
        std::shared_ptr<const Results> results;
        std::shared_ptr<const Replications> replications;
        QString error;
    };

    void start(const Scenario& scenario);
    /// The running run is out of date: stop it and drop whatever it returns.
    void abandonActive();
    void finished(const Outcome& out);
    void showProgress(double fraction);
    void hideLongRun();

    QTimer m_debounce;
    BackgroundJob<Outcome> m_run;
    QElapsedTimer m_runClock;                       ///< since the running run started
    std::shared_ptr<const Scenario> m_runScenario;  ///< what the running run runs
    std::optional<Scenario> m_pending;
    std::shared_ptr<const Results> m_latest;
    std::shared_ptr<const Scenario> m_latestScenario;
    quint64 m_generation = 0;
    quint64 m_runsStarted = 0;
    int m_longRunMs = 500;
    double m_partialEveryS = 1.0;
    bool m_longRunShown = false;
};

}  // namespace gpuplan::app
