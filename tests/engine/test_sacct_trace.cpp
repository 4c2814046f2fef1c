// A Slurm accounting export (`sacct --parsable2 --allocations`) replayed as a trace:
// TraceFormat::Sacct, engine/src/import/slurm_sacct.cpp.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

using test::errorOf;

namespace {

std::filesystem::path slurmData() {
    return test::testDataDir() / "slurm";
}

const std::string kHeader =
    "JobID|Account|Partition|Submit|Start|End|State|AllocTRES|ReqTRES|TimelimitRaw\n";
/// A good job on line 2 (t = 0, 1 GPU, 60 s), so a bad line 3 is not the first job.
const std::string kGoodJob =
    "1|a|gpu|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T08:01:00|COMPLETED|"
    "gres/gpu=1||60\n";

std::string lineThreeError(const std::string& third) {
    return errorOf([&] { parseSacct(kHeader + kGoodJob + third + "\n", "s.txt"); });
}

}  // namespace

TEST_CASE("sacct: finished, running and pending jobs, array tasks, steps", "[slurm]") {
    // tests/data/slurm/sacct.txt; columns in their own order, JobName and NNodes ignored.
    // 2026-10-01 is day 20,727 since 1970: 08:00:00 is 20,727 × 86,400 + 8 × 3,600 =
    // 1,790,841,600 s. Kept jobs' earliest Submit is 100's, 08:00:00: t = 0 (102, a CPU-only
    // job at 06:10, and 103, cancelled before it started at 07:00, are not kept). The export
    // time is the latest timestamp, 108's Submit at 14:00:00 = 21,600 s after t = 0.
    //   100        COMPLETED 8 GPUs vision  submit 0      run 10:05 − 08:05 = 7,200 s
    //   100.batch  a step: left out
    //   101        CANCELLED by 1000, 2 GPUs (gres/gpu:h100=2, no untyped count) nlp
    //                                       submit 1,800  run 09:20 − 09:00 = 1,200 s
    //   102        CPU-only: left out
    //   103        CANCELLED, Start None: left out (it never ran)
    //   104_1      COMPLETED 1 GPU vision  submit 3,600  run 09:45:30 − 09:00 = 2,730 s
    //   104_2      FAILED                  submit 3,600  run 09:11:40 − 09:10 = 100 s
    //   104_[3-5,7%2] PENDING: tasks 3, 4, 5, 7 = 4 jobs of 1 GPU (ReqTRES), submit 3,600,
    //                 run their limit 60 min = 3,600 s
    //   105        RUNNING, no Account (team unknown), UNLIMITED: 4 GPUs, submit 7,200,
    //              runs to the horizon (InputLimits::maxHorizonS)
    //   106        RUNNING 16 GPUs vision, limit 120 min = 7,200 s but has run 14:00 − 11:30
    //              = 9,000 s: submit 10,800, run 9,000 s
    //   107        RUNNING 8 GPUs nlp, limit 600 min = 36,000 s ≥ 14:00 − 13:00 = 3,600 s run:
    //              submit 14,400, run 36,000 s
    //   108+0      PENDING 2 GPUs nlp, Partition_Limit: submit 21,600, to the horizon
    //   108+1      PENDING 1 GPU nlp, 30 min: submit 21,600, run 1,800 s
    const SacctTrace t = parseSacct(readTextFile(slurmData() / "sacct.txt"), "sacct.txt");
    CHECK(t.firstSubmitEpochS == 1'790'841'600);
    CHECK(t.exportEpochS == 1'790'841'600 + 21'600);
    const TraceData& d = *t.data;
    CHECK(d.format == TraceFormat::Sacct);
    CHECK_FALSE(d.rowsArePods);
    CHECK(d.teams == std::vector<std::string>{"vision", "nlp", "unknown"});
    REQUIRE(d.jobs.size() == 13);
    struct Expected {
        double submitS, durationS;
        int gpus, team;
    };
    const double toHorizon = InputLimits::maxHorizonS;
    const Expected expected[] = {
        {0, 7200, 8, 0},      {1800, 1200, 2, 1},   {3600, 2730, 1, 0},
        {3600, 100, 1, 0},    {3600, 3600, 1, 0},   {3600, 3600, 1, 0},
        {3600, 3600, 1, 0},   {3600, 3600, 1, 0},   {7200, toHorizon, 4, 2},
        {10800, 9000, 16, 0}, {14400, 36000, 8, 1}, {21600, toHorizon, 2, 1},
        {21600, 1800, 1, 1}};
    for (std::size_t i = 0; i < d.jobs.size(); ++i) {
        INFO("job " << i);
        CHECK(d.jobs[i].submitS == expected[i].submitS);
        CHECK(d.jobs[i].durationS == expected[i].durationS);
        CHECK(d.jobs[i].gpus == expected[i].gpus);
        CHECK(d.jobs[i].team == expected[i].team);
    }
    const TraceRowCounts& c = d.rows;
    CHECK(c.finished == 4);              // 100, 101, 104_1, 104_2
    CHECK(c.running == 3);               // 105, 106, 107
    CHECK(c.pending == 6);               // four tasks of 104, 108+0, 108+1
    CHECK(c.arrayTasks == 6);            // 104_1, 104_2 and the four pending
    CHECK(c.unlimitedLimits == 2);       // 105 UNLIMITED, 108+0 Partition_Limit
    CHECK(c.noAccount == 1);             // 105
    CHECK(c.cpuOnly == 1);               // 102
    CHECK(c.cancelledBeforeStart == 1);  // 103
    CHECK(c.steps == 1);                 // 100.batch
    CHECK(describeTraceRows(d) ==
          "13 GPU jobs replayed (4 finished; 3 running at the export, for their time limit; 6 "
          "pending at the export, for their time limit; 2 without a time limit: to the end of "
          "the horizon; 6 array tasks; 1 without an account: team unknown); left out: 1 "
          "CPU-only job, 1 job cancelled before starting, 1 job step");
}

TEST_CASE("sacct: a scenario replays the export", "[slurm]") {
    // sacct-replay.json: three n8 nodes (24 GPUs of the test catalog), horizon 1 day.
    const Scenario s = loadScenario(slurmData() / "sacct-replay.json", test::testCatalog());
    REQUIRE(s.traces.size() == 1);
    CHECK(s.traces[0].format == TraceFormat::Sacct);
    const Results r = test::run(s);
    CHECK(r.teams == std::vector<std::string>{"vision", "nlp", "unknown"});
    REQUIRE(r.jobs.size() == 13);
    // 100: 8 GPUs at t = 0 on an empty fleet, ends at 7,200.
    CHECK(r.jobs[0].firstStartS == 0);
    CHECK(r.jobs[0].endS == 7200);
    // 105 (no time limit) holds its 4 GPUs to the end of the day.
    CHECK(r.jobs[8].firstStartS >= 7200);
    CHECK(r.jobs[8].endS == -1);
    // Written and read back the same.
    CHECK_THAT(scenarioToJson(s), Catch::Contains("\"format\": \"sacct\""));
    CHECK(parseScenario(scenarioToJson(s), "again.json", test::testCatalog(), {}, slurmData()) ==
          s);
}

TEST_CASE("sacct: --parsable's trailing bars, CRLF and blank lines", "[slurm]") {
    const SacctTrace t = parseSacct(
        "JobID|Account|Partition|Submit|Start|End|State|ReqTRES|TimelimitRaw|\r\n"
        "\r\n"
        "7|a|gpu|2026-10-01T08:00:00|2026-10-01T08:00:10|2026-10-01T08:01:00|TIMEOUT|"
        "gres/gpu:a100=2,gres/gpu:h100=1|1|\r\n",
        "s.txt");
    REQUIRE(t.data->jobs.size() == 1);
    // No AllocTRES column: ReqTRES; typed counts summed, 2 + 1 = 3. 08:01:00 − 08:00:10 = 50 s.
    CHECK(t.data->jobs[0].gpus == 3);
    CHECK(t.data->jobs[0].durationS == 50);
}

TEST_CASE("sacct: malformed exports fail with the line and what is wrong", "[slurm]") {
    const std::string times = "|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T09:00:00|";
    CHECK_THAT(errorOf([] { parseSacct("", "s.txt"); }),
               Catch::StartsWith("s.txt: line 1: empty file"));
    CHECK_THAT(errorOf([] {
                   parseSacct("JobID|Account|Partition|Submit|Start|End|State|AllocTRES\n",
                              "s.txt");
               }),
               Catch::StartsWith("s.txt: line 1: no TimelimitRaw column in the header"));
    CHECK_THAT(errorOf([] {
                   parseSacct("JobID|Account|Partition|Submit|Start|End|State|TimelimitRaw\n",
                              "s.txt");
               }),
               Catch::StartsWith("s.txt: line 1: no AllocTRES or ReqTRES column"));
    CHECK_THAT(errorOf([] { parseSacct(kGoodJob, "s.txt"); }),
               Catch::StartsWith("s.txt: line 1: the first line \"1|a|gpu|") &&
                   Catch::Contains("is not sacct's header: no JobID, Account, … column "
                                   "(exported with --noheader"));
    CHECK_THAT(errorOf([] { parseSacct("JobID|jobid\n", "s.txt"); }),
               Catch::StartsWith("s.txt: line 1: column JobID appears twice"));
    CHECK_THAT(lineThreeError("2|a|gpu"),
               Catch::StartsWith("s.txt: line 3: expected 10 '|'-separated fields, as the "
                                 "header, got 3"));
    CHECK_THAT(lineThreeError("2|a|gpu|2026-10-01 08:00:00|None|None|PENDING||gres/gpu=1|60"),
               Catch::StartsWith("s.txt: line 3: bad Submit time \"2026-10-01 08:00:00\""));
    CHECK_THAT(lineThreeError("2|a|gpu|2026-13-01T08:00:00|None|None|PENDING||gres/gpu=1|60"),
               Catch::StartsWith("s.txt: line 3: bad Submit time"));
    CHECK_THAT(lineThreeError("2|a|gpu|Unknown|None|None|PENDING||gres/gpu=1|60"),
               Catch::StartsWith("s.txt: line 3: job \"2\" has no Submit time"));
    CHECK_THAT(lineThreeError("2|a|gpu" + times + "EXPLODED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: unknown job state \"EXPLODED\""));
    CHECK_THAT(lineThreeError("abc|a|gpu" + times + "COMPLETED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: bad JobID \"abc\""));
    CHECK_THAT(lineThreeError("2_x|a|gpu" + times + "COMPLETED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: bad JobID \"2_x\""));
    CHECK_THAT(lineThreeError("2_[0-99999999]|a|gpu|2026-10-01T08:00:00|None|None|PENDING||"
                              "gres/gpu=1|60"),
               Catch::StartsWith("s.txt: line 3: bad array JobID \"2_[0-99999999]\": more than "
                                 "100000 tasks in one record"));
    CHECK_THAT(lineThreeError("2_[9-3]|a|gpu|2026-10-01T08:00:00|None|None|PENDING||"
                              "gres/gpu=1|60"),
               Catch::Contains("line 3: bad array JobID \"2_[9-3]\": a range ends before it "
                               "starts"));
    // Many small ranges add up too: 2 × 60,000 tasks.
    CHECK_THAT(lineThreeError("2_[0-59999,100000-159999]|a|gpu|2026-10-01T08:00:00|None|None|"
                              "PENDING||gres/gpu=1|60"),
               Catch::Contains("line 3: bad array JobID"));
    CHECK_THAT(lineThreeError("2|a|gpu|2026-10-01T09:00:00|2026-10-01T09:00:00|"
                              "2026-10-01T08:00:00|COMPLETED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: job \"2\" ends before it starts"));
    CHECK_THAT(lineThreeError("2|a|gpu|2026-10-01T09:00:00|2026-10-01T09:00:00|Unknown|"
                              "COMPLETED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: job \"2\" ended (COMPLETED) but its End is "
                                 "Unknown"));
    CHECK_THAT(lineThreeError("2|a|gpu|2026-10-01T09:00:00|Unknown|Unknown|RUNNING|"
                              "gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: running job \"2\" has no Start time"));
    CHECK_THAT(lineThreeError("2|a|gpu" + times + "COMPLETED|gres/gpu=1||1-00:00:00"),
               Catch::StartsWith("s.txt: line 3: bad TimelimitRaw \"1-00:00:00\""));
    CHECK_THAT(lineThreeError("2|a|gpu" + times + "COMPLETED|gres/gpu=x||60"),
               Catch::StartsWith("s.txt: line 3: AllocTRES \"gres/gpu=x\": GPUs must be a whole "
                                 "number"));
    CHECK_THAT(lineThreeError("2|a|gpu" + times + "COMPLETED|gres/gpu=1,gres/gpu=2||60"),
               Catch::StartsWith("s.txt: line 3: AllocTRES names gres/gpu twice"));
    CHECK_THAT(lineThreeError("2|a|gpu" + times + "COMPLETED|cpu,gres/gpu=2||60"),
               Catch::StartsWith("s.txt: line 3: AllocTRES entry \"cpu\" is not KEY=VALUE"));
    CHECK_THAT(lineThreeError("2|a b|gpu" + times + "COMPLETED|gres/gpu=1||60"),
               Catch::StartsWith("s.txt: line 3: Account \"a b\""));
    CHECK_THAT(
        lineThreeError("2|a|gpu" + times + "COMPLETED|gres/gpu=1||60" + std::string(70'000, ' ')),
        Catch::StartsWith("s.txt: line 3: line longer than 65536 bytes"));
    CHECK_THAT(lineThreeError(std::string(300, '|')),
               Catch::StartsWith("s.txt: line 3: more than 256 fields"));
    CHECK_THAT(errorOf([] {
                   parseSacct(kHeader +
                                  "1|a|cpu|2026-10-01T08:00:00|2026-10-01T08:00:00|"
                                  "2026-10-01T08:01:00|COMPLETED|cpu=4||60\n",
                              "s.txt");
               }),
               Catch::StartsWith("s.txt: line 2: no GPU job to replay (1 CPU-only, 0 cancelled "
                                 "before they started, 0 job steps)"));
}

TEST_CASE("sacct: a scenario names a malformed export's file and line", "[slurm]") {
    const std::string scenario =
        "{\"format\": \"gpuplan-scenario\", \"formatVersion\": 1, \"name\": \"x\", "
        "\"horizonS\": 3600, \"topology\": {\"pods\": [{\"name\": \"p\", \"racks\": [{\"name\": "
        "\"r\", \"nodes\": [{\"name\": \"n\", \"nodeType\": \"n8\"}]}]}]}, \"teams\": [], "
        "\"traces\": [{\"format\": \"sacct\", \"file\": \"nodes.txt\"}]}";
    // nodes.txt is no accounting export: its first line has no sacct columns.
    CHECK_THAT(
        errorOf([&] { parseScenario(scenario, "s.json", test::testCatalog(), {}, slurmData()); }),
        Catch::Contains("nodes.txt: line 1: the first line \"NodeName=gpu01") &&
            Catch::Contains("is not sacct's header"));
}

TEST_CASE("importSlurmFiles: nodes, topology and the export, with the horizon", "[slurm]") {
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    SlurmImportOptions options;
    options.nodes.gpuTypeModels = {{"h100", "h100-pcie"}};
    const SlurmImport s =
        importSlurmFiles(catalog, slurmData() / "nodes.txt", slurmData() / "sacct.txt",
                         slurmData() / "topology.conf", options);
    CHECK(s.fleet.nodes.size() == 6);
    CHECK(s.fleet.nodes[0].rack == "leaf1");  // gpu01, from topology.conf
    REQUIRE(s.fleet.traces.size() == 1);
    CHECK(s.fleet.traces[0].format == TraceFormat::Sacct);
    CHECK(std::filesystem::path(s.fleet.traces[0].file).is_absolute());
    CHECK(s.fleet.traces[0].data->jobs.size() == 13);
    CHECK(s.fleet.teams == std::vector<std::string>{"vision", "nlp", "unknown"});
    // First submit 08:00, export 14:00: 21,600 s + a day of 86,400 s = 108,000 s = 1.25 d.
    CHECK(s.horizonS == 108'000);
    const std::string text = s.fleet.summary.text();
    CHECK_THAT(text, Catch::Contains("13 GPU jobs from") &&
                         Catch::Contains("(4 finished, 3 running, 6 pending; 6 array tasks) of "
                                         "3 teams (accounts)") &&
                         Catch::Contains("1 CPU-only job") &&
                         Catch::Contains("1 job cancelled before starting") &&
                         Catch::Contains("horizon 1.25 d: from the first submit to the export, "
                                         "plus a day"));
    // A horizon asked for wins; without an export, 7 days.
    options.horizonS = 2 * 86400.0;
    CHECK(importSlurmFiles(catalog, slurmData() / "nodes.txt", slurmData() / "sacct.txt",
                           std::nullopt, options)
              .horizonS == 2 * 86400.0);
    options.horizonS.reset();
    CHECK(importSlurmFiles(catalog, slurmData() / "nodes.txt", std::nullopt, std::nullopt, options)
              .horizonS == 7 * 86400.0);
}

TEST_CASE("importSlurmFiles: an export longer than the longest horizon", "[slurm]") {
    // 2020-01-01 to 2026-01-01 is six years: more than 3 × 366 days, unless a horizon is set.
    const std::filesystem::path file = test::scratchPath("gpuplan-test-long-sacct.txt");
    writeFileAtomic(file, kHeader +
                              "1|a|gpu|2020-01-01T00:00:00|2020-01-01T00:00:00|"
                              "2020-01-01T01:00:00|COMPLETED|gres/gpu=1||60\n"
                              "2|a|gpu|2026-01-01T00:00:00|None|None|PENDING||gres/gpu=1|60\n");
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    SlurmImportOptions options;
    options.nodes.gpuTypeModels = {{"h100", "h100-pcie"}};
    CHECK_THAT(errorOf([&] {
                   importSlurmFiles(catalog, slurmData() / "nodes.txt", file, std::nullopt,
                                    options);
               }),
               Catch::Contains("the export spans 2192 days from its first submit"));
    options.horizonS = 86400.0;
    CHECK(importSlurmFiles(catalog, slurmData() / "nodes.txt", file, std::nullopt, options)
              .horizonS == 86400.0);
    std::filesystem::remove(file);
}

TEST_CASE("sacct: a pending job's estimated Start is not the export time", "[slurm]") {
    // The finished job ends at 09:00: the export time. The pending job's Start (the next day)
    // is the scheduler's estimate, not a time that has passed. Its run time is its limit,
    // 30 min = 1,800 s; it was submitted 08:30, 1,800 s after t = 0.
    const SacctTrace t =
        parseSacct(kHeader +
                       "1|a|gpu|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T09:00:00|"
                       "COMPLETED|gres/gpu=1||60\n"
                       "2|a|gpu|2026-10-01T08:30:00|2026-10-02T00:00:00|Unknown|PENDING||"
                       "gres/gpu=2|30\n",
                   "s.txt");
    CHECK(t.exportEpochS - t.firstSubmitEpochS == 3600);
    REQUIRE(t.data->jobs.size() == 2);
    CHECK(t.data->jobs[1].submitS == 1800);
    CHECK(t.data->jobs[1].durationS == 1800);
    CHECK(t.data->jobs[1].gpus == 2);
}

namespace {

/// A scenario of one n8 node (8 tg) and, with `big`, one big8 node (8 tg-big), replaying
/// `sacct` (written to a temporary folder) with `traceKeys` added to the trace.
struct TypedReplay {
    std::filesystem::path dir = test::scratchPath("gpuplan-test-typed");
    std::string scenario;

    TypedReplay(const std::string& sacct, bool big, const std::string& traceKeys = "") {
        std::filesystem::create_directories(dir);
        writeFileAtomic(dir / "s.txt", sacct);
        scenario = std::string(R"({"format": "gpuplan-scenario", "formatVersion": 1,
            "name": "typed", "horizonS": 86400, "topology": {"pods": [{"name": "p", "racks":
            [{"name": "r", "nodes": [{"name": "a", "nodeType": "n8"})") +
                   (big ? R"(, {"name": "b", "nodeType": "big8"})" : "") + R"(]}]}]},
            "teams": [], "traces": [{"format": "sacct", "file": "s.txt")" +
                   traceKeys + "}]}";
    }
    Scenario read() const {
        return parseScenario(scenario, "t.json", test::testCatalog(), {}, dir);
    }
    std::string error() const {
        return errorOf([&] { read(); });
    }
};

}  // namespace

TEST_CASE("sacct: a job asking a GPU type keeps to its model", "[slurm]") {
    // ReqTRES names the type the job asked; AllocTRES's type is only where it ran.
    //   P  08:00, asks gres/gpu:tg=8, 3,600 s      Q  08:00, asks gres/gpu:tg=8, 1,800 s
    //   R  08:10 (t = 600), asks 8 untyped GPUs (allocated on tg: not a request), 600 s
    // The fleet: node a (8 × tg, index 0) and node b (8 × tg-big, index 1). P takes a at t = 0.
    // Q asks tg too: b is free but the wrong model, so Q waits for a: starts 3,600, ends 5,400
    // (not on b at 0: b's model is not tg). R asks any model: b, at 600.
    const std::string sacct =
        kHeader +
        "1|a|gpu|2026-10-01T08:00:00|2026-10-01T08:00:00|2026-10-01T09:00:00|COMPLETED|"
        "gres/gpu:tg=8,gres/gpu=8|gres/gpu:tg=8,gres/gpu=8|60\n"
        "2|a|gpu|2026-10-01T08:00:00|2026-10-01T09:00:00|2026-10-01T09:30:00|COMPLETED|"
        "gres/gpu:tg=8,gres/gpu=8|gres/gpu=8,gres/gpu:tg=8|60\n"
        "3|a|gpu|2026-10-01T08:10:00|2026-10-01T08:10:00|2026-10-01T08:20:00|COMPLETED|"
        "gres/gpu:tg=8,gres/gpu=8|gres/gpu=8|60\n";
    const SacctTrace t = parseSacct(sacct, "s.txt");
    CHECK(t.data->gpuModels == std::vector<std::string>{"tg"});
    CHECK(t.data->gpuModelFirstPod == std::vector<std::string>{"line 2"});
    REQUIRE(t.data->jobs.size() == 3);
    CHECK(t.data->jobs[0].allowedGpuModels == 1);
    CHECK(t.data->jobs[1].allowedGpuModels == 1);
    CHECK(t.data->jobs[2].allowedGpuModels == 0);

    const TypedReplay replay(sacct, true);
    const Scenario s = replay.read();
    const Results r = test::run(s);
    REQUIRE(r.jobs.size() == 3);
    CHECK(r.jobs[0].firstStartS == 0);
    CHECK(r.jobs[1].firstStartS == 3600);
    CHECK(r.jobs[1].endS == 5400);
    CHECK(r.jobs[2].firstStartS == 600);
    CHECK(r.placementOf(r.segments[r.jobs[1].lastSegment])[0].node == 0);
    CHECK(r.placementOf(r.segments[r.jobs[2].lastSegment])[0].node == 1);
}

TEST_CASE("sacct: GPU types the catalog cannot tell, and models no node has", "[slurm]") {
    // "test_gpu" is the name of both test models ("test GPU"): refused with the line that first
    // asks it, until "gpuTypes" names one.
    const std::string sacct =
        kHeader + "2|a|gpu|2026-10-01T08:00:00|None|None|PENDING||gres/gpu:test_gpu=8|60\n";
    CHECK_THAT(TypedReplay(sacct, true).error(),
               Catch::StartsWith("t.json: /traces/0/file: ") &&
                   Catch::EndsWith("s.txt: line 2: GPU type \"test_gpu\" (ReqTRES) is not one "
                                   "catalog GPU model (it could be tg, tg-big); name it in "
                                   "\"gpuTypes\", e.g. {\"test_gpu\": \"MODEL\"}"));
    const TypedReplay named(sacct, true, R"(, "gpuTypes": {"test_gpu": "tg-big"})");
    const Scenario s = named.read();
    CHECK(s.traces[0].gpuTypes ==
          std::vector<std::pair<std::string, std::string>>{{"test_gpu", "tg-big"}});
    // Written and read back the same.
    CHECK_THAT(scenarioToJson(s), Catch::Contains("\"gpuTypes\""));
    CHECK(parseScenario(scenarioToJson(s), "again.json", test::testCatalog(), {}, named.dir) == s);
    // On the big node only: the job (8 GPUs) starts at 0 on node 1.
    const Results r = test::run(s);
    REQUIRE(r.jobs.size() == 1);
    CHECK(r.jobs[0].firstStartS == 0);
    CHECK(r.placementOf(r.segments[r.jobs[0].lastSegment])[0].node == 1);

    // A type naming a model no node has (no big8 here): the model joins the scenario's, and
    // the job waits on the reservation layer, as a job asking that model would.
    const Scenario small =
        TypedReplay(sacct, false, R"(, "gpuTypes": {"test_gpu": "tg-big"})").read();
    CHECK(small.findGpu("tg-big"));
    const Results waits = test::run(small);
    CHECK(waits.jobs[0].firstStartS == -1);
    REQUIRE(waits.pendingAt(3600).size() == 1);
    CHECK(waits.pendingAt(3600)[0].layer == Layer::Reservation);

    // A type nothing matches; "gpuTypes" only for sacct, naming catalog models.
    CHECK_THAT(TypedReplay(kHeader + kGoodJob +
                               "2|a|gpu|2026-10-01T08:00:00|None|None|PENDING||"
                               "gres/gpu:v100=1|60\n",
                           false)
                   .error(),
               Catch::Contains("GPU type \"v100\" (ReqTRES) matches no catalog GPU model"));
    CHECK_THAT(TypedReplay(sacct, false, R"(, "gpuTypes": {"test_gpu": "h900"})").error(),
               Catch::Contains("/traces/0/gpuTypes/test_gpu: unknown GPU model \"h900\""));
    std::filesystem::remove_all(named.dir);
}

TEST_CASE("importSlurmFiles: the jobs' GPU types by the nodes' mapping", "[slurm]") {
    // A node of nvidia_h100_80gb_hbm3 (h100-sxm by its product label) and an export whose job
    // 2 asks gres/gpu:h100=4: "h100" is three catalog models, so the import is refused with
    // the line and the candidates until --gpu-type names one; then the trace carries the
    // mapping (the scenario replays without the option) and the summary says it. Job 3 asks
    // l4, which no imported node has: said, and the model joins the scenario's.
    const std::filesystem::path dir = test::scratchPath("gpuplan-test-import-types");
    std::filesystem::create_directories(dir);
    writeFileAtomic(dir / "nodes.txt",
                    "NodeName=g1 Gres=gpu:nvidia_h100_80gb_hbm3:8 CPUTot=64 State=IDLE\n");
    writeFileAtomic(dir / "sacct.txt",
                    kHeader + kGoodJob +
                        "2|a|gpu|2026-10-01T08:00:00|None|None|PENDING||gres/gpu:h100=4|60\n"
                        "3|a|gpu|2026-10-01T08:00:00|None|None|PENDING||gres/gpu:l4=1|60\n");
    const Catalog& catalog = test::presetCatalog();
    try {
        importSlurmFiles(catalog, dir / "nodes.txt", dir / "sacct.txt", std::nullopt, {});
        FAIL("accepted");
    } catch (const SlurmGpuTypeError& e) {
        CHECK(e.place() == "line 3");
        CHECK(e.type() == "h100");
        CHECK(e.candidates() == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
        CHECK_THAT(e.message(), Catch::EndsWith("name it with --gpu-type h100=MODEL"));
    }
    SlurmImportOptions options;
    options.nodes.gpuTypeModels = {{"h100", "h100-sxm"}};
    const SlurmImport s =
        importSlurmFiles(catalog, dir / "nodes.txt", dir / "sacct.txt", std::nullopt, options);
    REQUIRE(s.fleet.traces.size() == 1);
    CHECK(s.fleet.traces[0].gpuTypes ==
          std::vector<std::pair<std::string, std::string>>{{"h100", "h100-sxm"}, {"l4", "l4"}});
    const std::string text = s.fleet.summary.text();
    CHECK_THAT(text, Catch::Contains("jobs asking a GPU type (ReqTRES gres/gpu:TYPE) run on its "
                                     "model only: h100 → h100-sxm (1 job), l4 → l4 (1 job); "
                                     "other jobs on any model") &&
                         Catch::Contains("jobs ask GPU types no imported node has: l4 → l4 (1 "
                                         "job); they wait (reservation layer)"));
    const ImportedScenario imported = importedScenario(s.fleet, catalog, {"t", 86400, 1});
    CHECK(imported.scenario.findGpu("l4"));
    validateScenario(imported.scenario, catalog);
    // Job 2 (4 GPUs, h100-sxm) starts at 0 on g1; job 3 (l4) waits.
    const Results r = test::run(imported.scenario);
    REQUIRE(r.jobs.size() == 3);
    CHECK(r.jobs[1].firstStartS == 0);
    CHECK(r.jobs[2].firstStartS == -1);
    std::filesystem::remove_all(dir);
}
