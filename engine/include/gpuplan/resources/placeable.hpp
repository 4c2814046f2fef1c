// "Largest placeable job": how many gangs of common sizes could start now inside one node, one
// rack, one pod or anywhere, and the largest gang that could start at each level — the answer
// to "we have 200 free GPUs, why can't my 64-GPU job run?". And the defragmentation what-if:
// what re-placing the running work would free, and what it would cost in restarted work.
//
// Definitions (engine/README.md, "Largest placeable job"):
//  - A gang of G whole GPUs of one GPU model is cut into pods as a job naming that model is
//    (workload.cpp automaticGpusPerPod): p = the largest divisor of G ≤ the model's GPUs per
//    node, k = G / p pods, each pod on one node.
//  - Only wholly free GPUs of Ready nodes count, as the resource model defines them
//    (ClusterState's free bit): a GPU any share or MIG instance holds is not free, and a MIG
//    node has no whole GPUs.
//  - A slot at a level is a set of free GPUs inside ONE unit of it (a node, a rack, a pod; the
//    fleet: no locality) where such a gang can be placed. slots(level, G) counts disjoint ones:
//    per unit and model, ⌊(Σ over its nodes of ⌊free / p⌋) / k⌋, summed over units and models.
//  - largestGangGpus(level): the largest G that has a slot at that level, over G in
//    1 … GPUs per node and the multiples of GPUs per node (whole-node gangs: the shapes big
//    jobs have) and the table's sizes, maximised over GPU models.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan {

/// Where a gang must fit: inside one node, one rack, one pod, or anywhere in the fleet.
enum class SlotLevel : std::uint8_t { Node, Rack, Pod, Fleet };
inline constexpr int kSlotLevelCount = 4;
const char* toString(SlotLevel);  ///< "node", "rack", "pod", "fleet"

/// The table of one instant.
struct PlaceableSlots {
    /// The common gang sizes 1, 2, 4, … 256 that the largest model's whole GPUs can hold.
    std::vector<int> gangSizes;
    /// [level][i]: disjoint slots for a gang of gangSizes[i] GPUs.
    std::array<std::vector<long long>, kSlotLevelCount> slotCounts;
    /// [level]: the largest gang that could start now (0 when nothing is free).
    std::array<int, kSlotLevelCount> largestGangGpus{};
    int freeGpus = 0;  ///< wholly free GPUs on Ready nodes

    long long slotsFor(SlotLevel level, int gangGpus) const;  ///< 0 for a size not in the table
    int largest(SlotLevel level) const { return largestGangGpus[static_cast<int>(level)]; }
};

/// The table for the cluster at a snapshot (node states and holders from Results::stateAt).
PlaceableSlots placeableSlotsAt(const Fleet& fleet, const ClusterSnapshot& snapshot);

/// One sentence answering "why can't my G-GPU job run?" for the smallest table size no larger
/// than the free GPUs that has no slot at its own level (the smallest unit that could hold it
/// empty: node, rack, pod, fleet), e.g. "212 GPUs free, but no rack has 64 free GPUs on 8
/// whole nodes: the largest rack-local gang now is 40 GPUs. It fits inside one pod (up to 96
/// GPUs)."; or the largest gangs when every such size fits. Gang shapes are cut by the
/// fleet's largest GPUs per node.
std::string explainPlaceable(const PlaceableSlots& slots, const Fleet& fleet);

/// How the defragmentation what-if re-places the work: the scheduler's policies, or the FGD
/// study's node scores (fill_policies.hpp) pod by pod.
enum class DefragPolicy : std::uint8_t { Pack, Spread, Topology, Fgd, BestFit };
inline constexpr DefragPolicy kDefragPolicies[] = {DefragPolicy::Pack, DefragPolicy::Spread,
                                                   DefragPolicy::Topology, DefragPolicy::Fgd,
                                                   DefragPolicy::BestFit};
const char* toString(DefragPolicy);  ///< "pack", "spread", "topology", "fgd", "bestfit"

/// A running job the repack moves (it restarts).
struct DefragMove {
    std::uint32_t job = 0;
    double gpus = 0;      ///< GPU-equivalents it holds
    double doneS = 0;     ///< t − the start of its running segment: work lost (no checkpoints)
    double startupS = 0;  ///< paid again when it restarts
    /// gpus × (doneS + startupS) ÷ 3600.
    double restartedGpuHours() const { return gpus * (doneS + startupS) / 3600; }
};

struct DefragWhatIf {
    double timeS = 0;
    DefragPolicy policy = DefragPolicy::Pack;
    PlaceableSlots before, after;
    int runningJobs = 0;  ///< jobs holding GPUs at t
    int keptJobs = 0;     ///< re-placed on exactly the GPUs they held: no restart
    std::vector<DefragMove> moved;
    /// Running jobs the repack could not place again (pins, CPU or memory, shares); they keep
    /// nothing in `after`, which shows the fleet without them.
    std::vector<std::uint32_t> unplaced;
    double restartedGpuHours = 0;  ///< Σ over moved jobs
    bool stopped = false;          ///< a stop request ended it early: partial, not to be shown
};

using DefragProgressFn = std::function<void(double fraction)>;

/// Drains the fleet at `timeS` and places every job running then again, largest first
/// (GPU-equivalents, then the earlier segment start, then the job index), into the nodes
/// Ready at t with `policy`; among placements the policy cannot tell apart (identical nodes
/// of one rack, the GPUs of one node) it takes the one that moves the fewest jobs. Nothing in
/// `results` changes. `progress` is called now and then
/// with the share of jobs placed; a stop request ends it within a few dozen jobs. FGD and
/// BestFit score every node for every pod: about 0.6 s for 1,500 jobs on 1,250 nodes.
DefragWhatIf defragWhatIf(const Results& results, double timeS, DefragPolicy policy,
                          const DefragProgressFn& progress = {}, std::stop_token stop = {});

}  // namespace gpuplan
