// Reliability edits as pure functions: random node failures on or off, their
// per-GPU MTBF, repair time and hot spares. The result is committed through ScenarioDocument::edit,
// which checks it by the reader's rules (an MTBF that would draw too many failures, a repair time
// out of range) and makes it one undo step.
#pragma once

#include <QString>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

struct ReliabilityEdit {
    Scenario after;
    QString text;  ///< the undo step's name
};

/// On: failures at `mtbfGpuHours` per GPU, each down for `repairS`. Off: no random failures
/// (the scenario's own node events stay).
ReliabilityEdit setRandomFailures(const Scenario& s, bool on, double mtbfGpuHours, double repairS);
/// These two change the failures the scenario has; without failures they change nothing (the
/// settings group keeps the value for when failures are turned on).
ReliabilityEdit setMtbfGpuHours(const Scenario& s, double mtbfGpuHours);
ReliabilityEdit setRepairS(const Scenario& s, double repairS);
/// Nodes kept idle to replace a failed one at once (FailureDef::hotSpareNodes).
ReliabilityEdit setHotSpareNodes(const Scenario& s, int nodes);

}  // namespace gpuplan::app
