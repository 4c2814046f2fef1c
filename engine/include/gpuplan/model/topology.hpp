// The built fleet: pods ⊃ racks ⊃ nodes ⊃ GPUs, NVLink domains and fabric tiers.
//
// Slowdown model (documented here because the UI explains it):
//   A job's pods talk over the slowest tier their placement spans. Tier bandwidth per GPU,
//   one direction: NVLink domain = nvlinkGBps / 2 of the GPU model; rack = the node's
//   compute-fabric bandwidth per GPU; pod = rack ÷ rackUplinkOversubscription;
//   fleet = pod ÷ podUplinkOversubscription. (A GPU without NVLink uses the rack figure.)
//   The job needs the smallest tier whose largest unit of its GPU model could hold it.
//   With s = the job's topologySensitivity (share of step time in exposed communication
//   at the needed tier), run time is multiplied by
//       slowdown = 1 + s · (bandwidth(needed) / bandwidth(actual) − 1)      (≥ 1).
//   Example: 8 × H100 that fit one node (450 GB/s) but land on two racks (50 GB/s) with
//   s = 0.1 run 1 + 0.1 · (9 − 1) = 1.8 × longer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

/// Fabric tiers from the fastest to the slowest.
enum class FabricTier : std::uint8_t { Nvlink = 0, Rack = 1, Pod = 2, Fleet = 3 };
const char* toString(FabricTier);

struct FleetNode {
    std::string name;
    int pod = 0;
    int rack = 0;
    int nodeType = 0;  ///< index into Fleet::nodeTypes
    int gpuModel = 0;  ///< index into Fleet::gpuModels
    int gpus = 0;
    /// Host resources pods may ask for; 0 = not declared (not filtered). From the node type.
    std::int64_t cpuMilli = 0;
    std::int64_t memoryMiB = 0;
    GpuSharingDef sharing;
    int nvlinkDomain = 0;
    /// GPUs that can be handed out whole: none on a MIG node (its GPUs are cut into instances).
    int wholeGpus() const { return sharing.mode == SharingMode::Mig ? 0 : gpus; }
    BuyingClass buyingClass = BuyingClass::Reserved;
    double usdPerGpuHour = 0;  ///< its price when the fleet is priced (Fleet::priced)
    NodeState initialState = NodeState::Ready;
    double readyAtS = 0;
    /// On demand under Scenario::onDemand: provisioned when queued jobs need it, given back
    /// when idle (starts Provisioning, never Ready by itself).
    bool elastic = false;
    /// A hot spare (FailureDef::hotSpareNodes): starts Cordoned, idle, to replace a failed node.
    bool spare = false;
    double speed = 1;  ///< fail-slow: its GPUs' pace, a share of normal (NodeGroupDef::speed)
};

struct FleetRack {
    std::string name;
    int pod = 0;
    int firstNode = 0;
    int nodeCount = 0;
};

struct FleetPod {
    std::string name;
    int firstRack = 0;
    int rackCount = 0;
    int firstNode = 0;
    int nodeCount = 0;
};

/// Largest units of one GPU model, for the "needed tier" of a job.
struct ModelExtent {
    int totalGpus = 0;
    int maxGpusPerNode = 0;
    int maxDomainGpus = 0;
    int maxRackGpus = 0;
    int maxPodGpus = 0;
};

/// The generated name of copy `i` of a definition named `base` with `count` copies: "rack" for
/// a single copy, "rack0", "rack1", … for several.
std::string indexedName(const std::string& base, int count, int i);

/// A scenario's fleet size, counted from its pod, rack and node-group definitions without
/// building anything, against InputLimits (scenario_io.hpp). The one rule the reader, the
/// fleet edits and Fleet::build share.
struct FleetSizeCheck {
    long long nodes = 0;  ///< saturates far above the limits, so it never overflows
    long long gpus = 0;
    /// Why the fleet is too big ("the fleet would have 25,000,000 nodes; at most 200,000");
    /// empty when it fits.
    std::string refusal;
    /// Definition indices of the first node group at which a limit is passed (−1 when none).
    int pod = -1, rack = -1, group = -1;
};
FleetSizeCheck checkFleetSize(const Scenario& scenario);

class Fleet {
public:
    /// Builds the fleet; throws std::invalid_argument on a topology the validator let through
    /// (unknown node type, duplicate names) and on one past InputLimits (checkFleetSize), so
    /// no caller can allocate millions of nodes by mistake.
    static Fleet build(const Scenario& scenario);
    /// A fleet of the given nodes in one pod holding one rack, each node its own NVLink
    /// domain, with extents, totals and the name index filled as build() fills them: for
    /// fleets read from node lists (the openb trace) rather than built from a scenario.
    /// `nodes[i].gpuModel` and `.nodeType` index the two lists; pod, rack and NVLink domain are
    /// set here. Throws std::invalid_argument on a bad index, more than 64 GPUs on a node, a
    /// duplicate name or more nodes or GPUs than InputLimits allow. `nodesPerRack` > 0 cuts
    /// the list into racks of that many consecutive nodes ("pod-rack0", …); 0 = one rack.
    static Fleet fromNodes(std::vector<GpuModel> gpuModels, std::vector<NodeType> nodeTypes,
                           std::vector<FleetNode> nodes, int nodesPerRack = 0);

    std::vector<GpuModel> gpuModels;
    std::vector<NodeType> nodeTypes;
    FabricDef fabric;
    std::vector<FleetNode> nodes;
    std::vector<FleetRack> racks;
    std::vector<FleetPod> pods;
    std::vector<ModelExtent> extents;  ///< per GPU model
    int totalGpus = 0;
    int maxGpusPerNode = 0;
    int nvlinkDomainCount = 0;
    /// The scenario has pricing: every node has its price, and runs report costs.
    bool priced = false;
    /// Node ranges [first, end) a job is tried on in turn before the whole fleet (the buying
    /// mix's fill order, BuyingMixDef::fillOrder); empty = the whole fleet at once.
    std::vector<std::pair<int, int>> fillTiers;

    /// Same nodes (names and GPU counts) in the same order: indices mean the same thing.
    bool sameNodes(const Fleet& other) const;

    std::optional<int> findNode(std::string_view name) const;
    std::optional<int> findRack(std::string_view name) const;
    std::optional<int> findPod(std::string_view name) const;
    std::optional<int> findGpuModel(std::string_view id) const;

    /// Slowest tier spanned by a set of nodes (one node or one NVLink domain = Nvlink).
    FabricTier tierOf(std::span<const std::uint32_t> nodeIndices) const;
    /// Smallest tier whose largest unit of `gpuModel` holds `gpus` GPUs.
    FabricTier neededTier(int gpus, int gpuModel) const;
    /// Per-GPU one-direction bandwidth of a tier for a node type, GB/s.
    double tierBandwidthGBps(FabricTier tier, int nodeType) const;
    /// Run-time multiplier (≥ 1) of the slowdown model above.
    double slowdown(FabricTier needed, FabricTier actual, double sensitivity, int nodeType) const;

private:
    std::unordered_map<std::string, int> m_nodeByName, m_rackByName, m_podByName;
};

}  // namespace gpuplan
