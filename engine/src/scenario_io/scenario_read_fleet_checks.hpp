// Checks of a scenario that need its built fleet: how many failures and spot reclaims the run
// would draw, hot spares and the buying mix against the fleet's size, the prices the fleet's
// classes need, and FP8 jobs against the fleet's GPUs. One place for the reader (a file) and every
// edit the app validates.
#pragma once

#include <optional>
#include <string>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan::detail {

struct FleetProblem {
    std::string pointer;  ///< JSON pointer of the setting at fault
    std::string message;
};

/// The first problem, or nullopt.
std::optional<FleetProblem> fleetProblem(const Scenario& s, const Fleet& fleet);

/// A pinned class or job that no state of its target could ever hold (pin_check.hpp), once
/// every pin target resolves; nullopt when none.
std::optional<FleetProblem> pinProblem(const Scenario& s, const Fleet& fleet);

}  // namespace gpuplan::detail
