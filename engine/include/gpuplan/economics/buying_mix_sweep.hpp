// How much to reserve: the scenario run at reserved levels from none to its peak
// demand, the rest bought on demand (elastic: OnDemandDef) and optionally a share of it on
// the spot market, each level's total cost; the cheapest level is the optimum. A job that
// starts on demand stays there, so with instant provisioning, no idle time and Poisson
// arrivals a level costs c_r·R + c_od·a·B(R, a) per hour (Erlang's loss formula,
// gpuplan/economics/reserved_overflow.hpp), more than the newsvendor's fluid c_r·R + c_od·E[(D −
// R)+] and cheapest at a higher R. `gpuplan-cli mix` prints it; the application's buying-mix panel
// draws it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

struct MixLevel {
    int reservedNodes = 0;
    int reservedGpus = 0;
    int spotNodes = 0;
    double costUsd = 0;
    double waitP95S = 0;  ///< wait_s_p95 of the run
    double jobsWaitingAtEnd = 0;
};

struct MixSweep {
    std::vector<MixLevel> levels;  ///< by reservedNodes, rising
    std::size_t optimum = 0;       ///< the cheapest level (the fewest reserved among equals)
    int peakDemandGpus = 0;        ///< most GPUs jobs held at a sample, everything on demand
    int peakDemandNodes = 0;       ///< the first nodes, in fleet order, holding that many
    OnDemandDef onDemand;          ///< the scenario's, or the default below
    bool onDemandDefaulted = false;
    bool stopped = false;  ///< a stop request ended the sweep early: levels are partial
};

struct MixSweepOptions {
    int levels = 21;       ///< at most this many reserved levels, 0 .. peak (≥ 2)
    double spotShare = 0;  ///< of the nodes above the reservation (up to the peak), spot
    /// Instead of the share: this many spot nodes at every level (fewer where the reservation
    /// leaves less of the fleet), as a mix with a fixed spot count is varied.
    std::optional<int> spotNodes;
    unsigned threads = 0;                  ///< levels at a time; 0 = the hardware's threads
    std::function<void(double)> progress;  ///< fraction done, from the calling thread
    std::stop_token stop;
};

/// Without the scenario's own: on-demand nodes provisioned at once and given back after
/// cluster-autoscaler's 10 minutes idle.
inline const OnDemandDef kDefaultMixOnDemand{0, 600, std::nullopt};

/// Runs the sweep. Throws std::invalid_argument when the scenario has no pricing (or a node
/// list fleet), or options out of range. Deterministic: the same scenario and options give
/// the same levels whatever the thread count.
MixSweep sweepReservedLevels(const Scenario& scenario, const MixSweepOptions& options = {});

/// The scenario one level runs: the mix and on-demand settings set.
Scenario scenarioAtLevel(const Scenario& scenario, const OnDemandDef& onDemand, int reservedNodes,
                         int spotNodes);

}  // namespace gpuplan
