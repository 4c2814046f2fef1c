// Kueue manifests (ClusterQueue, Cohort, ResourceFlavor, LocalQueue, as `kubectl get -o yaml`
// writes them) into a scenario's teams, quotas and cohorts. The mapping, in short (README,
// "Importing Kueue quotas", has it whole):
// - a ResourceFlavor is a GPU model of the fleet: --flavor NAME=MODEL if given, else the
//   catalog GPU whose productLabels hold its nodeLabels' nvidia.com/gpu.product, else the
//   fleet GPU model named like the flavor; flavors of one GPU model are merged;
// - only nvidia.com/gpu quotas count (in GPUs); other resources are skipped with a note, MIG
//   and shared-GPU resources refused;
// - a ClusterQueue's quota goes to the team named by --team, else the namespace of the
//   LocalQueues that point at it, else a team named like the queue;
// - cohorts come from Cohort objects and every cohort name a queue or cohort refers to.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

struct KueueImportOptions {
    /// --flavor NAME=GPU_MODEL: a flavor's GPU model, taken before any other rule.
    std::vector<std::pair<std::string, std::string>> flavorModels;
    /// --team CLUSTERQUEUE=TEAM: the team that gets a ClusterQueue's quota, whatever namespaces
    /// its LocalQueues are in.
    std::vector<std::pair<std::string, std::string>> queueTeams;
    /// Kueue switches fair sharing on for the whole cluster in its Configuration, which no
    /// manifest holds: true turns it on in every imported cohort.
    bool fairSharing = false;
};

/// One manifest file's text, for importing from memory.
struct KueueManifestText {
    std::string file;  ///< named in messages
    std::string text;
};

struct KueueImport {
    /// The base scenario with its quotas and cohorts replaced and any missing team added.
    Scenario scenario;
    /// What the import left out or read differently, one line per kind of thing.
    std::vector<std::string> notes;
    int clusterQueues = 0, cohorts = 0, resourceFlavors = 0, localQueues = 0;
    std::vector<std::string> createdTeams;    ///< teams the base scenario lacked
    std::vector<std::string> unmanagedTeams;  ///< teams of the scenario with no quota
};

/// Throws InputError: (file, "line L", what) for a manifest, ("--flavor"/"--team", "", what)
/// for an option that names nothing. The scenario it returns is not yet validated as a whole
/// (validateScenario does that), but every rule the quota reader has is checked here first,
/// at the manifest's line.
KueueImport importKueue(const Scenario& base, const std::vector<KueueManifestText>& manifests,
                        const KueueImportOptions& options = {});
/// The same for files, read with readTextFile's limits, one at a time.
KueueImport importKueueFiles(const Scenario& base, const std::vector<std::filesystem::path>& files,
                             const KueueImportOptions& options = {});

}  // namespace gpuplan
