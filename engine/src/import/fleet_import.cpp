// An imported fleet into a scenario (gpuplan/import/fleet_import.hpp): node types, pods, racks and
// node groups from the nodes the readers found, and the summary of what was mapped.
#include "gpuplan/import/fleet_import.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/openb.hpp"
#include "gpuplan/model/topology.hpp"
#include "io/text_rules.hpp"
#include "scheduling/pin_check.hpp"

namespace gpuplan {

namespace {

/// Above this a rack is split: a rack holds at most 1000 node groups (the scenario reader's
/// bound), and each imported node is a group of its own.
constexpr std::size_t kMaxNodesPerRack = 1000;
/// When a cordoned node that runs pods is cordoned: after t = 0, when its pods are placed.
constexpr double kCordonRunningNodesAtS = 1;

std::string plural(long long n, const std::string& one, const std::string& many) {
    return detail::withThousands(n) + " " + (n == 1 ? one : many);
}

/// What makes two nodes the same node type: CPU to the milli-core and memory to the MiB,
/// as the engine holds them (FleetNode::cpuMilli, memoryMiB).
struct TypeKey {
    std::string gpuModel;
    int gpus;
    long long cpuMilli, memoryMiB;
    auto operator<=>(const TypeKey&) const = default;
};

/// Memory by the whole GiB, rounded down: identical machines report allocatable memory a few
/// MiB apart, and one node type each would help nobody; a pod that fits in the rounded-down
/// memory fits in the node's own.
TypeKey typeKey(const ImportedNode& n) {
    return {n.gpuModel, n.gpus, std::llround(n.cpuCores * 1000),
            static_cast<long long>(std::floor(n.memoryGiB)) * 1024};
}

/// A node group's name for a node: its own, or, past the 64 characters a name may have (a
/// Kubernetes node name may have 253), its start and a hash of the whole.
std::string groupName(const std::string& nodeName) {
    if (nodeName.size() <= 64) return nodeName;
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : nodeName)
        h = (h ^ c) * 0x100000001b3ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return nodeName.substr(0, 47) + "-" + hex;
}

NodeType nodeType(const TypeKey& key, const GpuModel& model) {
    NodeType t;
    t.gpuModel = key.gpuModel;
    t.gpusPerNode = key.gpus;
    t.id = "imported-" + key.gpuModel + "-" + std::to_string(key.gpus) + "gpu";
    if (key.cpuMilli > 0) {
        t.cpuCores = key.cpuMilli / 1000.0;
        t.id += "-" + detail::shortNumber(*t.cpuCores) + "cpu";
    }
    if (key.memoryMiB > 0) {
        t.ramGb = key.memoryMiB / 1024.0;
        t.id += "-" + detail::shortNumber(*t.ramGb) + "gib";
    }
    t.name = std::to_string(key.gpus) + " × " + model.name;
    if (t.cpuCores) t.name += ", " + detail::shortNumber(*t.cpuCores) + " CPU cores";
    if (t.ramGb) t.name += ", " + detail::shortNumber(*t.ramGb) + " GiB";
    t.notes = "imported: what the cluster reports as allocatable";
    return t;
}

/// "3g.40gb, 1g.10gb" (every GPU), or per GPU "4 GPUs: 3g.40gb, 2g.20gb; 1 GPU: no instance".
std::string migLayoutsText(const GpuSharingDef& sharing) {
    if (sharing.migLayouts.empty()) return sharing.migLayout;
    std::string out;
    for (const MigLayoutRun& run : sharing.migLayouts)
        out += (out.empty() ? "" : "; ") + plural(run.gpus, "GPU", "GPUs") + ": " +
               (run.layout.empty() ? std::string("no instance") : run.layout);
    return out;
}

[[noreturn]] void fail(const ImportedNode& n, const std::string& message) {
    throw InputError(n.file, n.place, "node " + n.name + ": " + message);
}

void checkNode(const ImportedNode& n, const Catalog& catalog) {
    if (auto problem = detail::nameProblem(groupName(n.name))) fail(n, "its name " + *problem);
    for (const auto& [label, value] : {std::pair{"pod", &n.pod}, std::pair{"rack", &n.rack}})
        if (auto problem = detail::nameProblem(*value); problem && !value->empty())
            fail(n, std::string("its ") + label + " " + *problem);
    if (!catalog.findGpu(n.gpuModel))
        fail(n,
             "GPU model \"" + detail::escapedForMessage(n.gpuModel) + "\" is not in the catalog");
    if (n.gpus < 1 || n.gpus > 64) fail(n, std::to_string(n.gpus) + " GPUs (a node has 1 to 64)");
    if (!(n.cpuCores >= 0 && n.cpuCores <= 1e5)) fail(n, "CPU cores out of range");
    if (!(n.memoryGiB >= 0 && n.memoryGiB <= 1e7)) fail(n, "memory out of range");
}

}  // namespace

std::string ImportSummary::text() const {
    std::string out;
    for (const auto& [title, lines] : {std::pair{"Mapped", &mapped}, std::pair{"Skipped", &skipped},
                                       std::pair{"Assumed", &assumptions}}) {
        if (lines->empty()) continue;
        out += std::string(out.empty() ? "" : "\n") + title + ":\n";
        for (const std::string& line : *lines)
            out += "  - " + line + "\n";
    }
    return out;
}

ImportedScenario importedScenario(const ImportedFleet& fleet, const Catalog& catalog,
                                  const ImportScenarioOptions& options) {
    if (fleet.nodes.empty()) throw InputError(fleet.source, "", "no GPU node to import");
    ImportedScenario out;
    out.summary = fleet.summary;
    Scenario& s = out.scenario;
    s.name = options.name;
    s.seed = options.seed;
    s.horizonS = options.horizonS;

    std::vector<const ImportedNode*> nodes;
    std::map<std::string, const ImportedNode*> byName;
    for (const ImportedNode& n : fleet.nodes) {
        checkNode(n, catalog);
        if (!byName.emplace(n.name, &n).second)
            fail(n, "a second node of this name (the first is at " + byName[n.name]->place + ")");
        nodes.push_back(&n);
    }
    const bool anyPod =
        std::any_of(nodes.begin(), nodes.end(), [](auto* n) { return !n->pod.empty(); });
    const bool anyRack =
        std::any_of(nodes.begin(), nodes.end(), [](auto* n) { return !n->rack.empty(); });
    // Name order, within pod and rack: the scenario does not depend on the order the cluster
    // listed its nodes in.
    std::sort(nodes.begin(), nodes.end(), [](const ImportedNode* a, const ImportedNode* b) {
        return std::tie(a->pod, a->rack, a->name) < std::tie(b->pod, b->rack, b->name);
    });

    std::map<TypeKey, std::string> typeIds;
    std::map<std::string, int> nodesOfType;
    std::map<std::string, std::string> scenarioName;            // cluster name → scenario name
    std::map<std::string, std::array<std::size_t, 3>> groupAt;  // → pod, rack, group index
    std::vector<std::string> cordoned, failed, mig;
    long long gpus = 0;
    int racks = 0;
    for (std::size_t i = 0; i < nodes.size();) {
        const std::string podLabel = nodes[i]->pod;
        PodDef pod;
        pod.name = podLabel.empty() ? "cluster" : podLabel;
        while (i < nodes.size() && nodes[i]->pod == podLabel) {
            const std::string rackLabel = nodes[i]->rack;
            // A rack's nodes, split when there are more than a rack of groups can hold (or,
            // with no rack label, into racks as an openb node list's).
            const std::size_t perRack =
                rackLabel.empty() ? kNodeListNodesPerRack : kMaxNodesPerRack;
            for (int part = 0;
                 i < nodes.size() && nodes[i]->pod == podLabel && nodes[i]->rack == rackLabel;
                 ++part) {
                RackDef rack;
                rack.name = rackLabel.empty() ? "rack" + std::to_string(part)
                            : part == 0       ? rackLabel
                                              : rackLabel + "-part" + std::to_string(part);
                for (; i < nodes.size() && nodes[i]->pod == podLabel &&
                       nodes[i]->rack == rackLabel && rack.nodes.size() < perRack;
                     ++i) {
                    const ImportedNode& n = *nodes[i];
                    const TypeKey key = typeKey(n);
                    auto [it, fresh] = typeIds.emplace(key, std::string());
                    if (fresh) {
                        NodeType t = nodeType(key, *catalog.findGpu(n.gpuModel));
                        it->second = t.id;
                        // Resolved as the reader resolves them, so the scenario runs as is.
                        s.nodeTypes.push_back(t);
                        if (!s.findGpu(t.gpuModel))
                            s.gpuModels.push_back(*catalog.findGpu(t.gpuModel));
                        s.definedNodeTypes.push_back(std::move(t));
                    }
                    ++nodesOfType[it->second];
                    NodeGroupDef g;
                    g.name = groupName(n.name);
                    g.nodeType = it->second;
                    g.state = n.state;
                    g.sharing = n.sharing;
                    rack.nodes.push_back(std::move(g));
                    scenarioName[n.name] =
                        pod.name + "-" + rack.name + "-" + rack.nodes.back().name;
                    groupAt[n.name] = {s.pods.size(), pod.racks.size(), rack.nodes.size() - 1};
                    gpus += n.gpus;
                    const std::string reason =
                        n.name + (n.stateReason.empty() ? "" : " (" + n.stateReason + ")");
                    if (n.state == NodeState::Cordoned) cordoned.push_back(reason);
                    if (n.state == NodeState::Failed) failed.push_back(reason);
                    if (n.sharing.mode == SharingMode::Mig)
                        mig.push_back(n.name + " (" + migLayoutsText(n.sharing) + ")");
                }
                pod.racks.push_back(std::move(rack));
                ++racks;
            }
        }
        s.pods.push_back(std::move(pod));
    }

    ImportSummary& sum = out.summary;
    // The fleet first, then each type, state and layout; the readers' lines after them.
    std::vector<std::string> fleetLines;
    fleetLines.push_back(plural(static_cast<long long>(nodes.size()), "GPU node", "GPU nodes") +
                         " with " + plural(gpus, "GPU", "GPUs") + " in " +
                         plural(static_cast<long long>(s.pods.size()), "pod", "pods") + " and " +
                         plural(racks, "rack", "racks") +
                         (anyPod || anyRack ? " (from the nodes' topology labels)"
                                            : " (no topology labels: a flat fleet, racks of " +
                                                  std::to_string(kNodeListNodesPerRack) +
                                                  " nodes in name order)"));
    for (const NodeType& t : s.definedNodeTypes)
        fleetLines.push_back(plural(nodesOfType[t.id], "node", "nodes") + " of " + t.name +
                             " (node type " + t.id + ")");
    if (!cordoned.empty())
        fleetLines.push_back(plural(static_cast<long long>(cordoned.size()), "node", "nodes") +
                             " cordoned: " + detail::listedNames(cordoned));
    if (!failed.empty())
        fleetLines.push_back(plural(static_cast<long long>(failed.size()), "node", "nodes") +
                             " down (failed): " + detail::listedNames(failed));
    if (!mig.empty())
        fleetLines.push_back(plural(static_cast<long long>(mig.size()), "node", "nodes") +
                             " with MIG: " + detail::listedNames(mig));

    sum.mapped.insert(sum.mapped.begin(), fleetLines.begin(), fleetLines.end());

    auto addTeam = [&](const std::string& team) {
        for (const TeamDef& t : s.teams)
            if (t.name == team) return;
        s.teams.push_back({team, ""});
    };
    for (const std::string& team : fleet.teams)
        addTeam(team);
    // Running work first: at t = 0 it takes its own nodes before anything queued with it.
    std::vector<JobDef> jobs = fleet.jobs;
    std::stable_partition(jobs.begin(), jobs.end(),
                          [](const JobDef& j) { return j.traits.pin.level == PinLevel::Node; });
    // Work whose end the cluster does not say (a running pod) holds on to the horizon.
    for (JobDef& job : jobs)
        if (job.durationS <= 0) job.durationS = s.horizonS;
    // A pinned job the model could never run there (a MIG profile the node's layout lacks,
    // more than it has) would refuse the whole scenario: it is left out and said.
    const Fleet built = Fleet::build(s);
    detail::PinCheck pins(built);
    std::vector<std::string> unplaced, unplaceable;
    std::set<std::string> cordonLater;
    for (JobDef& job : jobs) {
        if (job.traits.pin.level == PinLevel::Node) {
            const std::string node = job.traits.pin.target;
            auto it = scenarioName.find(node);
            if (it == scenarioName.end()) {
                unplaced.push_back(job.name + " on " + node);
                continue;
            }
            job.traits.pin.target = it->second;
            if (const auto refusal = pins.jobRefusal(job.traits, job.gpus)) {
                unplaceable.push_back(job.name + " on " + node + ": it " + *refusal);
                continue;
            }
            if (byName[node]->state == NodeState::Cordoned) cordonLater.insert(node);
        }
        addTeam(job.traits.team);
        s.jobs.push_back(std::move(job));
    }
    // A cordoned node keeps the pods it runs, but the scheduler places nothing on a cordoned
    // node: such a node starts Ready and is cordoned a second later, once its pods are placed.
    for (const std::string& node : cordonLater) {
        const auto [pod, rack, group] = groupAt[node];
        s.pods[pod].racks[rack].nodes[group].state = NodeState::Ready;
        s.nodeEvents.push_back({kCordonRunningNodesAtS, scenarioName[node], NodeState::Cordoned});
    }
    if (!cordonLater.empty())
        sum.assumptions.push_back(
            plural(static_cast<long long>(cordonLater.size()), "cordoned node runs",
                   "cordoned nodes run") +
            " pods: Ready at t = 0 so the pods are placed, cordoned at t = 1 s");
    if (!unplaced.empty())
        sum.skipped.push_back(
            plural(static_cast<long long>(unplaced.size()), "running job", "running jobs") +
            " on nodes not imported: " + detail::listedNames(unplaced));
    if (!unplaceable.empty())
        sum.skipped.push_back(
            plural(static_cast<long long>(unplaceable.size()), "running job", "running jobs") +
            " the model cannot hold where they run: " + detail::listedNames(unplaceable));
    // A trace's teams are its own (the workload names them when it is built). A GPU model its
    // jobs ask that no node has joins the models, as the scenario reader adds it: such jobs
    // pend on the reservation layer.
    s.traces = fleet.traces;
    for (const TraceDef& t : s.traces)
        for (const auto& [type, model] : t.gpuTypes)
            if (const GpuModel* g = catalog.findGpu(model); g && !s.findGpu(model))
                s.gpuModels.push_back(*g);

    s.description = "Imported from " + fleet.source + ": " + sum.mapped.front() + ".";
    return out;
}

}  // namespace gpuplan
