// libFuzzer target: bytes → gpuplan-cli import-kueue's engine side (importKueue) on the
// Kueue test scenario (tests/data/kueue/base.json: H100 and A100 nodes), with fair sharing on
// for inputs of odd length (--fair-sharing; both settings explored without a format byte) →
// the scenario validated as gpuplan-cli validate would → a run of it. Expected outcome for
// bad bytes: an InputError naming the file and line. An import it accepts must give a
// scenario the scenario reader accepts, and that scenario must run; anything else is a
// finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "checkout_paths.hpp"
#include "gpuplan/import/kueue_import.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"

namespace {

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

const gpuplan::Scenario& base() {
    static const gpuplan::Scenario s = gpuplan::loadScenario(
        (gpuplan::checkout::testDataDir() / "kueue" / "base.json").string(), catalog());
    return s;
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_kueue: %s: %s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    gpuplan::KueueImportOptions options;
    options.fairSharing = size % 2 == 1;
    gpuplan::KueueImport imported;
    try {
        imported = gpuplan::importKueue(base(), {{"fuzz.yaml", text}}, options);
    } catch (const gpuplan::InputError&) {
        return 0;  // refused with a file, a line and a reason: what bad input should get
    }
    try {
        gpuplan::validateScenario(imported.scenario, catalog());
    } catch (const gpuplan::InputError& e) {
        finding("an accepted import does not validate", e.what());
    }
    // The base fleet is 4 nodes over a day: run when the imported quotas and cohorts keep
    // the run's estimate within fuzz_scenario's budget (about a second under ASan).
    gpuplan::RunBudget fuzzBudget;
    fuzzBudget.memoryBytes = 256.0 * (1 << 20);
    fuzzBudget.workOps = 1e7;
    if (!gpuplan::budgetExcess(
             gpuplan::estimateRunCost(imported.scenario, gpuplan::Fleet::build(imported.scenario)),
             fuzzBudget)
             .empty())
        return 0;
    gpuplan::RunOptions run;
    run.checkInvariants = true;  // 4 nodes: cheap, and quotas are what the import changes
    (void)gpuplan::simulate(imported.scenario, run);
    return 0;
}
