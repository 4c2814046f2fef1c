#include "metrics_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Nearest-rank percentile of an unsorted sample (reorders it).
double percentile(std::vector<double>& values, double q) {
    if (values.empty()) return kNaN;
    const std::size_t rank =
        static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
    const std::size_t index = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                     values.end());
    return values[index];
}

double ratio(double num, double den) {
    return den > 0 ? num / den : 0.0;
}

}  // namespace

MetricsRecorder::MetricsRecorder(Results& results, double horizonS, double intervalS)
    : m_results(results), m_horizonS(horizonS), m_intervalS(intervalS) {
    for (std::size_t k = 0; static_cast<double>(k) * intervalS < horizonS; ++k)
        m_sampleTimes.push_back(static_cast<double>(k) * intervalS);
    static const char* names[kSeriesCount][2] = {
        {"allocation", "fraction"},
        {"occupancy", "fraction"},
        {"mfu", "fraction"},
        {"provisioned_gpus", "gpus"},
        {"allocated_gpus", "gpus"},
        {"stranded_gpus", "gpus"},
        {"queue_length", "jobs"},
        {"running_jobs", "jobs"},
        {"pending_gpus{reservation}", "gpus"},
        {"pending_gpus{provisioning}", "gpus"},
        {"pending_gpus{scheduling}", "gpus"},
        {"pending_gpus{workload}", "gpus"},
        {"wait_s_p50", "s"},
        {"wait_s_p95", "s"},
    };
    results.sampleTimesS = m_sampleTimes;
    results.series.resize(kSeriesCount);
    for (int c = 0; c < kSeriesCount; ++c) {
        results.series[c].name = names[c][0];
        results.series[c].unit = names[c][1];
        results.series[c].values.assign(m_sampleTimes.size(), 0.0);
    }
}

void MetricsRecorder::advanceTo(double timeS, const Rates& r) {
    timeS = std::min(timeS, m_horizonS);
    while (m_lastS < timeS) {
        const double boundary =
            std::min(m_horizonS, static_cast<double>(m_openInterval + 1) * m_intervalS);
        const double until = std::min(timeS, boundary);
        const double dt = until - m_lastS;
        for (Integrals* acc : {&m_interval, &m_total}) {
            acc->allocated += r.allocatedGpus * dt;
            acc->provisioned += r.provisionedGpus * dt;
            acc->occupied += r.occupiedGpus * dt;
            acc->achieved += r.achievedTflops * dt;
            acc->peak += r.provisionedPeakTflops * dt;
            acc->useful += r.usefulGpus * dt;
            acc->queued += r.queuedJobs * dt;
        }
        m_lastS = until;
        if (until == boundary && boundary < m_horizonS) closeInterval(m_openInterval++);
    }
}

void MetricsRecorder::closeInterval(std::size_t k) {
    if (k >= m_sampleTimes.size()) return;
    auto& s = m_results.series;
    s[kAllocation].values[k] = ratio(m_interval.allocated, m_interval.provisioned);
    s[kOccupancy].values[k] = ratio(m_interval.occupied, m_interval.provisioned);
    s[kMfu].values[k] = ratio(m_interval.achieved, m_interval.peak);
    s[kWaitP50].values[k] = percentile(m_intervalWaits, 0.50);
    s[kWaitP95].values[k] = percentile(m_intervalWaits, 0.95);
    m_intervalWaits.clear();
    m_interval = Integrals{};
}

void MetricsRecorder::sample(std::size_t k, const Gauges& g) {
    auto& s = m_results.series;
    s[kProvisionedGpus].values[k] = g.provisionedGpus;
    s[kAllocatedGpus].values[k] = g.allocatedGpus;
    s[kStrandedGpus].values[k] = g.strandedGpus;
    s[kQueueLength].values[k] = g.queueLength;
    s[kRunningJobs].values[k] = g.runningJobs;
    double pending = 0;
    for (int l = 0; l < kLayerCount; ++l) {
        s[kPendingReservation + l].values[k] = g.pendingGpus[l];
        pending += g.pendingGpus[l];
    }
    m_strandedSum += g.strandedGpus;
    m_pendingSum += pending;
    ++m_samplesTaken;
}

void MetricsRecorder::finish(double endS, const Rates& rates) {
    advanceTo(endS, rates);
    closeInterval(m_openInterval);
    // A stopped run leaves later samples unwritten: drop them.
    std::size_t used = std::min(m_sampleTimes.size(), m_samplesTaken);
    m_results.sampleTimesS.resize(used);
    for (Series& s : m_results.series)
        s.values.resize(used);
    writeKpis(endS);
}

void MetricsRecorder::writeKpis(double endS) {
    std::vector<double> waits, jcts;
    double slowdownSum = 0;
    int submitted = 0, started = 0, completed = 0, failed = 0, pendingAtEnd = 0;
    for (const JobRecord& j : m_results.jobs) {
        if (j.spec.submitS >= endS) continue;
        ++submitted;
        if (j.firstStartS >= 0) {
            ++started;
            waits.push_back(j.waitS());
            slowdownSum += j.slowdown;
        }
        if (j.status == JobStatus::Pending) ++pendingAtEnd;  // never bound, or evicted and queued
        if (j.status == JobStatus::Completed) {
            ++completed;
            jcts.push_back(j.jctS());
        }
        if (j.status == JobStatus::Failed) ++failed;
    }
    double waitSum = 0;
    for (double w : waits)
        waitSum += w;
    double jctSum = 0;
    for (double v : jcts)
        jctSum += v;

    auto& k = m_results.kpis;
    k.clear();
    k.push_back({"allocation_mean", ratio(m_total.allocated, m_total.provisioned), "fraction"});
    k.push_back({"occupancy_mean", ratio(m_total.occupied, m_total.provisioned), "fraction"});
    k.push_back({"mfu_mean", ratio(m_total.achieved, m_total.peak), "fraction"});
    k.push_back({"goodput", ratio(m_total.useful, m_total.allocated), "fraction"});
    k.push_back({"wait_s_mean", waits.empty() ? kNaN : waitSum / waits.size(), "s"});
    k.push_back({"wait_s_p50", percentile(waits, 0.50), "s"});
    k.push_back({"wait_s_p95", percentile(waits, 0.95), "s"});
    k.push_back({"wait_s_p99", percentile(waits, 0.99), "s"});
    k.push_back({"jct_s_mean", jcts.empty() ? kNaN : jctSum / jcts.size(), "s"});
    k.push_back({"slowdown_mean", started ? slowdownSum / started : kNaN, "x"});
    k.push_back({"queue_length_mean", ratio(m_total.queued, endS), "jobs"});
    k.push_back({"stranded_gpus_mean",
                 m_samplesTaken ? m_strandedSum / static_cast<double>(m_samplesTaken) : 0, "gpus"});
    k.push_back({"pending_gpus_mean",
                 m_samplesTaken ? m_pendingSum / static_cast<double>(m_samplesTaken) : 0, "gpus"});
    k.push_back({"gpu_hours_provisioned", m_total.provisioned / 3600, "gpu_h"});
    k.push_back({"gpu_hours_allocated", m_total.allocated / 3600, "gpu_h"});
    k.push_back({"gpu_hours_useful", m_total.useful / 3600, "gpu_h"});
    k.push_back({"jobs_submitted", static_cast<double>(submitted), "jobs"});
    k.push_back({"jobs_started", static_cast<double>(started), "jobs"});
    k.push_back({"jobs_completed", static_cast<double>(completed), "jobs"});
    k.push_back({"jobs_failed", static_cast<double>(failed), "jobs"});
    k.push_back({"jobs_pending_at_end", static_cast<double>(pendingAtEnd), "jobs"});
}

}  // namespace gpuplan::detail
