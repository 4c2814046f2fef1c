#include "fuzz_paths.hpp"

namespace gpuplan::fuzz {

std::string catalogFile() {
    return GPUPLAN_FUZZ_PRESETS_DIR "/catalog/catalog.json";
}

std::string kueueBaseFile() {
    return GPUPLAN_FUZZ_TEST_DATA_DIR "/kueue/base.json";
}

std::string lessonsDir() {
    return GPUPLAN_FUZZ_PRESETS_DIR "/lessons";
}

std::string sweepsDir() {
    return GPUPLAN_FUZZ_TEST_DATA_DIR "/sweeps";
}

}  // namespace gpuplan::fuzz
