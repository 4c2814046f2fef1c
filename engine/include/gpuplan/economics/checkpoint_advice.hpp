// The checkpoint interval a run's failures call for, beside the one configured: Young's and
// Daly's (checkpoint_policy.hpp) for each job source that pays for its checkpoints, from the
// MTBF of the nodes its jobs ran on. Shown in the inspector and by `gpuplan-cli run`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan {

struct CheckpointAdvice {
    std::string source;           ///< the job class (Results::jobClassName)
    CheckpointPolicy configured;  ///< what its jobs do
    double gpusExposed = 0;  ///< GPUs of the nodes a job ran on (any one failing ends it), mean
    double mtbfS = 0;        ///< a job's mean time between interruptions
    double youngS = 0;
    double dalyS = 0;
};

/// One job's advice, from the nodes of its last binding; none without random failures, a
/// checkpoint cost, or a binding.
std::optional<CheckpointAdvice> checkpointAdviceOf(const Results& results, std::uint32_t job);

/// Per job source (class, explicit jobs, trace) that pays for checkpoints, in source order,
/// from the mean exposure of its bound jobs; empty without random failures.
std::vector<CheckpointAdvice> checkpointAdvice(const Results& results);

}  // namespace gpuplan
