// Reading a scenario's "scheduler" section (SchedulerDef).
#pragma once

#include "gpuplan/scenario.hpp"
#include "json_reader.hpp"

namespace gpuplan::detail {

/// Reads the optional "scheduler" object into `scheduler`: unknown keys, enumerations out of
/// their sets and numbers out of range fail with the JSON pointer (InputError).
void readScheduler(JsonObject& root, SchedulerDef& scheduler);

}  // namespace gpuplan::detail
