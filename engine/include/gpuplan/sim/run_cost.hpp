// What a run will cost before it starts: events, memory for its results and pending records,
// and scheduling work, estimated from the scenario alone. The reader refuses a scenario whose
// estimate exceeds the budget, so anything that validates finishes in bounded time and memory.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan {

/// Limits a run must fit; the defaults suit a 2-core, 24 GB machine (about two minutes and
/// a third of the memory, leaving room for the application and a baseline run).
struct RunBudget {
    double memoryBytes = 8.0 * (1ull << 30);
    /// Scheduling work units (see RunCost::workOps): about 1.5e7 per second on that machine.
    double workOps = 2e9;
};

/// Where the cost comes from, for naming what to change.
struct RunCostPart {
    std::string pointer;  ///< JSON pointer of the part ("/jobClasses/2", "/sampleIntervalS")
    std::string what;     ///< "about 1,000,000 jobs", "259,200 samples"
    double memoryBytes = 0;
    double workOps = 0;
};

struct RunCost {
    double jobs = 0;
    double pods = 0;      ///< pod placements over all jobs (a gang of k pods counts k)
    double gpuHolds = 0;  ///< GPUs held over all bindings (the GPU timeline's intervals)
    double samples = 0;
    double events = 0;
    double shapes = 0;  ///< distinct job shapes (queue groups): a pass costs about this many
    double unitsPerSample = 0;  ///< racks and pods a sample's gang measures visit
    double quotaLevels = 0;     ///< levels a quota check climbs (queue and cohorts above it)
    double resizeGpuHolds = 0;  ///< GPU holds elastic resizes may record (within the cap)
    double runs = 1;            ///< replications: the scenario runs this many times
    double memoryBytes = 0;     ///< at the peak: runs at once, and every run's reduced results
    double workOps = 0;         ///< over all runs
    std::vector<RunCostPart> parts;
};

/// Jobs are counted as the reader does (expected Poisson counts, list sizes, maxJobs, trace
/// rows when loaded); memory uses the engine's record sizes. Counts the fleet's set-up, every
/// sample's walks (gauges, pending lists, racks and pods of the gang measures, quota books),
/// scheduling passes, quota checks up the cohort tree, elastic resizes' records and the
/// scenario's replications (engine/README.md, "Run budget"). An estimate, not a promise: it
/// errs high for gangs of automatic pod size and for elastic jobs.
RunCost estimateRunCost(const Scenario& scenario, const Fleet& fleet);

/// Empty when within the budget, else what exceeds it and the fields to change.
std::string budgetExcess(const RunCost& cost, const RunBudget& budget);

/// Node failures a run of `s` on `fleet` would draw, about (expected count).
double expectedFailures(const Scenario& s, const Fleet& fleet);
/// Spot reclaims a run of `s` on `fleet` would draw, about (expected count).
double expectedReclaims(const Scenario& s, const Fleet& fleet);

}  // namespace gpuplan
