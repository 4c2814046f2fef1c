#include "snapshot_guard.hpp"

#include <algorithm>

namespace gpuplan::ui {

bool pendingRowsMatch(const Results& results, const std::vector<PendingJob>& rows) {
    const std::size_t jobs = results.jobs.size();
    return std::all_of(rows.begin(), rows.end(),
                       [jobs](const PendingJob& p) { return p.job < jobs; });
}

bool snapshotFitsResults(const ClusterSnapshot& s, const Results& r) {
    const std::size_t gpus =
        r.firstGpuOfNode.empty() ? 0 : static_cast<std::size_t>(r.firstGpuOfNode.back());
    if (s.nodeStates.size() != r.fleet.nodes.size() || s.gpuJob.size() != gpus ||
        s.occupantBegin.size() != gpus + 1 ||
        (!s.migLayouts.empty() && s.migLayouts.size() != gpus))
        return false;
    if (s.occupantBegin.back() != s.occupants.size()) return false;
    const std::size_t jobs = r.jobs.size();
    for (const std::int32_t j : s.gpuJob)
        if (j >= 0 && static_cast<std::size_t>(j) >= jobs) return false;
    for (const GpuOccupant& o : s.occupants)
        if (o.job >= jobs) return false;
    for (const std::uint32_t j : s.runningJobs)
        if (j >= jobs) return false;
    return pendingRowsMatch(r, s.pending);
}

}  // namespace gpuplan::ui
