#include "fill_study_runner.hpp"

#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <stop_token>

#include "gpuplan/core/parallel_runs.hpp"
#include "gpuplan/model/openb.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

double FillStudyPolicy::meanAllocPctAt100() const {
    if (allocPctAt100.empty()) return std::numeric_limits<double>::quiet_NaN();
    return std::accumulate(allocPctAt100.begin(), allocPctAt100.end(), 0.0) /
           static_cast<double>(allocPctAt100.size());
}

FillStudyRunner::FillStudyRunner(QObject* parent) : QObject(parent) {
    m_job.onProgress([this](double f) { emit progress(f); });
    m_job.onFinished([this](Outcome out, bool stopped) { finish(out, stopped); });
}

FillStudyRunner::~FillStudyRunner() = default;  // each run stops within a few arrivals

void FillStudyRunner::start(const FillStudyRequest& request) {
    if (running()) cancel();
    // Read here, before any run: a malformed list is refused at once with its file and line.
    auto nodes = std::make_shared<const std::vector<OpenbNode>>(readOpenbNodes(request.nodesFile));
    try {
        (void)openbFleet(*nodes);  // no GPU node, or one without CPU or memory
    } catch (const std::invalid_argument& e) {
        throw InputError(request.nodesFile.string(), "", e.what());
    }
    auto pods = std::make_shared<const std::vector<OpenbPod>>(readOpenbPods(request.podsFile));
    if (request.policies.empty() || request.seeds < 1)
        throw std::invalid_argument("choose at least one policy and one seed");
    m_request = request;
    m_results.clear();
    m_job.start([request, nodes, pods](const JobControl& job) {
        const std::size_t tasks = request.policies.size() * static_cast<std::size_t>(request.seeds);
        Outcome out;
        out.tasks.resize(tasks);
        // The study's progress is the mean of its runs'.
        auto taskProgress = std::make_unique<std::atomic<double>[]>(tasks);
        std::atomic<double> progressSum{0};
        try {
            runInParallel(
                tasks, 0,
                [&](std::size_t task, std::stop_token stop) {
                    FillSpec spec;
                    spec.policy = request.policies[task / static_cast<std::size_t>(request.seeds)];
                    spec.seed = request.firstSeed + task % static_cast<std::size_t>(request.seeds);
                    spec.tune = request.tune;
                    // Copied per run (a few MB at most) so runFill owns its input.
                    spec.nodes = *nodes;
                    spec.pods = *pods;
                    spec.stop = stop;
                    spec.progress = [&, task](double f) {
                        progressSum.fetch_add(f - taskProgress[task].exchange(f));
                        job.setProgress(progressSum.load() / static_cast<double>(tasks));
                    };
                    const FillResult r = runFill(spec);
                    if (r.stopped) return false;
                    TaskOutcome& o = out.tasks[task];
                    o.allocPctAt100 = r.allocPctAt100;
                    // The paper's reading at every whole arrived %, up to the last arrival.
                    const int lastPct =
                        r.curve.empty() ? 0
                                        : static_cast<int>(std::floor(r.curve.back().arrivedPct));
                    for (int x = 0; x <= lastPct; ++x)
                        o.readings.push_back(fillReading(r.curve, x, &FillRow::allocPct));
                    spec.progress(1.0);
                    return true;
                },
                job.stopToken());
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    });
    emit progress(0);
}

void FillStudyRunner::cancel() {
    if (!running()) return;
    m_job.drop();  // whatever the stopped runs still return is not shown
    emit cancelled();
}

void FillStudyRunner::finish(const Outcome& out, bool stopped) {
    if (!out.error.isEmpty()) {
        emit cancelled();  // a failed run stops the study
        emit failed(out.error);
        return;
    }
    if (stopped) return;
    const std::size_t seeds = static_cast<std::size_t>(m_request.seeds);
    for (std::size_t p = 0; p < m_request.policies.size(); ++p) {
        FillStudyPolicy r;
        r.policy = m_request.policies[p];
        std::vector<double> sum, count;
        for (std::size_t s = 0; s < seeds; ++s) {
            const TaskOutcome& o = out.tasks[p * seeds + s];
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
    emit progress(1);
    emit finished();
}

}  // namespace gpuplan::app
