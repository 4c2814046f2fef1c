// The reasons jobs waited for over a run, by layer: what "why is my job Pending?" answered at
// each sample of the measurement window (the pending list's layer, Kueue token and reason),
// summed. Reasons that differ only in their numbers ("0/1 nodes are available" at one sample,
// "1/1" at the next; "the job asks 2 GPUs" and "… 8 GPUs") count as one.
#pragma once

#include <QString>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

struct PendingReason {
    Layer layer = Layer::Scheduling;
    QString reason;       ///< kube-scheduler's (or Kueue's) words
    QString token;        ///< Kueue's reason token, empty for none
    double jobHours = 0;  ///< listed at a sample × the sample interval, summed
    int jobs = 0;         ///< distinct jobs it kept waiting
    int similar = 0;      ///< other reasons in its group (the same words, other numbers)
};

/// Per layer (reservation first), its `perLayer` reasons with the most job-hours, most first.
/// Samples before the warm-up's end are left out, as the KPIs leave them out.
std::vector<PendingReason> topPendingReasons(const Results& results, int perLayer);

}  // namespace gpuplan::report
