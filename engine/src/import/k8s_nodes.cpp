// `kubectl get nodes -o json` → the GPU nodes of an ImportedFleet (rules: k8s_import.hpp).
#include <algorithm>
#include <array>
#include <cmath>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "k8s_import_parts.hpp"
#include "kube_quantity.hpp"

namespace gpuplan::detail {

namespace {

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

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// The product as GPU feature discovery names the physical GPU: single-strategy MIG appends
/// "-MIG-<profile>", a shared GPU (time-slicing, MPS) "-SHARED".
std::string physicalProduct(std::string product) {
    if (product.size() > 7 && product.ends_with("-SHARED")) product.resize(product.size() - 7);
    if (auto at = product.find("-MIG-"); at != std::string::npos) product.resize(at);
    return product;
}

/// Whether a resource map offers at least one NVIDIA GPU, shared replica or MIG instance (a
/// value that is not a quantity is refused later, at its place).
bool offersNvidiaGpus(const Json& resources) {
    if (!resources.is_object()) return false;
    for (const auto& [key, value] : resources.items()) {
        const bool gpuResource =
            key == kGpuResource || key == kSharedGpuResource || key.starts_with(kMigResourcePrefix);
        if (!gpuResource || !value.is_string()) continue;
        if (const auto n = parseKubeQuantity(value.get<std::string>()); n && *n >= 1) return true;
    }
    return false;
}

struct NodeReader {
    const Catalog& catalog;
    const K8sImportOptions& options;
    const std::string& file;
    std::string podLabel, rackLabel;
    long migSearchSteps = kImportMigSearchSteps;  ///< left for the nodes still to read

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

    std::optional<ImportedNode> read(const JsonNode& item, K8sNodes& out,
                                     std::vector<std::string>& notes) {
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

        std::optional<JsonObject> capacity;
        if (auto c = present(status, "capacity")) capacity.emplace(c->object());
        if (!offersNvidiaGpus(allocNode->raw()) &&
            !(capacity && offersNvidiaGpus(capacity->node().raw()))) {
            bool otherAccelerator = false;  // amd.com/gpu, gpu.intel.com/…
            for (const auto& [key, value] : allocNode->raw().items())
                otherAccelerator = otherAccelerator || key.ends_with("/gpu");
            out.skippedNodeNames.push_back(name);
            if (otherAccelerator)
                notes.push_back(name +
                                ": its GPUs are not NVIDIA's (only nvidia.com resources "
                                "are read)");
            return std::nullopt;
        }

        ImportedNode n;
        n.name = name;
        n.file = file;
        n.place = item.pointer();
        n.pod = labelOf(labels, podLabel);
        n.rack = labelOf(labels, rackLabel);
        // GFD's product; else GKE's accelerator label (GKE may install its own driver).
        std::string product = labelOf(labels, "nvidia.com/gpu.product");
        if (product.empty()) product = labelOf(labels, "cloud.google.com/gke-accelerator");
        if (!product.empty()) {
            n.gpuModel = modelOf(physicalProduct(product), nameNode, name);
        } else if (!options.unlabelledModel.empty()) {
            n.gpuModel = options.unlabelledModel;
        } else {
            fail(nameNode, name,
                 "has GPUs but no nvidia.com/gpu.product (or GKE accelerator) label; name their "
                 "model with --gpu-model MODEL");
        }
        NodeGpus gpus = readNodeGpus(labels, alloc, capacity, *catalog.findGpu(n.gpuModel),
                                     nameNode, name, migSearchSteps);
        n.gpus = gpus.gpus;
        n.sharing = gpus.sharing;
        for (std::string& note : gpus.notes)
            notes.push_back(std::move(note));
        K8sNodeFacts& facts = out.facts[name];
        facts.gpuModel = n.gpuModel;
        facts.timeSliceReplicas = gpus.timeSliceReplicas;
        facts.singleMigProfile = gpus.singleMigProfile;

        if (auto cpu = kubeQuantityAt(alloc, "cpu", kMaxCpuCores)) n.cpuCores = *cpu;
        if (auto memory = kubeQuantityAt(alloc, "memory", kMaxMemoryBytes))
            n.memoryGiB = *memory / kBytesPerGiB;
        readState(o, status, n);
        if (gpus.noneHealthy && n.state == NodeState::Ready) {
            n.state = NodeState::Cordoned;  // no GPU pod can start there
            n.stateReason = "no allocatable GPUs (the device plugin reports none healthy)";
        }
        facts.state = n.state;
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

std::optional<JsonNode> present(JsonObject& o, std::string_view key) {
    std::optional<JsonNode> v = o.optional(key);
    if (v && v->raw().is_null()) return std::nullopt;
    return v;
}

std::string labelOf(const Json& labels, std::string_view key) {
    if (key.empty() || !labels.is_object()) return {};
    auto it = labels.find(key);
    return it != labels.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> kubeQuantityAt(JsonObject& resources, std::string_view name, double max) {
    std::optional<JsonNode> v = present(resources, name);
    if (!v) return std::nullopt;
    const std::string text = v->string(64);
    const std::optional<double> value = parseKubeQuantity(text);
    if (!value || *value < 0)
        v->fail("\"" + escapedForMessage(text) + "\" is not a Kubernetes quantity");
    if (*value > max)
        v->fail("\"" + escapedForMessage(text) + "\" is more than any node or pod has (at most " +
                shortNumber(max) + ")");
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
    // Pools are often tainted for their GPU pods (AKS's sku=gpu, a team's dedicated=…): the
    // pods tolerate it, and the whole pool would read as cordoned. Say how to tell.
    std::map<std::string, int> cordonsByTaint;
    for (const ImportedNode& n : out.fleet.nodes)
        if (n.stateReason.starts_with("tainted ")) {
            const std::string key =
                n.stateReason.substr(8, n.stateReason.find_first_of("=:", 8) - 8);
            ++cordonsByTaint[key];
        }
    for (const auto& [key, count] : cordonsByTaint)
        sum.assumptions.push_back(std::to_string(count) + " nodes cordoned by taint " + key +
                                  ": if the GPU pods tolerate it, import with --tolerate " + key);
    for (std::string& note : notes)
        sum.skipped.push_back(std::move(note));
    sum.assumptions.push_back(
        "CPU and memory per node are what Kubernetes reports allocatable; the fabric's "
        "oversubscription is not known (1 assumed: set it under Fabric)");
    out.fleet.source = "kubectl get nodes (" + nodes.file + ")";
    return out;
}

}  // namespace gpuplan::detail
