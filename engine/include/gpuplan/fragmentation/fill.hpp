// The FGD paper's "fill" experiment (Weng et al., "Beware of Fragmentation", USENIX ATC 2023):
// pods of an openb pod list arrive one at a time on the openb GPU nodes and never leave; a
// placement policy puts each where it scores best; after every arrival the allocation and the
// fragmentation are recorded. Details settled from the paper's simulator
// (hkust-adsl/kubernetes-scheduler-simulator 8f3d641), cited where they apply in the sources.
//
// Protocol (pkg/simulator/core.go Simulate, simulator.go):
//  1. shuffle the pod list with the seed (SortClusterPods);
//  2. resample (TunePodsByNodeTotalResource): below `tune` × GPU capacity, append pods drawn
//     uniformly from the list until the next one would pass it (the test uses the drawn pod's
//     per-GPU milli, as the simulator does); above, remove pods at random until it is reached;
//  3. the nodes get a random order from the seed, which breaks ties between equal scores (the
//     simulator prefixes node names with a random permutation and its kube-scheduler picks the
//     smallest name among the best scores: generic_scheduler.go selectHost);
//  4. pods arrive in order; a pod that fits nowhere fails and is counted as arrived.
// Random numbers come from our own generator (xoshiro256**, engine/src/model/random.hpp), one
// stream per purpose derived from the seed, not Go's: same inputs and seed give the same curve.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string_view>
#include <vector>

#include "gpuplan/model/openb.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan {

/// The study's placement policies (pkg/simulator/plugin/*_score.go).
enum class FillPolicy { Fgd, BestFit, DotProd, GpuPacking, GpuClustering, Random };

/// Every policy, in the order of the study's tables.
inline constexpr FillPolicy kFillPolicies[] = {FillPolicy::Fgd,        FillPolicy::BestFit,
                                               FillPolicy::GpuPacking, FillPolicy::GpuClustering,
                                               FillPolicy::DotProd,    FillPolicy::Random};

/// The command-line name: fgd, bestfit, dotprod, packing, clustering, random.
std::string_view fillPolicyKey(FillPolicy policy);
/// The study's name: FGD, BestFit, DotProd, GpuPacking, GpuClustering, Random.
std::string_view fillPolicyName(FillPolicy policy);
/// By command-line name; nullopt for anything else.
std::optional<FillPolicy> parseFillPolicy(std::string_view key);

using FillProgressFn = std::function<void(double fraction)>;

struct FillSpec {
    std::vector<OpenbNode> nodes;  ///< the node list; only GPU nodes are used
    std::vector<OpenbPod> pods;    ///< the pod list as read (it also gives the target workload)
    FillPolicy policy = FillPolicy::Fgd;
    std::uint64_t seed = 42;
    /// Arrivals' GPU demand as a multiple of GPU capacity; 0 = the shuffled list as it is.
    double tune = 1.3;
    /// false: the list's own order before resampling (the simulator's shufflePod: false);
    /// the study shuffles.
    bool shuffle = true;
    FillProgressFn progress;  ///< called with the share of arrivals done, now and then
    std::stop_token stop;     ///< a stop request ends the run at the next few arrivals
};

/// The state after one arrival. Percentages are of the fleet's GPU capacity (1000 milli-GPU
/// per GPU) unless named otherwise.
struct FillRow {
    double arrivedPct = 0;      ///< GPU demand of every pod arrived so far, failed ones too
    double allocPct = 0;        ///< milli-GPU held by placed pods
    double fragRatioPct = 0;    ///< fragment ÷ free milli-GPU (0 when nothing is free)
    double fragAmountPct = 0;   ///< fragment ÷ capacity
    std::int32_t pod = 0;       ///< index into FillSpec::pods of the pod that arrived
    std::int32_t node = -1;     ///< fleet node it went to; −1 = it failed
    std::uint64_t gpuMask = 0;  ///< GPUs it took on that node (one bit for a share)
    bool placed() const { return node >= 0; }
};

struct FillResult {
    std::vector<FillRow> curve;  ///< one row per arrival, in arrival order
    /// The simulator's reading of the curve at 100 % and 90 % arrived (fillReading).
    double allocPctAt100 = 0;
    double fragRatioPctAt90 = 0;
    double allocPctFinal = 0;  ///< after the last arrival
    int listedPods = 0;        ///< pods in the list
    int placed = 0, failed = 0;
    int nodes = 0, totalGpus = 0;
    int workloadShapes = 0;  ///< task shapes in the target workload
    double seconds = 0;      ///< wall time of the run
    /// What the run cost: node scores computed (the rest came from the cache), and node
    /// states whose F_n was computed (the rest came from the memo).
    std::uint64_t scoresComputed = 0;
    std::uint64_t fragmentStates = 0;
    bool stopped = false;  ///< a stop request ended it early: the curve is cut short
};

/// Runs one fill. Throws std::invalid_argument for a node list without GPU nodes, an empty
/// pod list, a negative or non-finite tune, or resampling that would make more than
/// 20,000,000 arrivals.
FillResult runFill(const FillSpec& spec);

/// How the simulator's analysis reads a curve at an arrived percentage
/// (experiments/analysis/merge_alloc_discrete.py, merge_frag_ratio_discrete.py): the mean of
/// `field` over the rows whose arrived % rounds (half to even, as Python's round) to
/// `arrivedPct`; when none does, over those rounding to arrivedPct − 1 … arrivedPct + 1;
/// NaN when none of those either.
double fillReading(std::span<const FillRow> curve, int arrivedPct, double FillRow::*field);

}  // namespace gpuplan
