// gpuplan-cli import-k8s: a Kubernetes cluster's GPU nodes (and running GPU pods) into a new
// scenario; writeImportedScenario is shared with the other fleet importers.
#include <cstdio>
#include <optional>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/import/k8s_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::cli {

const char* const kImportK8sUsage =
    "usage: gpuplan-cli import-k8s NODES.json [--pods PODS.json] --out SCENARIO.json\n"
    "                              [--topology-labels POD_LABEL,RACK_LABEL] [--team-label L]\n"
    "                              [--gpu-product PRODUCT=MODEL]... [--gpu-model MODEL]\n"
    "                              [--tolerate KEY]... [--horizon-days D] [--name NAME]\n"
    "\n"
    "Reads `kubectl get nodes -o json` (and `kubectl get pods -A -o json`) and writes a new\n"
    "scenario of the cluster's GPU nodes, checked as `validate` would. Prints what it mapped,\n"
    "skipped and assumed: read it before trusting the scenario. Exit 2 with the file and the\n"
    "JSON pointer when the input is not what kubectl writes; SCENARIO.json is then not written.\n"
    "\n"
    "How Kubernetes maps to gpuplan:\n"
    "  GPU node    allocatable nvidia.com/gpu or nvidia.com/mig-<profile>; the GPU model from\n"
    "              the nvidia.com/gpu.product label (GPU feature discovery) matched to the\n"
    "              catalog, GPUs from nvidia.com/gpu.count; CPU and memory from allocatable.\n"
    "              Nodes without GPUs (or with other vendors' GPUs) are skipped and counted.\n"
    "  sharing     mixed-strategy MIG resources give each GPU's layout; single-strategy MIG,\n"
    "              time-slicing and MPS (nvidia.com/gpu.replicas) the same modes in gpuplan.\n"
    "  state       Ready condition not True: failed; cordoned, or a NoSchedule/NoExecute\n"
    "              taint a GPU pod does not tolerate: cordoned (nvidia.com/gpu taints and\n"
    "              --tolerate keys are tolerated).\n"
    "  topology    pods and racks from two node labels: --topology-labels, else the first\n"
    "              pair present of NVIDIA Topograph (spine, leaf), EKS (network-node-layer-2,\n"
    "              -3), GKE (gce-topology-block, -subblock), Kueue's example (topology-block,\n"
    "              -rack), or the zone alone; none: a flat fleet in racks of 32 nodes.\n"
    "  pods        each Running GPU pod on an imported node: a job pinned there at t = 0;\n"
    "              each Pending GPU pod: a job queued at t = 0; both hold their GPUs to the\n"
    "              horizon; team = namespace, or the pod label --team-label names.\n"
    "\n"
    "  --pods FILE                 running and pending pods (kubectl get pods -A -o json)\n"
    "  --out FILE                  the new scenario (written atomically)\n"
    "  --topology-labels POD,RACK  node labels for pod and rack (either may be empty)\n"
    "  --team-label LABEL          a pod label naming the team (else the namespace)\n"
    "  --gpu-product PRODUCT=MODEL a product label the catalog lacks (repeatable)\n"
    "  --gpu-model MODEL           the model of GPU nodes without a product label\n"
    "  --tolerate KEY              GPU pods tolerate taints with this key (repeatable)\n"
    "  --horizon-days D            the scenario's horizon (default 7)\n"
    "  --name NAME                 the scenario's name (default: the nodes file's name)\n"
    "  --presets, --catalog, --budget-gb, --budget-ops  as for validate\n";

int writeImportedScenario(const ImportedScenario& imported, const std::filesystem::path& out,
                          const CommonOptions& common, const Catalog& catalog) {
    const Scenario scenario = saveImportedScenario(imported.scenario, out, common, catalog);
    std::printf("%s: %s\n%s", out.string().c_str(), scenario.name.c_str(),
                imported.summary.text().c_str());
    return kOk;
}

int importK8sCommand(Args& args) {
    CommonOptions common;
    K8sImportOptions options;
    std::optional<std::filesystem::path> nodes, pods, out;
    ImportScenarioOptions scenario;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--pods")) {
            pods = args.value("--pods");
        } else if (args.at("--out")) {
            out = args.value("--out");
        } else if (args.at("--topology-labels")) {
            const std::string text = args.value("--topology-labels");
            const auto comma = text.find(',');
            if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
                throw UsageError{"--topology-labels needs POD_LABEL,RACK_LABEL, got \"" + text +
                                 "\""};
            options.topologyLabelsGiven = true;
            options.podLabel = text.substr(0, comma);
            options.rackLabel = text.substr(comma + 1);
        } else if (args.at("--team-label")) {
            options.teamLabel = args.value("--team-label");
        } else if (args.at("--gpu-product")) {
            options.productModels.push_back(args.assignment("--gpu-product"));
        } else if (args.at("--gpu-model")) {
            options.unlabelledModel = args.value("--gpu-model");
        } else if (args.at("--tolerate")) {
            options.toleratedTaints.push_back(args.value("--tolerate"));
        } else if (args.at("--horizon-days")) {
            scenario.horizonS = args.positiveNumber("--horizon-days", 3 * 366) * 86400;
        } else if (args.at("--name")) {
            scenario.name = args.value("--name");
        } else if (!args.peek().empty() && args.peek()[0] == '-') {
            args.unknown();
        } else if (nodes) {
            throw UsageError{"more than one nodes file: \"" + args.take() + "\""};
        } else {
            nodes = args.take();
        }
    }
    if (!nodes) throw UsageError{"no nodes file given (kubectl get nodes -o json)"};
    if (!out) throw UsageError{"--out FILE is required"};
    checkOutputFile("--out", *out);
    if (scenario.name.empty()) scenario.name = "Imported: " + nodes->stem().string();

    const Catalog catalog = loadCatalogFor(common);
    const ImportedFleet fleet = importK8sFiles(catalog, *nodes, pods, options);
    return writeImportedScenario(importedScenario(fleet, catalog, scenario), *out, common, catalog);
}

}  // namespace gpuplan::cli
