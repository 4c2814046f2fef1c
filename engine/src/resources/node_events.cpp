#include "node_events.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "model/random.hpp"

namespace gpuplan::detail {

namespace {

/// Each node's failures and, on spot nodes, reclaims: from its delivery on, up times end at
/// the first of a failure (exponential, mean MTBF ÷ its GPUs) and a reclaim (exponential,
/// SpotDef::meanTimeToReclaimS); a failure is down repairS, a reclaim noticeS of notice and
/// returnS until the next instance. Both clocks start afresh after each down time (they are
/// memoryless). A stream per node and process (seed, node), so adding a node changes no other
/// node's, and a fleet without spot draws the failures it always did.
void drawFailuresAndReclaims(const Fleet& fleet, const Scenario& scenario,
                             std::vector<NodeChangeEvent>& changes) {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    for (std::uint32_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        const bool spot = scenario.spot && node.buyingClass == BuyingClass::Spot;
        if (node.gpus == 0 || node.initialState == NodeState::Failed) continue;
        if (!scenario.failures && !spot) continue;
        double t = 0;
        if (node.initialState == NodeState::Provisioning) {
            if (node.readyAtS <= 0) continue;  // never delivered by itself
            t = node.readyAtS;
        }
        auto stream = [&](std::uint64_t salt) {
            std::uint64_t mix = scenario.seed ^ salt;
            return Rng(splitmix64(mix) ^ (std::uint64_t{n} * 0x9e3779b97f4a7c15ull));
        };
        Rng failures = stream(0x6661696c75726573ull);  // "failures"
        Rng reclaims = stream(0x7265636c61696d73ull);  // "reclaims"
        const double meanUpS =
            scenario.failures ? scenario.failures->mtbfGpuHours * 3600 / node.gpus : kNever;
        const double meanToReclaimS = spot ? scenario.spot->meanTimeToReclaimS() : kNever;
        auto add = [&](double at, NodeState state, NodeChangeCause cause) {
            if (at >= scenario.horizonS) return false;
            changes.push_back({at, n, n + 1, state, false, cause});
            return true;
        };
        for (;;) {
            const double failAt = scenario.failures ? t + failures.exponential(meanUpS) : kNever;
            const double reclaimAt = spot ? t + reclaims.exponential(meanToReclaimS) : kNever;
            if (failAt <= reclaimAt) {
                if (!add(failAt, NodeState::Failed, NodeChangeCause::Failure)) break;
                t = failAt + scenario.failures->repairS;
                if (!add(t, NodeState::Ready, NodeChangeCause::Repair)) break;
            } else {
                if (!add(reclaimAt, NodeState::Cordoned, NodeChangeCause::SpotNotice)) break;
                t = reclaimAt + scenario.spot->noticeS;
                if (!add(t, NodeState::Failed, NodeChangeCause::SpotReclaim)) break;
                t += scenario.spot->returnS;
                if (!add(t, NodeState::Ready, NodeChangeCause::SpotReturn)) break;
            }
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
            changes.push_back(
                {node.readyAtS, n, end, NodeState::Ready, true, NodeChangeCause::Delivery});
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
    drawFailuresAndReclaims(fleet, scenario, changes);
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
