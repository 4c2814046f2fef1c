// Whether a cluster snapshot, or a list of pending rows, belongs to these results. A view keeps
// its own results and may be handed a snapshot of other ones (a new scenario's, while the view
// still holds the old); indexing one by the other reads past the end. Views check first.
#pragma once

#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// Every row names a job of `results`.
bool pendingRowsMatch(const Results& results, const std::vector<PendingJob>& rows);

/// `snapshot` is a cluster of `results`: as many nodes and GPUs as its fleet (occupant
/// offsets and MIG table included), and no job it does not have.
bool snapshotFitsResults(const ClusterSnapshot& snapshot, const Results& results);

}  // namespace gpuplan::ui
