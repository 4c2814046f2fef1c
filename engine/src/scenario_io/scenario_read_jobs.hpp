// Reading what a job class samples: its arrival process and its distributions (sizes,
// durations). Free of the reader's state, so each is read the one way wherever it appears.
#pragma once

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/scenario.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

/// ~317 years: any time field beyond is nonsense.
inline constexpr double kMaxTimeS = 1e10;

/// A distribution {"dist": fixed | exponential | lognormal | uniform | empirical, …} whose
/// values lie in [min, max]. Fails (InputError) with the JSON pointer.
DistributionDef readDistribution(const JsonNode& node, double min, double max);

/// An arrival process {"process": poisson | diurnal | list | tide, …}.
ArrivalDef readArrival(const JsonNode& node);

}  // namespace gpuplan::detail
