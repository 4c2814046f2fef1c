#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {
Scenario preset(const std::string& name) {
    static const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    LoadOptions o;
    o.dataDirs = {test::presetDataDir()};
    return loadScenario(test::presetsDir() / "scenarios" / name, catalog, o);
}
}  // namespace

TEST_CASE("the default preset: 256 H100 for a week, every GPU accounted for") {
    const Scenario s = preset("default.json");
    const Results r = test::run(s);  // invariants checked after every instant
    CHECK(r.fleet.totalGpus == 256);
    CHECK(r.sampleTimesS.size() == 1008);  // 7 days at 600 s
    CHECK(r.kpi("allocation_mean") > 0.4);
    CHECK(r.kpi("allocation_mean") < 0.95);
    CHECK(r.kpi("occupancy_mean") < r.kpi("allocation_mean"));
    CHECK(r.kpi("mfu_mean") < r.kpi("occupancy_mean"));
    // The full fine-tune asks 96 GB per GPU of an 80 GB H100: it crash-loops and fails.
    const JobRecord& oom = r.jobs[test::jobIndex(r, "llama-70b-full-ft")];
    CHECK(oom.status == JobStatus::Failed);
    bool blamedOnWorkload = false;
    for (const PendingEntry& e : r.pending)
        blamedOnWorkload |=
            e.job == test::jobIndex(r, "llama-70b-full-ft") && e.layer == Layer::Workload;
    CHECK(blamedOnWorkload);
    // Rack pod-b-rack3 arrives on day 2: provisioned GPUs step from 224 to 256.
    const Series* provisioned = r.findSeries("provisioned_gpus");
    CHECK(provisioned->values.front() == 224);
    CHECK(provisioned->values.back() == 256);
}

TEST_CASE("golden fingerprints of the presets") {
    // A regression net, not a derivation: any change to the event sequence of a preset, or to
    // where its jobs run, changes its fingerprint. When a change is intended, update
    // tests/golden/fingerprints.txt in the same commit and say why.
    std::ifstream in(test::testDataDir() / ".." / "golden" / "fingerprints.txt");
    REQUIRE(in);
    std::map<std::string, std::string> golden;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name, fingerprint;
        fields >> name >> fingerprint;
        golden[name] = fingerprint;
    }
    // Every preset has its line, so a new preset cannot slip past the net.
    std::set<std::string> presets;
    for (const auto& entry : std::filesystem::directory_iterator(test::presetsDir() / "scenarios"))
        if (entry.path().extension() == ".json") presets.insert(entry.path().filename().string());
    CHECK(presets.size() >= 4);
    for (const std::string& name : presets) {
        INFO(name);
        REQUIRE(golden.count(name) == 1);
        RunOptions o;
        o.checkInvariants = false;
        CHECK(simulate(preset(name), o).fingerprintHex() == golden[name]);
    }
    CHECK(golden.size() == presets.size());
}

TEST_CASE("Philly replay on 2,048 GPUs allocates exactly the trace's GPU time") {
    const Scenario s = preset("philly-2048.json");
    RunOptions o;
    o.checkInvariants = false;
    const Results r = simulate(s, o);
    CHECK(r.fleet.totalGpus == 2048);
    CHECK(r.jobs.size() == 82247);
    // At ~18 % load no job waits, so every job runs from its submit time for its duration
    // (cut at the horizon): allocated GPU-seconds = Σ gpus · (min(submit + duration, H) − submit).
    REQUIRE(r.kpi("wait_s_p99") == 0);
    double gpuSeconds = 0;
    for (const TraceJob& j : s.traces[0].data->jobs)
        gpuSeconds +=
            j.gpus * (std::min(j.submitS + std::max(1.0, j.durationS), s.horizonS) - j.submitS);
    CHECK(r.kpi("gpu_hours_allocated") == Approx(gpuSeconds / 3600).epsilon(1e-9));
    CHECK(r.teams.size() == 15);
    CHECK(r.teams[0].rfind("vc-", 0) == 0);
}
