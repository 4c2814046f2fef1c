// A refusal in a planner's words: the scenario file's JSON pointer ("/jobClasses/1/durationS/
// median") becomes the object's name and the field in words ("job class "fine-tune" ·
// duration median"), and the numbers of the reason get the field's unit. Pure functions.
#pragma once

#include <QString>
#include <string>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

/// `pointer` in words, objects named from `scenario`; an unknown key is kept as it is, an
/// object past the end of its list is named by its 1-based position.
QString describePlace(const Scenario& scenario, const std::string& pointer);
/// The unit of the field `pointer` ends in (the innermost known one: "s", "GB", "jobs/h"),
/// or empty.
QString unitOfPlace(const std::string& pointer);
/// "job class "fine-tune" · duration median: must be between 1 and 10000000000 s, got
/// -10800 s". An empty pointer leaves the message as it is.
QString refusalText(const Scenario& scenario, const std::string& pointer,
                    const std::string& message);

}  // namespace gpuplan::app
