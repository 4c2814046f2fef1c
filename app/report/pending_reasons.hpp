// The reasons jobs waited for over a run, by layer: what "why is my job Pending?" answered at
// each sample of the measurement window (the pending list's layer and reason), summed.
#pragma once

#include <QString>
#include <vector>

#include "gpuplan/results.hpp"

namespace gpuplan::report {

struct PendingReason {
    Layer layer = Layer::Scheduling;
    QString reason;       ///< kube-scheduler's (or Kueue's) words
    QString token;        ///< Kueue's reason token, empty for none
    double jobHours = 0;  ///< listed at a sample × the sample interval, summed
    int jobs = 0;         ///< distinct jobs it kept waiting
};

/// Per layer (reservation first), its `perLayer` reasons with the most job-hours, most first.
/// Samples before the warm-up's end are left out, as the KPIs leave them out.
std::vector<PendingReason> topPendingReasons(const Results& results, int perLayer);

}  // namespace gpuplan::report
