// The scenario in one paragraph for a report: fleet (pods, racks, nodes, GPUs by model,
// sharing, buying classes), teams and work, horizon (warm-up, sampling, seed, replications)
// and the scheduler.
#pragma once

#include <QString>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

/// `replications`: the runs behind the results (1 = one run).
QString describeScenario(const Scenario& scenario, const Results& results, int replications);

/// "a, b and c"; past `max` items "a, b, … and 7 more".
QString joinList(const QStringList& items, int max = 8);

}  // namespace gpuplan::report
