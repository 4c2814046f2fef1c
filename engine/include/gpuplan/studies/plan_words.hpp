// A plan in words, for the planning meeting: "+3 racks of 4 × DGX H100 in pod-a ▸ rack
// (4 → 7)" rather than "/topology/pods/0/racks/0/count = 7". The pointers the application
// offers (scenario_write's layout: pods, racks, node groups, the buying mix, quotas) are named
// by what they hold; any other pointer is given as it is.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

/// One change: the scenario's value at `pointer` going from `before` to `after` (as a person
/// reads them: 4, 7, dgx-h100). Unchanged: "pod-a ▸ rack: 4 racks, unchanged".
std::string describePlanChange(const Scenario& scenario, const std::string& pointer,
                               const std::string& before, const std::string& after);

/// What a pointer sets, as a person names it ("racks in pod-a ▸ rack", "team applied's quota of
/// h100-sxm GPUs"); the pointer itself when it is none of the known places.
std::string describePlanPlace(const Scenario& scenario, const std::string& pointer);

}  // namespace gpuplan
