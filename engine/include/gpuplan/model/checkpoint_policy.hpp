// How a job saves its work, what saving costs, and the intervals that minimise what failures
// waste (Young 1974, Daly 2006). Work is counted in ideal seconds (a job's durationS is
// its work at ideal placement); a checkpoint pauses progress for costS of the same seconds,
// so a job with checkpoints takes wallWorkS(durationS) ideal seconds to finish, not durationS.
#pragma once

#include <cmath>

namespace gpuplan {

struct CheckpointPolicy {
    double intervalS = 0;  ///< work between checkpoints; 0 = never saved
    double costS = 0;      ///< progress paused to write one checkpoint

    bool saves() const { return intervalS > 0; }

    /// Checkpoints written on the way to finishing `workS` of work: one after each whole
    /// interval, none at the end (the job completes there).
    double checkpointsBefore(double workS) const {
        if (!saves() || !(workS > 0)) return 0;
        return std::ceil(workS / intervalS) - 1;
    }
    /// Progress time for `workS` of work from the start: the work and the checkpoints on the
    /// way. Without a cost, exactly `workS`.
    double wallWorkS(double workS) const {
        if (costS == 0) return workS;
        return workS + costS * checkpointsBefore(workS);
    }
    /// Periodic checkpoints written on the way to `savedS` of saved work (a multiple of the
    /// interval, or any work a checkpoint on notice saved). The quotient gets a billionth of
    /// slack: a multiple computed as k × interval counts k.
    double checkpointsIn(double savedS) const {
        if (!saves()) return 0;
        return std::floor(savedS / intervalS + 1e-9);
    }
    /// Progress time up to `savedS` of saved work: the work and the periodic checkpoints
    /// written on the way (a checkpoint on notice is not periodic: the next binding resumes
    /// in the same cycle, so its periodic checkpoints keep their places).
    double wallToSavedS(double savedS) const {
        if (costS == 0 || !saves()) return savedS;
        return savedS + costS * checkpointsIn(savedS);
    }
};

/// Mean time between interruptions of a job whose nodes hold `gpusExposed` GPUs, each failing
/// independently with the per-GPU MTBF: a failure of any of them ends the job.
inline double jobMtbfS(double mtbfGpuHours, double gpusExposed) {
    return mtbfGpuHours * 3600 / gpusExposed;
}

/// Young (CACM 1974): the interval τ = √(2·δ·M) minimises the wasted fraction δ/τ + τ/(2M)
/// for a checkpoint cost δ and an MTBF M (first order in δ/M).
inline double youngIntervalS(double costS, double mtbfS) {
    return std::sqrt(2 * costS * mtbfS);
}

/// Daly (FGCS 22(3), 2006), the higher-order estimate: √(2δM)·[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ
/// while δ < 2M, else M.
inline double dalyIntervalS(double costS, double mtbfS) {
    if (!(costS < 2 * mtbfS)) return mtbfS;
    const double x = costS / (2 * mtbfS);
    return std::sqrt(2 * costS * mtbfS) * (1 + std::sqrt(x) / 3 + x / 9) - costS;
}

}  // namespace gpuplan
