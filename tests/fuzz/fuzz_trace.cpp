// libFuzzer target: bytes → the Philly trace reader (parsePhillyTrace, the in-memory path of
// readPhillyTrace). Expected outcome for bad bytes: an InputError naming the line. A trace it
// accepts must hold what the engine relies on; anything else is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "gpuplan/scenario_io/scenario_io.hpp"

namespace {

[[noreturn]] void finding(const char* what, std::size_t row) {
    std::fprintf(stderr, "fuzz_trace: row %zu: %s\n", row, what);
    std::abort();
}

/// What workload generation assumes of a read trace (scenario.hpp: TraceData, TraceJob).
void checkAccepted(const gpuplan::TraceData& trace) {
    if (trace.jobs.empty()) finding("an accepted trace has no jobs", 0);
    double previousS = 0;
    for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
        const gpuplan::TraceJob& job = trace.jobs[i];
        if (!(job.submitS >= previousS) || !std::isfinite(job.submitS))
            finding("submit times not sorted from 0", i);
        previousS = job.submitS;
        if (!std::isfinite(job.durationS) || job.durationS < 0)
            finding("duration not finite and ≥ 0", i);
        if (job.gpus < 1) finding("fewer than 1 GPU", i);
        if (job.team < 0 || static_cast<std::size_t>(job.team) >= trace.teams.size())
            finding("team index outside the team list", i);
    }
    if (trace.jobs.front().submitS != 0) finding("the earliest submit is not 0", 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::shared_ptr<const gpuplan::TraceData> trace;
    try {
        trace = gpuplan::parsePhillyTrace(text, "fuzz.csv");
    } catch (const gpuplan::InputError&) {
        return 0;  // rejected with a file, a line and a reason: what bad input should get
    }
    checkAccepted(*trace);
    return 0;
}
