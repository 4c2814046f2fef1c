// Scenarios built in code for engine tests, on a small test catalog whose numbers are easy
// to work with by hand:
//   GPU "tg":        1000 TFLOP/s BF16 dense, 80 GB HBM, NVLink 900 GB/s (450 one way)
//   GPU "tg-big":    2000 TFLOP/s, 160 GB, NVLink 900
//   node "n8":       8 × tg, 3200 Gb/s fabric → 3200 / 8 / 8 = 50 GB/s per GPU one way
//   node "n4":       4 × tg, 1600 Gb/s → 50 GB/s per GPU
//   node "n1":       1 × tg
//   node "big8":     8 × tg-big
//   node "tray4":    4 × tg, NVLink across 18 trays of a rack (NVL72-style)
//   node "n4c":      4 × tg with 16 CPUs (16,000 milli-CPU) and 64 GB (65,536 MiB) declared
// "tg" is MIG-capable (7 instances) with 80 GB: the A100-80 / H100-80 profile names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"

#include "checkout_paths.hpp"

namespace gpuplan::test {

using checkout::presetDataDir;
using checkout::presetsDir;
using checkout::testDataDir;

Catalog testCatalog();

/// The real catalog, presets/catalog/catalog.json, read once.
const Catalog& presetCatalog();

/// One pod of `racks` racks of `nodesPerRack` nodes of `nodeType`, team "t", horizon 1 day,
/// samples every 60 s, FIFO + pack + EASY backfill.
Scenario smallFleet(int racks, int nodesPerRack, const std::string& nodeType = "n4");

/// Copies the catalog entries a hand-built scenario uses into it (what the loader does).
void resolveHardware(Scenario& s, const Catalog& catalog = testCatalog());

/// A job class of team "t": Poisson arrivals, a fixed GPU count and duration.
JobClassDef jobClass(const std::string& name, int gpus, double ratePerHour, double durationS);

/// An explicit job of team "t".
JobDef job(const std::string& name, int gpus, double durationS, double submitS = 0,
           int gpusPerPod = 0);

/// The InputError `read` throws (fails the test when it throws none): a refusal's file,
/// place and message, for tests of bad input.
InputError inputErrorOf(const std::function<void()>& read);

/// What `read` is refused with ("file: place: message"), or "accepted": for CHECK_THAT on a
/// message, which then shows what was (or was not) refused.
std::string errorOf(const std::function<void()>& read);

/// Runs with invariant checks after every event.
Results run(const Scenario& s);

/// Index of the job with this explicit name.
std::uint32_t jobIndex(const Results& r, const std::string& name);

/// A path in the temp folder that no other test process uses (ctest runs test cases in
/// parallel processes; a fixed name lets one case overwrite another's files).
std::filesystem::path scratchPath(const std::string& name);

using Rows = std::vector<std::vector<std::string>>;
/// RFC 4180, strictly: records end in CRLF or LF; a field holding a comma, quote, CR or LF
/// is quoted, its quotes doubled. A quote, CR or LF in an unquoted field is an error, as
/// is anything after a closing quote but a comma or the record's end.
Rows parseCsv(const std::string& text);

/// One job's jobs.csv row (writeResultsCsv), by column name.
std::map<std::string, std::string> jobsCsvRow(const Results& r, std::uint32_t job);

/// The cost tests' book: the test GPU "tg" at $2.00 reserved, $5.00 on demand, $1.50 spot,
/// per GPU-hour.
PricingDef tgPrices();

/// The job's bindings, in bind order.
std::vector<const RunSegment*> segmentsOf(const Results& r, std::uint32_t job);

/// The run's node changes with this cause, in time order.
std::vector<NodeStateChange> nodeChangesBy(const Results& r, NodeChangeCause cause);

}  // namespace gpuplan::test
