#include "cluster_state.hpp"

#include <bit>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpuplan::detail {

namespace {
bool isProvisioned(NodeState s) {
    return s == NodeState::Ready || s == NodeState::Cordoned || s == NodeState::Draining;
}
/// Free amount of a resource a node does not declare: never the limit, never overflows.
constexpr std::int64_t kUndeclared = std::numeric_limits<std::int64_t>::max() / 4;
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
    m_nodesByState.assign(static_cast<std::size_t>(m_models) * kNodeStateCount, 0);
    m_rows.resize(n);
    m_firstGpu.resize(n);
    m_freeCpuMilli.resize(n);
    m_freeMemoryMiB.resize(n);
    int gpus = 0;
    for (int i = 0; i < n; ++i) {
        const FleetNode& node = fleet.nodes[i];
        m_firstGpu[i] = gpus;
        gpus += node.gpus;
        m_freeCpuMilli[i] = node.cpuMilli > 0 ? node.cpuMilli : kUndeclared;
        m_freeMemoryMiB[i] = node.memoryMiB > 0 ? node.memoryMiB : kUndeclared;
        const auto& byScope = m_hist[static_cast<int>(Basis::FreeNow)];
        m_rows[i].model = static_cast<std::uint32_t>(node.gpuModel);
        m_rows[i].row = {
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Fleet)].rowOffset(0, node.gpuModel)),
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Pod)].rowOffset(node.pod, node.gpuModel)),
            static_cast<std::uint32_t>(
                byScope[static_cast<int>(Scope::Rack)].rowOffset(node.rack, node.gpuModel))};
        m_free[i] = fullMask(node.wholeGpus());  // a MIG node's GPUs are never wholly free
        m_freeCount[i] = static_cast<std::uint8_t>(slotCount(m_free[i]));
        count(Basis::FleetEmpty, i, node.wholeGpus(), +1);
        // Start from Failed (not indexed) and move to the initial state through setState,
        // so all counters go through one path.
        m_nodesByState[node.gpuModel * kNodeStateCount + static_cast<int>(NodeState::Failed)] += 1;
        m_elasticNodes += node.elastic;
        m_elasticBought += node.elastic;
        setState(i, node.initialState);
    }
    m_shareMilli.assign(gpus, 0);
    m_shareClients.assign(gpus, 0);
    m_sharedNodes = IndexSet(n);
    for (int i = 0; i < n; ++i) {
        const FleetNode& node = fleet.nodes[i];
        if (node.sharing.mode != SharingMode::Mig) continue;
        // The scenario reader refuses a layout the GPU cannot hold; parsing here throws on one
        // built in code.
        const GpuModel& model = fleet.gpuModels[node.gpuModel];
        const std::optional<MigFamily> family = migFamilyFor(model);
        if (!family) throw std::invalid_argument("MIG on a GPU without MIG: " + node.name);
        if (m_migLayout.empty()) {
            m_migLayout.assign(gpus, MigLayout(*family));
            m_migTaken.assign(gpus, 0);
            m_migRecutting.assign(gpus, 0);
            m_idleDynamicMig = IndexSet(static_cast<std::uint32_t>(gpus));
        }
        // Parsed once per run of GPUs that share a layout (one run without per-GPU layouts).
        const std::string* text = nullptr;
        MigLayout layout(*family);
        for (int slot = 0; slot < node.gpus; ++slot) {
            if (const std::string& t = node.sharing.migLayoutOfGpu(slot); &t != text) {
                text = &t;
                layout = parseMigLayout(t, *family, model.migMaxInstances);
            }
            m_migLayout[m_firstGpu[i] + slot] = layout;
            if (node.sharing.migDynamic)
                m_idleDynamicMig.insert(static_cast<std::uint32_t>(m_firstGpu[i] + slot));
        }
    }
    m_partial = PartialGpuIndex(fleet);
    for (int i = 0; i < n; ++i)
        reindexPartialNode(i);
}

PartialGpuIndex::Entry ClusterState::partialEntry(int node, int slot) const {
    PartialGpuIndex::Entry e;
    if (!schedulable(node)) return e;
    const GpuSharingDef& sharing = m_fleet->nodes[node].sharing;
    const int gpu = m_firstGpu[node] + slot;
    if (sharing.mode == SharingMode::Mig) {
        // Every profile with a free instance; ranked by the free compute slices.
        const MigLayout& layout = m_migLayout[gpu];
        const std::uint8_t taken = m_migTaken[gpu];
        for (int i = 0; i < layout.size(); ++i) {
            if (taken >> i & 1u) continue;
            e.kinds |= 1u << PartialGpuIndex::migKind(layout.family(), layout[i].profileId);
            e.rank += layout.profileOf(layout[i]).computeSlices;
        }
        return e;
    }
    // A share of some size fits (the smallest, 1 milli-GPU); ranked by the room left.
    if (sharesThatFit(node, slot, 1) > 0) e = {1, 1000 - usedMilli(node, slot)};
    return e;
}

void ClusterState::reindexPartial(int node, int slot) {
    if (m_partial.poolOf(node) >= 0) m_partial.set(node, slot, partialEntry(node, slot));
}

void ClusterState::reindexPartialNode(int node) {
    if (m_partial.poolOf(node) < 0) return;
    for (int slot = 0; slot < m_fleet->nodes[node].gpus; ++slot)
        reindexPartial(node, slot);
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
    m_allocatedUnits += unitsOfWholeGpus(gpus);
    reindexPartialSlots(node, mask);
}

void ClusterState::release(int node, std::uint64_t mask) {
    if ((m_free[node] & mask) != 0)
        throw std::logic_error("releasing a free GPU slot on node " + m_fleet->nodes[node].name);

    const int before = m_freeCount[node];
    const int gpus = slotCount(mask);
    m_free[node] |= mask;
    m_freeCount[node] = static_cast<std::uint8_t>(before + gpus);
    if (schedulable(node)) reindexNode(node, before);
    m_allocatedUnits -= unitsOfWholeGpus(gpus);
    reindexPartialSlots(node, mask);
}

int ClusterState::partialGpus(int node) const {
    const FleetNode& info = m_fleet->nodes[node];
    if (info.sharing.mode == SharingMode::Mig) return info.gpus;
    if (info.sharing.mode == SharingMode::Whole || m_shareClients.empty()) return 0;
    int shared = 0;
    for (int slot = 0; slot < info.gpus; ++slot)
        shared += m_shareClients[m_firstGpu[node] + slot] > 0;
    return shared;
}

void ClusterState::occupyShare(int node, int slot, int milli) {
    if (milli <= 0 || milli >= 1000 || !shareFits(node, slot, milli))
        throw std::logic_error("GPU share past capacity on node " + m_fleet->nodes[node].name);
    const int gpu = m_firstGpu[node] + slot;
    if (m_free[node] >> slot & 1u) {  // the first share: the GPU is no longer wholly free
        const int before = m_freeCount[node];
        m_free[node] &= ~(std::uint64_t{1} << slot);
        m_freeCount[node] = static_cast<std::uint8_t>(before - 1);
        if (schedulable(node)) reindexNode(node, before);
    }
    m_shareMilli[gpu] = static_cast<std::uint16_t>(m_shareMilli[gpu] + milli);
    if (m_shareClients[gpu]++ == 0) {
        if (schedulable(node)) ++m_readyPartialGpus;
        m_sharedNodes.insert(static_cast<std::uint32_t>(node));
    }
    m_allocatedUnits += unitsOfMilliGpu(milli);
    reindexPartial(node, slot);
}

void ClusterState::releaseShare(int node, int slot, int milli) {
    const int gpu = m_firstGpu[node] + slot;
    if (m_shareClients[gpu] == 0 || m_shareMilli[gpu] < milli)
        throw std::logic_error("releasing a GPU share not held on node " +
                               m_fleet->nodes[node].name);
    m_shareMilli[gpu] = static_cast<std::uint16_t>(m_shareMilli[gpu] - milli);
    if (--m_shareClients[gpu] == 0) {  // the last share: wholly free again
        m_shareMilli[gpu] = 0;
        if (schedulable(node)) --m_readyPartialGpus;
        bool stillShared = false;
        for (int s = 0; s < m_fleet->nodes[node].gpus; ++s)
            stillShared |= m_shareClients[m_firstGpu[node] + s] > 0;
        if (!stillShared) m_sharedNodes.erase(static_cast<std::uint32_t>(node));
        const int before = m_freeCount[node];
        m_free[node] |= std::uint64_t{1} << slot;
        m_freeCount[node] = static_cast<std::uint8_t>(before + 1);
        if (schedulable(node)) reindexNode(node, before);
    }
    m_allocatedUnits -= unitsOfMilliGpu(milli);
    reindexPartial(node, slot);
}

void ClusterState::takeHost(int node, HostDemand host, int sign) {
    if (host.none()) return;
    if (sign > 0 && !hostFits(node, host))
        throw std::logic_error("CPU or memory given twice on node " + m_fleet->nodes[node].name);
    m_freeCpuMilli[node] -= sign * host.cpuMilli;
    m_freeMemoryMiB[node] -= sign * host.memoryMiB;
}

void ClusterState::occupyMig(const PodPlacement& pod, int sign) {
    const int node = static_cast<int>(pod.node);
    const int gpu = m_firstGpu[node] + std::countr_zero(pod.gpuMask);
    const std::uint8_t bit = static_cast<std::uint8_t>(1u << pod.migInstance);
    if (m_fleet->nodes[node].sharing.mode != SharingMode::Mig ||
        pod.migInstance >= m_migLayout[gpu].size() || ((m_migTaken[gpu] & bit) != 0) != (sign < 0))
        throw std::logic_error("MIG instance given twice or not held on node " +
                               m_fleet->nodes[node].name);
    m_migTaken[gpu] ^= bit;
    if (m_fleet->nodes[node].sharing.migDynamic) {
        // Idle again, or no longer idle: the re-cut candidates follow.
        if (m_migTaken[gpu] == 0)
            m_idleDynamicMig.insert(static_cast<std::uint32_t>(gpu));
        else if (m_migTaken[gpu] == bit)
            m_idleDynamicMig.erase(static_cast<std::uint32_t>(gpu));
    }
    const int slices = m_migLayout[gpu].profileOf(m_migLayout[gpu][pod.migInstance]).computeSlices;
    m_allocatedUnits += sign * unitsOfMigSlices(slices);
    reindexPartial(node, gpu - m_firstGpu[node]);
}

void ClusterState::setMigLayout(int node, int slot, const MigLayout& layout, bool inService) {
    const int gpu = m_firstGpu[node] + slot;
    if (!m_fleet->nodes[node].sharing.migDynamic || m_migTaken[gpu] != 0 ||
        (!inService && !layout.empty()))
        throw std::logic_error("re-cutting a GPU that is not an idle dynamic MIG GPU on " +
                               m_fleet->nodes[node].name);
    m_migLayout[gpu] = layout;
    m_migRecutting[gpu] = !inService;
    if (inService)
        m_idleDynamicMig.insert(static_cast<std::uint32_t>(gpu));
    else
        m_idleDynamicMig.erase(static_cast<std::uint32_t>(gpu));
    reindexPartial(node, slot);
}

void ClusterState::occupy(const PodPlacement& pod, HostDemand host) {
    const int node = static_cast<int>(pod.node);
    takeHost(node, host, +1);
    switch (pod.holdKind()) {
        case HoldKind::Mig:
            occupyMig(pod, +1);
            break;
        case HoldKind::Whole:
            occupy(node, pod.gpuMask);
            break;
        case HoldKind::Share:
            occupyShare(node, std::countr_zero(pod.gpuMask), pod.milliGpu);
            break;
    }
}

void ClusterState::release(const PodPlacement& pod, HostDemand host) {
    const int node = static_cast<int>(pod.node);
    switch (pod.holdKind()) {
        case HoldKind::Mig:
            occupyMig(pod, -1);
            break;
        case HoldKind::Whole:
            release(node, pod.gpuMask);
            break;
        case HoldKind::Share:
            releaseShare(node, std::countr_zero(pod.gpuMask), pod.milliGpu);
            break;
    }
    takeHost(node, host, -1);
}

void ClusterState::setState(int node, NodeState next) {
    const NodeState prev = m_state[node];
    if (prev == next) return;
    ++m_stateChanges;
    const FleetNode& info = m_fleet->nodes[node];
    if (prev == NodeState::Ready) {
        m_readyPartialGpus -= partialGpus(node);
        indexNode(node, -1);
        count(Basis::ReadyEmpty, node, info.wholeGpus(), -1);
    }
    const double peakTflops = info.gpus * m_fleet->gpuModels[info.gpuModel].bf16DenseTflops;
    if (isProvisioned(prev)) {
        m_provisionedGpus -= info.gpus;
        m_provisionedPeakTflops -= peakTflops;
    }
    m_nodesByState[info.gpuModel * kNodeStateCount + static_cast<int>(prev)] -= 1;
    m_state[node] = next;
    m_drainingNodes += (next == NodeState::Draining) - (prev == NodeState::Draining);
    if (info.elastic)
        m_elasticBought += (next != NodeState::Provisioning) - (prev != NodeState::Provisioning);
    m_nodesByState[info.gpuModel * kNodeStateCount + static_cast<int>(next)] += 1;
    if (isProvisioned(next)) {
        m_provisionedGpus += info.gpus;
        m_provisionedPeakTflops += peakTflops;
    }
    if (next == NodeState::Ready) {
        m_readyPartialGpus += partialGpus(node);
        indexNode(node, +1);
        count(Basis::ReadyEmpty, node, info.wholeGpus(), +1);
    }
    if (prev == NodeState::Ready || next == NodeState::Ready) reindexPartialNode(node);
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

void ClusterState::checkAgainst(std::span<const HeldPod> held) const {
    // Rebuild every book from the pods that hold something, then compare: a GPU given twice,
    // a share past its GPU, CPU or memory given twice, or a drifted counter all show here.
    const int n = nodeCount();
    std::vector<std::uint64_t> whole(n, 0);
    std::vector<int> milli(m_shareMilli.size(), 0), clients(m_shareMilli.size(), 0);
    std::vector<std::uint8_t> migTaken(m_migTaken.size(), 0);
    std::vector<std::int64_t> cpu(n, 0), memory(n, 0);
    std::int64_t allocated = 0;
    auto fail = [&](int node, const char* what) {
        throw std::logic_error(std::string("invariant: ") + what + " on " +
                               m_fleet->nodes[node].name);
    };
    for (const auto& [pod, host] : held) {
        const int node = static_cast<int>(pod.node);
        cpu[node] += host.cpuMilli;
        memory[node] += host.memoryMiB;
        const int gpu = m_firstGpu[node] + std::countr_zero(pod.gpuMask);
        switch (pod.holdKind()) {
            case HoldKind::Mig: {
                const std::uint8_t bit = static_cast<std::uint8_t>(1u << pod.migInstance);
                if (migTaken.empty() || (migTaken[gpu] & bit))
                    fail(node, "a MIG instance is bound twice");
                migTaken[gpu] |= bit;
                break;
            }
            case HoldKind::Whole:
                if (whole[node] & pod.gpuMask) fail(node, "a GPU slot is bound to two pods");
                whole[node] |= pod.gpuMask;
                break;
            case HoldKind::Share:
                milli[gpu] += pod.milliGpu;
                ++clients[gpu];
                break;
        }
        allocated += pod.gpuUnits();  // the charging rule, against the running sum
    }
    for (int node = 0; node < n; ++node) {
        const FleetNode& info = m_fleet->nodes[node];
        std::uint64_t shared = 0;
        for (int slot = 0; slot < info.gpus; ++slot) {
            const int gpu = m_firstGpu[node] + slot;
            if (clients[gpu] == 0) continue;
            shared |= std::uint64_t{1} << slot;
            if (milli[gpu] > 1000 || milli[gpu] != m_shareMilli[gpu] ||
                clients[gpu] != m_shareClients[gpu])
                fail(node, "GPU shares and their books disagree");
        }
        if ((whole[node] & shared) || ((whole[node] | shared) & m_free[node]) ||
            ((whole[node] | shared | m_free[node]) != fullMask(info.wholeGpus())))
            fail(node, "free and bound GPU slots disagree");
        if (info.sharing.mode == SharingMode::Mig)
            for (int slot = 0; slot < info.gpus; ++slot) {
                const int gpu = m_firstGpu[node] + slot;
                if (migTaken[gpu] != m_migTaken[gpu])
                    fail(node, "MIG instances and their books disagree");
                const bool idle =
                    info.sharing.migDynamic && migTaken[gpu] == 0 && !m_migRecutting[gpu];
                if (idle != m_idleDynamicMig.contains(static_cast<std::uint32_t>(gpu)) ||
                    (m_migRecutting[gpu] && !m_migLayout[gpu].empty()))
                    fail(node, "idle dynamic MIG GPUs and their books disagree");
            }
        const bool indexed = m_buckets[info.gpuModel * m_width + m_freeCount[node]].contains(
            static_cast<std::uint32_t>(node));
        if (m_freeCount[node] != slotCount(m_free[node]) || indexed != schedulable(node))
            fail(node, "free GPU count or index wrong");
        const std::int64_t cpuTotal = info.cpuMilli > 0 ? info.cpuMilli : kUndeclared;
        const std::int64_t memoryTotal = info.memoryMiB > 0 ? info.memoryMiB : kUndeclared;
        if (cpu[node] != cpuTotal - m_freeCpuMilli[node] ||
            memory[node] != memoryTotal - m_freeMemoryMiB[node] || m_freeCpuMilli[node] < 0 ||
            m_freeMemoryMiB[node] < 0)
            fail(node, "CPU or memory books disagree");
    }
    int partial = 0;
    for (int node = 0; node < n; ++node) {
        if (schedulable(node)) partial += partialGpus(node);
        if (m_partial.poolOf(node) >= 0)
            for (int slot = 0; slot < m_fleet->nodes[node].gpus; ++slot)
                if (!m_partial.holds(node, slot, partialEntry(node, slot)))
                    fail(node, "the index of GPUs that take instances or shares is wrong");
    }
    if (partial != m_readyPartialGpus)
        throw std::logic_error("invariant: shared and MIG GPU count drifted");
    if (!m_partial.countsAgree())
        throw std::logic_error(
            "invariant: the index of GPUs that take instances or shares "
            "holds GPUs it does not list");
    if (allocated != m_allocatedUnits)
        throw std::logic_error("invariant: allocated GPU counter drifted");
}

}  // namespace gpuplan::detail
