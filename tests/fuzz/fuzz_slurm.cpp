// libFuzzer target: bytes → the Slurm readers (gpuplan/import/slurm_import.hpp). The first byte
// picks one: 0 `scontrol show node --oneliner` (parseSlurmNodes, on the real catalog), 1 `sacct
// --parsable2` (parseSacct), 2 topology.conf (applySlurmTopology, on a fleet of nodes gpu01…
// gpu04). Expected outcome for bad bytes: an InputError naming the line. What a reader accepts
// must hold what the builder and the engine rely on; anything else is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "checkout_paths.hpp"
#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace {

[[noreturn]] void finding(const char* what, std::size_t index) {
    std::fprintf(stderr, "fuzz_slurm: %zu: %s\n", index, what);
    std::abort();
}

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

void checkNodes(const gpuplan::ImportedFleet& fleet) {
    if (fleet.nodes.empty()) finding("an accepted node list has no nodes", 0);
    for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
        const gpuplan::ImportedNode& n = fleet.nodes[i];
        if (n.gpus < 1 || n.gpus > 1024) finding("GPUs outside 1..1024", i);
        if (!catalog().findGpu(n.gpuModel)) finding("a GPU model not in the catalog", i);
        if (!(n.cpuCores >= 0) || !std::isfinite(n.cpuCores)) finding("CPUs not finite ≥ 0", i);
        if (!(n.memoryGiB >= 0) || !std::isfinite(n.memoryGiB)) finding("memory not finite", i);
        if (n.name.empty() || n.name.size() > 64) finding("a node name outside 1..64 bytes", i);
        if (n.state == gpuplan::NodeState::Ready && !n.stateReason.empty())
            finding("a Ready node with a state reason", i);
    }
}

void checkTrace(const gpuplan::SacctTrace& trace) {
    const gpuplan::TraceData& d = *trace.data;
    if (d.jobs.empty()) finding("an accepted export has no jobs", 0);
    if (d.jobs.front().submitS != 0) finding("the earliest submit is not 0", 0);
    if (!(trace.exportEpochS >= trace.firstSubmitEpochS)) finding("export before first submit", 0);
    const gpuplan::TraceRowCounts& c = d.rows;
    if (static_cast<std::size_t>(c.finished + c.running + c.pending) != d.jobs.size())
        finding("finished + running + pending is not the jobs kept", 0);
    double previousS = 0;
    for (std::size_t i = 0; i < d.jobs.size(); ++i) {
        const gpuplan::TraceJob& job = d.jobs[i];
        if (!(job.submitS >= previousS) || !std::isfinite(job.submitS))
            finding("submit times not sorted from 0", i);
        previousS = job.submitS;
        if (!std::isfinite(job.durationS) || job.durationS < 0)
            finding("duration not finite and ≥ 0", i);
        if (job.gpus < 1) finding("fewer than 1 GPU", i);
        if (job.team < 0 || static_cast<std::size_t>(job.team) >= d.teams.size())
            finding("team index outside the team list", i);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 3) {
            case 0:
                checkNodes(gpuplan::parseSlurmNodes(text, "nodes.txt", catalog()));
                break;
            case 1:
                checkTrace(gpuplan::parseSacct(text, "sacct.txt"));
                break;
            default: {
                gpuplan::ImportedFleet fleet;
                for (const char* name : {"gpu01", "gpu02", "gpu03", "gpu04"}) {
                    gpuplan::ImportedNode n;
                    n.name = name;
                    fleet.nodes.push_back(n);
                }
                gpuplan::applySlurmTopology(text, "topology.conf", fleet);
                for (const gpuplan::ImportedNode& n : fleet.nodes)
                    if (n.rack.size() > 64 || n.pod.size() > 64)
                        finding("a rack or pod name over 64 bytes", 0);
            }
        }
    } catch (const gpuplan::InputError&) {
        return 0;  // rejected with a file, a line and a reason: what bad input should get
    }
    return 0;
}
