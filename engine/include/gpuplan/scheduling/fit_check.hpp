// Would a job fit a target at all? The check behind a drop in the application: it looks at
// the fleet as bought and as provisioned at a time, ignoring every other job, and answers in
// the diagnoser's words (layer and kube-scheduler-style reason).
#pragma once

#include <string>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan {

struct FitVerdict {
    /// False when the job can never start where it is pinned (reservation layer).
    bool canEverFit = true;
    /// Reservation: never fits. Provisioning: fits once capacity is Ready. Scheduling: fits
    /// the Ready capacity (whether it starts at once depends on the other jobs).
    Layer layer = Layer::Scheduling;
    std::string reason;  ///< empty when it fits the empty Ready fleet
};

/// Judges `job` (with its pin) against `scenario`'s fleet at `timeS` (node states as of then)
/// with no other job running. Throws std::invalid_argument for unknown teams or targets.
FitVerdict checkFit(const Scenario& scenario, const JobDef& job, double timeS);

}  // namespace gpuplan
