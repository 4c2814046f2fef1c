// Where the fuzz targets find the catalog and the files they read beside their input. Only
// fuzz_paths.cpp sees the checkout's paths, so the targets' own files compile the same in every
// checkout and a compiler cache filled by one serves another.
#pragma once

#include <string>

namespace gpuplan::fuzz {

std::string catalogFile();    ///< presets/catalog/catalog.json
std::string kueueBaseFile();  ///< tests/data/kueue/base.json: the scenario Kueue files go into
std::string lessonsDir();     ///< presets/lessons: a fuzzed lesson is read as if there
std::string sweepsDir();      ///< tests/data/sweeps: a fuzzed sweep is read as if there

}  // namespace gpuplan::fuzz
