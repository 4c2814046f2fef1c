// Where the checkout's presets and test data are, for every test program (engine tests, app
// tests, fuzz targets). Only checkout_paths.cpp sees the checkout's paths, so every other test
// file compiles the same in any checkout and a compiler cache filled by one serves another.
#pragma once

#include <filesystem>

namespace gpuplan::checkout {

std::filesystem::path presetsDir();     ///< presets/
std::filesystem::path presetDataDir();  ///< presets/data: the traces the presets ship
std::filesystem::path testDataDir();    ///< tests/data/

}  // namespace gpuplan::checkout
