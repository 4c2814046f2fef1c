#include "mix_sweep_runner.hpp"

#include <QThread>
#include <utility>

#include "gpuplan/model/topology.hpp"
#include "shell/refusal_text.hpp"

namespace gpuplan::app {

MixSweepRunner::MixSweepRunner(Catalog catalog, RunBudget budget, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_budget(budget) {
    m_job.setMaxConcurrent(1);  // one sweep at a time; the sweep runs its levels on threads
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &MixSweepRunner::start);
    m_job.onProgress([this](double f) { emit progress(f); });
    m_job.onFinished([this](Outcome out, bool) { done(out); });
}

MixSweepRunner::~MixSweepRunner() = default;

void MixSweepRunner::request(const Scenario& scenario, int spotNodes) {
    Input input{scenario, spotNodes};
    input.scenario.buyingMix.reset();
    if (m_pending && *m_pending == input) return;
    if (!m_pending && m_current && *m_current == input) return;  // running or shown already
    m_job.drop();  // its curve is of a scenario that is gone: no use finishing it
    m_pending = std::move(input);
    m_debounce.start();
}

void MixSweepRunner::clear() {
    m_debounce.stop();
    m_pending.reset();
    m_job.drop();
    m_current.reset();
    m_sweep.reset();
}

bool MixSweepRunner::stop() {
    const bool stopped = m_pending.has_value() || m_job.isRunning();
    m_debounce.stop();
    m_pending.reset();
    m_job.drop();
    if (stopped) m_current.reset();  // the next request starts again
    return stopped;
}

void MixSweepRunner::start() {
    if (!m_pending) return;
    m_current = std::move(m_pending);
    m_pending.reset();
    m_sweep.reset();
    m_job.start([input = *m_current, catalog = m_catalog,
                 budget = m_budget](const JobControl& job) {
        Outcome out{std::make_shared<MixSweep>(), {}};
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
            options.stop = job.stopToken();
            options.progress = job.progressCallback();
            *out.sweep = sweepReservedLevels(input.scenario, options);
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
    emit started();
}

void MixSweepRunner::done(const Outcome& out) {
    if (!out.error.isEmpty()) {
        emit failed(out.error);
        return;
    }
    if (out.sweep->stopped) return;
    m_sweep = std::move(*out.sweep);
    emit progress(1);
    emit finished();
}

}  // namespace gpuplan::app
