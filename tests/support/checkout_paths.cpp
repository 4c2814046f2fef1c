#include "checkout_paths.hpp"

namespace gpuplan::checkout {

std::filesystem::path presetsDir() {
    return GPUPLAN_CHECKOUT_PRESETS_DIR;
}

std::filesystem::path presetDataDir() {
    return presetsDir() / "data";
}

std::filesystem::path testDataDir() {
    return GPUPLAN_CHECKOUT_TEST_DATA_DIR;
}

}  // namespace gpuplan::checkout
