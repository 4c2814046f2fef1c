// gpuplan-cli import-kueue: Kueue manifests into a scenario's teams, quotas and cohorts.
#include <cstdio>
#include <optional>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/import/kueue_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::cli {

const char* const kImportKueueUsage =
    "usage: gpuplan-cli import-kueue FILE.yaml... --into SCENARIO --out NEW.json\n"
    "                                [--flavor NAME=GPU_MODEL]... [--team QUEUE=TEAM]...\n"
    "                                [--fair-sharing]\n"
    "\n"
    "Reads Kueue ClusterQueue, Cohort, ResourceFlavor and LocalQueue manifests (YAML, several\n"
    "documents and `kind: List` as `kubectl get -o yaml` writes them; JSON too) and writes\n"
    "SCENARIO with its quotas and cohorts replaced by them to NEW.json, checked as `validate`\n"
    "would. Exit 2 with the file and line when a manifest is wrong or uses what gpuplan cannot\n"
    "model; NEW.json is then not written. What the import leaves out is printed as notes.\n"
    "\n"
    "How Kueue maps to gpuplan:\n"
    "  ResourceFlavor  a GPU model of SCENARIO's fleet: the one --flavor names, else the catalog\n"
    "                  GPU whose productLabels hold its nodeLabels' nvidia.com/gpu.product (any\n"
    "                  case), else the fleet GPU model with the flavor's name. Flavors of one\n"
    "                  GPU model are merged (quotas and limits added). A flavor no quota uses\n"
    "                  needs no GPU model.\n"
    "  quotas          only nvidia.com/gpu, in GPUs (Kubernetes quantities: 8, 1.5, 500m);\n"
    "                  cpu, memory and other resources are skipped with a note; nvidia.com/mig-*\n"
    "                  and nvidia.com/gpu.* (shared replicas) are refused.\n"
    "  ClusterQueue    a team's quota: the team --team names, else the namespace of the\n"
    "                  LocalQueues that point at it, else a team named like the queue (teams\n"
    "                  are added when SCENARIO lacks them). A queue used from two namespaces, or\n"
    "                  a namespace using two queues, is refused: a gpuplan team has one quota.\n"
    "                  preemption.reclaimWithinCohort and withinClusterQueue, and\n"
    "                  fairSharing.weight, are kept; other settings gpuplan cannot honour\n"
    "                  (borrowWithinCohort, flavorFungibility, StrictFIFO, admission checks,\n"
    "                  stopPolicy) are noted.\n"
    "  Cohort          a cohort with its parent (spec.parentName or v1alpha1's spec.parent),\n"
    "                  its own quota and weight; a cohort name with no Cohort object is a\n"
    "                  cohort without quota, as in Kueue.\n"
    "\n"
    "  --into FILE          the scenario to import into (its fleet decides the GPU models)\n"
    "  --out FILE           the new scenario (written atomically; may be --into itself)\n"
    "  --flavor NAME=MODEL  flavor NAME counts GPUs of fleet GPU model MODEL (repeatable)\n"
    "  --team QUEUE=TEAM    ClusterQueue QUEUE's quota goes to team TEAM (repeatable)\n"
    "  --fair-sharing       turn on fair sharing in every cohort (Kueue switches it on in its\n"
    "                       Configuration, which no manifest holds)\n"
    "  --data-dir, --presets, --catalog, --budget-gb, --budget-ops  as for validate\n";

namespace {

/// The first kShown names, then how many more.
constexpr std::size_t kShown = 20;
std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
        out += (i ? ", " : "") + names[i];
    if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
    return out;
}

}  // namespace

int importKueueCommand(Args& args) {
    CommonOptions common;
    KueueImportOptions options;
    std::vector<std::filesystem::path> manifests;
    std::optional<std::filesystem::path> into, out;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--into")) {
            into = args.value("--into");
        } else if (args.at("--out")) {
            out = args.value("--out");
        } else if (args.at("--flavor")) {
            options.flavorModels.push_back(args.assignment("--flavor"));
        } else if (args.at("--team")) {
            options.queueTeams.push_back(args.assignment("--team"));
        } else if (args.at("--fair-sharing")) {
            args.flag("--fair-sharing");
            options.fairSharing = true;
        } else if (!args.peek().empty() && args.peek()[0] == '-' && args.peek() != "-") {
            args.unknown();
        } else {
            manifests.emplace_back(args.take());
        }
    }
    if (manifests.empty()) throw UsageError{"no manifest file given"};
    if (!into) throw UsageError{"--into SCENARIO is required"};
    if (!out) throw UsageError{"--out FILE is required"};
    checkOutputFile("--out", *out);

    const Catalog catalog = loadCatalogFor(common);
    const Scenario base = loadScenarioFor(*into, common);
    const KueueImport result = importKueueFiles(base, manifests, options);
    for (const std::string& note : result.notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());

    const Scenario scenario = saveImportedScenario(result.scenario, *out, common, catalog);

    std::printf(
        "%s: %d ClusterQueues, %d Cohorts, %d ResourceFlavors, %d LocalQueues from %zu "
        "file%s → %zu quotas, %zu cohorts\n",
        out->string().c_str(), result.clusterQueues, result.cohorts, result.resourceFlavors,
        result.localQueues, manifests.size(), manifests.size() == 1 ? "" : "s",
        scenario.quotas.size(), scenario.cohorts.size());
    for (std::size_t i = 0; i < scenario.quotas.size() && i < kShown; ++i) {
        const QuotaDef& q = scenario.quotas[i];
        std::string flavors;
        for (const FlavorQuotaDef& f : q.flavors) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", f.nominalGpus);
            flavors += (flavors.empty() ? "" : ", ") + f.gpuModel + " " + buf;
        }
        std::printf("  team %-20s cohort %-16s nominal GPUs: %s\n", q.team.c_str(),
                    q.cohort.empty() ? "-" : q.cohort.c_str(),
                    flavors.empty() ? "none" : flavors.c_str());
    }
    if (scenario.quotas.size() > kShown)
        std::printf("  and %zu more quotas\n", scenario.quotas.size() - kShown);
    if (!result.createdTeams.empty())
        std::printf("teams added: %s\n", joined(result.createdTeams).c_str());
    if (!result.unmanagedTeams.empty())
        std::printf("teams without a quota (admitted wherever their jobs fit): %s\n",
                    joined(result.unmanagedTeams).c_str());
    return kOk;
}

}  // namespace gpuplan::cli
