// gpuplan --bench: the GUI's performance figures against their targets.
#pragma once

#include <QElapsedTimer>
#include <QString>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "timeline/timeline_bench.hpp"

namespace gpuplan::app {

/// Start to first window, edit → results → charts and topology redrawn (default preset),
/// and topology frame times on the 10,000-GPU preset. Prints a table; returns 0.
int runGuiBenchmarks(const Catalog& catalog, const LoadOptions& options, const QString& presetsDir,
                     const QElapsedTimer& sinceStart);

}  // namespace gpuplan::app
