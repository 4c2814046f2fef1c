// Kueue's objects as a manifest file holds them (ClusterQueue, Cohort, ResourceFlavor,
// LocalQueue), read strictly from YAML: only what gpuplan's quotas can use is kept, what it
// cannot honour becomes a note, what is wrong an InputError at its line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/quota.hpp"
#include "yaml_reader.hpp"

namespace gpuplan::detail {

/// Where something was read: a file and a 1-based line.
struct SourcePlace {
    std::string file;
    int line = 0;
    std::string lineText() const { return "line " + std::to_string(line); }
};

/// Notes on what an import leaves out, one per kind of thing however often it occurs.
class ImportNotes {
public:
    /// Counts one occurrence of `key`; the first one's `text` and place are kept. `detail`
    /// (a resource name, a kind) is listed once per distinct value.
    void add(const std::string& key, const std::string& text, const SourcePlace& at,
             const std::string& detail = {});
    /// One line per key, in the order the keys first occurred.
    std::vector<std::string> lines() const;

private:
    struct Note {
        std::string key, text;
        SourcePlace first;
        long long count = 0;
        std::vector<std::string> details;
    };
    std::vector<Note> m_notes;
};

/// The nvidia.com/gpu quota of one flavor of a ClusterQueue or Cohort, in GPUs.
struct KueueGpuQuota {
    std::string flavor;
    SourcePlace at;  ///< the flavor's name in the resource group
    double nominalGpus = 0;
    std::optional<double> borrowingLimitGpus, lendingLimitGpus;
    SourcePlace borrowingAt, lendingAt;
};

struct KueueClusterQueue {
    std::string name;
    SourcePlace at;  ///< metadata.name
    std::string cohort;
    SourcePlace cohortAt;
    std::vector<KueueGpuQuota> gpuQuotas;  ///< in the order Kueue tries the flavors
    std::optional<double> weight;          ///< spec.fairSharing.weight
    ReclaimPolicy reclaimWithinCohort = ReclaimPolicy::Never;
    WithinTeamPolicy withinClusterQueue = WithinTeamPolicy::Never;
};

struct KueueCohort {
    std::string name;
    SourcePlace at;
    std::string parent;
    SourcePlace parentAt;
    std::vector<KueueGpuQuota> gpuQuotas;
    std::optional<double> weight;
};

struct KueueResourceFlavor {
    std::string name;
    SourcePlace at;
    std::optional<std::string> gpuProduct;  ///< spec.nodeLabels["nvidia.com/gpu.product"]
    SourcePlace gpuProductAt;
};

struct KueueLocalQueue {
    std::string nameSpace, name, clusterQueue;
    SourcePlace at;
};

/// Everything read from the files, in file order.
struct KueueManifests {
    std::vector<KueueClusterQueue> clusterQueues;
    std::vector<KueueCohort> cohorts;
    std::vector<KueueResourceFlavor> flavors;
    std::vector<KueueLocalQueue> localQueues;
    long long objects = 0;  ///< every object read, other kinds included
    /// "Kind/name" (a LocalQueue's "LocalQueue/namespace/name") → where it was first read.
    std::map<std::string, SourcePlace> firstPlace;
    ImportNotes notes;
};

/// Bounds on what a set of manifests may hold (InputLimits' spirit: a hostile file is refused
/// quickly). ClusterQueues and Cohorts become quotas and cohorts, which a scenario holds at
/// most 1,000 of.
struct KueueLimits {
    static constexpr long long maxObjects = 20'000;
    static constexpr long long maxQuotaHolders = 1'000;
};

/// Reads every object of one file's YAML documents (a `kind: List` is read item by item)
/// into `into`. Objects of other kinds are counted in a note. Throws InputError.
void readKueueManifests(const std::vector<YamlNode>& documents, const std::string& file,
                        KueueManifests& into);

}  // namespace gpuplan::detail
