// GPU sharing edits as pure functions, like fleet_edits.hpp: node groups, or the groups of one
// generated pod, rack or node, switch between whole GPUs, MPS, time-slicing and MIG. A MIG
// layout is checked against each GPU model's geometry (ui::sharingRefusal, the engine's
// MigLayout), so the refusal names the hardware's rule and the GPU; client and replica ranges
// are the document's validation's to judge, as for a file.
#pragma once

#include <string>
#include <vector>

#include "fleet_edits.hpp"

namespace gpuplan::app {

/// Every node group `defs` stand for (a pod or rack path means all groups under it), each
/// once, in definition order.
std::vector<FleetDefPath> groupsUnder(const Scenario& s, const std::vector<FleetDefPath>& defs);

/// "node group "node" (pod-a / rack)", "rack "rack" of pod "pod-b"", "2 racks, 1 node group".
std::string definitionsName(const Scenario& s, const std::vector<FleetDefPath>& defs);

/// The node groups at `defs` (the Fleet panel's selection; pods and racks stand for their
/// groups) take `sharing`, all as one edit.
FleetEdit setSharing(const Scenario& s, const std::vector<FleetDefPath>& defs,
                     const GpuSharingDef& sharing);
/// The generated pod, rack or node `name` takes `sharing`; its definitions are split first so
/// that nothing else changes and every generated name stays.
FleetEdit setSharingOf(const Scenario& s, const std::string& name, const GpuSharingDef& sharing);

}  // namespace gpuplan::app
