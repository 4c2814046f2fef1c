// Catch2's main, alone in its translation unit: it takes ~15 s to compile and rarely changes.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
