// `kubectl get nodes -o json` → the GPU nodes of an ImportedFleet (rules: k8s_import.hpp).
#include <algorithm>
#include <array>
#include <cmath>

#include "gpuplan/mig_geometry.hpp"
#include "k8s_import_parts.hpp"
#include "kube_quantity.hpp"

namespace gpuplan::detail {

namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";
constexpr std::string_view kMigPrefix = "nvidia.com/mig-";
constexpr double kBytesPerGiB = 1024.0 * 1024 * 1024;

/// Pairs of node labels that name a node's place in the network, the first pair any GPU node
/// has wins: (pod label, rack label).
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kTopologySchemes = {{
    // NVIDIA Topograph: leaf = the switch the node hangs off, spine = the tier above.
    {"network.topology.nvidia.com/spine", "network.topology.nvidia.com/leaf"},
    // EKS: layer 3 is the bottom of the network hierarchy (nearest nodes), layer 2 above it.
    {"topology.k8s.aws/network-node-layer-2", "topology.k8s.aws/network-node-layer-3"},
    // GKE: a block holds sub-blocks.
    {"cloud.google.com/gce-topology-block", "cloud.google.com/gce-topology-subblock"},
    // Kueue's topology-aware scheduling examples.
    {"cloud.provider.com/topology-block", "cloud.provider.com/topology-rack"},
    {"topology.kubernetes.io/zone", ""},
}};

/// A child that is present and not null (kubectl writes "taints": null at times).
std::optional<JsonNode> present(JsonObject& o, std::string_view key) {
    std::optional<JsonNode> v = o.optional(key);
    if (v && v->raw().is_null()) return std::nullopt;
    return v;
}

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// A label's string value, or "" when the node lacks it.
std::string labelOf(const Json& labels, std::string_view key) {
    if (key.empty() || !labels.is_object()) return {};
    auto it = labels.find(key);
    return it != labels.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The product as GPU feature discovery names the physical GPU: single-strategy MIG appends
/// "-MIG-<profile>", a shared GPU (time-slicing, MPS) "-SHARED".
std::string physicalProduct(std::string product, std::string* migProfile) {
    if (product.size() > 7 && product.ends_with("-SHARED")) product.resize(product.size() - 7);
    if (auto at = product.find("-MIG-"); at != std::string::npos) {
        if (migProfile) *migProfile = product.substr(at + 5);
        product.resize(at);
    }
    return product;
}

struct NodeReader {
    const Catalog& catalog;
    const K8sImportOptions& options;
    const std::string& file;
    std::string podLabel, rackLabel;

    [[noreturn]] void fail(const JsonNode& at, const std::string& nodeName,
                           const std::string& message) const {
        at.fail("node " + nodeName + ": " + message);
    }

    /// The catalog model of a product label (physical product, suffixes removed).
    std::string modelOf(const std::string& product, const JsonNode& at,
                        const std::string& nodeName) const {
        for (const auto& [given, model] : options.productModels)
            if (equalIgnoringCase(given, product)) return model;
        for (const GpuModel& g : catalog.gpuModels) {
            for (const std::string& label : g.productLabels)
                if (equalIgnoringCase(label, product)) return g.id;
            if (equalIgnoringCase(g.id, product)) return g.id;
        }
        fail(at, nodeName,
             "GPU product \"" + escapedForMessage(product) +
                 "\" is not in the catalog; name its model with --gpu-product \"" +
                 escapedForMessage(product) + "=MODEL\"");
    }

    /// Each GPU's MIG instances from the per-profile counts over the node, largest first
    /// (placed in that order, the big ones get the few slots they may start at);
    /// instances that do not divide evenly over the GPUs are left out and counted.
    std::string migLayout(std::vector<std::pair<std::string, long long>> counts, int gpus,
                          MigFamily family, long long& leftOut) const {
        auto memorySlices = [&](const std::string& name) {
            const auto p = migProfileByName(family, name);
            return p ? p->memorySlices : 0;
        };
        std::stable_sort(counts.begin(), counts.end(), [&](const auto& a, const auto& b) {
            return memorySlices(a.first) > memorySlices(b.first);
        });
        std::string layout;
        for (const auto& [profile, count] : counts) {
            leftOut += count % gpus;
            for (long long i = 0; i < count / gpus; ++i)
                layout += (layout.empty() ? "" : ", ") + profile;
        }
        return layout;
    }

    std::optional<ImportedNode> read(const JsonNode& item, K8sNodes& out,
                                     std::vector<std::string>& notes) const {
        JsonObject o = item.object();
        JsonObject meta = o.required("metadata").object();
        JsonNode nameNode = meta.required("name");
        const std::string name = nameNode.string(253);
        const Json emptyLabels = Json::object();
        std::optional<JsonNode> labelsNode = present(meta, "labels");
        if (labelsNode) labelsNode->object();  // an object, or fail at its pointer
        const Json& labels = labelsNode ? labelsNode->raw() : emptyLabels;
        JsonObject status = o.required("status").object();
        std::optional<JsonNode> allocNode = present(status, "allocatable");
        if (!allocNode) allocNode = present(status, "capacity");
        if (!allocNode) fail(status.node(), name, "has neither allocatable nor capacity");
        JsonObject alloc = allocNode->object();

        // MIG instances by profile (mixed strategy), from allocatable, else the GFD labels.
        std::vector<std::pair<std::string, long long>> migCounts;
        for (const auto& [key, value] : allocNode->raw().items()) {
            if (!key.starts_with(kMigPrefix)) continue;
            const double n = *kubeQuantityAt(alloc, key);
            if (n >= 1) migCounts.push_back({key.substr(kMigPrefix.size()), std::llround(n)});
        }
        const double gpuUnits = kubeQuantityAt(alloc, kGpuResource).value_or(0);
        // GPUs in capacity but none allocatable: the device plugin finds none healthy.
        double capacityGpus = 0;
        if (auto capacity = present(status, "capacity")) {
            JsonObject co = capacity->object();
            capacityGpus = kubeQuantityAt(co, kGpuResource).value_or(0);
        }
        const bool noHealthyGpus = gpuUnits < 1 && migCounts.empty() && capacityGpus >= 1;
        if (gpuUnits < 1 && migCounts.empty() && !noHealthyGpus) {
            bool otherAccelerator = false;  // amd.com/gpu, gpu.intel.com/…
            for (const auto& [key, value] : allocNode->raw().items())
                otherAccelerator = otherAccelerator || key.ends_with("/gpu");
            out.skippedNodeNames.push_back(name);
            if (otherAccelerator)
                notes.push_back(name + ": its GPUs are not NVIDIA's (" +
                                "only nvidia.com resources are read)");
            return std::nullopt;
        }

        ImportedNode n;
        n.name = name;
        n.file = file;
        n.place = item.pointer();
        n.pod = labelOf(labels, podLabel);
        n.rack = labelOf(labels, rackLabel);
        std::string singleProfile;
        const std::string product = labelOf(labels, "nvidia.com/gpu.product");
        if (!product.empty()) {
            n.gpuModel = modelOf(physicalProduct(product, &singleProfile), nameNode, name);
        } else if (!options.unlabelledModel.empty()) {
            n.gpuModel = options.unlabelledModel;
        } else {
            fail(nameNode, name,
                 "has GPUs but no nvidia.com/gpu.product label; name their model with "
                 "--gpu-model MODEL");
        }
        const GpuModel& model = *catalog.findGpu(n.gpuModel);

        // Physical GPUs: GFD's count, else what the device plugin offers whole.
        const std::string countLabel = labelOf(labels, "nvidia.com/gpu.count");
        if (!countLabel.empty()) {
            const auto count = parseKubeQuantity(countLabel);
            if (!count || *count < 1 || *count > 64 || *count != std::floor(*count))
                fail(nameNode, name,
                     "label nvidia.com/gpu.count is \"" + escapedForMessage(countLabel) +
                         "\", not a GPU count (1 to 64)");
            n.gpus = static_cast<int>(*count);
        }
        const std::string strategy = labelOf(labels, "nvidia.com/mig.strategy");
        const std::string replicasLabel = labelOf(labels, "nvidia.com/gpu.replicas");
        const std::string sharingLabel = labelOf(labels, "nvidia.com/gpu.sharing-strategy");
        long long leftOut = 0;
        if (!migCounts.empty() || !singleProfile.empty()) {
            if (n.gpus == 0)
                fail(nameNode, name,
                     "has MIG instances but no nvidia.com/gpu.count label to say over how many "
                     "GPUs");
            if (migCounts.empty())  // single strategy: every nvidia.com/gpu is one instance
                migCounts.push_back({singleProfile, std::llround(gpuUnits)});
            else if (gpuUnits >= 1)
                notes.push_back(name + ": " + std::to_string(std::llround(gpuUnits)) +
                                " GPUs without MIG beside MIG ones; modelled as MIG GPUs");
            const auto family = migFamilyFor(model);
            if (!family) fail(nameNode, name, model.id + " has no MIG geometry");
            n.sharing.mode = SharingMode::Mig;
            n.sharing.migLayout = migLayout(migCounts, n.gpus, *family, leftOut);
            if (n.sharing.migLayout.empty())
                fail(nameNode, name, "fewer MIG instances than GPUs: no layout per GPU");
            try {
                parseMigLayout(n.sharing.migLayout, *family, model.migMaxInstances);
            } catch (const std::invalid_argument& e) {
                fail(nameNode, name,
                     "its MIG instances per GPU (" + n.sharing.migLayout + ") are no layout a " +
                         model.id + " can hold: " + e.what());
            }
            if (leftOut > 0)
                notes.push_back(name + ": " + std::to_string(leftOut) +
                                " MIG instances do not divide evenly over its " +
                                std::to_string(n.gpus) + " GPUs and are left out");
        } else if (!replicasLabel.empty() && replicasLabel != "1") {
            const auto replicas = parseKubeQuantity(replicasLabel);
            if (!replicas || *replicas < GpuSharingDef::kMinReplicas ||
                *replicas > GpuSharingDef::kMaxReplicas || *replicas != std::floor(*replicas))
                fail(nameNode, name,
                     "label nvidia.com/gpu.replicas is \"" + escapedForMessage(replicasLabel) +
                         "\", not 2 to " + std::to_string(GpuSharingDef::kMaxReplicas));
            const int r = static_cast<int>(*replicas);
            if (n.gpus == 0) n.gpus = static_cast<int>(std::llround(gpuUnits)) / r;
            if (lowered(sharingLabel) == "mps") {
                n.sharing.mode = SharingMode::Mps;
                n.sharing.mpsClients = std::min(r, GpuSharingDef::kMaxMpsClients);
            } else {
                n.sharing.mode = SharingMode::TimeSlicing;
                n.sharing.timeSliceReplicas = r;
            }
            out.facts[name].timeSliceReplicas = r;
        } else if (n.gpus == 0) {
            n.gpus = static_cast<int>(std::llround(noHealthyGpus ? capacityGpus : gpuUnits));
        } else if (gpuUnits >= 1 && std::llround(gpuUnits) < n.gpus) {
            notes.push_back(name + ": " + std::to_string(std::llround(gpuUnits)) + " of its " +
                            std::to_string(n.gpus) +
                            " GPUs allocatable (the others unhealthy); modelled with all");
        }
        if (n.gpus < 1 || n.gpus > 64)
            fail(nameNode, name, std::to_string(n.gpus) + " GPUs (a node has 1 to 64)");
        out.facts[name].gpuModel = n.gpuModel;

        if (auto cpu = kubeQuantityAt(alloc, "cpu")) n.cpuCores = *cpu;
        if (auto memory = kubeQuantityAt(alloc, "memory")) n.memoryGiB = *memory / kBytesPerGiB;
        readState(o, status, n);
        if (noHealthyGpus && n.state == NodeState::Ready) {
            n.state = NodeState::Cordoned;  // no GPU pod can start there
            n.stateReason = "no allocatable GPUs (the device plugin reports none healthy)";
        }
        out.facts[name].state = n.state;
        return n;
    }

    /// Ready unless the Ready condition is not True (Failed) or new pods are kept off:
    /// cordoned, or a taint a GPU pod does not tolerate (Cordoned).
    void readState(JsonObject& o, JsonObject& status, ImportedNode& n) const {
        if (auto conditions = present(status, "conditions")) {
            for (const JsonNode& c : conditions->array(1000)) {
                JsonObject co = c.object();
                if (co.required("type").string(256) != "Ready") continue;
                const std::string value = co.required("status").string(64);
                if (value == "True") continue;
                n.state = NodeState::Failed;
                std::string reason;
                if (auto r = present(co, "reason")) reason = r->string(256);
                n.stateReason = "NotReady" + (reason.empty() ? "" : ": " + reason);
                return;
            }
        }
        std::optional<JsonObject> spec;
        if (auto s = present(o, "spec")) spec.emplace(s->object());
        if (!spec) return;
        if (auto u = present(*spec, "unschedulable"); u && u->boolean()) {
            n.state = NodeState::Cordoned;
            n.stateReason = "cordoned";
            return;
        }
        auto taints = present(*spec, "taints");
        if (!taints) return;
        for (const JsonNode& t : taints->array(1000)) {
            JsonObject to = t.object();
            const std::string key = to.required("key").string(316);
            const std::string effect = to.required("effect").string(64);
            if (effect != "NoSchedule" && effect != "NoExecute") continue;  // PreferNoSchedule
            if (key == kGpuResource) continue;  // GPU pods tolerate the GPU nodes' own taint
            if (std::find(options.toleratedTaints.begin(), options.toleratedTaints.end(), key) !=
                options.toleratedTaints.end())
                continue;
            std::string value;
            if (auto v = present(to, "value")) value = v->string(256);
            n.state = NodeState::Cordoned;
            n.stateReason = "tainted " + key + (value.empty() ? "" : "=" + value) + ":" + effect;
            return;
        }
    }
};

/// The (pod, rack) label pair: the user's, else the first scheme any GPU-looking node has.
std::pair<std::string, std::string> topologyLabels(const std::vector<JsonNode>& items,
                                                   const K8sImportOptions& options) {
    if (options.topologyLabelsGiven) return {options.podLabel, options.rackLabel};
    for (const auto& [pod, rack] : kTopologySchemes)
        for (const JsonNode& item : items) {
            const Json& raw = item.raw();
            auto meta = raw.find("metadata");
            if (meta == raw.end() || !meta->is_object()) continue;
            auto labels = meta->find("labels");
            if (labels == meta->end()) continue;
            if (!labelOf(*labels, pod).empty() || !labelOf(*labels, rack).empty())
                return {std::string(pod), std::string(rack)};
        }
    return {};
}

}  // namespace

std::vector<JsonNode> kubeItems(const JsonNode& root, const std::string& kind,
                                std::size_t maxItems) {
    JsonObject o = root.object();
    const std::string rootKind = o.required("kind").string(64);
    if (rootKind == kind) return {root};
    if (rootKind != "List" && rootKind != kind + "List")
        o.required("kind").fail("expected \"List\", \"" + kind + "List\" or \"" + kind +
                                "\" (kubectl get " + lowered(kind) + "s -o json), got \"" +
                                escapedForMessage(rootKind) + "\"");
    std::vector<JsonNode> items = o.required("items").array(maxItems);
    for (const JsonNode& item : items) {
        JsonObject io = item.object();
        if (auto k = io.optional("kind"); k && k->string(64) != kind)
            k->fail("expected a " + kind + ", got \"" + escapedForMessage(k->string(64)) + "\"");
    }
    return items;
}

std::optional<double> kubeQuantityAt(JsonObject& resources, std::string_view name) {
    std::optional<JsonNode> v = present(resources, name);
    if (!v) return std::nullopt;
    const std::string text = v->string(64);
    const std::optional<double> value = parseKubeQuantity(text);
    if (!value || *value < 0)
        v->fail("\"" + escapedForMessage(text) + "\" is not a Kubernetes quantity");
    return value;
}

K8sNodes readK8sNodes(const Catalog& catalog, const K8sListText& nodes,
                      const K8sImportOptions& options) {
    for (const auto& [product, model] : options.productModels)
        if (!catalog.findGpu(model))
            throw InputError("--gpu-product", "",
                             "\"" + escapedForMessage(model) + "\" is no GPU model of the catalog");
    if (!options.unlabelledModel.empty() && !catalog.findGpu(options.unlabelledModel))
        throw InputError("--gpu-model", "",
                         "\"" + escapedForMessage(options.unlabelledModel) +
                             "\" is no GPU model of the catalog");
    const Json doc = parseStrict(nodes.text, nodes.file);
    const JsonNode root(doc, "", nodes.file);
    const std::vector<JsonNode> items =
        kubeItems(root, "Node", static_cast<std::size_t>(InputLimits::maxNodes));
    K8sNodes out;
    NodeReader reader{catalog, options, nodes.file, {}, {}};
    std::tie(reader.podLabel, reader.rackLabel) = topologyLabels(items, options);
    std::vector<std::string> notes;
    for (const JsonNode& item : items)
        if (auto n = reader.read(item, out, notes)) out.fleet.nodes.push_back(std::move(*n));

    ImportSummary& sum = out.fleet.summary;
    if (reader.podLabel.empty() && reader.rackLabel.empty())
        sum.mapped.push_back("topology: no pod or rack labels on the nodes");
    else
        sum.mapped.push_back(
            "topology: pods from label " + (reader.podLabel.empty() ? "(none)" : reader.podLabel) +
            ", racks from label " + (reader.rackLabel.empty() ? "(none)" : reader.rackLabel));
    const auto unlabelled =
        std::count_if(out.fleet.nodes.begin(), out.fleet.nodes.end(), [&](const ImportedNode& n) {
            return (!reader.podLabel.empty() && n.pod.empty()) ||
                   (!reader.rackLabel.empty() && n.rack.empty());
        });
    if (unlabelled > 0)
        sum.assumptions.push_back(std::to_string(unlabelled) +
                                  " GPU nodes lack a topology label: they go to pod \"cluster\" "
                                  "or to racks of their own");
    if (!out.skippedNodeNames.empty()) {
        std::string names;
        for (std::size_t i = 0; i < out.skippedNodeNames.size() && i < 5; ++i)
            names += (i ? ", " : "") + out.skippedNodeNames[i];
        if (out.skippedNodeNames.size() > 5)
            names += " and " + std::to_string(out.skippedNodeNames.size() - 5) + " more";
        sum.skipped.push_back(std::to_string(out.skippedNodeNames.size()) +
                              " nodes without GPUs: " + names);
    }
    for (std::string& note : notes)
        sum.skipped.push_back(std::move(note));
    sum.assumptions.push_back(
        "CPU and memory per node are what Kubernetes reports allocatable; the fabric's "
        "oversubscription is not known (1 assumed: set it under Fabric)");
    out.fleet.source = "kubectl get nodes (" + nodes.file + ")";
    return out;
}

}  // namespace gpuplan::detail
