// One piece of work off the GUI thread, the way every long task of the window runs: the work
// gets a stop token and a place to say how far it got; the GUI thread sees that progress on a
// timer and gets the outcome through its event loop, only while the outcome is still wanted.
//
// Starting again while work runs stops the old work and drops its outcome (latest wins), as
// does drop(); cancel() asks the work to stop and still delivers what it returns, marked
// stopped. The destructor stops the work and waits for it, since work may hold references to
// what its owner holds (the catalog, a document's options).
#pragma once

#include <QFutureWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <functional>
#include <memory>
#include <stop_token>
#include <utility>

namespace gpuplan::app {

/// What the work sees of its job: whether to stop, and where to report progress (0 to 1).
/// Both are safe to use from the worker thread.
class JobControl {
public:
    std::stop_token stopToken() const { return m_state->stop.get_token(); }
    bool stopRequested() const { return m_state->stop.stop_requested(); }
    void setProgress(double fraction) const {
        m_state->fraction.store(fraction, std::memory_order_relaxed);
    }
    /// For engine functions that take a progress callback.
    std::function<void(double)> progressCallback() const {
        return [control = *this](double f) { control.setProgress(f); };
    }

private:
    template <class>
    friend class BackgroundJob;
    struct State {
        std::stop_source stop;
        std::atomic<double> fraction{0};
    };
    explicit JobControl(std::shared_ptr<State> state) : m_state(std::move(state)) {}
    std::shared_ptr<State> m_state;
};

template <class Outcome>
class BackgroundJob {
public:
    using Work = std::function<Outcome(const JobControl&)>;
    /// Called on the GUI thread with the outcome of the latest work; `stopped` when cancel()
    /// asked it to stop.
    using OnFinished = std::function<void(Outcome outcome, bool stopped)>;
    using OnProgress = std::function<void(double fraction)>;

    explicit BackgroundJob(int pollMs = 100) {
        m_poll.setInterval(pollMs);
        QObject::connect(&m_poll, &QTimer::timeout, &m_watcher, [this] {
            if (m_state && m_onProgress) m_onProgress(m_state->fraction.load());
        });
        QObject::connect(&m_watcher, &QFutureWatcher<Tagged>::finished, &m_watcher,
                         [this] { finished(); });
    }
    ~BackgroundJob() {
        drop();
        m_pool.waitForDone();  // stopped work returns within its next stop check
    }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// How many works may run at once (a dropped one may still be stopping); 1 makes the next
    /// wait for it, for work that itself uses every core.
    void setMaxConcurrent(int works) { m_pool.setMaxThreadCount(works); }
    void onFinished(OnFinished f) { m_onFinished = std::move(f); }
    void onProgress(OnProgress f) { m_onProgress = std::move(f); }

    /// Runs `work` on a worker thread. Work still running is stopped and its outcome dropped.
    void start(Work work) {
        drop();
        auto state = std::make_shared<JobControl::State>();
        m_state = state;
        m_poll.start();
        m_watcher.setFuture(QtConcurrent::run(
            &m_pool,
            [work = std::move(work), control = JobControl(state), generation = m_generation] {
                return Tagged{generation, work(control)};
            }));
    }
    /// Asks the work to stop; what it returns still arrives, with `stopped` set.
    void cancel() {
        if (m_state) m_state->stop.request_stop();
    }
    /// Stops the work and drops its outcome: onFinished is not called for it.
    void drop() {
        if (!m_state) return;
        m_state->stop.request_stop();
        m_state.reset();
        m_poll.stop();
        ++m_generation;  // whatever the dropped work returns is not the latest
    }
    bool isRunning() const { return m_state != nullptr; }
    double progress() const { return m_state ? m_state->fraction.load() : 0.0; }

private:
    /// An outcome and the generation of the work that made it.
    struct Tagged {
        quint64 generation = 0;
        Outcome outcome;
    };

    void finished() {
        Tagged tagged = m_watcher.result();
        if (!m_state || tagged.generation != m_generation) return;  // dropped
        const bool stopped = m_state->stop.stop_requested();
        m_state.reset();
        m_poll.stop();
        if (m_onFinished) m_onFinished(std::move(tagged.outcome), stopped);
    }

    QThreadPool m_pool;
    QFutureWatcher<Tagged> m_watcher;
    QTimer m_poll;
    std::shared_ptr<JobControl::State> m_state;  ///< the latest work's; null when none runs
    quint64 m_generation = 0;                    ///< counts drops
    OnFinished m_onFinished;
    OnProgress m_onProgress;
};

}  // namespace gpuplan::app
