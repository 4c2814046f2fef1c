// The pending list at exact times: built once at the end of a run from the job records, the
// run segments and the diagnoses recorded between samples (see Results::pendingAt).
#pragma once

#include "gpuplan/results/results.hpp"

namespace gpuplan::detail {

/// Fills Results::pendingSpans and groups Results::jobDiagnoses by job. `endS` is where the
/// run ended (the horizon, or earlier when stopped).
void indexPending(Results& results, double endS);

}  // namespace gpuplan::detail
