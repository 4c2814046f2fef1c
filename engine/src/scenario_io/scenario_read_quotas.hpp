// Reading a scenario's "cohorts" and "quotas" (gpuplan/model/quota.hpp), with Kueue's rules.
#pragma once

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/scenario.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

/// Reads both sections into `s`. Needs s.teams and the fleet's GPU models (s.gpuModels) read
/// first. Fails (InputError, with the JSON pointer) on an unknown team, cohort or GPU model, a
/// second quota for a team, a cohort cycle, limits without a cohort, or a lending limit above
/// the nominal quota.
void readQuotas(JsonObject& root, Scenario& s);

}  // namespace gpuplan::detail
