// libFuzzer target: bytes → gpuplan-cli import-kueue's engine side (importKueue) on the
// Kueue test scenario (tests/data/kueue/base.json: H100 and A100 nodes). Expected outcome for
// bad bytes: an InputError naming the file and line. An import it accepts must give a
// scenario the scenario reader accepts too; anything else is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpuplan/kueue_import.hpp"
#include "gpuplan/scenario_io.hpp"

namespace {

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(GPUPLAN_FUZZ_CATALOG_FILE);
    return c;
}

const gpuplan::Scenario& base() {
    static const gpuplan::Scenario s =
        gpuplan::loadScenario(GPUPLAN_FUZZ_KUEUE_BASE_FILE, catalog());
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    gpuplan::KueueImport imported;
    try {
        imported = gpuplan::importKueue(base(), {{"fuzz.yaml", text}});
    } catch (const gpuplan::InputError&) {
        return 0;  // refused with a file, a line and a reason: what bad input should get
    }
    try {
        gpuplan::validateScenario(imported.scenario, catalog());
    } catch (const gpuplan::InputError& e) {
        std::fprintf(stderr, "fuzz_kueue: an accepted import does not validate: %s\n", e.what());
        std::abort();
    }
    return 0;
}
