// A Slurm cluster's files into an ImportedFleet, as `gpuplan-cli import-slurm` and File ▸
// Import read them: the nodes (slurm_nodes.cpp), their racks and pods (slurm_topology.cpp) and
// the accounting replayed as a trace (slurm_sacct.cpp), with the summary's lines for the jobs
// and the horizon.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

std::string plural(long long n, const char* one, const char* many) {
    return detail::withThousands(n) + " " + (n == 1 ? one : many);
}

std::string days(double seconds) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2f d", seconds / 86400);
    return text;
}

}  // namespace

void summarizeSacct(const TraceData& d, const std::string& file, ImportSummary& summary) {
    const TraceRowCounts& c = d.rows;
    summary.mapped.push_back(
        plural(static_cast<long long>(d.jobs.size()), "GPU job", "GPU jobs") + " from " + file +
        " (" + detail::withThousands(c.finished) + " finished, " +
        detail::withThousands(c.running) + " running, " + detail::withThousands(c.pending) +
        " pending; " + plural(c.arrayTasks, "array task", "array tasks") + ") of " +
        plural(static_cast<long long>(d.teams.size()), "team", "teams") + " (accounts)");
    if (c.cpuOnly > 0)
        summary.skipped.push_back(plural(c.cpuOnly, "CPU-only job", "CPU-only jobs"));
    if (c.cancelledBeforeStart > 0)
        summary.skipped.push_back(plural(c.cancelledBeforeStart, "job", "jobs") +
                                  " cancelled before starting");
    if (c.steps > 0)
        summary.skipped.push_back(plural(c.steps, "job step", "job steps") +
                                  " (the allocation line holds the job)");
    if (c.running + c.pending > 0)
        summary.assumptions.push_back(
            "jobs running or pending at the export (its latest timestamp) run for their time "
            "limit (running ones at least as long as they have run)");
    if (c.unlimitedLimits > 0)
        summary.assumptions.push_back(
            plural(c.unlimitedLimits, "running or pending job", "running or pending jobs") +
            " without a time limit (UNLIMITED, Partition_Limit, Unknown) run to the end of the "
            "horizon");
    if (c.noAccount > 0)
        summary.assumptions.push_back(plural(c.noAccount, "job", "jobs") +
                                      " without an account: team \"unknown\"");
}

namespace {

/// The GPU model of each type the export's jobs ask, by the nodes' --gpu-type and the catalog
/// (as the nodes' types), into `trace.gpuTypes`; the summary says which jobs keep to which
/// model, and those that ask a model no imported node has. Throws SlurmGpuTypeError for a type
/// that is not one catalog model.
void mapJobGpuTypes(TraceDef& trace, const std::string& file, const Catalog& catalog,
                    const SlurmNodeOptions& options, const ImportedFleet& fleet,
                    ImportSummary& summary) {
    const TraceData& d = *trace.data;
    if (d.gpuModels.empty()) {
        summary.mapped.push_back("no job asks a GPU type (ReqTRES gres/gpu:TYPE): any model");
        return;
    }
    std::vector<long long> jobs(d.gpuModels.size(), 0);
    for (const TraceJob& job : d.jobs)
        for (std::size_t m = 0; m < jobs.size(); ++m)
            jobs[m] += (job.allowedGpuModels >> m) & 1u;
    std::string mapped, missing;
    for (std::size_t m = 0; m < d.gpuModels.size(); ++m) {
        const std::string& type = d.gpuModels[m];
        const std::string model = slurmGpuModel(type, catalog, options);
        if (model.empty()) {
            std::vector<std::string> candidates = slurmGpuTypeCandidates(type, catalog);
            std::string maybe;
            for (const std::string& id : candidates)
                maybe += (maybe.empty() ? "" : ", ") + id;
            throw SlurmGpuTypeError(
                file, d.gpuModelFirstPod[m],
                "a job asks GPU type \"" + detail::escapedForMessage(type, 40) + "\" (ReqTRES), " +
                    (maybe.empty()
                         ? "which matches no catalog GPU model"
                         : "which is not one catalog GPU model (it could be " + maybe + ")") +
                    "; name it with --gpu-type " + detail::escapedForMessage(type, 40) + "=MODEL",
                type, std::move(candidates));
        }
        trace.gpuTypes.push_back({type, model});
        const std::string line = type + " → " + model + " (" + plural(jobs[m], "job", "jobs") + ")";
        mapped += (mapped.empty() ? "" : ", ") + line;
        const bool onANode =
            std::any_of(fleet.nodes.begin(), fleet.nodes.end(),
                        [&](const ImportedNode& n) { return n.gpuModel == model; });
        if (!onANode) missing += (missing.empty() ? "" : ", ") + line;
    }
    // In key order, as a scenario file's "gpuTypes" reads back.
    std::sort(trace.gpuTypes.begin(), trace.gpuTypes.end());
    summary.mapped.push_back(
        "jobs asking a GPU type (ReqTRES gres/gpu:TYPE) run on its model only: " + mapped +
        "; other jobs on any model");
    if (!missing.empty())
        summary.assumptions.push_back("jobs ask GPU types no imported node has: " + missing +
                                      "; they wait (reservation layer)");
}

}  // namespace

SlurmImport importSlurmFiles(const Catalog& catalog, const std::filesystem::path& nodes,
                             const std::optional<std::filesystem::path>& jobs,
                             const std::optional<std::filesystem::path>& topology,
                             const SlurmImportOptions& options) {
    SlurmImport out;
    out.fleet = readSlurmNodes(nodes, catalog, options.nodes);
    if (topology) readSlurmTopology(*topology, out.fleet);
    ImportSummary& summary = out.fleet.summary;
    std::optional<double> spanS;
    if (jobs) {
        const SacctTrace trace = parseSacct(readTextFile(*jobs), jobs->string());
        TraceDef def;
        def.format = TraceFormat::Sacct;
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(*jobs, ec);
        def.file = (ec ? *jobs : absolute).generic_string();
        def.data = trace.data;
        summarizeSacct(*trace.data, jobs->string(), summary);
        mapJobGpuTypes(def, jobs->string(), catalog, options.nodes, out.fleet, summary);
        out.fleet.traces.push_back(def);
        out.fleet.teams = trace.data->teams;
        out.fleet.source += " and sacct (" + jobs->string() + ")";
        spanS = trace.exportEpochS - trace.firstSubmitEpochS;
    }
    if (options.horizonS) {
        out.horizonS = *options.horizonS;
        summary.mapped.push_back("horizon " + days(out.horizonS) + " (as asked)");
    } else if (spanS) {
        out.horizonS = std::ceil(*spanS) + 86400.0;
        if (out.horizonS > InputLimits::maxHorizonS)
            throw InputError(jobs->string(), "",
                             "the export spans " + detail::shortNumber(std::round(*spanS / 86400)) +
                                 " days from its first submit to its last timestamp, more than "
                                 "the longest horizon (3 × 366 days): export a shorter window "
                                 "(sacct -S … -E …) or set a horizon");
        summary.assumptions.push_back("horizon " + days(out.horizonS) +
                                      ": from the first submit to the export, plus a day");
    } else {
        summary.assumptions.push_back("horizon " + days(out.horizonS) + " (no jobs to span)");
    }
    return out;
}

}  // namespace gpuplan
