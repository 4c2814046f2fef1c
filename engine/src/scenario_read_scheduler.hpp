// Reading a scenario's "scheduler" section (SchedulerDef) and its "failures" (FailureDef).
#pragma once

#include "gpuplan/scenario.hpp"
#include "gpuplan/topology.hpp"
#include "json_reader.hpp"

namespace gpuplan::detail {

/// Reads the optional "scheduler" object into `scheduler`: unknown keys, enumerations out of
/// their sets and numbers out of range fail with the JSON pointer (InputError).
void readScheduler(JsonObject& root, SchedulerDef& scheduler);

/// Reads the optional "failures" object: mtbfGpuHours (default Llama 3's) and repairS.
void readFailures(JsonObject& root, Scenario& s);

/// Node failures a run of `s` on `fleet` would draw, about (expected count).
double expectedFailures(const Scenario& s, const Fleet& fleet);

}  // namespace gpuplan::detail
