// A Kubernetes cluster's GPU fleet from `kubectl get nodes -o json`, and optionally its running
// GPU pods from `kubectl get pods -A -o json`, as an ImportedFleet (fleet_import.hpp builds the
// scenario). The rules, in short (README, "Importing a Kubernetes fleet", has them whole):
// - a GPU node has nvidia.com/gpu or nvidia.com/mig-<profile> in its allocatable resources;
//   its model is its nvidia.com/gpu.product label (GPU feature discovery) matched to the
//   catalog's productLabels, with "-MIG-<profile>" and "-SHARED" suffixes removed;
//   --gpu-product PRODUCT=MODEL names one the catalog lacks, --gpu-model MODEL names it for
//   nodes without the label; its physical GPUs are the nvidia.com/gpu.count label, else the
//   allocatable nvidia.com/gpu;
// - MIG: the mixed strategy's nvidia.com/mig-<profile> resources (allocatable, else the
//   nvidia.com/mig-<profile>.count labels) divided over the GPUs give each GPU's layout; the
//   single strategy's product suffix names the one profile, allocatable ÷ GPUs its count;
//   time-slicing and MPS (nvidia.com/gpu.replicas, nvidia.com/gpu.sharing-strategy) map to
//   the same sharing modes;
// - CPU and memory are the allocatable cpu and memory quantities;
// - Ready condition not True → Failed; spec.unschedulable or a NoSchedule/NoExecute taint a
//   GPU pod would not tolerate → Cordoned (nvidia.com/gpu taints, and --tolerate keys, are
//   tolerated);
// - pods and racks from two node labels (--topology-labels, else the first known pair present:
//   NVIDIA Topograph's spine/leaf, EKS's network-node-layer-2/-3, GKE's topology block and
//   subblock, Kueue's example block/rack, the zone alone); none → a flat fleet;
// - pods: each Running pod on an imported node that asks for nvidia.com/gpu or a MIG instance
//   is a job pinned to its node at t = 0, holding its GPUs to the horizon, with its namespace
//   (or --team-label) as team, its priority, and its CPU and memory requests.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/import/fleet_import.hpp"

namespace gpuplan {

struct K8sImportOptions {
    /// Node labels naming each node's pod and rack; empty = the defaults above. Either may be
    /// empty on its own (--topology-labels ,RACK: racks only).
    std::string podLabel, rackLabel;
    bool topologyLabelsGiven = false;
    /// A pod label naming the team; pods without it (and every pod when empty) use their
    /// namespace.
    std::string teamLabel;
    /// --gpu-product PRODUCT=MODEL: a product label's catalog GPU model, before the catalog's.
    std::vector<std::pair<std::string, std::string>> productModels;
    /// --gpu-model MODEL: the model of GPU nodes with no nvidia.com/gpu.product label.
    std::string unlabelledModel;
    /// Taint keys GPU pods tolerate, besides nvidia.com/gpu (--tolerate KEY).
    std::vector<std::string> toleratedTaints;
};

/// One file's text, for importing from memory.
struct K8sListText {
    std::string file;  ///< named in messages
    std::string text;
};

/// Throws InputError naming the file and the JSON pointer (a node's or pod's field) when the
/// input is not what kubectl writes, and ("--gpu-product", "", what) for an option that names
/// no catalog model.
ImportedFleet importK8s(const Catalog& catalog, const K8sListText& nodes,
                        const std::optional<K8sListText>& pods, const K8sImportOptions& options);
/// The same for files, read with readTextFile's limits.
ImportedFleet importK8sFiles(const Catalog& catalog, const std::filesystem::path& nodes,
                             const std::optional<std::filesystem::path>& pods,
                             const K8sImportOptions& options);

}  // namespace gpuplan
