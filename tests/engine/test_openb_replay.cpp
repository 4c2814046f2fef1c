// The openb trace replayed in time: TraceFormat::Openb (engine/src/import/openb_replay.cpp) and a
// fleet from an openb node list (Scenario::nodeList).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

using test::errorOf;

namespace {

fs::path openbData() {
    return test::testDataDir() / "openb";
}

/// The node a job's last binding went to.
std::uint32_t nodeOf(const Results& r, std::size_t job) {
    const RunSegment& seg = r.segments[r.jobs[job].lastSegment];
    return r.placements[seg.placementBegin].node;
}

}  // namespace

TEST_CASE("an openb pod list replayed in time: one job per GPU pod, with the row's resources") {
    // tests/data/openb/replay-pods.csv, five pods (creation, deletion, scheduled):
    //   r-0  1 × 1000, P100,      LS,        100, 3700, 160 → runs 3700 − 160 = 3540 s
    //   r-1  1 × 470,  P100|G2,   BE,         50,  650,  50 → 600 s
    //   r-2  8 × 1000, G2,        LS,        300, 7500, 300 → 7200 s
    //   r-3  CPU-only (num_gpu 0)                          → left out, counted
    //   r-4  1 × 320,  any model, Burstable, 700, 1300, —  → never scheduled: 1300 − 700 = 600 s
    // Jobs by creation time: r-1 (50), r-0 (100), r-2 (300), r-4 (700).
    const auto t = readOpenbTrace(openbData() / "replay-pods.csv");
    REQUIRE(t->jobs.size() == 4);
    CHECK(t->rowsArePods);
    // Teams in order of first appearance in the file, CPU-only pods not counted: LS (r-0),
    // BE (r-1), Burstable (r-4). GPU models likewise: P100 (r-0), G2 (r-1).
    CHECK(t->teams == std::vector<std::string>{"LS", "BE", "Burstable"});
    CHECK(t->gpuModels == std::vector<std::string>{"P100", "G2"});
    CHECK(t->gpuModelFirstPod == std::vector<std::string>{"r-0", "r-1"});

    const TraceJob& r1 = t->jobs[0];
    CHECK(r1.submitS == 50);
    CHECK(r1.durationS == 600);
    CHECK(r1.gpus == 1);
    CHECK(r1.gpuMilli == 470);
    CHECK(r1.cpuMilliPerPod == 2000);
    CHECK(r1.memoryMiBPerPod == 4096);
    CHECK(r1.team == 1);
    CHECK(r1.allowedGpuModels == 0b11);  // P100 (bit 0) and G2 (bit 1)

    const TraceJob& r0 = t->jobs[1];
    CHECK(r0.submitS == 100);
    CHECK(r0.durationS == 3540);
    CHECK(r0.gpuMilli == 1000);
    CHECK(r0.team == 0);
    CHECK(r0.allowedGpuModels == 0b01);

    const TraceJob& r2 = t->jobs[2];
    CHECK(r2.submitS == 300);
    CHECK(r2.durationS == 7200);
    CHECK(r2.gpus == 8);
    CHECK(r2.cpuMilliPerPod == 88000);
    CHECK(r2.memoryMiBPerPod == 327680);
    CHECK(r2.allowedGpuModels == 0b10);

    const TraceJob& r4 = t->jobs[3];
    CHECK(r4.submitS == 700);
    CHECK(r4.durationS == 600);
    CHECK(r4.gpuMilli == 320);
    CHECK(r4.team == 2);
    CHECK(r4.allowedGpuModels == 0);

    CHECK(t->rows.cpuOnly == 1);
    CHECK(t->rows.neverScheduled == 1);
    CHECK(t->rows.severalModels == 1);
    CHECK(t->rows.noTimes == 0);
    CHECK(describeTraceRows(*t) ==
          "4 GPU pods replayed (1 never scheduled: from creation to deletion; 1 allowing several "
          "GPU models: kept to the one with the most GPUs); left out: 1 CPU-only pods");
}

TEST_CASE("an openb replay refuses malformed rows with the line, and counts what it leaves out") {
    const std::string header =
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
        "deletion_time,scheduled_time\n";
    // Line 3 (the header is line 1): deleted at 60, scheduled at 70.
    const fs::path bad =
        test::testDataDir() / "malformed" / "openb-pods-deleted-before-scheduled.csv";
    CHECK(errorOf([&] { readOpenbTrace(bad); }) ==
          bad.string() + ": line 3: deletion_time 60 is before scheduled_time 70");
    CHECK(errorOf([&] {
              parseOpenbTrace(header + "p0,1000,1024,1,1000,,LS,Running,50,60,40\n", "p.csv");
          }) == "p.csv: line 2: scheduled_time 40 is before creation_time 50");
    CHECK(errorOf([&] {
              parseOpenbTrace(header + "p0,1000,1024,1,abc,,LS,Running,50,60,50\n", "p.csv");
          }) == "p.csv: line 2: gpu_milli \"abc\" is not a whole number");
    // A pod without a deletion time cannot be replayed: left out and counted; one with both
    // times is kept. A list with nothing to replay (the five-column variants) is refused:
    // pods-five-columns.csv has GPU pods pod-a and pod-b (no time columns) and CPU-only pod-c.
    const auto t = parseOpenbTrace(header + "p0,1000,1024,1,1000,,LS,Running,50,,50\n" +
                                       "p1,1000,1024,2,1000,,LS,Running,60,70,60\n",
                                   "p.csv");
    CHECK(t->jobs.size() == 1);
    CHECK(t->rows.noTimes == 1);
    CHECK(errorOf([&] { readOpenbTrace(openbData() / "pods-five-columns.csv"); }) ==
          (openbData() / "pods-five-columns.csv").string() +
              ": line 1: no GPU pod with a creation_time and a deletion_time to replay (1 "
              "CPU-only, 2 without times; the five-column lists serve only the fill study)");
}

TEST_CASE("a scenario naming a pod list with nothing to replay is refused with that file") {
    // The error is the pod list's (its file and line), not the scenario's: the file is wrong.
    const fs::path scenario = test::testDataDir() / "malformed" / "openb-trace-no-times.json";
    const std::string pods =
        (test::testDataDir() / "malformed" / ".." / "openb" / "pods-five-columns.csv").string();
    CHECK(errorOf([&] { loadScenario(scenario, test::testCatalog()); }) ==
          pods +
              ": line 1: no GPU pod with a creation_time and a deletion_time to replay (1 "
              "CPU-only, 2 without times; the five-column lists serve only the fill study)");
}

TEST_CASE("an openb node list is a fleet; the pod list replays on it as the trace says") {
    const Scenario s = loadScenario(openbData() / "replay.json", test::testCatalog());
    REQUIRE(s.nodeList);
    // nodes-small.csv: a CPU-only node (left out), n-p100-0 (2 × P100, 64 vCPU) and n-g2-0
    // (8 × G2, 96 vCPU): the fleet's nodes 0 and 1, GPU models P100 and G2.
    const Results r = test::run(s);
    REQUIRE(r.fleet.nodes.size() == 2);
    CHECK(r.fleet.nodes[0].name == "n-p100-0");
    CHECK(r.fleet.nodes[1].name == "n-g2-0");
    CHECK(r.fleet.totalGpus == 10);
    CHECK(r.teams == std::vector<std::string>{"qos-LS", "qos-BE", "qos-Burstable"});
    REQUIRE(r.jobs.size() == 4);
    // r-1 (t 50, 470 milli-GPU, P100|G2) is kept to G2, the allowed model with the most GPUs
    // (8 against 2): a share of one of n-g2-0's GPUs until 50 + 600 = 650.
    CHECK(r.jobs[0].spec.gpuMilli == 470);
    CHECK(r.jobs[0].firstStartS == 50);
    CHECK(nodeOf(r, 0) == 1);
    // r-0 (t 100, a whole P100) on n-p100-0 until 100 + 3540 = 3640.
    CHECK(r.jobs[1].firstStartS == 100);
    CHECK(r.jobs[1].endS == 3640);
    CHECK(nodeOf(r, 1) == 0);
    // r-2 (t 300, 8 whole G2 in one pod): n-g2-0 has 7 whole GPUs while r-1's share holds
    // the eighth (a GPU holding a share serves no whole pod), so it waits until 650 and runs
    // to 650 + 7200 = 7850.
    CHECK(r.jobs[2].spec.gpusPerPod == 8);
    CHECK(r.jobs[2].firstStartS == 650);
    CHECK(r.jobs[2].waitS() == 350);
    CHECK(r.jobs[2].endS == 7850);
    // r-4 (t 700, 320 milli-GPU, any model): n-g2-0 is full, n-p100-0's second GPU is free;
    // it runs from 700 to 700 + 600 = 1300.
    CHECK(r.jobs[3].firstStartS == 700);
    CHECK(nodeOf(r, 3) == 0);
    // At t = 1000: r-2's 8 GPUs + r-0's 1 + r-4's 0.32 = 9.32 of 10 GPUs allocated.
    const Series* allocation = r.findSeries("allocation");
    REQUIRE(allocation);
    CHECK(allocation->values[10] == Approx(0.932));
}

TEST_CASE("a node-list scenario writes back as it was read and validates without its files") {
    const Scenario s = loadScenario(openbData() / "replay.json", test::testCatalog());
    const std::string json = scenarioToJson(s);
    CHECK_THAT(json, Catch::Contains("\"nodeList\": {\n      \"format\": \"openb\",\n      "
                                     "\"file\": \"nodes-small.csv\""));
    CHECK(parseScenario(json, "again.json", test::testCatalog(), {}, openbData()) == s);
    // validateScenario re-reads the written text with no folder to find files in: the node
    // list it needs comes with the scenario.
    CHECK_NOTHROW(validateScenario(s, test::testCatalog()));
    // Saved elsewhere, the file names point back at the same files.
    const Scenario moved = rebaseTraces(s, openbData() / "sub", {});
    CHECK(moved.nodeList->file == "../nodes-small.csv");
    CHECK(moved.traces[0].file == "../replay-pods.csv");
    CHECK_NOTHROW(validateScenario(moved, test::testCatalog()));
}

TEST_CASE("the openb preset replays the default pod list on the 1,213 GPU nodes") {
    const fs::path data = test::presetDataDir() / "openb";
    REQUIRE(fs::exists(data / "openb_node_list_gpu_node.csv"));
    REQUIRE(fs::exists(data / "openb_pod_list_default.csv"));
    LoadOptions o;
    o.dataDirs = {test::presetDataDir()};
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    const Scenario s = loadScenario(test::presetsDir() / "scenarios" / "openb.json", catalog, o);
    CHECK(s.name == "openb — Alibaba, 1,213 nodes / 6,212 GPUs");
    const Fleet fleet = Fleet::build(s);
    // presets/data/openb/SOURCE.md: 1,213 GPU nodes, 6,212 GPUs.
    CHECK(fleet.nodes.size() == 1213);
    CHECK(fleet.totalGpus == 6212);
    // Racks of 32 nodes in list order: 37 full racks and one of 1,213 − 37 × 32 = 29.
    REQUIRE(fleet.racks.size() == 38);
    CHECK(fleet.racks.back().nodeCount == 29);
    CHECK(fleet.racks.back().name == "pod-rack37");
    CHECK(fleet.nodes[32].rack == 1);
    // SOURCE.md's default mix: 1,088 CPU-only pods; 6,989 + 16 + 15 + 44 = 7,064 GPU pods.
    const TraceData& t = *s.traces.at(0).data;
    CHECK(t.rows.cpuOnly == 1088);
    CHECK(t.jobs.size() == 7064);
    CHECK(t.teams.size() == 4);  // LS, BE, Burstable, Guaranteed
    // The horizon covers the whole trace: creations span 0 … 12,901,761 s (SOURCE.md).
    CHECK(s.horizonS >= 12'901'761);
}
