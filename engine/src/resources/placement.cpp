#include "placement.hpp"

#include <algorithm>
#include <bit>
#include <set>
#include <tuple>

namespace gpuplan::detail {

PlacementRequest requestOf(const JobSpec& job) {
    return PlacementRequest{job.gpusPerPod,
                            job.pods(),
                            job.gpuModel,
                            job.pinLevel,
                            job.pinIndex,
                            job.gpuMilli,
                            HostDemand{job.cpuMilliPerPod, job.memoryMiBPerPod},
                            job.migProfileId};
}

int shareMilliOn(const FleetNode& node, int requestedMilli) {
    return node.sharing.mode == SharingMode::TimeSlicing
               ? 1000 / std::max(2, node.sharing.timeSliceReplicas)
               : requestedMilli;
}

namespace {

int migProfileOn(const PlacementRequest& req, const ClusterState& state, int node) {
    const std::optional<MigFamily> family = state.migFamily(node);
    if (!family) return -1;
    const std::uint8_t id = req.migProfileId[static_cast<int>(*family)];
    return id == JobSpec::kNoMig ? -1 : id;
}

int freeMigInstances(const PlacementRequest& req, const ClusterState& state, int node, int slot,
                     bool empty) {
    const int profile = migProfileOn(req, state, node);
    if (profile < 0) return 0;
    const MigLayout& layout = state.migLayout(node, slot);
    if (empty && state.fleet().nodes[node].sharing.migDynamic) {
        // An empty dynamic GPU can be cut for the request: as many as one GPU holds.
        const auto p = migProfileById(layout.family(), profile);
        return p ? std::min<int>(p->maxCount, layout.maxInstances()) : 0;
    }
    const std::uint8_t taken = empty ? 0 : state.migTaken(node, slot);
    int free = 0;
    for (int i = 0; i < layout.size(); ++i)
        free += layout[i].profileId == profile && !(taken >> i & 1u);
    return free;
}

/// What a pod asking part of a GPU takes at (node, slot): a share (time-slicing hands out a
/// replica), or the lowest free instance of its profile.
PodPlacement partialPod(const PlacementRequest& req, const ClusterState& state, int node,
                        int slot) {
    if (!req.asksMig())
        return {.node = static_cast<std::uint32_t>(node),
                .milliGpu = static_cast<std::uint16_t>(
                    shareMilliOn(state.fleet().nodes[node], req.milliGpu)),
                .gpuMask = std::uint64_t{1} << slot};
    const int profile = migProfileOn(req, state, node);
    const MigLayout& layout = state.migLayout(node, slot);
    const std::uint8_t taken = state.migTaken(node, slot);
    int instance = 0;
    while (layout[instance].profileId != profile || (taken >> instance & 1u))
        ++instance;
    const int slices = layout.profileOf(layout[instance]).computeSlices;
    return {.node = static_cast<std::uint32_t>(node),
            .milliGpu = static_cast<std::uint16_t>(milliGpuOfMigSlices(slices)),
            .migInstance = static_cast<std::uint8_t>(instance),
            .migComputeSlices = static_cast<std::uint8_t>(slices),
            .gpuMask = std::uint64_t{1} << slot};
}

}  // namespace

long long podsOnNode(const PlacementRequest& req, const ClusterState& state, int node,
                     Basis basis) {
    const FleetNode& info = state.fleet().nodes[node];
    if (basis != Basis::FleetEmpty && !state.schedulable(node)) return 0;
    const bool empty = basis != Basis::FreeNow;
    long long pods = 0;
    switch (req.holdKind()) {
        case HoldKind::Mig:
            for (int slot = 0; slot < info.gpus; ++slot)
                pods += freeMigInstances(req, state, node, slot, empty);
            break;
        case HoldKind::Share:
            for (int slot = 0; slot < info.gpus; ++slot)
                pods += std::max(0, state.sharesThatFit(node, slot, req.milliGpu, empty));
            break;
        case HoldKind::Whole:
            pods = (empty ? info.wholeGpus() : state.freeGpus(node)) / req.gpusPerPod;
            break;
    }
    auto limit = [&](std::int64_t perPod, std::int64_t declared, std::int64_t freeNow) {
        if (perPod > 0 && declared > 0)
            pods = std::min<long long>(pods, (empty ? declared : freeNow) / perPod);
    };
    limit(req.host.cpuMilli, info.cpuMilli, state.freeCpuMilli(node));
    limit(req.host.memoryMiB, info.memoryMiB, state.freeMemoryMiB(node));
    return pods;
}

NodeRange nodeRangeOf(const Fleet& fleet, PinLevel level, int index) {
    switch (level) {
        case PinLevel::None:
            break;
        case PinLevel::Node:
            return {index, index + 1};
        case PinLevel::Rack: {
            const FleetRack& r = fleet.racks[index];
            return {r.firstNode, r.firstNode + r.nodeCount};
        }
        case PinLevel::Pod: {
            const FleetPod& p = fleet.pods[index];
            return {p.firstNode, p.firstNode + p.nodeCount};
        }
    }
    return {0, static_cast<int>(fleet.nodes.size())};
}

long long podCapacityForModel(const PlacementRequest& request, const ClusterState& state, int model,
                              Basis basis) {
    const Fleet& fleet = state.fleet();
    if (!request.wholeGpusOnly()) {
        const NodeRange range = nodeRangeOf(fleet, request.pinLevel, request.pinIndex);
        long long pods = 0;
        for (int node = range.begin; node < range.end; ++node)
            if (fleet.nodes[node].gpuModel == model)
                pods += podsOnNode(request, state, node, basis);
        return pods;
    }
    if (request.pinLevel == PinLevel::Node) {
        const int node = request.pinIndex;
        if (fleet.nodes[node].gpuModel != model) return 0;
        if (basis != Basis::FleetEmpty && !state.schedulable(node)) return 0;
        const int gpus =
            basis == Basis::FreeNow ? state.freeGpus(node) : fleet.nodes[node].wholeGpus();
        return gpus / request.gpusPerPod;
    }
    const Scope scope = request.pinLevel == PinLevel::Pod    ? Scope::Pod
                        : request.pinLevel == PinLevel::Rack ? Scope::Rack
                                                             : Scope::Fleet;
    const int unit = request.pinLevel == PinLevel::None ? 0 : request.pinIndex;
    return podCapacity(state.hist(basis, scope, unit, model), state.histWidth(),
                       request.gpusPerPod);
}

std::vector<bool> modelsHoldingGang(const PlacementRequest& request, const ClusterState& state) {
    std::vector<bool> fits(state.fleet().gpuModels.size(), false);
    for (int m = 0; m < static_cast<int>(fits.size()); ++m)
        fits[m] = request.allowsModel(m) &&
                  (request.pods == 1 || podCapacityForModel(request, state, m) >= request.pods);
    return fits;
}

namespace {

/// Node for one pod of `gpus` whole GPUs of `model` inside `range` with room for `host`,
/// or −1.
int chooseNode(const ClusterState& state, int model, int gpus, NodeRange range, bool mostFree,
               HostDemand host) {
    const int width = state.histWidth();
    auto lookup = [&](int f) -> int {
        const IndexSet& bucket = state.bucket(model, f);
        std::uint32_t n = bucket.next(static_cast<std::uint32_t>(range.begin));
        if (!host.none())
            while (n != IndexSet::npos && static_cast<int>(n) < range.end &&
                   !state.hostFits(static_cast<int>(n), host))
                n = bucket.next(n + 1);
        return n != IndexSet::npos && static_cast<int>(n) < range.end ? static_cast<int>(n) : -1;
    };
    if (mostFree) {
        for (int f = width - 1; f >= gpus; --f)
            if (int n = lookup(f); n >= 0) return n;
    } else {
        for (int f = gpus; f < width; ++f)
            if (int n = lookup(f); n >= 0) return n;
    }
    return -1;
}

class Placer {
public:
    Placer(const PlacementRequest& r, ClusterState& s, std::vector<PodPlacement>& out)
        : m_req(r), m_state(s), m_fleet(s.fleet()), m_out(out) {}

    bool run(PlacementPolicy policy) {
        // The fill order: an unpinned job tries each step's nodes before the whole fleet
        // (topology-aware gangs choose their own racks and pods).
        if (!m_fleet.fillTiers.empty() && m_req.pinLevel == PinLevel::None &&
            !(policy == PlacementPolicy::TopologyAware && m_req.pods > 1))
            for (const auto& [first, end] : m_fleet.fillTiers)
                if (runIn(policy, NodeRange{first, end})) return true;
        return runIn(policy, nodeRangeOf(m_fleet, m_req.pinLevel, m_req.pinIndex));
    }

private:
    bool runIn(PlacementPolicy policy, NodeRange range) {
        m_out.clear();
        if (!m_req.holdsWholeGpus()) return partialGpus(range, policy == PlacementPolicy::Spread);
        // The topology tiers choose a unit by GPU capacity alone; with CPU or memory asked the
        // unit could refuse the gang, so such gangs are packed (see the header).
        if (policy == PlacementPolicy::TopologyAware && m_req.pods > 1 && m_req.host.none())
            return topology(range);
        const bool spread = policy == PlacementPolicy::Spread;
        // Per pod, the best node over all allowed models; a gang keeps to its first pod's model.
        int model = m_req.gpuModel;
        for (int pod = 0; pod < m_req.pods; ++pod) {
            int node = -1;
            if (model >= 0) {
                node = chooseNode(m_state, model, m_req.gpusPerPod, range, spread, m_req.host);
            } else {
                node = bestOverModels(range, spread, model);
            }
            if (node < 0) return rollback();
            bind(node, m_req.gpusPerPod);
        }
        return true;
    }

    int bestOverModels(NodeRange range, bool spread, int& modelOut) {
        int bestNode = -1, bestFree = 0, bestModel = -1;
        for (int m = 0; m < static_cast<int>(m_fleet.gpuModels.size()); ++m) {
            // A gang stays on one model: only models that can hold all of it compete. (One
            // pod fits a model exactly when chooseNode finds it a node.)
            if (m_req.pods > 1 && podCapacityForModel(m_req, m_state, m) < m_req.pods) continue;
            const int node = chooseNode(m_state, m, m_req.gpusPerPod, range, spread, m_req.host);
            if (node < 0) continue;
            const int free = m_state.freeGpus(node);
            if (bestNode < 0 || (spread ? free > bestFree : free < bestFree)) {
                bestNode = node;
                bestFree = free;
                bestModel = m;
            }
        }
        modelOut = bestModel;
        return bestNode;
    }

    void bind(int node, int gpus) {
        const std::uint64_t mask = lowestFreeSlots(m_state.freeMask(node), gpus);
        const PodPlacement pod{.node = static_cast<std::uint32_t>(node), .gpuMask = mask};
        if (m_req.host.none())
            m_state.occupy(node, mask);  // the common case, without the host books
        else
            m_state.occupy(pod, m_req.host);
        m_out.push_back(pod);
    }

    /// Each pod takes part of one GPU — a share (pack: the GPU with the least room that fits,
    /// spread: the most) or a free instance of its profile (pack: the GPU with the fewest
    /// free compute slices that has one, spread: the most; on it, the lowest such instance) —
    /// ties to the lowest node, then slot. A gang keeps to its first pod's model. Each pod
    /// asks the partial-GPU index (bestPartialGpu), not every GPU.
    bool partialGpus(NodeRange range, bool spread) {
        int model = m_req.gpuModel;
        const std::vector<bool> gangFits = modelsHoldingGang(m_req, m_state);
        for (int pod = 0; pod < m_req.pods; ++pod) {
            const PartialGpuIndex::Found f =
                bestPartialGpu(m_req, m_state, range, spread, model, &gangFits);
            if (f.node < 0) return rollback();
            model = m_fleet.nodes[f.node].gpuModel;
            const PodPlacement placed = partialPod(m_req, m_state, f.node, f.slot);
            m_state.occupy(placed, m_req.host);
            m_out.push_back(placed);
        }
        return true;
    }

    bool rollback() {
        unplace(m_state, m_out, m_req.host);
        m_out.clear();
        return false;
    }

    long long capacity(Scope scope, int unit, int model) const {
        return podCapacity(m_state.freeHist(scope, unit, model), m_state.histWidth(),
                           m_req.gpusPerPod);
    }
    int freeGpusIn(Scope scope, int unit, int model) const {
        const int* h = m_state.freeHist(scope, unit, model);
        int free = 0;
        for (int f = 1; f < m_state.histWidth(); ++f)
            free += f * h[f];
        return free;
    }

    /// Packs `count` pods of `model` into `range`; false if they do not all fit.
    bool packInto(NodeRange range, int model, int count) {
        for (int i = 0; i < count; ++i) {
            const int node = chooseNode(m_state, model, m_req.gpusPerPod, range, false, m_req.host);
            if (node < 0) return false;
            bind(node, m_req.gpusPerPod);
        }
        return true;
    }

    NodeRange rackRange(int rack) const {
        const FleetRack& r = m_fleet.racks[rack];
        return {r.firstNode, r.firstNode + r.nodeCount};
    }

    /// Fills the racks of a pod, fullest-capacity first, with `count` pods.
    bool fillPod(int pod, int model, int count) {
        const FleetPod& p = m_fleet.pods[pod];
        std::vector<std::pair<long long, int>> racks;
        for (int r = p.firstRack; r < p.firstRack + p.rackCount; ++r)
            if (long long c = capacity(Scope::Rack, r, model); c > 0) racks.push_back({-c, r});
        std::sort(racks.begin(), racks.end());
        for (auto [negCap, r] : racks) {
            const int take = static_cast<int>(std::min<long long>(-negCap, count));
            if (!packInto(rackRange(r), model, take)) return false;
            count -= take;
            if (count == 0) return true;
        }
        return count == 0;
    }

    bool topology(NodeRange range) {
        const int k = m_req.pods;
        const int p = m_req.gpusPerPod;
        const int models = static_cast<int>(m_fleet.gpuModels.size());
        auto eligible = [&](int m) { return m_req.allowsModel(m); };
        // Racks and pods the pin allows.
        int rackBegin = 0, rackEnd = static_cast<int>(m_fleet.racks.size());
        int podBegin = 0, podEnd = static_cast<int>(m_fleet.pods.size());
        if (m_req.pinLevel == PinLevel::Node) {
            for (int m = 0; m < models; ++m)
                if (eligible(m) && packInto(range, m, k)) return true;
            return rollback();
        }
        if (m_req.pinLevel == PinLevel::Rack) {
            rackBegin = m_req.pinIndex;
            rackEnd = rackBegin + 1;
            podBegin = m_fleet.racks[rackBegin].pod;
            podEnd = podBegin + 1;
        } else if (m_req.pinLevel == PinLevel::Pod) {
            podBegin = m_req.pinIndex;
            podEnd = podBegin + 1;
            rackBegin = m_fleet.pods[podBegin].firstRack;
            rackEnd = rackBegin + m_fleet.pods[podBegin].rackCount;
        }

        // Tier 0: the whole gang on one node.
        for (int m = 0; m < models; ++m) {
            if (!eligible(m)) continue;
            const HostDemand gangHost{k * m_req.host.cpuMilli, k * m_req.host.memoryMiB};
            const int node = chooseNode(m_state, m, k * p, range, false, gangHost);
            if (node >= 0) {
                for (int i = 0; i < k; ++i)
                    bind(node, p);
                return true;
            }
        }
        // Tier 1: the best-fitting rack that holds the gang.
        int bestRack = -1, bestModel = -1, bestFree = 0;
        for (int m = 0; m < models; ++m) {
            if (!eligible(m)) continue;
            for (int r = rackBegin; r < rackEnd; ++r) {
                if (capacity(Scope::Rack, r, m) < k) continue;
                const int free = freeGpusIn(Scope::Rack, r, m);
                if (bestRack < 0 || free < bestFree) {
                    bestRack = r;
                    bestModel = m;
                    bestFree = free;
                }
            }
        }
        if (bestRack >= 0) return packInto(rackRange(bestRack), bestModel, k) || rollback();
        if (m_req.pinLevel == PinLevel::Rack) return rollback();

        // Tier 2: the best-fitting pod, its fullest racks first.
        int bestPod = -1;
        for (int m = 0; m < models; ++m) {
            if (!eligible(m)) continue;
            for (int pd = podBegin; pd < podEnd; ++pd) {
                if (capacity(Scope::Pod, pd, m) < k) continue;
                const int free = freeGpusIn(Scope::Pod, pd, m);
                if (bestPod < 0 || free < bestFree) {
                    bestPod = pd;
                    bestModel = m;
                    bestFree = free;
                }
            }
        }
        if (bestPod >= 0) return fillPod(bestPod, bestModel, k) || rollback();
        if (m_req.pinLevel == PinLevel::Pod) return rollback();

        // Tier 3: as few pods as possible, largest capacity first, for the model that fits.
        for (int m = 0; m < models; ++m) {
            if (!eligible(m) || capacity(Scope::Fleet, 0, m) < k) continue;
            std::vector<std::pair<long long, int>> pods;
            for (int pd = 0; pd < static_cast<int>(m_fleet.pods.size()); ++pd)
                if (long long c = capacity(Scope::Pod, pd, m); c > 0) pods.push_back({-c, pd});
            std::sort(pods.begin(), pods.end());
            int remaining = k;
            for (auto [negCap, pd] : pods) {
                const int take = static_cast<int>(std::min<long long>(-negCap, remaining));
                if (!fillPod(pd, m, take)) return rollback();
                remaining -= take;
                if (remaining == 0) return true;
            }
            return rollback();
        }
        return rollback();
    }

    const PlacementRequest& m_req;
    ClusterState& m_state;
    const Fleet& m_fleet;
    std::vector<PodPlacement>& m_out;
};

}  // namespace

bool tryPlace(const PlacementRequest& request, PlacementPolicy policy, ClusterState& state,
              std::vector<PodPlacement>& out) {
    return Placer(request, state, out).run(policy);
}

void unplace(ClusterState& state, const std::vector<PodPlacement>& pods, HostDemand host) {
    for (auto it = pods.rbegin(); it != pods.rend(); ++it) {
        if (it->isWhole() && host.none())
            state.release(static_cast<int>(it->node), it->gpuMask);
        else
            state.release(*it, host);
    }
}

PartialGpuIndex::Found bestPartialGpu(const PlacementRequest& req, const ClusterState& state,
                                      NodeRange range, bool spread, int model,
                                      const std::vector<bool>* modelsAllowed) {
    const PartialGpuIndex& index = state.partialIndex();
    PartialGpuIndex::Found best;
    auto better = [spread](const PartialGpuIndex::Found& a, const PartialGpuIndex::Found& b) {
        if (a.rank != b.rank) return spread ? a.rank > b.rank : a.rank < b.rank;
        return a.node != b.node ? a.node < b.node : a.slot < b.slot;
    };
    auto hostFits = [&](int node) { return state.hostFits(node, req.host); };
    for (int p = 0; p < index.poolCount(); ++p) {
        const PartialGpuIndex::Pool& pool = index.pool(p);
        if ((model >= 0 && pool.model != model) || (modelsAllowed && !(*modelsAllowed)[pool.model]))
            continue;
        int kind = 0, minRank = 1;
        if (req.asksMig()) {
            if (pool.mode != SharingMode::Mig) continue;
            const std::uint8_t id = req.migProfileId[static_cast<int>(pool.family)];
            kind = id == JobSpec::kNoMig ? -1 : PartialGpuIndex::migKind(pool.family, id);
            if (kind < 0) continue;
        } else {
            if (pool.mode == SharingMode::Mig) continue;
            // Time-slicing hands out a replica whatever the pod asks: any listed GPU fits.
            if (pool.mode == SharingMode::Mps) minRank = req.milliGpu;
        }
        const PartialGpuIndex::Found f =
            index.first(p, kind, minRank, spread, range.begin, range.end, hostFits);
        if (f.node >= 0 && (best.node < 0 || better(f, best))) best = f;
    }
    return best;
}

bool onePodFits(const PlacementRequest& request, const ClusterState& state) {
    if (request.holdsWholeGpus()) return bestPodCapacity(request, state) >= 1;
    const NodeRange range = nodeRangeOf(state.fleet(), request.pinLevel, request.pinIndex);
    return bestPartialGpu(request, state, range, false, request.gpuModel, nullptr).node >= 0;
}

long long bestPodCapacity(const PlacementRequest& request, const ClusterState& state, Basis basis) {
    long long best = 0;
    for (int m = 0; m < static_cast<int>(state.fleet().gpuModels.size()); ++m)
        if (request.allowsModel(m))
            best = std::max(best, podCapacityForModel(request, state, m, basis));
    return best;
}

}  // namespace gpuplan::detail
