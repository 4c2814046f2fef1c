// The two halves of importK8s (gpuplan/k8s_import.hpp): nodes, then the pods running on them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/k8s_import.hpp"
#include "json_reader.hpp"

namespace gpuplan::detail {

/// The objects of a kubectl list ("kind": "List" or "<Kind>List", with "items") or one object
/// of `kind`; each item must have that kind. At most `maxItems`.
std::vector<JsonNode> kubeItems(const JsonNode& root, const std::string& kind,
                                std::size_t maxItems);

/// A resource map's quantity ("status/allocatable/cpu"), nullopt when absent. A value that is
/// not a Kubernetes quantity, or is negative, fails at its pointer.
std::optional<double> kubeQuantityAt(JsonObject& resources, std::string_view name);

/// What the pod reader needs to know of each imported node, by the cluster's node name.
struct K8sNodeFacts {
    int timeSliceReplicas = 0;  ///< nvidia.com/gpu units per GPU when shared, else 0
    std::string gpuModel;
    NodeState state = NodeState::Ready;
};

struct K8sNodes {
    ImportedFleet fleet;
    std::map<std::string, K8sNodeFacts> facts;
    std::vector<std::string> skippedNodeNames;  ///< CPU-only and other nodes left out
};

K8sNodes readK8sNodes(const Catalog& catalog, const K8sListText& nodes,
                      const K8sImportOptions& options);

/// Adds the running GPU pods of `pods` on the imported nodes as pinned jobs, with the lines
/// the summary needs.
void readK8sPods(const K8sListText& pods, K8sNodes& nodes, const K8sImportOptions& options);

}  // namespace gpuplan::detail
