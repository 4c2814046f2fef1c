#include "gpuplan/model/topology.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/openb.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

const char* toString(FabricTier t) {
    switch (t) {
        case FabricTier::Nvlink:
            return "nvlink";
        case FabricTier::Rack:
            return "rack";
        case FabricTier::Pod:
            return "pod";
        case FabricTier::Fleet:
            return "fleet";
    }
    return "?";
}

std::string indexedName(const std::string& base, int count, int i) {
    return count > 1 ? base + std::to_string(i) : base;
}

namespace {

/// Far above every limit and far below LLONG_MAX: counts stop growing here, so neither a
/// product of three counts nor a sum of them can overflow.
constexpr long long kCountCap = 1'000'000'000'000'000;

long long cappedProduct(long long a, long long b) {
    if (a <= 0 || b <= 0) return 0;  // a negative count builds nothing (validation says why)
    return a > kCountCap / b ? kCountCap : std::min(kCountCap, a * b);
}

template <class T>
int indexOf(const std::vector<T>& items, std::string_view id) {
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].id == id) return static_cast<int>(i);
    return -1;
}

}  // namespace

FleetSizeCheck checkFleetSize(const Scenario& scenario) {
    FleetSizeCheck c;
    // A node list's size is checked when its fleet is built (Fleet::fromNodes).
    if (scenario.nodeList && scenario.nodeList->data)
        for (const OpenbNode& n : scenario.nodeList->data->nodes)
            if (n.isGpuNode()) {
                c.nodes += 1;
                c.gpus += n.gpus;
            }
    for (int p = 0; p < static_cast<int>(scenario.pods.size()); ++p) {
        const PodDef& pod = scenario.pods[p];
        for (int r = 0; r < static_cast<int>(pod.racks.size()); ++r) {
            const RackDef& rack = pod.racks[r];
            for (int g = 0; g < static_cast<int>(rack.nodes.size()); ++g) {
                const NodeGroupDef& group = rack.nodes[g];
                const NodeType* type = scenario.findNodeType(group.nodeType);
                // An unknown node type counts no GPUs here; Fleet::build names it.
                const long long copies =
                    cappedProduct(cappedProduct(pod.count, rack.count), group.count);
                c.nodes = std::min(kCountCap, c.nodes + copies);
                c.gpus = std::min(kCountCap,
                                  c.gpus + cappedProduct(copies, type ? type->gpusPerNode : 0));
                const bool over = c.nodes > InputLimits::maxNodes || c.gpus > InputLimits::maxGpus;
                if (over && c.pod < 0) {
                    c.pod = p;
                    c.rack = r;
                    c.group = g;
                }
            }
        }
    }
    if (c.nodes > InputLimits::maxNodes)
        c.refusal = "the fleet would have " + detail::withThousands(c.nodes) + " nodes; at most " +
                    detail::withThousands(InputLimits::maxNodes);
    else if (c.gpus > InputLimits::maxGpus)
        c.refusal = "the fleet would have " + detail::withThousands(c.gpus) + " GPUs; at most " +
                    detail::withThousands(InputLimits::maxGpus);
    return c;
}

namespace {

/// The scenario's price for a GPU model bought as `buyingClass` (0 without pricing; the
/// reader made sure a priced scenario has one for every node).
double listPrice(const Scenario& scenario, const std::string& gpuModel, BuyingClass buyingClass) {
    if (!scenario.pricing) return 0;
    const GpuPriceDef* p = scenario.pricing->find(gpuModel);
    return p && p->of(buyingClass) ? *p->of(buyingClass) : 0;
}

/// Scenario::buyingMix's classes by node order (list prices: a group's own price was for its
/// own class), then Scenario::onDemand's elastic nodes.
void applyBuyingMix(const Scenario& scenario, Fleet& f) {
    if (scenario.buyingMix) {
        const BuyingMixDef& mix = *scenario.buyingMix;
        for (std::size_t n = 0; n < f.nodes.size(); ++n) {
            FleetNode& node = f.nodes[n];
            const auto i = static_cast<long long>(n);
            const BuyingClass c = i < mix.reservedNodes                   ? BuyingClass::Reserved
                                  : i < mix.reservedNodes + mix.spotNodes ? BuyingClass::Spot
                                                                          : BuyingClass::OnDemand;
            if (c == node.buyingClass) continue;
            node.buyingClass = c;
            node.usdPerGpuHour = listPrice(scenario, f.gpuModels[node.gpuModel].id, c);
        }
        // The fill order's steps as node ranges: the classes' ranges in node order are
        // reserved [0, R), spot [R, R + S), on demand [R + S, n); a step joins the first k
        // classes of the order, kept when they are next to each other and not the whole fleet.
        const int n = static_cast<int>(f.nodes.size());
        const int r = std::min(mix.reservedNodes, n);
        const int s = std::min(mix.spotNodes, n - r);
        auto rangeOf = [&](BuyingClass c) -> std::pair<int, int> {
            if (c == BuyingClass::Reserved) return {0, r};
            if (c == BuyingClass::Spot) return {r, r + s};
            if (c == BuyingClass::OnDemand) return {r + s, n};
            return {0, 0};
        };
        int first = n, end = 0;
        bool joined = true;
        for (BuyingClass c : mix.fillOrder) {
            const auto [b, e] = rangeOf(c);
            if (b == e) continue;  // the mix buys none of it
            joined = first >= end || b == end || e == first;
            first = std::min(first, b);
            end = std::max(end, e);
            if (!joined) break;  // later steps would join across a gap too
            if (first == 0 && end == n) break;
            if (f.fillTiers.empty() || f.fillTiers.back() != std::pair{first, end})
                f.fillTiers.emplace_back(first, end);
        }
    }
    // Hot spares: the last nodes in fleet order that would start Ready.
    if (scenario.failures)
        for (std::size_t n = f.nodes.size(),
                         left = static_cast<std::size_t>(scenario.failures->hotSpareNodes);
             n-- > 0 && left > 0;) {
            FleetNode& node = f.nodes[n];
            if (node.initialState != NodeState::Ready || node.gpus == 0) continue;
            node.spare = true;
            node.initialState = NodeState::Cordoned;
            --left;
        }
    if (!scenario.onDemand) return;
    for (FleetNode& node : f.nodes)
        if (node.buyingClass == BuyingClass::OnDemand && node.initialState == NodeState::Ready &&
            node.gpus > 0) {
            node.elastic = true;
            node.initialState = NodeState::Provisioning;
            node.readyAtS = 0;
        }
}

}  // namespace

Fleet Fleet::build(const Scenario& scenario) {
    if (scenario.nodeList) {
        if (!scenario.nodeList->data)
            throw std::invalid_argument("node list " + scenario.nodeList->file + " was not loaded");
        Fleet f = openbFleet(scenario.nodeList->data->nodes, kNodeListNodesPerRack);
        f.fabric = scenario.fabric;
        // Models jobs ask for that no node has (the reader adds them from the catalog): such
        // jobs pend on the reservation layer, as on a fleet of pods.
        for (const GpuModel& m : scenario.gpuModels)
            if (!f.findGpuModel(m.id)) {
                f.gpuModels.push_back(m);
                f.extents.emplace_back();
            }
        f.priced = scenario.pricing.has_value();
        for (FleetNode& node : f.nodes)
            node.usdPerGpuHour =
                listPrice(scenario, f.gpuModels[node.gpuModel].id, node.buyingClass);
        return f;
    }
    const FleetSizeCheck size = checkFleetSize(scenario);
    if (!size.refusal.empty()) throw std::invalid_argument(size.refusal);
    Fleet f;
    f.gpuModels = scenario.gpuModels;
    f.nodeTypes = scenario.nodeTypes;
    f.fabric = scenario.fabric;
    f.extents.assign(f.gpuModels.size(), ModelExtent{});

    for (const PodDef& podDef : scenario.pods) {
        for (int pi = 0; pi < podDef.count; ++pi) {
            FleetPod pod;
            pod.name = indexedName(podDef.name, podDef.count, pi);
            pod.firstRack = static_cast<int>(f.racks.size());
            pod.firstNode = static_cast<int>(f.nodes.size());
            const int podIndex = static_cast<int>(f.pods.size());
            std::vector<int> podGpusByModel(f.gpuModels.size(), 0);
            for (const RackDef& rackDef : podDef.racks) {
                for (int ri = 0; ri < rackDef.count; ++ri) {
                    FleetRack rack;
                    rack.name = pod.name + "-" + indexedName(rackDef.name, rackDef.count, ri);
                    rack.pod = podIndex;
                    rack.firstNode = static_cast<int>(f.nodes.size());
                    const int rackIndex = static_cast<int>(f.racks.size());
                    std::vector<int> rackGpusByModel(f.gpuModels.size(), 0);
                    for (const NodeGroupDef& group : rackDef.nodes) {
                        const int typeIndex = indexOf(f.nodeTypes, group.nodeType);
                        if (typeIndex < 0)
                            throw std::invalid_argument("unknown node type " + group.nodeType);
                        const NodeType& type = f.nodeTypes[typeIndex];
                        const int modelIndex = indexOf(f.gpuModels, type.gpuModel);
                        if (modelIndex < 0)
                            throw std::invalid_argument("unknown GPU model " + type.gpuModel);
                        const int perDomain =
                            type.nvlinkDomain == NvlinkDomain::Rack ? type.nodesPerNvlinkDomain : 1;
                        for (int ni = 0; ni < group.count; ++ni) {
                            FleetNode node;
                            node.name = rack.name + "-" + indexedName(group.name, group.count, ni);
                            node.pod = podIndex;
                            node.rack = rackIndex;
                            node.nodeType = typeIndex;
                            node.gpuModel = modelIndex;
                            node.gpus = type.gpusPerNode;
                            node.cpuMilli = std::llround(type.cpuCores.value_or(0) * 1000);
                            node.memoryMiB =
                                static_cast<std::int64_t>(type.ramGb.value_or(0) * 1024);
                            node.sharing = group.sharing;
                            node.speed = group.speed;
                            // Rack-wide NVLink (NVL72): consecutive trays of the group share one
                            // domain of nodesPerNvlinkDomain trays.
                            if (ni % std::max(1, perDomain) == 0) ++f.nvlinkDomainCount;
                            node.nvlinkDomain = f.nvlinkDomainCount - 1;
                            node.buyingClass = group.buyingClass;
                            node.usdPerGpuHour =
                                group.usdPerGpuHour
                                    ? *group.usdPerGpuHour
                                    : listPrice(scenario, type.gpuModel, group.buyingClass);
                            node.initialState = group.state;
                            node.readyAtS = group.readyAtS;
                            rackGpusByModel[modelIndex] += node.gpus;
                            podGpusByModel[modelIndex] += node.gpus;
                            ModelExtent& ext = f.extents[modelIndex];
                            ext.totalGpus += node.gpus;
                            ext.maxGpusPerNode = std::max(ext.maxGpusPerNode, node.gpus);
                            f.totalGpus += node.gpus;
                            f.maxGpusPerNode = std::max(f.maxGpusPerNode, node.gpus);
                            if (!f.m_nodeByName.emplace(node.name, f.nodes.size()).second)
                                throw std::invalid_argument("duplicate node name " + node.name);
                            f.nodes.push_back(std::move(node));
                        }
                        const int domainGpus =
                            std::min(group.count, std::max(1, perDomain)) * type.gpusPerNode;
                        ModelExtent& ext = f.extents[modelIndex];
                        ext.maxDomainGpus = std::max(ext.maxDomainGpus, domainGpus);
                    }
                    rack.nodeCount = static_cast<int>(f.nodes.size()) - rack.firstNode;
                    for (std::size_t m = 0; m < rackGpusByModel.size(); ++m)
                        f.extents[m].maxRackGpus =
                            std::max(f.extents[m].maxRackGpus, rackGpusByModel[m]);
                    if (!f.m_rackByName.emplace(rack.name, rackIndex).second)
                        throw std::invalid_argument("duplicate rack name " + rack.name);
                    f.racks.push_back(std::move(rack));
                }
            }
            pod.rackCount = static_cast<int>(f.racks.size()) - pod.firstRack;
            pod.nodeCount = static_cast<int>(f.nodes.size()) - pod.firstNode;
            for (std::size_t m = 0; m < podGpusByModel.size(); ++m)
                f.extents[m].maxPodGpus = std::max(f.extents[m].maxPodGpus, podGpusByModel[m]);
            if (!f.m_podByName.emplace(pod.name, podIndex).second)
                throw std::invalid_argument("duplicate pod name " + pod.name);
            f.pods.push_back(std::move(pod));
        }
    }
    f.priced = scenario.pricing.has_value();
    applyBuyingMix(scenario, f);
    return f;
}

Fleet Fleet::fromNodes(std::vector<GpuModel> gpuModels, std::vector<NodeType> nodeTypes,
                       std::vector<FleetNode> nodes, int nodesPerRack) {
    if (static_cast<long long>(nodes.size()) > InputLimits::maxNodes)
        throw std::invalid_argument(
            "the fleet would have " + detail::withThousands(static_cast<long long>(nodes.size())) +
            " nodes; at most " + detail::withThousands(InputLimits::maxNodes));
    Fleet f;
    f.gpuModels = std::move(gpuModels);
    f.nodeTypes = std::move(nodeTypes);
    f.extents.assign(f.gpuModels.size(), ModelExtent{});
    const int models = static_cast<int>(f.gpuModels.size());
    const int n = static_cast<int>(nodes.size());
    const int perRack = nodesPerRack > 0 ? nodesPerRack : std::max(1, n);
    const int rackCount = std::max(1, (n + perRack - 1) / perRack);
    std::vector<int> gpusByModel(f.gpuModels.size(), 0);
    std::vector<int> rackGpusByModel(f.gpuModels.size(), 0);
    long long totalGpus = 0;
    for (int i = 0; i < n; ++i) {
        FleetNode& node = nodes[i];
        if (node.gpuModel < 0 || node.gpuModel >= models || node.nodeType < 0 ||
            node.nodeType >= static_cast<int>(f.nodeTypes.size()))
            throw std::invalid_argument("node " + node.name +
                                        ": GPU model or node type out of range");
        // Slot masks are 64 bits wide (ClusterState).
        if (node.gpus < 0 || node.gpus > 64)
            throw std::invalid_argument("node " + node.name + ": " + std::to_string(node.gpus) +
                                        " GPUs; at most 64");
        totalGpus += node.gpus;
        if (totalGpus > InputLimits::maxGpus)
            throw std::invalid_argument("the fleet would have more than " +
                                        detail::withThousands(InputLimits::maxGpus) + " GPUs");
        node.pod = 0;
        node.rack = i / perRack;
        node.nvlinkDomain = i;
        if (i % perRack == 0) std::fill(rackGpusByModel.begin(), rackGpusByModel.end(), 0);
        rackGpusByModel[node.gpuModel] += node.gpus;
        ModelExtent& ext = f.extents[node.gpuModel];
        ext.totalGpus += node.gpus;
        ext.maxGpusPerNode = std::max(ext.maxGpusPerNode, node.gpus);
        ext.maxDomainGpus = std::max(ext.maxDomainGpus, node.gpus);
        ext.maxRackGpus = std::max(ext.maxRackGpus, rackGpusByModel[node.gpuModel]);
        gpusByModel[node.gpuModel] += node.gpus;
        f.maxGpusPerNode = std::max(f.maxGpusPerNode, node.gpus);
        if (!f.m_nodeByName.emplace(node.name, i).second)
            throw std::invalid_argument("duplicate node name " + node.name);
    }
    // One pod: its largest unit of a model is all of it.
    for (int m = 0; m < models; ++m)
        f.extents[m].maxPodGpus = gpusByModel[m];
    f.totalGpus = static_cast<int>(totalGpus);
    f.nvlinkDomainCount = n;
    f.nodes = std::move(nodes);
    for (int r = 0; r < rackCount; ++r) {
        const std::string name = "pod-" + indexedName("rack", rackCount, r);
        f.racks.push_back(FleetRack{name, 0, r * perRack, std::min(perRack, n - r * perRack)});
        f.m_rackByName.emplace(name, r);
    }
    f.pods.push_back(FleetPod{"pod", 0, rackCount, 0, n});
    f.m_podByName.emplace("pod", 0);
    return f;
}

bool Fleet::sameNodes(const Fleet& o) const {
    if (nodes.size() != o.nodes.size() || racks.size() != o.racks.size() ||
        pods.size() != o.pods.size())
        return false;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].gpus != o.nodes[i].gpus || nodes[i].name != o.nodes[i].name) return false;
    return true;
}

std::optional<int> Fleet::findNode(std::string_view name) const {
    auto it = m_nodeByName.find(std::string(name));
    return it == m_nodeByName.end() ? std::nullopt : std::optional<int>(it->second);
}
std::optional<int> Fleet::findRack(std::string_view name) const {
    auto it = m_rackByName.find(std::string(name));
    return it == m_rackByName.end() ? std::nullopt : std::optional<int>(it->second);
}
std::optional<int> Fleet::findPod(std::string_view name) const {
    auto it = m_podByName.find(std::string(name));
    return it == m_podByName.end() ? std::nullopt : std::optional<int>(it->second);
}
std::optional<int> Fleet::findGpuModel(std::string_view id) const {
    const int i = indexOf(gpuModels, id);
    return i < 0 ? std::nullopt : std::optional<int>(i);
}

FabricTier Fleet::tierOf(std::span<const std::uint32_t> nodeIndices) const {
    if (nodeIndices.empty()) return FabricTier::Nvlink;
    const FleetNode& first = nodes[nodeIndices[0]];
    bool sameDomain = true, sameRack = true, samePod = true;
    for (std::uint32_t n : nodeIndices) {
        const FleetNode& node = nodes[n];
        sameDomain = sameDomain && node.nvlinkDomain == first.nvlinkDomain;
        sameRack = sameRack && node.rack == first.rack;
        samePod = samePod && node.pod == first.pod;
    }
    if (sameDomain) return FabricTier::Nvlink;
    if (sameRack) return FabricTier::Rack;
    if (samePod) return FabricTier::Pod;
    return FabricTier::Fleet;
}

FabricTier Fleet::neededTier(int gpus, int gpuModel) const {
    const ModelExtent& ext = extents[gpuModel];
    if (gpus <= ext.maxDomainGpus) return FabricTier::Nvlink;
    if (gpus <= ext.maxRackGpus) return FabricTier::Rack;
    if (gpus <= ext.maxPodGpus) return FabricTier::Pod;
    return FabricTier::Fleet;
}

double Fleet::tierBandwidthGBps(FabricTier tier, int nodeType) const {
    const NodeType& type = nodeTypes[nodeType];
    const double rackBw = type.fabricGBpsPerGpu().value_or(fabric.fallbackFabricGBpsPerGpu);
    const GpuModel* model = nullptr;
    for (const GpuModel& m : gpuModels)
        if (m.id == type.gpuModel) model = &m;
    switch (tier) {
        case FabricTier::Nvlink:
            return model && model->nvlinkGBps > 0 ? model->nvlinkGBps / 2.0 : rackBw;
        case FabricTier::Rack:
            return rackBw;
        case FabricTier::Pod:
            return rackBw / fabric.rackUplinkOversubscription;
        case FabricTier::Fleet:
            return rackBw / (fabric.rackUplinkOversubscription * fabric.podUplinkOversubscription);
    }
    return rackBw;
}

double Fleet::slowdown(FabricTier needed, FabricTier actual, double sensitivity,
                       int nodeType) const {
    if (actual <= needed || sensitivity <= 0) return 1.0;
    const double ratio = tierBandwidthGBps(needed, nodeType) / tierBandwidthGBps(actual, nodeType);
    return std::max(1.0, 1.0 + sensitivity * (ratio - 1.0));
}

}  // namespace gpuplan
