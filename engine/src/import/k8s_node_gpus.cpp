// One Kubernetes node's GPUs: how many, and how they are shared (rules: k8s_import.hpp).
// NVIDIA's GPU feature discovery (GFD) and device plugin label and offer them; GKE, which can
// install its own driver and plugin, has labels of its own for the same facts.
#include <algorithm>
#include <cmath>

#include "gpuplan/model/mig_geometry.hpp"
#include "k8s_import_parts.hpp"
#include "kube_quantity.hpp"

namespace gpuplan::detail {

namespace {

/// The first of the labels a node has.
std::string firstLabel(const Json& labels, std::initializer_list<std::string_view> keys) {
    for (std::string_view key : keys)
        if (std::string v = labelOf(labels, key); !v.empty()) return v;
    return {};
}

struct GpuReader {
    const Json& labels;
    const GpuModel& model;
    const JsonNode& nameNode;
    const std::string& nodeName;
    NodeGpus out;

    [[noreturn]] void fail(const std::string& message) const {
        nameNode.fail("node " + nodeName + ": " + message);
    }

    /// A label holding a whole number in [min, max], or nullopt when absent.
    std::optional<int> countLabel(std::string_view key, int min, int max) const {
        const std::string text = labelOf(labels, key);
        if (text.empty()) return std::nullopt;
        const auto v = parseKubeQuantity(text);
        if (!v || *v < min || *v > max || *v != std::floor(*v))
            fail("label " + std::string(key) + " is \"" + escapedForMessage(text) +
                 "\", not a whole number from " + std::to_string(min) + " to " +
                 std::to_string(max));
        return static_cast<int>(*v);
    }

    MigFamily family() const {
        const auto f = migFamilyFor(model);
        if (!f) fail(model.id + " has no MIG geometry, yet the node offers MIG instances");
        return *f;
    }

    /// Each GPU's layout from per-profile counts over `gpus` GPUs: distributeMigInstances
    /// spreads them (the node says how many of each profile, not where). One layout when every
    /// GPU gets the same, else a layout per GPU; instances no layout holds are left out and
    /// noted, naming them.
    void migLayout(const std::vector<std::pair<std::string, long long>>& counts, int gpus,
                   long& searchSteps) {
        const MigFamily f = family();
        std::vector<MigProfileCount> profiles;
        for (const auto& [name, count] : counts) {
            const auto p = migProfileByName(f, name);
            if (!p)
                fail("MIG profile \"" + escapedForMessage(name) + "\" is not one " + model.id +
                     " has");
            // count ≤ kMaxMigInstancesPerNode: an int.
            profiles.push_back({*p, static_cast<int>(count)});
        }
        const MigDistribution d = distributeMigInstances(f, model.migMaxInstances, gpus, profiles,
                                                         std::min(searchSteps, kMigSearchSteps));
        searchSteps -= d.searchSteps;
        out.sharing.mode = SharingMode::Mig;
        for (const std::string& text : d.layoutTexts) {
            if (!out.sharing.migLayouts.empty() && out.sharing.migLayouts.back().layout == text)
                ++out.sharing.migLayouts.back().gpus;
            else
                out.sharing.migLayouts.push_back({1, text});
        }
        if (out.sharing.migLayouts.size() == 1) {
            out.sharing.migLayout = out.sharing.migLayouts.front().layout;
            out.sharing.migLayouts.clear();
        }
        if (!d.leftOut.empty()) {
            std::string left;
            int instances = 0;
            for (const MigProfileCount& c : d.leftOut) {
                left += (left.empty() ? "" : ", ") + std::to_string(c.count) + " × " +
                        std::string(c.profile.name);
                instances += c.count;
            }
            out.notes.push_back(nodeName + ": " + std::to_string(instances) +
                                (instances == 1 ? " MIG instance" : " MIG instances") + " (" +
                                left + ") left out: no layout of its " + std::to_string(gpus) +
                                (gpus == 1 ? " GPU" : " GPUs") + " holds them with the others");
        }
    }
};

}  // namespace

std::string migProfileOfResource(std::string_view suffix) {
    std::string profile(suffix);
    if (profile.ends_with(".me")) profile.replace(profile.size() - 3, 3, "+me");
    return profile;
}

NodeGpus readNodeGpus(const Json& labels, JsonObject& allocatable,
                      std::optional<JsonObject>& capacity, const GpuModel& model,
                      const JsonNode& nameNode, const std::string& nodeName, long& migSearchSteps) {
    GpuReader r{labels, model, nameNode, nodeName, {}};
    NodeGpus& out = r.out;
    auto units = [](JsonObject& resources) {
        return kubeQuantityAt(resources, kGpuResource, kMaxGpuUnitsPerNode).value_or(0) +
               kubeQuantityAt(resources, kSharedGpuResource, kMaxGpuUnitsPerNode).value_or(0);
    };
    const long long offered = std::llround(units(allocatable));
    const long long inCapacity = capacity ? std::llround(units(*capacity)) : offered;
    // Mixed-strategy MIG: a resource per profile (else GFD's count labels).
    std::vector<std::pair<std::string, long long>> migCounts;
    for (const auto& [key, value] : allocatable.node().raw().items()) {
        if (!key.starts_with(kMigResourcePrefix)) continue;
        const double n = kubeQuantityAt(allocatable, key, kMaxMigInstancesPerNode).value_or(0);
        if (n >= 1)
            migCounts.push_back(
                {migProfileOfResource(key.substr(kMigResourcePrefix.size())), std::llround(n)});
    }
    if (migCounts.empty() && labels.is_object())
        for (const auto& [key, value] : labels.items()) {
            if (!key.starts_with(kMigResourcePrefix) || !key.ends_with(".count")) continue;
            const std::string profile = migProfileOfResource(key.substr(
                kMigResourcePrefix.size(),
                key.size() - kMigResourcePrefix.size() - std::string_view(".count").size()));
            const int n = *r.countLabel(key, 0, static_cast<int>(kMaxMigInstancesPerNode));
            if (n > 0) migCounts.push_back({profile, n});
        }
    // Single-strategy MIG: the product names the one profile ("…-MIG-1g.10gb"); GKE says it
    // in its partition-size label.
    std::string single = labelOf(labels, "nvidia.com/gpu.product");
    if (auto at = single.find("-MIG-"); at != std::string::npos)
        single = single.substr(at + 5);
    else
        single = labelOf(labels, "cloud.google.com/gke-gpu-partition-size");
    if (single == "INVALID") r.fail("its MIG configuration is invalid (product …-MIG-INVALID)");
    const std::optional<int> count = r.countLabel("nvidia.com/gpu.count", 0, 64 * 7);
    out.noneHealthy = offered < 1 && migCounts.empty() && inCapacity >= 1;
    const long long devices = out.noneHealthy ? inCapacity : offered;

    if (!migCounts.empty()) {
        // Mixed: GFD counts the physical GPUs; whole GPUs are offered beside the MIG ones.
        if (!count || *count < 1 || *count > 64)
            r.fail(
                "has MIG instances but no nvidia.com/gpu.count (1 to 64) to say over how many "
                "GPUs");
        const int migGpus =
            offered > 0 && offered < *count ? *count - static_cast<int>(offered) : *count;
        if (migGpus < *count)
            out.notes.push_back(nodeName + ": " + std::to_string(offered) + " whole GPUs beside " +
                                std::to_string(migGpus) +
                                " MIG ones; modelled with the MIG GPUs only (one sharing mode "
                                "a node)");
        out.gpus = migGpus;
        r.migLayout(migCounts, migGpus, migSearchSteps);
    } else if (!single.empty()) {
        // Single: every nvidia.com/gpu is an instance, and GFD's count is theirs, not the
        // GPUs'. A GPU holds the profile's most instances ("all-1g.10gb").
        const auto profile = migProfileByName(r.family(), single);
        if (!profile)
            r.fail("MIG profile \"" + escapedForMessage(single) + "\" is not one " + model.id +
                   " has");
        const long long instances = devices > 0 ? devices : count.value_or(0);
        if (instances < 1) r.fail("offers no MIG instance");
        out.gpus = static_cast<int>((instances + profile->maxCount - 1) / profile->maxCount);
        out.singleMigProfile = single;
        r.migLayout({{single, instances}}, out.gpus, migSearchSteps);
    } else if (const std::string replicasText = firstLabel(
                   labels,
                   {"nvidia.com/gpu.replicas", "cloud.google.com/gke-max-shared-clients-per-gpu"});
               !replicasText.empty() && replicasText != "1") {
        const int replicas =
            *r.countLabel(labelOf(labels, "nvidia.com/gpu.replicas").empty()
                              ? "cloud.google.com/gke-max-shared-clients-per-gpu"
                              : "nvidia.com/gpu.replicas",
                          GpuSharingDef::kMinReplicas, GpuSharingDef::kMaxReplicas);
        out.gpus = count && *count <= 64 ? *count : static_cast<int>(devices / replicas);
        const std::string strategy = firstLabel(
            labels,
            {"nvidia.com/gpu.sharing-strategy", "cloud.google.com/gke-gpu-sharing-strategy"});
        if (equalIgnoringCase(strategy, "mps")) {
            out.sharing.mode = SharingMode::Mps;
            out.sharing.mpsClients = std::min(replicas, GpuSharingDef::kMaxMpsClients);
        } else {
            out.sharing.mode = SharingMode::TimeSlicing;
            out.sharing.timeSliceReplicas = replicas;
        }
        out.timeSliceReplicas = replicas;
    } else {
        out.gpus = count && *count <= 64 ? *count : static_cast<int>(devices);
        if (offered >= 1 && offered < out.gpus)
            out.notes.push_back(nodeName + ": " + std::to_string(offered) + " of its " +
                                std::to_string(out.gpus) +
                                " GPUs allocatable (the others unhealthy); modelled with all");
    }
    if (out.gpus < 1 || out.gpus > 64)
        r.fail(std::to_string(out.gpus) + " GPUs (a node has 1 to 64)");
    return out;
}

}  // namespace gpuplan::detail
