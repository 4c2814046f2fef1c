#include "mix_sweep_runner.hpp"

#include <QMetaObject>
#include <QPointer>
#include <QThread>
#include <atomic>
#include <stop_token>
#include <utility>

#include "gpuplan/model/topology.hpp"
#include "shell/refusal_text.hpp"

namespace gpuplan::app {

/// What a sweep shares with the GUI thread: its stop request and its progress. Owned jointly,
/// so a sweep outliving its request (cancelled, then replaced) is safe.
struct MixSweepRunner::Shared {
    std::stop_source stop;
    std::atomic<double> progress{0};
};

MixSweepRunner::MixSweepRunner(Catalog catalog, RunBudget budget, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_budget(budget) {
    m_pool.setMaxThreadCount(1);  // one sweep at a time; the sweep runs its levels on threads
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &MixSweepRunner::start);
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        if (m_running && m_shared) emit progress(m_shared->progress.load());
    });
}

MixSweepRunner::~MixSweepRunner() {
    if (m_shared) m_shared->stop.request_stop();
    m_pool.waitForDone();
}

void MixSweepRunner::request(const Scenario& scenario, int spotNodes) {
    Input input{scenario, spotNodes};
    input.scenario.buyingMix.reset();
    if (m_pending && *m_pending == input) return;
    if (!m_pending && m_current && *m_current == input) return;  // running or shown already
    cancelRunning();  // its curve is of a scenario that is gone: no use finishing it
    m_pending = std::move(input);
    m_debounce.start();
}

void MixSweepRunner::clear() {
    m_debounce.stop();
    m_pending.reset();
    cancelRunning();
    m_current.reset();
    m_sweep.reset();
}

bool MixSweepRunner::stop() {
    const bool stopped = m_pending.has_value() || m_running;
    m_debounce.stop();
    m_pending.reset();
    cancelRunning();
    if (stopped) m_current.reset();  // the next request starts again
    return stopped;
}

void MixSweepRunner::cancelRunning() {
    if (!m_running) return;
    m_shared->stop.request_stop();
    ++m_generation;  // whatever the stopped sweep still posts is dropped
    m_running = false;
    m_progressTimer.stop();
}

void MixSweepRunner::start() {
    if (!m_pending) return;
    cancelRunning();
    m_current = std::move(m_pending);
    m_pending.reset();
    m_sweep.reset();
    auto shared = std::make_shared<Shared>();
    m_shared = shared;
    m_running = true;
    const std::uint64_t generation = ++m_generation;
    QPointer<MixSweepRunner> self(this);
    m_pool.start([shared, generation, self, input = *m_current, catalog = m_catalog,
                  budget = m_budget] {
        auto sweep = std::make_shared<MixSweep>();
        QString error;
        try {
            // The extremes the sweep runs (all on demand, all reserved, all spot) checked as
            // the reader checks a file: a price the book lacks is refused with its reason.
            if (input.scenario.pricing && !input.scenario.nodeList) {  // else the sweep says why
                const OnDemandDef onDemand = input.scenario.onDemand.value_or(kDefaultMixOnDemand);
                const int nodes = static_cast<int>(Fleet::build(input.scenario).nodes.size());
                for (const auto& [reserved, spot] :
                     {std::pair{0, 0}, std::pair{nodes, 0}, std::pair{0, nodes}}) {
                    if (spot > 0 && input.spotNodes <= 0) continue;  // no spot in this sweep
                    const Scenario s = scenarioAtLevel(input.scenario, onDemand, reserved, spot);
                    try {
                        validateScenario(s, catalog, budget);
                    } catch (const InputError& e) {
                        throw std::invalid_argument(
                            refusalText(s, e.place(), e.message()).toStdString());
                    }
                }
            }
            MixSweepOptions options;
            options.levels = kLevels;
            options.spotNodes = input.spotNodes;
            options.threads = static_cast<unsigned>(std::max(1, QThread::idealThreadCount()));
            options.stop = shared->stop.get_token();
            options.progress = [&shared](double f) { shared->progress.store(f); };
            *sweep = sweepReservedLevels(input.scenario, options);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            self, [self, generation, sweep, error] { self->done(generation, sweep, error); },
            Qt::QueuedConnection);
    });
    m_progressTimer.start();
    emit started();
}

void MixSweepRunner::done(std::uint64_t generation, std::shared_ptr<MixSweep> sweep,
                          QString error) {
    if (generation != m_generation || !m_running) return;
    m_running = false;
    m_progressTimer.stop();
    if (!error.isEmpty()) {
        emit failed(error);
        return;
    }
    if (sweep->stopped) return;
    m_sweep = std::move(*sweep);
    emit progress(1);
    emit finished();
}

}  // namespace gpuplan::app
