#include "fill_study_runner.hpp"

#include <QMetaObject>
#include <QPointer>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <stop_token>

#include "gpuplan/model/openb.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

double FillStudyPolicy::meanAllocPctAt100() const {
    if (allocPctAt100.empty()) return std::numeric_limits<double>::quiet_NaN();
    return std::accumulate(allocPctAt100.begin(), allocPctAt100.end(), 0.0) /
           static_cast<double>(allocPctAt100.size());
}

/// What the tasks of one study share: the lists (read once), the stop request and each task's
/// progress. Owned jointly, so a task outliving its study (cancelled, then replaced) is safe.
struct FillStudyRunner::Shared {
    std::vector<OpenbNode> nodes;
    std::vector<OpenbPod> pods;
    std::stop_source stop;
    std::unique_ptr<std::atomic<double>[]> taskProgress;
    int tasks = 0;
};

FillStudyRunner::FillStudyRunner(QObject* parent) : QObject(parent) {
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, &FillStudyRunner::pollProgress);
}

FillStudyRunner::~FillStudyRunner() {
    if (m_shared) m_shared->stop.request_stop();
    m_pool.waitForDone();
}

void FillStudyRunner::start(const FillStudyRequest& request) {
    if (m_running) cancel();
    auto shared = std::make_shared<Shared>();
    // Read here, before any task: a malformed list is refused at once with its file and line.
    shared->nodes = readOpenbNodes(request.nodesFile);
    try {
        (void)openbFleet(shared->nodes);  // no GPU node, or one without CPU or memory
    } catch (const std::invalid_argument& e) {
        throw InputError(request.nodesFile.string(), "", e.what());
    }
    shared->pods = readOpenbPods(request.podsFile);
    if (request.policies.empty() || request.seeds < 1)
        throw std::invalid_argument("choose at least one policy and one seed");
    shared->tasks = static_cast<int>(request.policies.size()) * request.seeds;
    shared->taskProgress = std::make_unique<std::atomic<double>[]>(shared->tasks);

    m_shared = shared;
    m_request = request;
    m_outcomes.assign(static_cast<std::size_t>(shared->tasks), Outcome{});
    m_done = 0;
    m_results.clear();
    m_running = true;
    const std::uint64_t generation = ++m_generation;
    QPointer<FillStudyRunner> self(this);
    for (int task = 0; task < shared->tasks; ++task) {
        FillSpec spec;
        spec.policy = request.policies[static_cast<std::size_t>(task / request.seeds)];
        spec.seed = request.firstSeed + static_cast<std::uint64_t>(task % request.seeds);
        spec.tune = request.tune;
        m_pool.start([shared, spec, task, generation, self]() mutable {
            // The lists are copied per task (a few MB at most) so runFill owns its input.
            spec.nodes = shared->nodes;
            spec.pods = shared->pods;
            spec.stop = shared->stop.get_token();
            spec.progress = [&progress = shared->taskProgress[task]](double f) {
                progress.store(f, std::memory_order_relaxed);
            };
            Outcome outcome;
            try {
                const FillResult r = runFill(spec);
                if (r.stopped) return;
                outcome.done = true;
                outcome.allocPctAt100 = r.allocPctAt100;
                // The paper's reading at every whole arrived %, up to the last arrival.
                const int lastPct =
                    r.curve.empty() ? 0 : static_cast<int>(std::floor(r.curve.back().arrivedPct));
                for (int x = 0; x <= lastPct; ++x)
                    outcome.readings.push_back(fillReading(r.curve, x, &FillRow::allocPct));
            } catch (const std::exception& e) {
                const QString message = QString::fromStdString(e.what());
                QMetaObject::invokeMethod(
                    self, [self, generation, message] { self->taskFailed(generation, message); },
                    Qt::QueuedConnection);
                return;
            }
            shared->taskProgress[task].store(1.0, std::memory_order_relaxed);
            auto result = std::make_shared<Outcome>(std::move(outcome));
            QMetaObject::invokeMethod(
                self,
                [self, generation, task, result] {
                    self->taskDone(generation, task, std::move(*result));
                },
                Qt::QueuedConnection);
        });
    }
    m_progressTimer.start();
    emit progress(0);
}

void FillStudyRunner::cancel() {
    if (!m_running) return;
    m_shared->stop.request_stop();
    ++m_generation;  // whatever the stopped tasks still post is dropped
    m_running = false;
    m_progressTimer.stop();
    emit cancelled();
}

void FillStudyRunner::taskDone(std::uint64_t generation, int task, Outcome outcome) {
    if (generation != m_generation || !m_running) return;
    m_outcomes[static_cast<std::size_t>(task)] = std::move(outcome);
    if (++m_done == static_cast<int>(m_outcomes.size())) finish();
}

void FillStudyRunner::taskFailed(std::uint64_t generation, const QString& message) {
    if (generation != m_generation || !m_running) return;
    cancel();
    emit failed(message);
}

void FillStudyRunner::pollProgress() {
    if (!m_running) return;
    double sum = 0;
    for (int i = 0; i < m_shared->tasks; ++i)
        sum += m_shared->taskProgress[i].load(std::memory_order_relaxed);
    emit progress(sum / m_shared->tasks);
}

void FillStudyRunner::finish() {
    m_running = false;
    m_progressTimer.stop();
    const int seeds = m_request.seeds;
    for (std::size_t p = 0; p < m_request.policies.size(); ++p) {
        FillStudyPolicy r;
        r.policy = m_request.policies[p];
        std::vector<double> sum, count;
        for (int s = 0; s < seeds; ++s) {
            const Outcome& o = m_outcomes[p * static_cast<std::size_t>(seeds) + s];
            r.allocPctAt100.push_back(o.allocPctAt100);
            if (o.readings.size() > sum.size()) {
                sum.resize(o.readings.size(), 0);
                count.resize(o.readings.size(), 0);
            }
            for (std::size_t x = 0; x < o.readings.size(); ++x)
                if (std::isfinite(o.readings[x])) {
                    sum[x] += o.readings[x];
                    count[x] += 1;
                }
        }
        for (std::size_t x = 0; x < sum.size(); ++x)
            r.meanAllocPctByArrivedPct.push_back(
                count[x] > 0 ? sum[x] / count[x] : std::numeric_limits<double>::quiet_NaN());
        m_results.push_back(std::move(r));
    }
    m_outcomes.clear();
    emit progress(1);
    emit finished();
}

}  // namespace gpuplan::app
