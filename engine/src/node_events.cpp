#include "node_events.hpp"

#include <algorithm>
#include <stdexcept>

#include "random.hpp"

namespace gpuplan::detail {

namespace {

/// Each node's failures: up times drawn from an exponential of mean MTBF ÷ its GPUs, from its
/// delivery on; down repairS each time. A stream per node (seed, node), so adding a node
/// changes no other node's failures.
void drawFailures(const Fleet& fleet, const Scenario& scenario,
                  std::vector<NodeChangeEvent>& changes) {
    const FailureDef& f = *scenario.failures;
    for (std::uint32_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        if (node.gpus == 0 || node.initialState == NodeState::Failed) continue;
        double t = 0;
        if (node.initialState == NodeState::Provisioning) {
            if (node.readyAtS <= 0) continue;  // never delivered by itself
            t = node.readyAtS;
        }
        std::uint64_t mix = scenario.seed ^ 0x6661696c75726573ull;  // "failures"
        Rng rng(splitmix64(mix) ^ (std::uint64_t{n} * 0x9e3779b97f4a7c15ull));
        const double meanUpS = f.mtbfGpuHours * 3600 / node.gpus;
        for (;;) {
            t += rng.exponential(meanUpS);
            if (t >= scenario.horizonS) break;
            changes.push_back({t, n, n + 1, NodeState::Failed});
            t += f.repairS;
            if (t >= scenario.horizonS) break;
            changes.push_back({t, n, n + 1, NodeState::Ready});
        }
    }
}

}  // namespace

std::vector<NodeChangeEvent> nodeChangeEvents(const Fleet& fleet, const Scenario& scenario) {
    const std::vector<NodeEventDef>& events = scenario.nodeEvents;
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
    if (scenario.failures) drawFailures(fleet, scenario, changes);
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
