// The openb trace (Alibaba cluster-trace-gpu-v2023, the FGD paper's data): node and pod lists
// as plain CSV. Strict reading: errors are InputError(file, "line N", what is wrong), with the
// column named. See presets/data/openb/SOURCE.md for the columns.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/model/topology.hpp"

namespace gpuplan {

/// One row of a node list (columns sn,cpu_milli,memory_mib,gpu,model).
struct OpenbNode {
    std::string name;           ///< sn
    std::int64_t cpuMilli = 0;  ///< 1000 per vCPU
    std::int64_t memoryMiB = 0;
    int gpus = 0;       ///< 0 for a CPU-only node
    std::string model;  ///< GPU model (G1, T4, V100M32, …); empty for a CPU-only node
    /// The fill protocol uses GPU nodes only; CPU-only rows are kept so the all-node list reads.
    bool isGpuNode() const { return gpus > 0; }
};

/// One row of a pod list. The full form has the columns
/// name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,
/// deletion_time,scheduled_time; the variants have only the first five. What a file lacks is
/// empty (gpuSpec, qos, phase) or NaN (the times).
struct OpenbPod {
    std::string name;
    std::int64_t cpuMilli = 0;
    std::int64_t memoryMiB = 0;
    int numGpu = 0;    ///< 0 (CPU-only), 1, 2, 4, 8, … (at most 64)
    int gpuMilli = 0;  ///< per GPU: 1–999 a partial GPU (numGpu 1), 1000 whole GPUs, 0 CPU-only
    /// The GPU models the pod may run on, as written (split at '|'); empty = any model.
    std::vector<std::string> gpuSpec;
    std::string qos;    ///< LS, BE, Burstable, Guaranteed (empty when the file has no column)
    std::string phase;  ///< Running, Failed, Pending, Succeeded (ditto)
    double creationS = 0, deletionS = 0, scheduledS = 0;  ///< s from trace start; NaN if absent
};

/// The rows of a node list file a scenario names (NodeListDef), read when the scenario is
/// read; shared and immutable.
struct NodeListData {
    std::string file;  ///< as the scenario names it (NodeListDef::file)
    std::string resolvedPath;
    std::vector<OpenbNode> nodes;
};

/// Bounds on what a node or pod list may hold. A row beyond them is refused with the bound
/// named. Memory used while reading is proportional to the text.
struct OpenbLimits {
    std::size_t maxRows = 10'000'000;
    static constexpr std::int64_t maxCpuMilli = 10'000'000;  ///< 10,000 vCPUs, node or pod
    static constexpr std::int64_t maxMemoryMiB = 1ll << 26;  ///< 64 TiB, node or pod
    static constexpr int maxGpus = 64;                       ///< per node, per pod
    static constexpr double maxTimeS = 1e10;                 ///< about 317 years
};

/// Node list: the header names the columns (any order; unknown columns are ignored). Node
/// names are unique and obey the name rule (1–64 of A–Z a–z 0–9 . _ -), as do models.
std::vector<OpenbNode> parseOpenbNodes(std::string_view text, const std::string& sourceName,
                                       const OpenbLimits& limits = {});
std::vector<OpenbNode> readOpenbNodes(const std::filesystem::path& file);

/// Pod list, either form; the header decides. Throws InputError.
std::vector<OpenbPod> parseOpenbPods(std::string_view text, const std::string& sourceName,
                                     const OpenbLimits& limits = {});
std::vector<OpenbPod> readOpenbPods(const std::filesystem::path& file);

/// The distinct GPU models of the GPU nodes, in order of first appearance: the index list for
/// NodeFree::gpuModel and TaskShape::allowedModels. More than 64 throws std::invalid_argument.
std::vector<std::string> gpuModelNames(const std::vector<OpenbNode>& nodes);

/// A fleet of the GPU nodes of a node list, in list order (CPU-only rows are skipped): GPU
/// models named by the list's model strings in order of first appearance (gpuModelNames),
/// one pod and one rack holding every node, CPU and memory from the list. Every GPU shares by
/// MPS with a client limit that never binds (shares are at least 1 milli-GPU, so at most 1000
/// fit on a GPU), as the simulator has no client limit. Throws std::invalid_argument when the
/// list has no GPU node, or a GPU node with cpu_milli or memory_mib 0 (the resource model
/// reads 0 as "not declared"). `nodesPerRack` > 0 cuts the one rack into racks of that many
/// nodes in list order (Fleet::fromNodes).
Fleet openbFleet(const std::vector<OpenbNode>& nodes, int nodesPerRack = 0);

/// Racks of a scenario's node-list fleet (Scenario::nodeList). The openb lists name no racks;
/// every openb pod fits one node, so racks change no placement there: they make the fleet
/// drawable as racks rather than one column of 1,213 nodes.
inline constexpr int kNodeListNodesPerRack = 32;

}  // namespace gpuplan
