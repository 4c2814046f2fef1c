// A fleet read from a real cluster, made into a scenario. The readers (Kubernetes nodes and
// pods: k8s_import.hpp; Slurm's scontrol and sacct: slurm_import.hpp) say what each node is;
// one builder turns nodes into node types, pods, racks and node groups, so both importers
// name, group and summarise the same way.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

/// One GPU node as the cluster reports it.
struct ImportedNode {
    std::string name;      ///< the cluster's node name (letters, digits, '.', '_', '-'; ≤ 64)
    std::string pod;       ///< topology group above the rack; empty = not known
    std::string rack;      ///< empty = not known
    std::string gpuModel;  ///< catalog GpuModel::id
    int gpus = 0;          ///< physical GPUs (a MIG-partitioned GPU counts once)
    double cpuCores = 0;   ///< allocatable cores (fractions kept); 0 = not known, never a limit
    double memoryGiB = 0;  ///< allocatable host memory, GiB; 0 = not known, never a limit
    NodeState state = NodeState::Ready;  ///< Ready, Cordoned or Failed
    std::string stateReason;  ///< why not Ready, in the cluster's words ("DRAIN: bad gpu")
    GpuSharingDef sharing;    ///< MIG layout when the node's GPUs are partitioned
    std::string file;         ///< the file it was read from, for messages
    std::string place;        ///< where in it: a JSON pointer ("/items/3") or "line 12"
};

/// What an import read, left out or assumed: the summary a user reads before trusting it.
struct ImportSummary {
    std::vector<std::string> mapped;       ///< "24 GPU nodes (192 GPUs): …"
    std::vector<std::string> skipped;      ///< "3 CPU-only nodes: cpu-0, cpu-1, cpu-2"
    std::vector<std::string> assumptions;  ///< "running pods hold their GPUs to the horizon"
    /// Every line, under "Mapped", "Skipped" and "Assumed" headings (empty ones left out).
    std::string text() const;
};

/// What a reader hands the builder.
struct ImportedFleet {
    std::vector<ImportedNode> nodes;
    /// Work already running, pinned to node names as the cluster names them (the builder
    /// rewrites each pin to the node's name in the scenario).
    std::vector<JobDef> jobs;
    std::vector<TraceDef> traces;  ///< job history to replay (a Slurm accounting export)
    std::vector<std::string> teams;
    ImportSummary summary;
    std::string source;  ///< e.g. "kubectl get nodes (nodes.json)": the description, messages
};

struct ImportScenarioOptions {
    std::string name;
    double horizonS = 7 * 86400.0;
    std::uint64_t seed = 1;
};

/// The scenario of an imported fleet:
/// - a node type per distinct (GPU model, GPUs, CPU, memory), defined in the scenario
///   ("imported-h100-sxm-8gpu-191.45cpu-2000gib");
/// - pods and racks from the nodes' labels, in name order; nodes with no rack go to racks of
///   kNodeListNodesPerRack in name order; with no pod at all, one pod "cluster";
/// - a node group per node, named after it, so the scenario's node "<pod>-<rack>-<node>"
///   ends in the cluster's name, with the node's state and MIG layout.
/// Adds the builder's lines to the summary. Throws InputError naming the node's place when
/// a node cannot be modelled (an unknown GPU model, a bad name, two nodes of one name).
struct ImportedScenario {
    Scenario scenario;
    ImportSummary summary;
};
ImportedScenario importedScenario(const ImportedFleet& fleet, const Catalog& catalog,
                                  const ImportScenarioOptions& options);

}  // namespace gpuplan
