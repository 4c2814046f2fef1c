#include "cluster_state.hpp"

#include <cassert>
#include <stdexcept>

namespace gpuplan::detail {

namespace {
bool isProvisioned(NodeState s) {
    return s == NodeState::Ready || s == NodeState::Cordoned;
}
}  // namespace

ClusterState::ClusterState(const Fleet& fleet)
    : m_fleet(&fleet),
      m_models(static_cast<int>(fleet.gpuModels.size())),
      m_width(fleet.maxGpusPerNode + 1) {
    const int n = static_cast<int>(fleet.nodes.size());
    const int maxCount = fleet.maxGpusPerNode;
    m_free.resize(n);
    m_freeCount.resize(n);
    m_state.assign(n, NodeState::Failed);
    m_buckets.assign(static_cast<std::size_t>(m_models) * m_width, IndexSet(n));
    for (auto& byScope : m_hist) {
        byScope[static_cast<int>(Scope::Fleet)] = UnitHistograms(1, m_models, maxCount);
        byScope[static_cast<int>(Scope::Pod)] =
            UnitHistograms(static_cast<int>(fleet.pods.size()), m_models, maxCount);
        byScope[static_cast<int>(Scope::Rack)] =
            UnitHistograms(static_cast<int>(fleet.racks.size()), m_models, maxCount);
    }
    m_nodesByState.assign(static_cast<std::size_t>(m_models) * 4, 0);
    m_rows.resize(n);
    for (int i = 0; i < n; ++i) {
        const FleetNode& node = fleet.nodes[i];
        const auto& byScope = m_hist[static_cast<int>(Basis::FreeNow)];
        m_rows[i].model = static_cast<std::uint32_t>(node.gpuModel);
        m_rows[i].row = {
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Fleet)].rowOffset(0, node.gpuModel)),
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Pod)].rowOffset(node.pod, node.gpuModel)),
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Rack)].rowOffset(node.rack, node.gpuModel))};
        m_free[i] = fullMask(node.gpus);
        m_freeCount[i] = static_cast<std::uint8_t>(slotCount(m_free[i]));
        count(Basis::FleetEmpty, i, node.gpus, +1);
        // Start from Failed (not indexed) and move to the initial state through setState,
        // so all counters go through one path.
        m_nodesByState[node.gpuModel * 4 + static_cast<int>(NodeState::Failed)] += 1;
        setState(i, node.initialState);
    }
}

void ClusterState::indexNode(int node, int sign) {
    const FleetNode& info = m_fleet->nodes[node];
    const int free = m_freeCount[node];
    const int model = info.gpuModel;
    if (sign > 0)
        m_buckets[model * m_width + free].insert(static_cast<std::uint32_t>(node));
    else
        m_buckets[model * m_width + free].erase(static_cast<std::uint32_t>(node));
    count(Basis::FreeNow, node, free, sign);
    m_readyFreeGpus += sign * free;
}

void ClusterState::reindexNode(int node, int before) {
    const int after = m_freeCount[node];
    const int model = static_cast<int>(m_rows[node].model);
    m_buckets[model * m_width + before].erase(static_cast<std::uint32_t>(node));
    m_buckets[model * m_width + after].insert(static_cast<std::uint32_t>(node));
    moveCount(Basis::FreeNow, node, before, after);
    m_readyFreeGpus += after - before;
}

void ClusterState::occupy(int node, std::uint64_t mask) {
    if ((m_free[node] & mask) != mask)
        throw std::logic_error("GPU slot given twice on node " + m_fleet->nodes[node].name);
    const int before = m_freeCount[node];
    const int gpus = slotCount(mask);
    m_free[node] &= ~mask;
    m_freeCount[node] = static_cast<std::uint8_t>(before - gpus);
    if (schedulable(node)) reindexNode(node, before);
    m_allocatedGpus += gpus;
}

void ClusterState::release(int node, std::uint64_t mask) {
    if ((m_free[node] & mask) != 0)
        throw std::logic_error("releasing a free GPU slot on node " + m_fleet->nodes[node].name);
    const int before = m_freeCount[node];
    const int gpus = slotCount(mask);
    m_free[node] |= mask;
    m_freeCount[node] = static_cast<std::uint8_t>(before + gpus);
    if (schedulable(node)) reindexNode(node, before);
    m_allocatedGpus -= gpus;
}

void ClusterState::setState(int node, NodeState next) {
    const NodeState prev = m_state[node];
    if (prev == next) return;
    ++m_stateChanges;
    const FleetNode& info = m_fleet->nodes[node];
    if (prev == NodeState::Ready) {
        indexNode(node, -1);
        count(Basis::ReadyEmpty, node, info.gpus, -1);
    }
    const double peakTflops = info.gpus * m_fleet->gpuModels[info.gpuModel].bf16DenseTflops;
    if (isProvisioned(prev)) {
        m_provisionedGpus -= info.gpus;
        m_provisionedPeakTflops -= peakTflops;
    }
    m_nodesByState[info.gpuModel * 4 + static_cast<int>(prev)] -= 1;
    m_state[node] = next;
    m_nodesByState[info.gpuModel * 4 + static_cast<int>(next)] += 1;
    if (isProvisioned(next)) {
        m_provisionedGpus += info.gpus;
        m_provisionedPeakTflops += peakTflops;
    }
    if (next == NodeState::Ready) {
        indexNode(node, +1);
        count(Basis::ReadyEmpty, node, info.gpus, +1);
    }
}

void ClusterState::count(Basis basis, int node, int count, int delta) {
    const FleetNode& info = m_fleet->nodes[node];
    auto& byScope = m_hist[static_cast<int>(basis)];
    byScope[static_cast<int>(Scope::Fleet)].add(0, info.gpuModel, count, delta);
    byScope[static_cast<int>(Scope::Pod)].add(info.pod, info.gpuModel, count, delta);
    byScope[static_cast<int>(Scope::Rack)].add(info.rack, info.gpuModel, count, delta);
}

void ClusterState::moveCount(Basis basis, int node, int from, int to) {
    auto& byScope = m_hist[static_cast<int>(basis)];
    for (int scope = 0; scope < 3; ++scope)
        byScope[scope].moveInRow(m_rows[node].row[scope], from, to);
}

}  // namespace gpuplan::detail
