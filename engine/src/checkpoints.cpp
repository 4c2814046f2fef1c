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

}  // namespace gpuplan::detail
