// A core file that reaches up into the simulation: the layer check must refuse it.
#include "gpuplan/core/statistics.hpp"
#include "gpuplan/sim/simulate.hpp"
