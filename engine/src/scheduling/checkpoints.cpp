#include "checkpoints.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::detail {

double checkpointedWorkS(double doneS, double intervalS, double durationS) {
    if (!(intervalS > 0) || !(doneS > 0)) return 0;
    // An eviction at the instant a checkpoint completes keeps it, though wall time ÷ slowdown
    // may land a hair below the multiple: the quotient gets a billionth of slack, and what is
    // kept never exceeds what was done (so no eviction loses less than nothing).
    const double checkpoints = std::floor(doneS / intervalS + 1e-9);
    return std::min({checkpoints * intervalS, doneS, durationS});
}

CheckpointOutcome checkpointOutcome(const CheckpointPolicy& policy, double savedBeforeS,
                                    double progressS, double durationS) {
    CheckpointOutcome out;
    if (policy.costS == 0) {
        // Progress is work, with no cost term in the arithmetic: bit for bit the plain rule.
        // Never below what a checkpoint on notice saved off the interval's grid.
        out.savedS = std::max(
            savedBeforeS, checkpointedWorkS(savedBeforeS + progressS, policy.intervalS, durationS));
        out.lostS = progressS - (out.savedS - savedBeforeS);
        out.workS = std::min(savedBeforeS + progressS, durationS);
        return out;
    }
    // Progress from the start: cycles of an interval's work and its checkpoint.
    const double cycleS = policy.intervalS + policy.costS;
    const double atS = policy.wallToSavedS(savedBeforeS) + progressS;
    const double before = policy.checkpointsIn(savedBeforeS);
    const double cap = policy.checkpointsBefore(durationS);
    // Checkpoints complete by now (the same billionth of slack), never more than the job writes.
    const double written = std::min(std::floor(atS / cycleS + 1e-9), cap);
    out.savedS = std::max(savedBeforeS, std::min(written * policy.intervalS, durationS));
    out.overheadS = policy.costS * std::max(0.0, written - before);
    out.lostS = std::max(0.0, progressS - (out.savedS - savedBeforeS) - out.overheadS);
    // Work: whole cycles, then this cycle's work, not the checkpoint being written after it
    // (past the last checkpoint there is only work).
    const double cycles = std::floor(atS / cycleS + 1e-9);
    const double inCycleS = atS - cycles * cycleS;
    const double workS = cycles < cap
                             ? cycles * policy.intervalS + std::min(inCycleS, policy.intervalS)
                             : cap * policy.intervalS + (atS - cap * cycleS);
    out.workS = std::clamp(workS, savedBeforeS, durationS);
    return out;
}

}  // namespace gpuplan::detail
