// libFuzzer target: bytes → a fleet importer and the scenario builder (fleet_import.hpp).
// The bytes are `kubectl get nodes -o json`, then after a NUL byte, if any, `kubectl get pods
// -A -o json`. Expected outcome for bad bytes: an InputError naming the file and the place. An
// import it accepts must give a scenario the scenario reader accepts too; anything else
// (another exception, a crash, a hang) is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "checkout_paths.hpp"
#include "gpuplan/import/fleet_import.hpp"
#include "gpuplan/import/k8s_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace {

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = bytes.find('\0');
    std::optional<gpuplan::K8sListText> pods;
    if (nul != std::string::npos) pods = gpuplan::K8sListText{"pods.json", bytes.substr(nul + 1)};
    gpuplan::ImportedScenario imported;
    try {
        const gpuplan::ImportedFleet fleet = gpuplan::importK8s(
            catalog(), {"nodes.json", bytes.substr(0, nul)}, pods, gpuplan::K8sImportOptions{});
        imported = gpuplan::importedScenario(fleet, catalog(), {"fuzz", 86400, 1});
    } catch (const gpuplan::InputError&) {
        return 0;  // refused with a file, a place and a reason: what bad input should get
    }
    try {
        gpuplan::validateScenario(imported.scenario, catalog());
    } catch (const gpuplan::InputError& e) {
        std::fprintf(stderr, "fuzz_fleet_import: an accepted import does not validate: %s\n",
                     e.what());
        std::abort();
    }
    return 0;
}
