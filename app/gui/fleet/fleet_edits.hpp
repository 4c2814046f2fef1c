// Fleet edits as pure functions on a Scenario: each returns the scenario after the edit, or the
// reason it is refused, and never touches its input. Qt-free so tests need no widgets.
//
// Names of racks and nodes are generated ("pod-a-rack2-node1", see topology.cpp), so an edit
// can rename or remove what a pin or a node event names. Every edit carries such references
// along to the same physical pod, rack or node; a pin on something the edit removes refuses
// the edit with the job's name, and node events on it are removed with it (said in the label).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

/// A pod, rack or node-group definition in Scenario::pods; rack and group are −1 above their
/// level.
struct FleetDefPath {
    int pod = -1, rack = -1, group = -1;
    int level() const { return group >= 0 ? 2 : rack >= 0 ? 1 : 0; }
    bool operator==(const FleetDefPath&) const = default;
};

/// A proposed scenario, or the reason there is none. `label` names the edit for the undo menu.
struct FleetEdit {
    std::optional<Scenario> scenario;
    std::string error;
    std::string label;
    bool ok() const { return scenario.has_value(); }
};

// ---- definitions (the Fleet panel) ------------------------------------------------------

/// A pod with one rack like the last pod's first rack.
FleetEdit addPod(const Scenario& s);
/// A rack in pod definition `pod`, like its last rack.
FleetEdit addRack(const Scenario& s, int pod);
/// A node group in a rack definition, like its last group.
FleetEdit addNodeGroup(const Scenario& s, int pod, int rack);
/// A copy of the definition right after it, under a fresh name.
FleetEdit duplicateDef(const Scenario& s, FleetDefPath path);
FleetEdit removeDef(const Scenario& s, FleetDefPath path);
/// Copies of a definition. Going from 1 to more renames "rack3" to "rack30" (and back):
/// references follow; references to copies that go away refuse the edit.
FleetEdit setCount(const Scenario& s, FleetDefPath path, int count);
FleetEdit renameDef(const Scenario& s, FleetDefPath path, const std::string& name);
FleetEdit setNodeType(const Scenario& s, FleetDefPath group, const std::string& nodeTypeId,
                      const Catalog& catalog);
FleetEdit setBuyingClass(const Scenario& s, FleetDefPath group, BuyingClass buyingClass);
/// readyAtS > 0: a delivery, Provisioning until then; 0: there from the start (Ready).
FleetEdit setReadyAt(const Scenario& s, FleetDefPath group, double readyAtS);
/// How a group's nodes start: Ready, Cordoned or Failed (Provisioning comes with a delivery
/// time, setReadyAt). Its delivery time, if any, goes: the nodes are there from the start.
FleetEdit setGroupState(const Scenario& s, FleetDefPath group, NodeState state);
/// The fabric's oversubscription above racks (rack = true) or above pods, N:1, N ≥ 1.
FleetEdit setUplinkOversubscription(const Scenario& s, bool rack, double ratio);

// ---- generated pods, racks and nodes (the topology's right-click) -----------------------
// A rack inside a pod definition with count > 1 is one of identical copies; these edits first
// split the definition so that only the pod, rack or node the user clicked changes, keeping
// every generated name.

/// `copies` more racks like `rackName` in its pod: the rack definition's count grows when that
/// keeps every name, otherwise the copies are new definitions under fresh names.
FleetEdit duplicateRack(const Scenario& s, const std::string& rackName, int copies);
FleetEdit removeRack(const Scenario& s, const std::string& rackName);
FleetEdit removeNode(const Scenario& s, const std::string& nodeName);
/// `target` (node, rack or pod) changes to `state` at `timeS` (cordon, failure, repair).
FleetEdit addNodeEvent(const Scenario& s, const std::string& target, double timeS, NodeState state);
/// A new rack in pod `podName` (the last pod when empty), like that pod's first rack, whose
/// nodes are Provisioning until `readyAtS`.
FleetEdit addDelivery(const Scenario& s, const std::string& podName, double readyAtS);

/// The node-group definitions that generate the pod, rack or node named `name` (shared with
/// its identical copies, if any); empty when nothing has that name.
std::vector<FleetDefPath> groupsOf(const Scenario& s, const std::string& name);
/// Splits `s`'s definitions so that the pod, rack or node named `name` has definitions of its
/// own (every generated name kept) and returns its node groups; nothing when no pod, rack or
/// node has that name. For edits of one generated entity (sharing_edits.cpp).
std::optional<std::vector<FleetDefPath>> isolateGroups(Scenario& s, const std::string& name);

}  // namespace gpuplan::app
