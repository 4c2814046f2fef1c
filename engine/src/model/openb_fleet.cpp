// A Fleet from an openb node list (see gpuplan/model/openb.hpp, openbFleet).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "gpuplan/model/openb.hpp"

namespace gpuplan {

std::vector<std::string> gpuModelNames(const std::vector<OpenbNode>& nodes) {
    std::vector<std::string> models;
    for (const OpenbNode& n : nodes) {
        if (!n.isGpuNode() || std::find(models.begin(), models.end(), n.model) != models.end())
            continue;
        if (models.size() == 64)
            throw std::invalid_argument("the nodes have more than 64 GPU models");
        models.push_back(n.model);
    }
    return models;
}

Fleet openbFleet(const std::vector<OpenbNode>& rows, int nodesPerRack) {
    const std::vector<std::string> modelNames = gpuModelNames(rows);
    if (modelNames.empty()) throw std::invalid_argument("the node list has no GPU node");
    std::vector<GpuModel> models;
    for (const std::string& name : modelNames) {
        GpuModel m;
        m.id = name;
        m.name = name;  // G1, G2, G3 are undisclosed; the trace gives no specs
        m.notes = "from an openb node list";
        models.push_back(std::move(m));
    }
    // One node type per distinct (model, GPUs, CPU, memory), so each node's type says what it
    // has; the fill reads the nodes themselves.
    using TypeKey = std::tuple<int, int, std::int64_t, std::int64_t>;
    std::map<TypeKey, int> typeIndex;
    std::vector<NodeType> types;
    std::vector<FleetNode> nodes;
    for (const OpenbNode& row : rows) {
        if (!row.isGpuNode()) continue;
        // ClusterState reads 0 as "not declared, not filtered": a GPU node with no CPU or no
        // memory would host anything instead of nothing. Such a list is refused.
        if (row.cpuMilli == 0 || row.memoryMiB == 0)
            throw std::invalid_argument("GPU node " + row.name + " has " +
                                        (row.cpuMilli == 0 ? "cpu_milli" : "memory_mib") +
                                        " 0; the fill needs both on every GPU node");
        const int model = static_cast<int>(
            std::find(modelNames.begin(), modelNames.end(), row.model) - modelNames.begin());
        const TypeKey key{model, row.gpus, row.cpuMilli, row.memoryMiB};
        auto [it, fresh] = typeIndex.emplace(key, static_cast<int>(types.size()));
        if (fresh) {
            NodeType t;
            t.id = "openb-" + row.model + "-" + std::to_string(row.gpus) + "gpu-" +
                   std::to_string(row.cpuMilli) + "mcpu-" + std::to_string(row.memoryMiB) + "mib";
            t.name = t.id;
            t.gpuModel = row.model;
            t.gpusPerNode = row.gpus;
            types.push_back(std::move(t));
        }
        FleetNode n;
        n.name = row.name;
        n.nodeType = it->second;
        n.gpuModel = model;
        n.gpus = row.gpus;
        n.cpuMilli = row.cpuMilli;
        n.memoryMiB = row.memoryMiB;
        n.sharing.mode = SharingMode::Mps;
        // Shares are at least 1 milli-GPU and sum to at most 1000: 1000 clients never bind.
        n.sharing.mpsClients = 1000;
        nodes.push_back(std::move(n));
    }
    return Fleet::fromNodes(std::move(models), std::move(types), std::move(nodes), nodesPerRack);
}

}  // namespace gpuplan
