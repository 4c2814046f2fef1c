// Where the repository's presets and the tests' data are. Only app_test_paths.cpp sees the
// checkout's paths, so every other test file compiles the same in any checkout and a compiler
// cache filled by one serves another.
#pragma once

#include <filesystem>

namespace gpuplan::app::test {

std::filesystem::path presetsDir();   ///< presets/ of the checkout under test
std::filesystem::path testDataDir();  ///< tests/data/

}  // namespace gpuplan::app::test
