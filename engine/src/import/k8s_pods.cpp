// `kubectl get pods -A -o json` → the GPU work on an imported fleet (rules: k8s_import.hpp),
// and importK8s, which joins nodes and pods.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "io/text_rules.hpp"
#include "k8s_import_parts.hpp"

namespace gpuplan {

namespace detail {

namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024;
/// A pod list of a large cluster (kubectl's -A on tens of thousands of pods) stays far below.
constexpr std::size_t kMaxPods = 2'000'000;
/// Kubernetes allows many containers; what a pod may ask is bounded before it is summed.
constexpr std::size_t kMaxContainers = 1000;

/// What a pod's containers ask for, summed (init containers have finished by Running).
struct PodRequest {
    long long gpuUnits = 0;  ///< nvidia.com/gpu: GPUs, or replicas on a shared node
    std::map<std::string, long long> migInstances;
    double cpuCores = 0, memoryBytes = 0;
};

PodRequest podRequest(JsonObject& spec) {
    PodRequest r;
    for (const JsonNode& c : spec.required("containers").array(kMaxContainers)) {
        JsonObject co = c.object();
        auto resources = present(co, "resources");
        if (!resources) continue;
        JsonObject ro = resources->object();
        std::optional<JsonObject> limits, requests;
        if (auto v = present(ro, "limits")) limits.emplace(v->object());
        if (auto v = present(ro, "requests")) requests.emplace(v->object());
        // Extended resources (GPUs, MIG instances) are given as limits; requests equal them.
        JsonObject* extended = limits ? &*limits : requests ? &*requests : nullptr;
        if (extended) {
            for (std::string_view resource : {kGpuResource, kSharedGpuResource})
                r.gpuUnits += std::llround(
                    kubeQuantityAt(*extended, resource, kMaxGpuUnitsPerNode).value_or(0));
            for (const auto& [key, value] : extended->node().raw().items())
                if (key.starts_with(kMigResourcePrefix))
                    r.migInstances[migProfileOfResource(key.substr(kMigResourcePrefix.size()))] +=
                        std::llround(
                            kubeQuantityAt(*extended, key, kMaxMigInstancesPerNode).value_or(0));
        }
        // CPU and memory: what the scheduler reserves, the request (else the limit).
        JsonObject* reserved = requests ? &*requests : limits ? &*limits : nullptr;
        if (reserved) {
            if (auto v = kubeQuantityAt(*reserved, "cpu", kMaxCpuCores)) r.cpuCores += *v;
            if (auto v = kubeQuantityAt(*reserved, "memory", kMaxMemoryBytes)) r.memoryBytes += *v;
        }
    }
    return r;
}

/// Job names from pods': its own when free and short enough, else with its namespace, else
/// cut and numbered (a counter per cut name, so many alike cost no search).
struct JobNames {
    std::set<std::string> used;
    std::map<std::string, int> nextNumber;

    std::string of(const std::string& ns, const std::string& pod) {
        for (const std::string& candidate : {pod, ns + "." + pod})
            if (candidate.size() <= 64 && !nameProblem(candidate) && used.insert(candidate).second)
                return candidate;
        std::string base;
        for (char c : pod.substr(0, 52))
            base += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '-';
        for (int& i = nextNumber[base];;)
            if (std::string name = base + "-" + std::to_string(++i); used.insert(name).second)
                return name;
    }
};

std::string listCounts(const std::map<std::string, int>& counts) {
    std::string text;
    for (const auto& [what, n] : counts)
        text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    return text;
}

}  // namespace

void readK8sPods(const K8sListText& pods, K8sNodes& nodes, const K8sImportOptions& options) {
    const Json doc = parseStrict(pods.text, pods.file);
    const std::vector<JsonNode> items = kubeItems(JsonNode(doc, "", pods.file), "Pod", kMaxPods);
    JobNames names;
    std::map<std::string, int> notRunning, elsewhere;
    std::set<std::string> teams;
    int running = 0, pending = 0, withoutGpus = 0;
    long long gpus = 0;
    std::vector<std::string> notes, onDownNodes;
    for (const JsonNode& item : items) {
        JsonObject o = item.object();
        JsonObject meta = o.required("metadata").object();
        const std::string name = meta.required("name").string(253);
        std::string ns = "default";
        if (auto v = present(meta, "namespace")) ns = v->string(63);
        JsonObject spec = o.required("spec").object();
        std::string phase = "Unknown";
        if (auto st = present(o, "status")) {
            JsonObject so = st->object();
            if (auto p = present(so, "phase")) phase = p->string(64);
        }
        const PodRequest r = podRequest(spec);
        long long migTotal = 0;
        for (const auto& [profile, n] : r.migInstances)
            migTotal += n;
        if (r.gpuUnits <= 0 && migTotal <= 0) {
            ++withoutGpus;
            continue;
        }
        std::string nodeName;
        if (auto v = present(spec, "nodeName")) nodeName = v->string(253);
        // A Pending pod already bound to a node (pulling its image, starting) holds its GPUs
        // there: it counts as running.
        const bool isRunning = (phase == "Running" || phase == "Pending") && !nodeName.empty();
        const bool isPending = phase == "Pending" && nodeName.empty();
        if (!isRunning && !isPending) {
            ++notRunning[phase];
            continue;
        }
        auto facts = nodes.facts.find(nodeName);
        if (isRunning && facts == nodes.facts.end()) {
            ++elsewhere[nodeName];
            continue;
        }
        if (isRunning && facts->second.state == NodeState::Failed) {
            onDownNodes.push_back(ns + "/" + name + " on " + nodeName);
            continue;
        }
        JobDef job;
        job.name = names.of(ns, name);
        job.traits.team = ns;
        if (!options.teamLabel.empty())
            if (auto labels = present(meta, "labels")) {
                const Json& raw = labels->object().node().raw();
                if (auto it = raw.find(options.teamLabel); it != raw.end() && it->is_string())
                    job.traits.team = it->get<std::string>();
            }
        if (auto problem = nameProblem(job.traits.team))
            meta.node().fail("pod " + name + ": its team " + *problem);
        if (auto p = present(spec, "priority"))
            job.traits.priority = static_cast<int>(p->integer(-2'147'483'648LL, 2'147'483'647LL));
        job.submitS = 0;
        job.durationS = 0;  // to the horizon (the builder's rule)
        const std::string singleProfile = isRunning ? facts->second.singleMigProfile : "";
        if (migTotal > 0) {
            if (r.migInstances.size() > 1 || r.gpuUnits > 0) {
                notes.push_back("pod " + ns + "/" + name +
                                ": asks for several kinds of GPU; a job takes one kind");
                continue;
            }
            job.traits.migProfile = r.migInstances.begin()->first;
            job.gpus = static_cast<int>(migTotal);
        } else if (!singleProfile.empty()) {
            // Single-strategy MIG: each nvidia.com/gpu of the node is one instance.
            job.traits.migProfile = singleProfile;
            job.gpus = static_cast<int>(r.gpuUnits);
        } else if (isRunning && facts->second.timeSliceReplicas > 0) {
            // A replica of a shared GPU is 1 / replicas of it (time-slicing and MPS alike).
            const int replicas = facts->second.timeSliceReplicas;
            job.gpus = 1;
            job.traits.gpuMilli = static_cast<int>(
                std::min<long long>(1000, std::llround(r.gpuUnits * 1000.0 / replicas)));
        } else {
            job.gpus = static_cast<int>(std::min<long long>(r.gpuUnits, 100000));
            job.traits.gpusPerPod = job.gpus;  // one pod: all its GPUs on one node
        }
        if (!job.traits.migProfile.empty() && !isMigProfileName(job.traits.migProfile)) {
            notes.push_back("pod " + ns + "/" + name + ": asks MIG profile \"" +
                            escapedForMessage(job.traits.migProfile) +
                            "\", which no MIG-capable GPU has");
            continue;
        }
        // A pod of several MIG instances is a pod per instance in the engine: each takes its
        // part of the pod's CPU and memory.
        const double parts = job.traits.migProfile.empty() ? 1.0 : job.gpus;
        if (r.cpuCores > kMaxCpuCores || r.memoryBytes / kBytesPerMiB > INT32_MAX)
            meta.node().fail("pod " + name + ": asks more CPU or memory than any node has");
        job.traits.cpuMilliPerPod = static_cast<int>(std::llround(r.cpuCores * 1000 / parts));
        job.traits.memoryMiBPerPod =
            static_cast<int>(std::ceil(r.memoryBytes / kBytesPerMiB / parts));
        if (isRunning) {
            job.traits.pin = {PinLevel::Node, nodeName};
            ++running;
        } else {
            ++pending;
        }
        gpus += job.gpus;
        teams.insert(job.traits.team);
        nodes.fleet.jobs.push_back(std::move(job));
    }
    ImportSummary& sum = nodes.fleet.summary;
    std::string teamList;
    for (const std::string& t : teams)
        teamList += (teamList.empty() ? "" : ", ") + t;
    sum.mapped.push_back(
        "GPU pods: " + std::to_string(running) + " running, pinned to their nodes at t = 0; " +
        std::to_string(pending) + " pending, queued at t = 0 (" + std::to_string(gpus) +
        " GPUs or MIG instances; teams: " + (teamList.empty() ? "none" : teamList) + ")");
    if (!onDownNodes.empty())
        sum.skipped.push_back(std::to_string(onDownNodes.size()) +
                              " running GPU pods on nodes that are down (they are not running "
                              "there any more): " +
                              onDownNodes.front() + (onDownNodes.size() > 1 ? ", …" : ""));
    if (withoutGpus > 0)
        sum.skipped.push_back(std::to_string(withoutGpus) + " pods asking for no GPU");
    if (!notRunning.empty())
        sum.skipped.push_back("GPU pods neither running nor pending: " + listCounts(notRunning));
    if (!elsewhere.empty()) {
        int n = 0;
        for (const auto& [node, count] : elsewhere)
            n += count;
        sum.skipped.push_back(std::to_string(n) + " GPU pods on nodes not imported");
    }
    for (std::string& note : notes)
        sum.skipped.push_back(std::move(note));
    sum.assumptions.push_back(
        "running and pending pods hold their GPUs to the end of the horizon (Kubernetes does "
        "not say when a pod will end); pending pods' node selectors and affinities are not "
        "read");
}

}  // namespace detail

ImportedFleet importK8s(const Catalog& catalog, const K8sListText& nodes,
                        const std::optional<K8sListText>& pods, const K8sImportOptions& options) {
    detail::K8sNodes read = detail::readK8sNodes(catalog, nodes, options);
    if (pods) {
        detail::readK8sPods(*pods, read, options);
        read.fleet.source += " and kubectl get pods (" + pods->file + ")";
    }
    return std::move(read.fleet);
}

ImportedFleet importK8sFiles(const Catalog& catalog, const std::filesystem::path& nodes,
                             const std::optional<std::filesystem::path>& pods,
                             const K8sImportOptions& options) {
    std::optional<K8sListText> podText;
    if (pods) podText = K8sListText{pods->string(), readTextFile(*pods)};
    return importK8s(catalog, {nodes.string(), readTextFile(nodes)}, podText, options);
}

}  // namespace gpuplan
