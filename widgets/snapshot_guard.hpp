// Whether a cluster snapshot was taken of these results' fleet and jobs. A view keeps its own
// results and may be handed a snapshot of other ones (a new scenario's, while the view still
// holds the old); indexing one by the other reads past the end. Views check before they draw.
#pragma once

#include <algorithm>

#include "gpuplan/results.hpp"

namespace gpuplan::ui {

/// Whether every row names a job of these results.
inline bool pendingRowsMatch(const Results& results, const std::vector<PendingJob>& rows) {
    const auto jobs = results.jobs.size();
    return std::all_of(rows.begin(), rows.end(),
                       [jobs](const PendingJob& p) { return p.job < jobs; });
}

inline bool snapshotMatches(const Results& results, const ClusterSnapshot& snapshot) {
    if (snapshot.nodeStates.size() != results.fleet.nodes.size()) return false;
    const std::size_t gpus = results.firstGpuOfNode.empty() ? 0 : results.firstGpuOfNode.back();
    if (snapshot.gpuJob.size() != gpus) return false;
    const auto jobs = results.jobs.size();
    return pendingRowsMatch(results, snapshot.pending) &&
           std::all_of(snapshot.runningJobs.begin(), snapshot.runningJobs.end(),
                       [jobs](std::uint32_t j) { return j < jobs; });
}

}  // namespace gpuplan::ui
