// The cost-versus-reserved curve in the background: sweepReservedLevels on a pool
// thread, started ~300 ms after the last change (a burst of edits sweeps once); a running
// sweep is cancelled at once when the scenario changes, progress polled ten times a second. A
// change that only moves the mix's reserved count sweeps nothing: the sweep sets the mix itself.
#pragma once

#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "gpuplan/economics/buying_mix_sweep.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "shell/background_job.hpp"

namespace gpuplan::app {

class MixSweepRunner : public QObject {
    Q_OBJECT
public:
    /// `catalog` and `budget` check each swept scenario as the reader would (a pricing without
    /// an on-demand price for some model is refused with its reason, not swept).
    MixSweepRunner(Catalog catalog, RunBudget budget, QObject* parent = nullptr);
    /// Asks a running sweep to stop and waits for it (each level stops within a few events).
    ~MixSweepRunner() override;

    static constexpr int kDebounceMs = 300;
    static constexpr int kLevels = 21;
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }

    /// Sweep this scenario soon, with `spotNodes` spot nodes at every level.
    /// Nothing happens when the sweep would be the one running or shown already.
    void request(const Scenario& scenario, int spotNodes);
    /// Drops any sweep and its result (e.g. the scenario has no prices).
    void clear();
    /// Stops a sweep waiting or running and keeps the last finished one. Returns whether one
    /// was stopped (then the shown curve is not of the scenario now).
    bool stop();
    bool running() const { return m_job.isRunning(); }
    /// A request waits out the debounce: a sweep is still to start.
    bool queued() const { return m_pending.has_value(); }
    /// The last finished sweep (empty before any).
    const std::optional<MixSweep>& sweep() const { return m_sweep; }

signals:
    void started();
    void progress(double fraction);
    void finished();
    /// Why the scenario cannot be swept (its refusal in a planner's words, or the engine's).
    void failed(const QString& message);

private:
    struct Outcome {
        std::shared_ptr<MixSweep> sweep;
        QString error;
    };
    struct Input {
        Scenario scenario;  ///< without its mix (the sweep sets it)
        int spotNodes = 0;
        bool operator==(const Input&) const = default;
    };
    void start();
    void done(const Outcome& out);

    Catalog m_catalog;
    RunBudget m_budget;
    QTimer m_debounce;
    BackgroundJob<Outcome> m_job;
    std::optional<Input> m_pending;  ///< waiting for the debounce
    std::optional<Input> m_current;  ///< running or shown
    std::optional<MixSweep> m_sweep;
};

}  // namespace gpuplan::app
