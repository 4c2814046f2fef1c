// Hardware catalog: GPU models and node types, as plain values.
// Facts and their sources live in presets/catalog/catalog.json; the engine sees only values.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

/// One GPU model with the specs the simulation needs.
struct GpuModel {
    std::string id;    ///< stable key used by scenarios, e.g. "h100-sxm"
    std::string name;  ///< human name, e.g. "NVIDIA H100 80GB SXM5"
    std::string vendor;
    double bf16DenseTflops = 0;  ///< dense (not 2:4 sparse) peak, the MFU denominator
    std::optional<double> fp8DenseTflops;
    double hbmGb = 0;
    double hbmTbps = 0;
    double nvlinkGBps = 0;  ///< total bidirectional NVLink bandwidth per GPU; 0 = none
    double tdpW = 0;
    int migMaxInstances = 0;  ///< 0 = not MIG-capable
    /// Values of the Kubernetes node label nvidia.com/gpu.product on nodes with this GPU (GPU
    /// Feature Discovery writes nvidia-smi's product name, spaces as '-'): how a Kueue
    /// ResourceFlavor's nodeLabels name it. Empty = not known.
    std::vector<std::string> productLabels;
    std::vector<std::string> sources;
    std::string notes;

    bool operator==(const GpuModel&) const = default;
};

/// Which fabric element forms one NVLink domain for this node type.
enum class NvlinkDomain { Node, Rack };

/// A server (or an NVL72 compute tray) with its GPUs and network.
struct NodeType {
    std::string id;  ///< e.g. "dgx-h100"
    std::string name;
    std::string gpuModel;  ///< GpuModel::id
    int gpusPerNode = 8;
    std::optional<double> cpuCores;  ///< may be fractional (an allocatable 191450m)
    std::optional<double> ramGb;
    std::optional<int> nicCount;              ///< compute-fabric NICs
    std::optional<double> nicGbps;            ///< per NIC, gigabit/s
    std::optional<double> fabricGbpsPerNode;  ///< total compute-fabric bandwidth, gigabit/s
    std::optional<double> maxPowerKw;
    NvlinkDomain nvlinkDomain = NvlinkDomain::Node;
    int nodesPerNvlinkDomain = 1;  ///< 18 for a GB200 NVL72 rack of 4-GPU trays
    std::vector<std::string> sources;
    std::string notes;

    /// Compute-fabric bandwidth per GPU, one direction, GB/s (a 400 Gb/s NIC per GPU = 50 GB/s);
    /// nullopt when the catalog does not know it.
    std::optional<double> fabricGBpsPerGpu() const {
        if (!fabricGbpsPerNode || gpusPerNode <= 0) return std::nullopt;
        return *fabricGbpsPerNode / 8.0 / gpusPerNode;
    }

    bool operator==(const NodeType&) const = default;
};

struct CatalogSource {
    std::string key;
    std::string title;
    std::string url;
    bool operator==(const CatalogSource&) const = default;
};

struct Catalog {
    std::string asOf;
    std::vector<CatalogSource> sources;
    std::vector<GpuModel> gpuModels;
    std::vector<NodeType> nodeTypes;

    const GpuModel* findGpu(std::string_view id) const;
    const NodeType* findNodeType(std::string_view id) const;

    bool operator==(const Catalog&) const = default;
};

}  // namespace gpuplan
