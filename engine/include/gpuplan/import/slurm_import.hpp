// A Slurm cluster as it reports itself: its GPU nodes (`scontrol show node --oneliner`,
// slurm_nodes.cpp) and its accounting (`sacct --parsable2 --allocations`, slurm_sacct.cpp,
// replayed as TraceFormat::Sacct). The rules of each reader are in its file's top comment.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuplan/import/fleet_import.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/gpu_type_names.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

struct SlurmNodeOptions {
    /// Slurm GPU type → catalog GpuModel::id (`--gpu-type h100=h100-sxm`), looked at before
    /// the catalog's ids, names and product labels. The type "gpu" names untyped GPUs
    /// (`Gres=gpu:8`).
    std::vector<std::pair<std::string, std::string>> gpuTypeModels;
};

/// The GPU nodes of `scontrol show node --oneliner` output, with their GPU model, GPUs, CPUs,
/// memory and state, as ImportedFleet::nodes; nodes without GPUs are counted in the summary
/// and left out. Throws InputError naming the file, the line and what is wrong (an unknown
/// state, an unknown GPU type, a malformed field).
ImportedFleet parseSlurmNodes(std::string_view text, const std::string& sourceName,
                              const Catalog& catalog, const SlurmNodeOptions& options = {});
ImportedFleet readSlurmNodes(const std::filesystem::path& file, const Catalog& catalog,
                             const SlurmNodeOptions& options = {});

/// Racks and pods of `fleet`'s nodes from a topology/tree topology.conf (slurm_topology.cpp):
/// a leaf switch (SwitchName=… Nodes=…) is a rack, the switch above it a pod. Adds summary
/// lines. Throws InputError naming the file and line.
void applySlurmTopology(std::string_view text, const std::string& sourceName, ImportedFleet& fleet);
void readSlurmTopology(const std::filesystem::path& file, ImportedFleet& fleet);

/// The catalog GPU model a Slurm GPU type names: gpuModelNamedBy with the mapping of
/// `options` (gpuplan/model/gpu_type_names.hpp). Empty when none or several match.
std::string slurmGpuModel(std::string_view type, const Catalog& catalog,
                          const SlurmNodeOptions& options);

/// The catalog models a Slurm GPU type could mean: those whose id, name or a product label
/// contains it (ignoring case and '_' vs '-'), in catalog order; "h100" → h100-sxm,
/// h100-pcie, h100-nvl. All models for an empty type.
std::vector<std::string> slurmGpuTypeCandidates(std::string_view type, const Catalog& catalog);

/// A Slurm GPU type (of a node's Gres, or of a job's ReqTRES) that names no one catalog model:
/// where, and the models it could mean (empty when it matches none), so a caller can offer
/// them (File ▸ Import) or say to name one (`--gpu-type TYPE=MODEL`).
class SlurmGpuTypeError : public InputError {
public:
    SlurmGpuTypeError(std::string file, std::string place, std::string message, std::string type,
                      std::vector<std::string> candidates)
        : InputError(std::move(file), std::move(place), std::move(message)),
          m_type(std::move(type)),
          m_candidates(std::move(candidates)) {}
    const std::string& type() const { return m_type; }
    const std::vector<std::string>& candidates() const { return m_candidates; }

private:
    std::string m_type;
    std::vector<std::string> m_candidates;
};

/// An accounting export read as a trace, with the times a caller needs for a horizon.
struct SacctTrace {
    std::shared_ptr<const TraceData> data;
    double firstSubmitEpochS = 0;  ///< the earliest kept Submit: the trace's t = 0
    double exportEpochS = 0;       ///< the latest timestamp in the file: "now" for the export
};

/// `sacct --parsable2 --allocations` output as a trace (TraceFormat::Sacct; the rules are in
/// slurm_sacct.cpp). Throws InputError naming the file and line.
SacctTrace parseSacct(std::string_view text, const std::string& sourceName);
std::shared_ptr<const TraceData> readSacctTrace(const std::filesystem::path& file);

/// What the replay of an accounting export keeps, assumes and leaves out, in a sentence.
std::string describeSacctRows(const TraceData& data);

/// The import's summary lines for an accounting export read from `file`: jobs kept by state,
/// what was left out, what was assumed.
void summarizeSacct(const TraceData& data, const std::string& file, ImportSummary& summary);

struct SlurmImportOptions {
    SlurmNodeOptions nodes;
    /// The horizon; empty: from the export's first submit to its last timestamp plus a day,
    /// or 7 days without an export.
    std::optional<double> horizonS;
};

/// A Slurm cluster's fleet, ready for importedScenario, and the horizon to give it.
struct SlurmImport {
    ImportedFleet fleet;
    double horizonS = 7 * 86400.0;
};

/// Everything `gpuplan-cli import-slurm` and File ▸ Import read: the nodes, their racks and
/// pods from `topology` when given, and `jobs` replayed as a sacct trace (its file named by
/// its absolute path; the fleet's teams are its accounts), with the summary's lines. Throws
/// InputError naming the file and line, or the export when it spans more than the longest
/// horizon and no horizon is given.
SlurmImport importSlurmFiles(const Catalog& catalog, const std::filesystem::path& nodes,
                             const std::optional<std::filesystem::path>& jobs,
                             const std::optional<std::filesystem::path>& topology,
                             const SlurmImportOptions& options = {});

}  // namespace gpuplan
