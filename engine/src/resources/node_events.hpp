// Node lifecycle changes over a run: deliveries (readyAtS) and the scenario's node events,
// in the order they take effect. One path for both users, so the run (simulate) and the drop
// check (checkFit) always agree on which nodes are Ready at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/run_record.hpp"
#include "resources/cluster_state.hpp"

namespace gpuplan::detail {

/// A state change for the nodes [firstNode, endNode): one node, a rack, a pod, or a run of
/// nodes that finish provisioning together.
struct NodeChangeEvent {
    double timeS = 0;
    std::uint32_t firstNode = 0;
    std::uint32_t endNode = 0;
    NodeState state = NodeState::Ready;
    bool delivery = false;  ///< readyAtS: only nodes still Provisioning turn Ready
    NodeChangeCause cause = NodeChangeCause::Scheduled;
};

/// Deliveries, the scenario's node events, its random failures (FailureDef: each a Failed
/// change and, repairS later, a Ready one) and spot reclaims (SpotDef: a Cordoned notice,
/// Failed noticeS later, Ready returnS after that), sorted by time; at equal times deliveries
/// first, then the scenario's events in the order listed, then failures and reclaims by node.
/// Throws
/// std::invalid_argument for a node event that names no node, rack or pod.
std::vector<NodeChangeEvent> nodeChangeEvents(const Fleet& fleet, const Scenario& scenario);

/// Applies one change to the cluster. For each node whose state it changes, `beforeChange`
/// runs first with the node and its new state (the run evicts and records there). Nodes
/// already in the state are skipped, and a delivery does not revive a node that left
/// Provisioning meanwhile (it failed or was cordoned before it arrived).
void applyNodeChange(ClusterState& cluster, const NodeChangeEvent& change,
                     const std::function<void(std::uint32_t node, NodeState to)>& beforeChange);

}  // namespace gpuplan::detail
