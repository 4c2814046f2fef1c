#include "placeable_slots.hpp"

#include <algorithm>
#include <string>

namespace gpuplan {

const char* toString(SlotLevel level) {
    switch (level) {
        case SlotLevel::Node:
            return "node";
        case SlotLevel::Rack:
            return "rack";
        case SlotLevel::Pod:
            return "pod";
        case SlotLevel::Fleet:
            return "fleet";
    }
    return "?";
}

long long PlaceableSlots::slotsFor(SlotLevel level, int gangGpus) const {
    const auto it = std::find(gangSizes.begin(), gangSizes.end(), gangGpus);
    if (it == gangSizes.end()) return 0;
    return slotCounts[static_cast<int>(level)][static_cast<std::size_t>(it - gangSizes.begin())];
}

}  // namespace gpuplan

namespace gpuplan::detail {

namespace {

/// Units of a level and the scope their histograms have (node slots read the fleet's: a
/// node's slots depend only on its own free count).
Scope scopeOf(SlotLevel level) {
    switch (level) {
        case SlotLevel::Rack:
            return Scope::Rack;
        case SlotLevel::Pod:
            return Scope::Pod;
        case SlotLevel::Node:
        case SlotLevel::Fleet:
            break;
    }
    return Scope::Fleet;
}

int gpusPerNodeOf(const Fleet& fleet, int model) {
    return fleet.extents[static_cast<std::size_t>(model)].maxGpusPerNode;
}

/// Slots of one model's nodes.
long long slotsOfModel(const FreeHistograms& free, SlotLevel level, int gangGpus, int model) {
    const int gpn = gpusPerNodeOf(free.fleet(), model);
    if (gpn <= 0) return 0;
    const GangShape shape = gangShape(gangGpus, gpn);
    const int width = free.width();
    if (level == SlotLevel::Node) {
        // Each node alone: ⌊⌊f / p⌋ / k⌋ gangs on a node with f free.
        const int* h = free.at(Scope::Fleet, 0, model);
        long long slots = 0;
        for (int f = shape.podGpus; f < width; ++f)
            slots += static_cast<long long>(h[f]) * (f / shape.podGpus / shape.pods);
        return slots;
    }
    // A unit with fewer than g whole GPUs of the model holds no slot.
    const Scope scope = scopeOf(level);
    long long slots = 0;
    free.forUnits(level, model, gangGpus, [&](int unit) {
        slots += podCapacity(free.at(scope, unit, model), width, shape.podGpus) / shape.pods;
    });
    return slots;
}

/// Whole GPUs a unit needs to have two nodes of `gpn` free: fewer, and its whole free nodes
/// (at most one) add nothing to one free node anywhere.
int twoNodes(int gpn) {
    return 2 * gpn;
}

}  // namespace

UnitsByWholeGpus::UnitsByWholeGpus(const Fleet& fleet)
    : m_rack(fleet.gpuModels.size()), m_pod(fleet.gpuModels.size()) {
    const std::size_t models = fleet.gpuModels.size();
    std::vector<int> rackGpus(fleet.racks.size() * models, 0);
    std::vector<int> podGpus(fleet.pods.size() * models, 0);
    for (const FleetNode& node : fleet.nodes) {
        rackGpus[node.rack * models + node.gpuModel] += node.wholeGpus();
        podGpus[node.pod * models + node.gpuModel] += node.wholeGpus();
    }
    const auto fill = [models](std::vector<Row>& rows, const std::vector<int>& gpus) {
        const std::size_t units = models == 0 ? 0 : gpus.size() / models;
        for (std::size_t m = 0; m < models; ++m) {
            Row& row = rows[m];
            for (std::size_t u = 0; u < units; ++u)
                if (gpus[u * models + m] > 0) row.units.push_back(static_cast<int>(u));
            std::stable_sort(row.units.begin(), row.units.end(), [&](int a, int b) {
                return gpus[a * models + m] > gpus[b * models + m];
            });
            for (int u : row.units)
                row.gpus.push_back(gpus[u * models + m]);
        }
    };
    fill(m_rack, rackGpus);
    fill(m_pod, podGpus);
}

std::span<const int> UnitsByWholeGpus::atLeast(SlotLevel level, int model, int gpus) const {
    const std::vector<Row>& rows = level == SlotLevel::Rack ? m_rack : m_pod;
    if (model < 0 || static_cast<std::size_t>(model) >= rows.size()) return {};
    const Row& row = rows[model];
    // GPUs descend: the units with at least `gpus` end where the first with fewer is.
    const auto end =
        std::partition_point(row.gpus.begin(), row.gpus.end(), [gpus](int g) { return g >= gpus; });
    return std::span<const int>(row.units).first(static_cast<std::size_t>(end - row.gpus.begin()));
}

std::size_t unitsVisitedPerSample(const Fleet& fleet, const UnitsByWholeGpus& units,
                                  const std::vector<int>& tableSizes) {
    std::size_t visited = 0;
    for (int m = 0; m < static_cast<int>(fleet.gpuModels.size()); ++m) {
        const int gpn = gpusPerNodeOf(fleet, m);
        if (gpn <= 0) continue;
        for (const SlotLevel level : {SlotLevel::Rack, SlotLevel::Pod}) {
            visited += units.atLeast(level, m, twoNodes(gpn)).size();  // largest gang
            for (int g : tableSizes)  // sizes off the ladder (at most: only when still larger)
                if (g > gpn && g % gpn != 0) visited += units.atLeast(level, m, g).size();
        }
        visited += units.atLeast(SlotLevel::Rack, m, kSampledRackSlotGpus).size();
    }
    return visited;
}

GangShape gangShape(int gangGpus, int gpusPerNode) {
    const int pod = automaticGpusPerPod(gangGpus, std::max(1, gpusPerNode));
    return {pod, gangGpus / pod};
}

SnapshotHistograms::SnapshotHistograms(const Fleet& fleet, const ClusterSnapshot& snapshot)
    : m_width(fleet.maxGpusPerNode + 1) {
    const int models = static_cast<int>(fleet.gpuModels.size());
    m_hist[static_cast<int>(Scope::Fleet)] = UnitHistograms(1, models, fleet.maxGpusPerNode);
    m_hist[static_cast<int>(Scope::Pod)] =
        UnitHistograms(static_cast<int>(fleet.pods.size()), models, fleet.maxGpusPerNode);
    m_hist[static_cast<int>(Scope::Rack)] =
        UnitHistograms(static_cast<int>(fleet.racks.size()), models, fleet.maxGpusPerNode);
    int firstGpu = 0;
    for (std::size_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        const int begin = firstGpu;
        firstGpu += node.gpus;
        // ClusterState's rule: only Ready nodes are indexed, and a MIG node's GPUs are never
        // wholly free; a GPU is free when nothing (whole, share or instance) holds it.
        if (snapshot.nodeStates[n] != NodeState::Ready || node.wholeGpus() == 0) continue;
        int free = 0;
        for (int g = begin; g < firstGpu; ++g)
            free += snapshot.occupantBegin[g] == snapshot.occupantBegin[g + 1];
        m_freeGpus += free;
        m_hist[static_cast<int>(Scope::Fleet)].add(0, node.gpuModel, free, +1);
        m_hist[static_cast<int>(Scope::Pod)].add(node.pod, node.gpuModel, free, +1);
        m_hist[static_cast<int>(Scope::Rack)].add(node.rack, node.gpuModel, free, +1);
    }
}

long long countSlots(const FreeHistograms& free, SlotLevel level, int gangGpus) {
    long long slots = 0;
    for (int m = 0; m < static_cast<int>(free.fleet().gpuModels.size()); ++m)
        slots += slotsOfModel(free, level, gangGpus, m);
    return slots;
}

int largestGang(const FreeHistograms& free, SlotLevel level, const std::vector<int>& tableSizes) {
    const Fleet& fleet = free.fleet();
    const int width = free.width();
    int best = 0;
    for (int m = 0; m < static_cast<int>(fleet.gpuModels.size()); ++m) {
        const int gpn = gpusPerNodeOf(fleet, m);
        if (gpn <= 0) continue;
        // The ladder's lower part: one pod on the node with the most free GPUs.
        const int* fleetHist = free.at(Scope::Fleet, 0, m);
        int mostFree = 0;
        for (int f = width - 1; f > 0 && mostFree == 0; --f)
            if (fleetHist[f] > 0) mostFree = f;
        if (mostFree == 0) continue;
        // Its upper part: whole free nodes (gpn free) inside one unit, gpn GPUs each.
        int wholeNodes = 0;
        if (level == SlotLevel::Fleet) {
            wholeNodes = fleetHist[gpn];
        } else if (level != SlotLevel::Node) {
            const Scope scope = scopeOf(level);
            free.forUnits(level, m, twoNodes(gpn), [&](int unit) {
                wholeNodes = std::max(wholeNodes, free.at(scope, unit, m)[gpn]);
            });
        }
        best = std::max({best, mostFree, gpn * wholeNodes});
        // Table sizes off the ladder (neither ≤ gpn nor a multiple of it) are cut into
        // smaller pods and may fit where the ladder's next step does not.
        for (int g : tableSizes)
            if (g > best && g > gpn && g % gpn != 0 && slotsOfModel(free, level, g, m) > 0)
                best = g;
    }
    return best;
}

std::vector<int> commonGangSizes(const Fleet& fleet) {
    std::vector<int> wholeByModel(fleet.gpuModels.size(), 0);
    for (const FleetNode& node : fleet.nodes)
        wholeByModel[static_cast<std::size_t>(node.gpuModel)] += node.wholeGpus();
    const int most =
        wholeByModel.empty() ? 0 : *std::max_element(wholeByModel.begin(), wholeByModel.end());
    std::vector<int> sizes;
    for (int g = 1; g <= 256 && g <= most; g *= 2)
        sizes.push_back(g);
    return sizes;
}

PlaceableSlots placeableSlots(const FreeHistograms& free, int readyFreeGpus) {
    PlaceableSlots table;
    table.gangSizes = commonGangSizes(free.fleet());
    table.freeGpus = readyFreeGpus;
    for (int l = 0; l < kSlotLevelCount; ++l) {
        const auto level = static_cast<SlotLevel>(l);
        for (int g : table.gangSizes)
            table.slotCounts[l].push_back(countSlots(free, level, g));
        table.largestGangGpus[l] = largestGang(free, level, table.gangSizes);
    }
    return table;
}

}  // namespace gpuplan::detail

namespace gpuplan {

PlaceableSlots placeableSlotsAt(const Fleet& fleet, const ClusterSnapshot& snapshot) {
    const detail::SnapshotHistograms hist(fleet, snapshot);
    return detail::placeableSlots(detail::FreeHistograms(fleet, hist), hist.readyFreeGpus());
}

namespace {

std::string gpusText(int gpus) {
    return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

/// "64 free GPUs on 8 whole nodes" / "4 free GPUs on one node" / "12 free GPUs as 2 × 6".
std::string gangNeed(int gangGpus, int gpusPerNode) {
    const detail::GangShape shape = detail::gangShape(gangGpus, gpusPerNode);
    std::string need = std::to_string(gangGpus) + " free GPUs";
    if (shape.pods == 1) return need + " on one node";
    if (shape.podGpus == gpusPerNode)
        return need + " on " + std::to_string(shape.pods) + " whole nodes";
    return need + " as " + std::to_string(shape.pods) + " nodes with " +
           std::to_string(shape.podGpus) + " free each";
}

}  // namespace

std::string explainPlaceable(const PlaceableSlots& t, const Fleet& fleet) {
    const int gpusPerNode = fleet.maxGpusPerNode;
    if (t.freeGpus == 0) return "No GPU is free on a Ready node: no gang can start now.";
    // A gang's own level: the smallest unit that could hold it if it were empty.
    int biggestRack = 0, biggestPod = 0;
    for (const ModelExtent& e : fleet.extents) {
        biggestRack = std::max(biggestRack, e.maxRackGpus);
        biggestPod = std::max(biggestPod, e.maxPodGpus);
    }
    auto ownLevel = [&](int g) {
        return g <= gpusPerNode   ? SlotLevel::Node
               : g <= biggestRack ? SlotLevel::Rack
               : g <= biggestPod  ? SlotLevel::Pod
                                  : SlotLevel::Fleet;
    };
    auto largestAt = [&](SlotLevel level) {
        switch (level) {
            case SlotLevel::Node:
                return "the largest gang on one node now is ";
            case SlotLevel::Rack:
                return "the largest rack-local gang now is ";
            case SlotLevel::Pod:
                return "the largest pod-local gang now is ";
            case SlotLevel::Fleet:
                break;
        }
        return "the largest gang now is ";
    };
    const std::string free = std::to_string(t.freeGpus) + " GPUs free";
    // The smallest common size the free GPUs could hold in number but its own level cannot.
    for (int g : t.gangSizes) {
        const SlotLevel own = ownLevel(g);
        if (g > t.freeGpus || t.slotsFor(own, g) > 0) continue;
        if (t.slotsFor(SlotLevel::Fleet, g) == 0)
            return free + ", but they are scattered: no " + std::to_string(g) +
                   "-GPU gang fits anywhere (it needs " + gangNeed(g, gpusPerNode) + "); " +
                   largestAt(SlotLevel::Fleet) + gpusText(t.largest(SlotLevel::Fleet)) + ".";
        const std::string need =
            own == SlotLevel::Node ? std::to_string(g) + " free GPUs" : gangNeed(g, gpusPerNode);
        std::string text = free + ", but no " + toString(own) + " has " + need + ": " +
                           largestAt(own) + gpusText(t.largest(own)) + ".";
        for (int up = static_cast<int>(own) + 1; up < kSlotLevelCount; ++up) {
            const auto level = static_cast<SlotLevel>(up);
            if (t.slotsFor(level, g) == 0) continue;
            text +=
                level == SlotLevel::Fleet
                    ? " It could start only across pods (up to " + gpusText(t.largest(level)) + ")."
                    : std::string(" It fits inside one ") + toString(level) + " (up to " +
                          gpusText(t.largest(level)) + ").";
            break;
        }
        return text;
    }
    return free + ": a gang of up to " + gpusText(t.largest(SlotLevel::Rack)) +
           " can start inside one rack (" + gpusText(t.largest(SlotLevel::Node)) +
           " on one node, " + gpusText(t.largest(SlotLevel::Pod)) + " inside one pod).";
}

}  // namespace gpuplan
