// Time integrals and sampled series. Rates (allocated GPUs, occupancy, achieved FLOP/s, ...)
// are piecewise constant between events, so their integrals are exact. Series index k
// stands for time k·Δ: averaged metrics cover [kΔ, (k+1)Δ) (the last interval ends at the
// horizon), gauges are read at kΔ after that instant's events and scheduling pass.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::detail {

/// Piecewise-constant quantities the kernel keeps current.
struct Rates {
    double allocatedGpus = 0;
    double provisionedGpus = 0;
    double occupiedGpus = 0;    ///< Σ GPUs × SM activity ÷ slowdown of progressing jobs
    double achievedTflops = 0;  ///< Σ GPUs × MFU × peak ÷ slowdown of progressing jobs
    double provisionedPeakTflops = 0;
    double usefulGpus = 0;  ///< Σ GPUs ÷ slowdown of progressing jobs
    double queuedJobs = 0;
};

/// Instant values at a sample.
struct Gauges {
    double provisionedGpus = 0;
    double allocatedGpus = 0;
    double strandedGpus = 0;
    double fragmentationRatio = 0;   ///< FGD: fragment ÷ free milli-GPU (0 when none is free)
    double fragmentationAmount = 0;  ///< FGD: fragment ÷ the fleet's milli-GPU
    double fragmentedGpus = 0;       ///< FGD: the fragment itself, in GPUs
    /// Largest placeable gang per SlotLevel (node, rack, pod, fleet), GPUs (placeable.hpp).
    std::array<double, 4> largestGangGpus{};
    double slots8GpuNode = 0;   ///< 8-GPU gangs that could start on one node each
    double slots64GpuRack = 0;  ///< 64-GPU gangs that could start inside one rack each
    double queueLength = 0;
    double runningJobs = 0;
    /// GPU-equivalents asked by pending and stuck jobs per layer, exactly (JobSpec::gpuUnits).
    std::array<std::int64_t, kLayerCount> pendingGpuUnits{};
};

enum SeriesColumn {
    kAllocation,
    kOccupancy,
    kMfu,
    kProvisionedGpus,
    kAllocatedGpus,
    kStrandedGpus,
    kQueueLength,
    kRunningJobs,
    kPendingReservation,
    kPendingProvisioning,
    kPendingScheduling,
    kPendingWorkload,
    kWaitP50,
    kWaitP95,
    kFragmentationRatio,
    kFragmentationAmount,
    kFragmentedGpus,
    kLargestGangNode,
    kLargestGangRack,
    kLargestGangPod,
    kLargestGangFleet,
    kSlots8GpuNode,
    kSlots64GpuRack,
    kSeriesCount
};

class MetricsRecorder {
public:
    /// KPIs measure [warmupS, end): what the run did before is tallied apart and left out.
    MetricsRecorder(RunRecord& record, double horizonS, double intervalS, double warmupS = 0);

    /// Integrates the current rates up to `timeS` (splitting at interval boundaries).
    void advanceTo(double timeS, const Rates& rates);
    /// Records the gauges of sample k (its interval's averages are closed later).
    void sample(std::size_t k, const Gauges& gauges);
    /// A job started at the current time after waiting `waitS`.
    void jobStarted(double waitS) { m_intervalWaits.push_back(waitS); }
    /// Useful work lost: an evicted job's progress since its last checkpoint, done from
    /// sinceS to now. It was counted useful while it ran; it is not, and gpu_hours_lost sums
    /// it (the window, the part done in it).
    void discardUseful(double gpuSeconds, double sinceS) {
        m_run.total.useful -= gpuSeconds;
        m_run.lostGpuS += gpuSeconds;
        const double before = beforeWindow(gpuSeconds, sinceS);
        m_atWarmup.total.useful -= before;
        m_atWarmup.lostGpuS += before;
    }
    /// GPU-seconds spent writing checkpoints while progressing since sinceS: held and
    /// progressing, but not useful work.
    void discardCheckpointing(double gpuSeconds, double sinceS) {
        m_run.total.useful -= gpuSeconds;
        countCheckpointing(gpuSeconds);
        const double before = beforeWindow(gpuSeconds, sinceS);
        m_atWarmup.total.useful -= before;
        m_atWarmup.checkpointingGpuS += before;
    }
    /// GPU-seconds spent writing a checkpoint after progress stopped (never counted useful).
    void countCheckpointing(double gpuSeconds) {
        m_run.checkpointingGpuS += gpuSeconds;
        m_anyCheckpointing = true;
    }
    /// Closes the last interval at endS and drops the samples a stopped run did not reach.
    void finish(double endS, const Rates& rates);
    /// Writes the KPIs (fleet, per team, per class) into the results built from the record.
    void writeKpis(Results& out, double endS) const;
    /// Series are written into `record` from now on: a copy of the recorder closes a copy of
    /// the record (a partial snapshot) while the run goes on.
    void retarget(RunRecord& record) { m_record = &record; }

    std::size_t sampleCount() const { return m_sampleTimes.size(); }
    double sampleTime(std::size_t k) const { return m_sampleTimes[k]; }

private:
    struct Integrals {
        double allocated = 0, provisioned = 0, occupied = 0, achieved = 0, peak = 0, useful = 0,
               queued = 0;
        /// Adds (sign 1) or takes off (sign −1) another's, field by field.
        void add(const Integrals& o, double sign) {
            allocated += sign * o.allocated;
            provisioned += sign * o.provisioned;
            occupied += sign * o.occupied;
            achieved += sign * o.achieved;
            peak += sign * o.peak;
            useful += sign * o.useful;
            queued += sign * o.queued;
        }
    };
    /// What the KPIs add up; the window's are the run's less those at the warm-up's end.
    struct Tallies {
        Integrals total;
        double strandedSum = 0, fragmentationRatioSum = 0, fragmentationAmountSum = 0, lostGpuS = 0,
               checkpointingGpuS = 0;
        std::int64_t pendingGpuUnitsSum = 0;  ///< exact: the mean is one division
        std::size_t samples = 0;
        /// Takes off another's, field by field (the warm-up's, for the window).
        void subtract(const Tallies& o) {
            total.add(o.total, -1);
            strandedSum -= o.strandedSum;
            fragmentationRatioSum -= o.fragmentationRatioSum;
            fragmentationAmountSum -= o.fragmentationAmountSum;
            pendingGpuUnitsSum -= o.pendingGpuUnitsSum;
            lostGpuS -= o.lostGpuS;
            checkpointingGpuS -= o.checkpointingGpuS;
            samples -= o.samples;
        }
    };
    void integrateTo(double timeS, const Rates& rates);
    /// Of GPU-seconds spread evenly over [sinceS, now], the part before the window once the
    /// warm-up's tallies are taken (before that, all of it goes into them anyway).
    double beforeWindow(double gpuSeconds, double sinceS) const {
        if (m_window.fromS == 0 || m_lastS < m_window.fromS) return 0;
        return gpuSeconds * (1 - m_window.shareOf(std::min(sinceS, m_lastS), m_lastS));
    }
    void closeInterval(std::size_t k);
    Tallies tallies() const;  ///< so far, the open interval's integrals included

    RunRecord* m_record;
    double m_horizonS;
    double m_intervalS;
    MeasurementWindow m_window;
    Tallies m_atWarmup;  ///< tallies() when the clock reached warmupS (zero without warm-up)
    std::vector<double> m_sampleTimes;
    double m_lastS = 0;
    std::size_t m_openInterval = 0;
    Integrals m_interval;
    Tallies m_run;  ///< the whole run's: the closed intervals' integrals, the sample sums
    std::vector<double> m_intervalWaits;
    bool m_anyCheckpointing = false;  ///< a job paid for a checkpoint: the KPI is listed
};

}  // namespace gpuplan::detail
