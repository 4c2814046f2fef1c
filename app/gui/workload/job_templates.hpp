// The job palette's templates: one per job class of the scenario (its team, priority and
// traits, typical size and median run time), then a few ready ones sized to the fleet's GPUs
// (for the first team, priority 0; the palette may choose both).
#pragma once

#include <optional>
#include <vector>

#include "editors/job_template.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

std::vector<ui::JobTemplate> jobTemplates(const Scenario& scenario);

/// The lowest and highest priority of the scenario's job classes; none without classes.
/// A drop below `low` waits behind all of the classes' demand, which the palette and the
/// drop's what-if text both say.
struct PriorityRange {
    int low = 0, high = 0;
};
std::optional<PriorityRange> classPriorityRange(const Scenario& scenario);
const ui::JobTemplate* findTemplate(const std::vector<ui::JobTemplate>& templates,
                                    const QString& id);

}  // namespace gpuplan::app
