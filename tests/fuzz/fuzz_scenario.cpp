// libFuzzer target: bytes → the scenario reader and validator (parseScenario, the in-memory
// path of loadScenario) → a write/re-read round trip → a bounded simulation run (twice on
// small fleets: the same seed must give the same fingerprint) → the results' queries.
// Expected outcome for bad bytes: an InputError. Anything else that escapes (another
// exception, a sanitizer report, a hang, unbounded memory) is a finding.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "checkout_paths.hpp"
#include "gpuplan/export/results_io.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace {

using gpuplan::Scenario;

// Fuzzing wants thousands of runs a second, so only runs far below a second are worth it:
// a scenario is run when the engine's own run-cost estimate (the one the reader enforces
// with the default budget) fits this much smaller budget.
constexpr double kMaxHorizonS = 2 * 86400.0;
gpuplan::RunBudget fuzzBudget() {
    gpuplan::RunBudget b;
    b.memoryBytes = 256.0 * (1 << 20);
    b.workOps = 1e7;  // about a second under ASan
    return b;
}
/// The per-event invariant check walks every node and bound job (it made a default-preset
/// run 3× slower); the determinism check runs twice. Both only on small fleets.
constexpr long long kMaxGpusForInvariantChecks = 64;
constexpr long long kMaxGpusForDeterminismCheck = 256;

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

/// Whether a validated scenario (its horizon already clamped) is cheap enough to simulate
/// here: within the fuzzing budget by the engine's run-cost estimate.
bool boundedForFuzzing(const Scenario& s) {
    // Traces are not loaded (the target never touches the file system): nothing to replay.
    if (!s.traces.empty()) return false;
    return gpuplan::budgetExcess(gpuplan::estimateRunCost(s, gpuplan::Fleet::build(s)),
                                 fuzzBudget())
        .empty();
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_scenario: %s: %s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gpuplan::LoadOptions options;
    options.loadTraces = false;  // no file system: trace paths are only checked for form
    Scenario scenario;
    try {
        scenario = gpuplan::parseScenario(text, "fuzz.json", catalog(), options);
    } catch (const gpuplan::InputError&) {
        return 0;  // rejected with a file, a place and a reason: what bad input should get
    }

    // A NUL byte must be refused, never taken as the document's end.
    if (text.find('\0') != std::string_view::npos)
        finding("a scenario with a NUL byte was accepted", std::string(text.substr(0, 200)));

    // What the application saves must read back as the same scenario.
    const std::string saved = gpuplan::scenarioToJson(scenario);
    try {
        if (!(gpuplan::parseScenario(saved, "saved.json", catalog(), options) == scenario))
            finding("the saved scenario reads back different", saved);
    } catch (const gpuplan::InputError& e) {
        finding("the saved scenario does not read back", std::string(e.what()) + "\n" + saved);
    }

    // A shorter horizon keeps every rule the reader checks (they bound it only from above).
    scenario.horizonS = std::min(scenario.horizonS, kMaxHorizonS);
    if (!boundedForFuzzing(scenario)) return 0;
    gpuplan::RunOptions run;
    const long long fleetGpus = gpuplan::checkFleetSize(scenario).gpus;
    run.checkInvariants = fleetGpus <= kMaxGpusForInvariantChecks;
    // Any exception from a validated scenario is a validator gap: let it reach libFuzzer.
    const gpuplan::Results results = gpuplan::simulate(scenario, run);
    if (fleetGpus <= kMaxGpusForDeterminismCheck &&
        gpuplan::simulate(scenario, run).fingerprint != results.fingerprint)
        finding("the same scenario and seed gave another fingerprint", saved);

    // What the CLI and the application read from results: the pending list and the fleet at
    // a few times (the start, inside, the end), and the --out JSON.
    for (const double fraction : {0.0, 0.37, 1.0}) {
        const double timeS = fraction * results.horizonS;
        (void)results.pendingAt(timeS);
        (void)results.stateAt(timeS);
    }
    (void)gpuplan::resultsToJson(results);
    return 0;
}
