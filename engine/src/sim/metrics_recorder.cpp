#include "metrics_recorder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gpuplan::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Nearest-rank percentiles of an unsorted sample at ascending quantiles (reorders it); each
/// selection searches only right of the previous rank. NaN for an empty sample.
template <std::size_t N>
std::array<double, N> percentiles(std::vector<double>& values, const std::array<double, N>& qs) {
    std::array<double, N> out;
    out.fill(kNaN);
    if (values.empty()) return out;
    auto from = values.begin();
    for (std::size_t i = 0; i < N; ++i) {
        const std::size_t rank =
            static_cast<std::size_t>(std::ceil(qs[i] * static_cast<double>(values.size())));
        const auto nth = values.begin() + static_cast<std::ptrdiff_t>(
                                              std::clamp<std::size_t>(rank, 1, values.size()) - 1);
        if (nth >= from) std::nth_element(from, nth, values.end());
        out[i] = *nth;
        from = nth + 1;
    }
    return out;
}

double ratio(double num, double den) {
    return den > 0 ? num / den : 0.0;
}

}  // namespace

MetricsRecorder::MetricsRecorder(RunRecord& record, double horizonS, double intervalS,
                                 double warmupS)
    : m_record(&record), m_horizonS(horizonS), m_intervalS(intervalS), m_window{warmupS} {
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
        {"fragmentation_ratio", "fraction"},
        {"fragmentation_amount", "fraction"},
        {"fragmented_gpus", "gpus"},
        {"largest_gang_gpus{node}", "gpus"},
        {"largest_gang_gpus{rack}", "gpus"},
        {"largest_gang_gpus{pod}", "gpus"},
        {"largest_gang_gpus{fleet}", "gpus"},
        {"slots_8gpu{node}", "jobs"},
        {"slots_64gpu{rack}", "jobs"},
    };
    record.sampleTimesS = m_sampleTimes;
    record.series.resize(kSeriesCount);
    for (int c = 0; c < kSeriesCount; ++c) {
        record.series[c].name = names[c][0];
        record.series[c].unit = names[c][1];
        record.series[c].values.assign(m_sampleTimes.size(), 0.0);
    }
}

void MetricsRecorder::advanceTo(double timeS, const Rates& r) {
    timeS = std::min(timeS, m_horizonS);
    // Reaching the warm-up's end (before any sample taken there): what the KPIs leave out.
    if (m_lastS < m_window.fromS && m_window.fromS <= timeS) {
        integrateTo(m_window.fromS, r);
        m_atWarmup = tallies();
    }
    integrateTo(timeS, r);
}

MetricsRecorder::Tallies MetricsRecorder::tallies() const {
    Tallies t = m_run;
    t.total.add(m_interval, 1);
    return t;
}

void MetricsRecorder::integrateTo(double timeS, const Rates& r) {
    while (m_lastS < timeS) {
        const double boundary =
            std::min(m_horizonS, static_cast<double>(m_openInterval + 1) * m_intervalS);
        const double until = std::min(timeS, boundary);
        const double dt = until - m_lastS;
        // Only the open interval integrates (this runs at every instant); closing it adds it
        // to the run's total.
        m_interval.allocated += r.allocatedGpus * dt;
        m_interval.provisioned += r.provisionedGpus * dt;
        m_interval.occupied += r.occupiedGpus * dt;
        m_interval.achieved += r.achievedTflops * dt;
        m_interval.peak += r.provisionedPeakTflops * dt;
        m_interval.useful += r.usefulGpus * dt;
        m_interval.queued += r.queuedJobs * dt;
        m_lastS = until;
        if (until == boundary && boundary < m_horizonS) closeInterval(m_openInterval++);
    }
}

void MetricsRecorder::closeInterval(std::size_t k) {
    if (k < m_sampleTimes.size()) {
        auto& s = m_record->series;
        s[kAllocation].values[k] = ratio(m_interval.allocated, m_interval.provisioned);
        s[kOccupancy].values[k] = ratio(m_interval.occupied, m_interval.provisioned);
        s[kMfu].values[k] = ratio(m_interval.achieved, m_interval.peak);
        const auto [p50, p95] = percentiles<2>(m_intervalWaits, {0.50, 0.95});
        s[kWaitP50].values[k] = p50;
        s[kWaitP95].values[k] = p95;
        m_intervalWaits.clear();
    }
    m_run.total.add(m_interval, 1);
    m_interval = Integrals{};
}

void MetricsRecorder::sample(std::size_t k, const Gauges& g) {
    auto& s = m_record->series;
    s[kProvisionedGpus].values[k] = g.provisionedGpus;
    s[kAllocatedGpus].values[k] = g.allocatedGpus;
    s[kStrandedGpus].values[k] = g.strandedGpus;
    s[kFragmentationRatio].values[k] = g.fragmentationRatio;
    s[kFragmentationAmount].values[k] = g.fragmentationAmount;
    s[kFragmentedGpus].values[k] = g.fragmentedGpus;
    for (int l = 0; l < 4; ++l)
        s[kLargestGangNode + l].values[k] = g.largestGangGpus[l];
    s[kSlots8GpuNode].values[k] = g.slots8GpuNode;
    s[kSlots64GpuRack].values[k] = g.slots64GpuRack;
    m_run.fragmentationRatioSum += g.fragmentationRatio;
    m_run.fragmentationAmountSum += g.fragmentationAmount;
    s[kQueueLength].values[k] = g.queueLength;
    s[kRunningJobs].values[k] = g.runningJobs;
    // Pending GPUs are summed in exact units and divided once, as allocated GPUs are: 2/7 of a
    // GPU is written as the double nearest 2/7, not 0.286.
    for (int l = 0; l < kLayerCount; ++l) {
        s[kPendingReservation + l].values[k] = gpusOfUnits(g.pendingGpuUnits[l]);
        m_run.pendingGpuUnitsSum += g.pendingGpuUnits[l];
    }
    m_run.strandedSum += g.strandedGpus;
    ++m_run.samples;
}

void MetricsRecorder::finish(double endS, const Rates& rates) {
    advanceTo(endS, rates);
    closeInterval(m_openInterval);
    // A stopped run leaves later samples unwritten: drop them.
    std::size_t used = std::min(m_sampleTimes.size(), m_run.samples);
    m_record->sampleTimesS.resize(used);
    for (Series& s : m_record->series)
        s.values.resize(used);
}

namespace {

/// One group's tallies (the fleet, a team or a job class), filled job by job.
struct GroupTally {
    std::vector<double> waits;  ///< censored: still waiting at the end counts end − submit
    double waitSumS = 0, jctSumS = 0, slowdownSum = 0;
    double allocatedGpuS = 0;
    std::int64_t gpuUnitsWaitingAtEnd = 0;  ///< exact, as the pending series
    int submitted = 0, started = 0, completed = 0, failed = 0, waitingAtEnd = 0;

    [[gnu::always_inline]] void add(const JobRecord& j, double endS) {
        ++submitted;
        const double waitS = j.firstStartS >= 0 ? j.waitS() : endS - j.spec.submitS;  // ≥ wait
        waits.push_back(waitS);
        waitSumS += waitS;
        if (j.firstStartS >= 0) {
            ++started;
            slowdownSum += j.slowdown;
        }
        if (j.status == JobStatus::Pending) {  // never bound, or evicted and queued again
            ++waitingAtEnd;
            gpuUnitsWaitingAtEnd += j.spec.gpuUnits();
        }
        if (j.status == JobStatus::Completed) {
            ++completed;
            jctSumS += j.jctS();
        }
        if (j.status == JobStatus::Failed) ++failed;
    }

    GroupKpis kpis(std::string name, double provisionedGpuS) {
        GroupKpis g;
        g.name = std::move(name);
        g.allocationShare = ratio(allocatedGpuS, provisionedGpuS);
        g.gpuHours = allocatedGpuS / 3600;
        const auto [p50, p95] = percentiles<2>(waits, {0.50, 0.95});
        g.waitP50S = p50;
        g.waitP95S = p95;
        g.submitted = submitted;
        g.completed = completed;
        g.waitingAtEnd = waitingAtEnd;
        g.gpusWaitingAtEnd = gpusOfUnits(gpuUnitsWaitingAtEnd);
        return g;
    }
};

}  // namespace

void MetricsRecorder::writeKpis(Results& out, double endS) const {
    const Results& r = out;
    // The measurement window [warmupS, endS): the run's tallies less the warm-up's.
    Tallies w = tallies();
    // A run stopped (or a snapshot taken) before the warm-up ended measured nothing yet.
    const Tallies b = m_window.measuredNothing(endS) ? w : m_atWarmup;
    w.subtract(b);
    // Class groups: classes, then explicit jobs, then each trace (RunRecord::jobClassName).
    const std::size_t explicitGroup = r.classNames.size();
    auto classGroup = [&](const JobSpec& s) -> std::size_t {
        switch (s.source) {
            case JobSource::Class:
                return s.sourceIndex;
            case JobSource::Explicit:
                return explicitGroup;
            case JobSource::Trace:
                return explicitGroup + 1 + s.sourceIndex;
        }
        return explicitGroup;
    };
    GroupTally fleet;
    std::vector<GroupTally> teams(r.teams.size());
    std::vector<GroupTally> classes(explicitGroup + 1 + r.traceNames.size());
    std::vector<std::uint32_t> classExample(classes.size(), 0);
    {  // sized once: a million jobs should not regrow three vectors
        std::vector<std::size_t> perTeam(teams.size(), 0), perClass(classes.size(), 0);
        for (const JobRecord& j : r.jobs) {
            ++perTeam[j.spec.team];
            ++perClass[classGroup(j.spec)];
        }
        fleet.waits.reserve(r.jobs.size());
        for (std::size_t t = 0; t < teams.size(); ++t)
            teams[t].waits.reserve(perTeam[t]);
        for (std::size_t c = 0; c < classes.size(); ++c)
            classes[c].waits.reserve(perClass[c]);
    }
    for (std::uint32_t i = 0; i < r.jobs.size(); ++i) {
        const JobRecord& j = r.jobs[i];
        if (j.spec.submitS >= endS || !m_window.counts(j.spec.submitS)) continue;
        fleet.add(j, endS);
        teams[j.spec.team].add(j, endS);
        const std::size_t c = classGroup(j.spec);
        classes[c].add(j, endS);
        classExample[c] = i;
    }
    // GPU-seconds held in the window, from the run segments (closed at the end of the run).
    for (const RunSegment& seg : r.segments) {
        const double heldS = m_window.clipS(seg.startS, seg.endS);
        if (heldS == 0) continue;
        const JobSpec& spec = r.jobs[seg.job].spec;
        // What the binding held: a grown elastic job holds more pods than it asked.
        const double gpus = spec.holdsWholeGpus()
                                ? static_cast<double>(seg.placementCount) * spec.gpusPerPod
                                : r.gpuEquivalentsOf(seg);
        const double gpuS = heldS * gpus;
        teams[spec.team].allocatedGpuS += gpuS;
        classes[classGroup(spec)].allocatedGpuS += gpuS;
    }
    out.teamKpis.clear();
    for (std::size_t t = 0; t < teams.size(); ++t)
        // A team whose jobs were all submitted before the window still holds GPUs in it.
        if (teams[t].submitted > 0 || teams[t].allocatedGpuS > 0)
            out.teamKpis.push_back(teams[t].kpis(r.teams[t], w.total.provisioned));
    out.classKpis.clear();
    for (std::size_t c = 0; c < classes.size(); ++c)
        if (classes[c].submitted > 0 || classes[c].allocatedGpuS > 0)
            out.classKpis.push_back(
                classes[c].kpis(r.jobClassName(classExample[c]), w.total.provisioned));

    const char* censored =
        " Jobs still waiting when the run ends count with their wait so far (end − submit), a "
        "lower bound.";
    const auto fleetWaits = percentiles<3>(fleet.waits, {0.50, 0.95, 0.99});
    auto& k = out.kpis;
    k.clear();
    auto add = [&](const char* name, double value, const char* unit, std::string description) {
        k.push_back({name, value, unit, std::move(description)});
    };
    add("allocation_mean", ratio(w.total.allocated, w.total.provisioned), "fraction",
        "GPU-seconds bound to jobs ÷ provisioned GPU-seconds.");
    add("occupancy_mean", ratio(w.total.occupied, w.total.provisioned), "fraction",
        "Bound GPU-seconds × SM activity of progressing jobs ÷ provisioned GPU-seconds.");
    add("mfu_mean", ratio(w.total.achieved, w.total.peak), "fraction",
        "Achieved model FLOPs ÷ peak dense BF16 FLOPs of provisioned GPUs.");
    add("goodput", ratio(w.total.useful, w.total.allocated), "fraction",
        "Useful GPU-seconds ÷ allocated GPU-seconds (startup, crash loops, lost work excluded).");
    add("wait_s_mean", fleet.submitted ? fleet.waitSumS / fleet.submitted : kNaN, "s",
        std::string("Mean time from submit to first start.") + censored);
    add("wait_s_p50", fleetWaits[0], "s",
        std::string("Median time from submit to first start.") + censored);
    add("wait_s_p95", fleetWaits[1], "s",
        std::string("95th percentile of the time from submit to first start.") + censored);
    add("wait_s_p99", fleetWaits[2], "s",
        std::string("99th percentile of the time from submit to first start.") + censored);
    add("jct_s_mean", fleet.completed ? fleet.jctSumS / fleet.completed : kNaN, "s",
        "Mean time from submit to completion, of the jobs that completed.");
    add("slowdown_mean", fleet.started ? fleet.slowdownSum / fleet.started : kNaN, "x",
        "Mean placement slowdown of the jobs that started (1 = ideal placement).");
    add("queue_length_mean", ratio(w.total.queued, m_window.clipS(0, endS)), "jobs",
        "Time-averaged number of queued jobs.");
    add("stranded_gpus_mean", w.samples ? w.strandedSum / static_cast<double>(w.samples) : 0,
        "gpus",
        "Free GPUs no waiting pod can use (fewer free GPUs, or less free CPU or host memory "
        "on their node, than the least any waiting pod asks), averaged over the samples.");
    add("fragmentation_ratio_mean",
        w.samples ? w.fragmentationRatioSum / static_cast<double>(w.samples) : 0, "fraction",
        "FGD fragmentation: free GPU capacity the job mix's typical pod cannot use there, as a "
        "share of the free capacity, averaged over the samples.");
    add("fragmentation_amount_mean",
        w.samples ? w.fragmentationAmountSum / static_cast<double>(w.samples) : 0, "fraction",
        "FGD fragmentation as a share of the fleet's GPU capacity, averaged over the samples.");
    add("pending_gpus_mean",
        w.samples ? static_cast<double>(w.pendingGpuUnitsSum) /
                        static_cast<double>(kGpuUnitsPerGpu * static_cast<std::int64_t>(w.samples))
                  : 0,
        "gpus", "GPUs asked by pending and stuck jobs, averaged over the samples.");
    add("gpu_hours_provisioned", w.total.provisioned / 3600, "gpu_h",
        "GPU-hours of Ready capacity.");
    add("gpu_hours_allocated", w.total.allocated / 3600, "gpu_h", "GPU-hours bound to jobs.");
    add("gpu_hours_useful", w.total.useful / 3600, "gpu_h",
        "GPU-hours of useful progress (see goodput).");
    add("gpu_hours_lost", w.lostGpuS / 3600, "gpu_h",
        "GPU-hours of work lost to evictions: each evicted job's progress since its last "
        "checkpoint (all of it without checkpoints), which goodput does not count as useful.");
    if (m_anyCheckpointing)
        add("gpu_hours_checkpointing", w.checkpointingGpuS / 3600, "gpu_h",
            "GPU-hours jobs spent writing checkpoints (their checkpointCostS each), which "
            "goodput does not count as useful.");
    add("jobs_submitted", fleet.submitted, "jobs",
        "Jobs submitted in the measurement window (from warmupS to the end of the run).");
    add("jobs_started", fleet.started, "jobs", "Jobs bound at least once.");
    add("jobs_completed", fleet.completed, "jobs", "Jobs that ran to completion.");
    add("jobs_failed", fleet.failed, "jobs",
        "Jobs that crash-looped until their restart budget ran out.");
    add("jobs_waiting_at_end", fleet.waitingAtEnd, "jobs",
        "Jobs queued when the run ends (never started, or evicted and not restarted); their "
        "waits enter the wait KPIs as lower bounds.");
    add("gpus_waiting_at_end", gpusOfUnits(fleet.gpuUnitsWaitingAtEnd), "gpus",
        "GPUs asked by the jobs queued when the run ends.");
}

}  // namespace gpuplan::detail
