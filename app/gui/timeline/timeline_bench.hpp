// gpuplan --bench, the timeline's rows: frame times of the GPU timeline on the
// 10,000-GPU preset at full zoom-out and zoomed to one rack, and on the 100,000-GPU preset
// when it simulates within a minute. Needs OpenGL (a display, or Xvfb); says so otherwise.
#pragma once

#include <QString>

#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

/// Prints rows in runGuiBenchmarks' table: median and p90 of ~50 frames each, pan and hover
/// between them.
void runTimelineBenchmarks(const Catalog& catalog, const LoadOptions& options,
                           const QString& presetsDir);

}  // namespace gpuplan::app
