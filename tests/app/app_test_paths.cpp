#include "app_test_paths.hpp"

namespace gpuplan::app::test {

std::filesystem::path presetsDir() {
    return GPUPLAN_TEST_PRESETS_DIR;
}

std::filesystem::path testDataDir() {
    return GPUPLAN_TEST_DATA_DIR;
}

}  // namespace gpuplan::app::test
