// Reading a scenario's "scheduler" section (SchedulerDef), its "failures" (FailureDef) and
// its "spot" reclaims (SpotDef).
#pragma once

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

/// Reads the optional "scheduler" object into `scheduler`: unknown keys, enumerations out of
/// their sets and numbers out of range fail with the JSON pointer (InputError).
void readScheduler(JsonObject& root, SchedulerDef& scheduler);

/// Reads the optional "failures" object: mtbfGpuHours (default Llama 3's) and repairS.
void readFailures(JsonObject& root, Scenario& s);

/// Reads the optional "spot" object: monthlyInterruptionFraction and returnS (required),
/// noticeS (default AWS's 120 s).
void readSpot(JsonObject& root, Scenario& s);

}  // namespace gpuplan::detail
