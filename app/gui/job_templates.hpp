// The job palette's templates: one per job class of the scenario (its team, priority and
// traits, typical size and median run time), then a few ready ones sized to the fleet's GPUs
// (for the first team, priority 0; the palette may choose both).
#pragma once

#include <vector>

#include "gpuplan/scenario.hpp"
#include "job_template.hpp"

namespace gpuplan::app {

std::vector<ui::JobTemplate> jobTemplates(const Scenario& scenario);
const ui::JobTemplate* findTemplate(const std::vector<ui::JobTemplate>& templates,
                                    const QString& id);

}  // namespace gpuplan::app
