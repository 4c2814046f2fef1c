// The fill protocol's random parts (pkg/simulator/core.go Simulate, simulator.go): the order
// pods arrive in, after shuffling and resampling to `tune` × capacity, and the node order that
// breaks ties between equal scores. Each draws from its own stream of our generator, seeded
// from the run's seed (fillStream), so one part can change without moving the others.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpuplan/model/openb.hpp"
#include "model/random.hpp"

namespace gpuplan::detail {

/// The random streams of a fill run.
enum class FillStream : std::uint64_t {
    Arrivals = 0x5EED'A441'7A15'0001ull,   ///< shuffle, then resampling
    NodeOrder = 0x5EED'0DE5'0DE5'0002ull,  ///< tie-break order of the nodes
    Policy = 0x5EED'90C1'C7D0'0003ull,     ///< Random's node and GPU draws
};
inline Rng fillStream(std::uint64_t seed, FillStream stream) {
    return Rng(seed ^ static_cast<std::uint64_t>(stream));
}

/// Arrivals bound: resampling a list of mostly CPU-only pods towards a GPU target could
/// otherwise make billions.
inline constexpr std::size_t kMaxFillArrivals = 20'000'000;

/// Indices into `pods`, in arrival order: the list shuffled (Fisher–Yates), then resampled
/// as TunePodsByNodeTotalResource does. With T = tune × capacityMilli and D the list's GPU
/// demand (Σ numGpu · gpuMilli):
///  - D < T (tuneUpPods): draw a pod of the list uniformly; stop when D + its per-GPU milli
///    passes T (the simulator's test: gpuMilli, not numGpu · gpuMilli), else append it and
///    add its demand; CPU-only pods always go in;
///  - D > T (tuneDownPods): remove a pod at a uniformly drawn position while D > T;
///  - tune 0, or D = T: the shuffled list.
/// A list without GPU demand is not resampled up (nothing would ever reach T; the simulator
/// refuses it). Throws std::invalid_argument past kMaxFillArrivals.
/// `shuffle` false keeps the list's order (resampling still draws from the same stream).
std::vector<std::int32_t> fillArrivalOrder(std::span<const OpenbPod> pods,
                                           std::int64_t capacityMilli, double tune,
                                           std::uint64_t seed, bool shuffle = true);

/// A uniformly random order of `nodes` node indices: among nodes of equal score the one that
/// comes first wins (selectHost keeps the smallest name, and the simulator names node i
/// "%04d-<name>" with a random permutation's i-th value: syncClusterResourceList).
std::vector<std::int32_t> fillNodeOrder(int nodes, std::uint64_t seed);

}  // namespace gpuplan::detail
