// The parts of importK8s (gpuplan/import/k8s_import.hpp): nodes, each node's GPUs, then the pods
// running on them, and the JSON and resource rules they share.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/import/k8s_import.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

inline constexpr std::string_view kGpuResource = "nvidia.com/gpu";
/// The device plugin's name for shared replicas with renameByDefault (time-slicing, MPS).
inline constexpr std::string_view kSharedGpuResource = "nvidia.com/gpu.shared";
inline constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";

/// Bounds on what one node or pod may declare, so a hostile number is an error at its place
/// rather than a huge loop or an overflowing conversion: 64 GPUs a node (the node type's
/// bound), each shared by at most 64 replicas or cut into at most 7 MIG instances.
inline constexpr double kMaxGpuUnitsPerNode = 64.0 * 64;
inline constexpr double kMaxMigInstancesPerNode = 64.0 * 7;
inline constexpr double kMaxCpuCores = 1e5;
inline constexpr double kMaxMemoryBytes = 1e7 * 1024.0 * 1024 * 1024;  // 10 million GiB

/// A child that is present and not null (kubectl writes "taints": null at times).
std::optional<JsonNode> present(JsonObject& o, std::string_view key);

/// A label's string value, or "" when the node or pod lacks it.
std::string labelOf(const Json& labels, std::string_view key);

/// The objects of a kubectl list ("kind": "List" or "<Kind>List", with "items") or one object
/// of `kind`; each item must have that kind. At most `maxItems`.
std::vector<JsonNode> kubeItems(const JsonNode& root, const std::string& kind,
                                std::size_t maxItems);

/// A resource map's quantity ("status/allocatable/cpu"), nullopt when absent or null. A value
/// that is not a Kubernetes quantity, is negative or is above `max` fails at its pointer.
std::optional<double> kubeQuantityAt(JsonObject& resources, std::string_view name, double max);

/// The catalog's name of a MIG profile a resource names: the device plugin writes
/// "1g.10gb.me" for the catalog's "1g.10gb+me".
std::string migProfileOfResource(std::string_view resourceSuffix);

/// What the pod reader needs to know of each imported node, by the cluster's node name.
struct K8sNodeFacts {
    int timeSliceReplicas = 0;     ///< nvidia.com/gpu units per GPU when shared, else 0
    std::string singleMigProfile;  ///< single-strategy MIG: each nvidia.com/gpu is one of these
    std::string gpuModel;
    NodeState state = NodeState::Ready;
};

/// One node's GPUs as the cluster offers them: count, sharing, and what was left out.
struct NodeGpus {
    int gpus = 0;
    GpuSharingDef sharing;
    std::string singleMigProfile;
    int timeSliceReplicas = 0;
    bool noneHealthy = false;  ///< GPUs in capacity, none allocatable
    std::vector<std::string> notes;
};

/// Placements the MIG layout search (distributeMigInstances) may try over a whole import:
/// real nodes need a few hundred at most, and a file of nodes whose counts no layout holds
/// stops searching here (about 100 nodes' worth) instead of taking minutes.
inline constexpr long kImportMigSearchSteps = 200'000;

/// Reads a GPU node's count, MIG layout(s) and sharing from its labels and resources (GFD,
/// the device plugin, GKE's own labels). `model` is its catalog GPU; `migSearchSteps` is what
/// is left of kImportMigSearchSteps, and the node's search takes from it. Fails at `nameNode`
/// (naming the node) when the node cannot be modelled.
NodeGpus readNodeGpus(const Json& labels, JsonObject& allocatable,
                      std::optional<JsonObject>& capacity, const GpuModel& model,
                      const JsonNode& nameNode, const std::string& nodeName, long& migSearchSteps);

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
