// The repack of the defragmentation what-if, renumbered to move as few jobs as it can. A
// policy breaks ties between identical nodes by node index and picks GPUs by slot index, so a
// plain repack lands nearly every job somewhere new even where it could have stayed. Among the
// placements the repack cannot tell apart, this picks, greedily, one that leaves the most jobs
// on the GPUs they held (weighted by the restart each would cost): pods of one kind (the same kinds
// of racks) exchange contents, then racks of one kind inside each pod's target, then nodes of one
// kind (node type, GPU model, sharing, state at t) inside each rack's target, then the GPUs of each
// node are renumbered. Free GPUs per node of each kind in each rack and pod do not change, so
// neither does any slot count. A unit holding a job pinned to it, or a MIG node (instances sit at
// fixed slices), keeps its contents where the repack put them, and so do the rack and pod around
// it.
#pragma once

#include <span>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::detail {

/// One running job: its pods before the repack and after it (empty: it was not placed).
struct RepackedJob {
    std::span<const PodPlacement> before;
    std::vector<PodPlacement> after;
    PinLevel pinLevel = PinLevel::None;  ///< its pin: what it holds must stay in that unit
    /// What keeping one of its GPUs in place saves (its run time so far + startup, seconds):
    /// the greedy matching weighs pairs by it, so long-running jobs stay first.
    double secondsAtStake = 1;
};

/// The highest level whose units may exchange contents (below it, every level may).
enum class SwapFrom { Pods, Racks, Nodes };

/// Rewrites each job's `after` (node and GPU mask of every pod) as the header says.
/// `states`: every node's state at t. The matching is greedy, level by level: which top level
/// leaves the least restarted work depends on the fleet, so the caller tries each.
void keepInPlace(const Fleet& fleet, std::span<const NodeState> states,
                 std::vector<RepackedJob>& jobs, SwapFrom from);

}  // namespace gpuplan::detail
