// What changed against the baseline, in words a meeting reads: "+2 racks in pod-a
// (+8 × DGX H100, +64 GPUs); demand × 1.3". Derived by comparing the two built fleets (pods,
// racks and nodes by type, and nodes by name for their buying class, sharing, delivery, speed
// and price) and, when the baseline's scenario is known, the two scenarios (demand, horizon,
// scheduler, teams, quotas, prices, job classes, explicit jobs, traces, failures, spot,
// on-demand scaling, buying mix, fabric); whatever else differs is said to differ.
#pragma once

#include <QStringList>

#include "fleet_description.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

struct BaselineChanges {
    QStringList changes;  ///< one phrase each, most important first (the fleet, then demand)
    /// False when only the fleets could be compared (the baseline's scenario was not given).
    bool settingsCompared = true;
};

/// `baselineScenario` null: the fleets only.
BaselineChanges compareWithBaseline(const Fleet& baselineFleet, const Scenario* baselineScenario,
                                    const Fleet& fleet, const Scenario& scenario,
                                    const NodeTypeNames& names);

/// The phrases joined with "; ", or that nothing differs.
QString changesSentence(const BaselineChanges& changes);

}  // namespace gpuplan::report
