// A Slurm cluster as it reports itself: its GPU nodes (`scontrol show node --oneliner`,
// slurm_nodes.cpp) and its accounting (`sacct --parsable2 --allocations`, trace_sacct.cpp,
// replayed as TraceFormat::Sacct). The rules of each reader are in its file's top comment.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuplan/catalog.hpp"
#include "gpuplan/fleet_import.hpp"
#include "gpuplan/scenario.hpp"

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

/// The catalog GPU model a Slurm GPU type names: the mapping of `options` first, then the
/// model whose id, name or a product label equals it ignoring case and '_' vs '-' (a product
/// label also without its "NVIDIA-": nvml's `nvidia_h100_80gb_hbm3`, `a100-sxm4-40gb`).
/// Empty when none or several match.
std::string slurmGpuModel(std::string_view type, const Catalog& catalog,
                          const SlurmNodeOptions& options);

/// An accounting export read as a trace, with the times a caller needs for a horizon.
struct SacctTrace {
    std::shared_ptr<const TraceData> data;
    double firstSubmitEpochS = 0;  ///< the earliest kept Submit: the trace's t = 0
    double exportEpochS = 0;       ///< the latest timestamp in the file: "now" for the export
};

/// `sacct --parsable2 --allocations` output as a trace (TraceFormat::Sacct; the rules are in
/// trace_sacct.cpp). Throws InputError naming the file and line.
SacctTrace parseSacct(std::string_view text, const std::string& sourceName);
std::shared_ptr<const TraceData> readSacctTrace(const std::filesystem::path& file);

/// What the replay of an accounting export keeps, assumes and leaves out, in a sentence.
std::string describeSacctRows(const TraceData& data);

}  // namespace gpuplan
