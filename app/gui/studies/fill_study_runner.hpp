// Runs the FGD paper's fill study for one pod list in the background: one task per policy ×
// seed on a thread pool, progress polled ten times a second, cancel at any time. Each task
// reduces its curve to the paper's discrete reading (fillReading at every whole arrived %)
// before handing it back, so the GUI thread only averages a few hundred numbers per run.
#pragma once

#include <QObject>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "gpuplan/fragmentation/fill.hpp"
#include "shell/background_job.hpp"

namespace gpuplan::app {

struct FillStudyRequest {
    std::filesystem::path nodesFile;  ///< openb node list
    std::filesystem::path podsFile;   ///< openb pod list
    std::vector<FillPolicy> policies;
    std::uint64_t firstSeed = 42;
    int seeds = 10;  ///< seeds firstSeed … firstSeed + seeds − 1
    double tune = 1.3;
};

/// One policy's runs, once every seed is done.
struct FillStudyPolicy {
    FillPolicy policy = FillPolicy::Fgd;
    std::vector<double> allocPctAt100;  ///< per seed, as runFill reports it
    /// Mean over the seeds of the allocation % read at each whole arrived % (the paper's
    /// reading, fillReading); NaN where no seed has a reading.
    std::vector<double> meanAllocPctByArrivedPct;
    double meanAllocPctAt100() const;
};

class FillStudyRunner : public QObject {
    Q_OBJECT
public:
    explicit FillStudyRunner(QObject* parent = nullptr);
    /// Asks running tasks to stop and waits for them (each stops within a few arrivals).
    ~FillStudyRunner() override;

    /// Reads both lists (throws InputError or std::invalid_argument naming the file and line
    /// when one is malformed) and starts the runs; a study still running is cancelled first.
    void start(const FillStudyRequest& request);
    void cancel();
    bool running() const { return m_job.isRunning(); }
    /// Per requested policy, in request order; complete after finished().
    const std::vector<FillStudyPolicy>& results() const { return m_results; }

signals:
    void progress(double fraction);
    void finished();
    void cancelled();
    /// A run failed (e.g. resampling past its bound); the study stops.
    void failed(const QString& message);

private:
    /// One run (a policy and a seed), reduced on its worker thread.
    struct TaskOutcome {
        double allocPctAt100 = 0;
        std::vector<double> readings;  ///< by whole arrived %
    };
    struct Outcome {
        std::vector<TaskOutcome> tasks;  ///< policy-major, then seed
        QString error;
    };
    void finish(const Outcome& out, bool stopped);

    BackgroundJob<Outcome> m_job;
    FillStudyRequest m_request;
    std::vector<FillStudyPolicy> m_results;
};

}  // namespace gpuplan::app
