#include "node_events.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuplan::detail {

std::vector<NodeChangeEvent> nodeChangeEvents(const Fleet& fleet,
                                              const std::vector<NodeEventDef>& events) {
    std::vector<NodeChangeEvent> changes;
    // Consecutive nodes that turn Ready at the same time share one change.
    for (std::uint32_t n = 0; n < fleet.nodes.size();) {
        const FleetNode& node = fleet.nodes[n];
        std::uint32_t end = n + 1;
        if (node.initialState == NodeState::Provisioning && node.readyAtS > 0) {
            while (end < fleet.nodes.size() &&
                   fleet.nodes[end].initialState == NodeState::Provisioning &&
                   fleet.nodes[end].readyAtS == node.readyAtS)
                ++end;
            changes.push_back({node.readyAtS, n, end, NodeState::Ready, true});
        }
        n = end;
    }
    for (const NodeEventDef& def : events) {
        NodeChangeEvent e{def.timeS, 0, 0, def.state};
        if (auto n = fleet.findNode(def.node)) {
            e.firstNode = static_cast<std::uint32_t>(*n);
            e.endNode = e.firstNode + 1;
        } else if (auto r = fleet.findRack(def.node)) {
            e.firstNode = static_cast<std::uint32_t>(fleet.racks[*r].firstNode);
            e.endNode = e.firstNode + static_cast<std::uint32_t>(fleet.racks[*r].nodeCount);
        } else if (auto p = fleet.findPod(def.node)) {
            e.firstNode = static_cast<std::uint32_t>(fleet.pods[*p].firstNode);
            e.endNode = e.firstNode + static_cast<std::uint32_t>(fleet.pods[*p].nodeCount);
        } else {
            throw std::invalid_argument("node event for unknown node " + def.node);
        }
        changes.push_back(e);
    }
    std::stable_sort(changes.begin(), changes.end(),
                     [](const auto& a, const auto& b) { return a.timeS < b.timeS; });
    return changes;
}

void applyNodeChange(ClusterState& cluster, const NodeChangeEvent& change,
                     const std::function<void(std::uint32_t node, NodeState to)>& beforeChange) {
    for (std::uint32_t node = change.firstNode; node < change.endNode; ++node) {
        const NodeState before = cluster.state(static_cast<int>(node));
        if (before == change.state) continue;
        if (change.delivery && before != NodeState::Provisioning) continue;
        if (beforeChange) beforeChange(node, change.state);
        cluster.setState(static_cast<int>(node), change.state);
    }
}

}  // namespace gpuplan::detail
