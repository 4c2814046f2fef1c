// libFuzzer target: bytes → a sweep file (parseSweepSpec, as if in tests/data/sweeps, so the
// seeds' "../valid-*.json" name the test scenarios) → the scenario at a few points
// (scenarioAtPoint) → for a small sweep whose points are cheap: every run on one thread, the
// runs.csv round trip, summary.csv, two shards merged into the very bytes of the whole, and
// "find"'s bisection.
// Expected outcome for bad bytes: an InputError (the sweep file, its scenario, or a point the
// scenario cannot hold, each with the file and the place). Anything else that escapes, a
// round trip that changes a number, or shards that merge into other bytes, is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "checkout_paths.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace {

using gpuplan::Scenario;
using gpuplan::SweepRun;
using gpuplan::SweepSpec;

/// fuzz_scenario's budget per run, and few runs: a sweep input stays well under a second.
gpuplan::RunBudget fuzzBudget() {
    gpuplan::RunBudget b;
    b.memoryBytes = 256.0 * (1 << 20);
    b.workOps = 2e6;
    return b;
}
constexpr std::size_t kMaxRuns = 6;

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_sweep: %s: %s\n", what, detail.c_str());
    std::abort();
}

/// Bitwise equal numbers (NaN equals NaN): what runs.csv must give back.
bool sameNumber(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

bool sameRuns(const std::vector<SweepRun>& a, const std::vector<SweepRun>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].run != b[i].run || a[i].point != b[i].point ||
            a[i].replication != b[i].replication || a[i].seed != b[i].seed)
            return false;
        // Read back, a run has every column of the header: compare by name.
        for (const auto& [name, value] : a[i].kpis) {
            bool found = false;
            for (const auto& [otherName, otherValue] : b[i].kpis)
                if (otherName == name) found = sameNumber(value, otherValue);
            if (!found) return false;
        }
    }
    return true;
}

gpuplan::SweepOptions oneThread(gpuplan::Shard shard = {}) {
    gpuplan::SweepOptions o;
    o.threads = 1;
    o.shard = shard;
    o.run.checkInvariants = false;
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    SweepSpec spec;
    try {
        spec = gpuplan::parseSweepSpec(text, "fuzz-sweep.json",
                                       (gpuplan::checkout::testDataDir() / "sweeps").string());
    } catch (const gpuplan::InputError&) {
        return 0;  // refused with a file, a place and a reason
    }
    if (text.find('\0') != std::string_view::npos)
        finding("a sweep with a NUL byte was accepted", std::string(text.substr(0, 200)));
    if (spec.points.empty() || spec.pointers.empty() || spec.runCount() > 100'000)
        finding("an accepted sweep has no point, no parameter or too many runs",
                std::to_string(spec.runCount()));

    const gpuplan::LoadOptions options;  // the real budget, as gpuplan-cli sweep reads
    std::string scenarioText;
    try {
        scenarioText = gpuplan::sweepScenarioText(spec);
    } catch (const gpuplan::InputError& e) {
        if (std::string(e.what()).rfind("fuzz-sweep.json: /scenario: ", 0) != 0)
            finding("an unreadable scenario is not reported at the sweep's key", e.what());
        return 0;
    }
    // Every point when the sweep is small, else the first, the middle and the last: each is
    // read as gpuplan-cli sweep reads it before any run (a value the scenario cannot hold is
    // refused there).
    const std::size_t n = spec.points.size();
    std::vector<std::size_t> points;
    if (n <= kMaxRuns)
        for (std::size_t p = 0; p < n; ++p)
            points.push_back(p);
    else
        points = {0, n / 2, n - 1};
    bool cheap = spec.runCount() <= kMaxRuns;
    for (std::size_t p : points) {
        try {
            const Scenario s = gpuplan::scenarioAtPoint(spec, scenarioText, p, catalog(), options);
            cheap =
                cheap && gpuplan::budgetExcess(
                             gpuplan::estimateRunCost(s, gpuplan::Fleet::build(s)), fuzzBudget())
                             .empty();
        } catch (const gpuplan::InputError&) {
            return 0;
        }
    }
    if (!cheap) return 0;

    // Every point read: the runs must go (any exception from here is a finding).
    const std::vector<SweepRun> runs = gpuplan::runSweep(spec, catalog(), options, oneThread());
    if (runs.size() != spec.runCount())
        finding("a sweep ran another number of runs", std::to_string(runs.size()));
    const std::string csv = gpuplan::sweepRunsCsv(spec, runs);
    const std::vector<SweepRun> back = gpuplan::parseSweepRunsCsv(csv, "runs.csv", spec);
    if (!sameRuns(runs, back)) finding("runs.csv reads back different", csv);
    (void)gpuplan::sweepSummaryCsv(spec, runs);
    // Two shards, merged, are one machine's bytes.
    std::vector<std::vector<SweepRun>> shards;
    for (int k = 1; k <= 2; ++k)
        shards.push_back(gpuplan::parseSweepRunsCsv(
            gpuplan::sweepRunsCsv(spec,
                                  gpuplan::runSweep(spec, catalog(), options, oneThread({k, 2}))),
            "shard.csv", spec));
    const std::string merged =
        gpuplan::sweepRunsCsv(spec, gpuplan::mergeSweepRuns(spec, std::move(shards)));
    if (merged != csv) finding("shards merge into other bytes", merged + "\n---\n" + csv);
    if (spec.findKpi) {
        try {
            (void)gpuplan::findSmallest(spec, catalog(), options, oneThread());
        } catch (const gpuplan::InputError& e) {
            // A KPI no run reports is only known once a point has run.
            if (std::string(e.what()).rfind("fuzz-sweep.json: /find/kpi: ", 0) != 0) throw;
        }
    }
    return 0;
}
