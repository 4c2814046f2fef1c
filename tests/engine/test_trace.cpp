#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

TEST_CASE("a Philly trace is parsed, sorted by submit time, with teams from the cluster") {
    // Rows out of order, as in the real file. Submit times become relative to the earliest.
    const auto t = parsePhillyTrace(
        "timestamp,duration,num_gpus,gpu_time,cluster\n"
        "2017-10-09 07:01:55,66.0,1,66.0,aa\n"
        "2017-10-09 06:13:03,2951.0,8,23608.0,bb\n"
        "2017-10-08 06:13:03,10.0,2,20.0,aa\n",
        "mini.csv");
    REQUIRE(t->jobs.size() == 3);
    CHECK(t->teams == std::vector<std::string>{"aa", "bb"});
    // 2017-10-08 06:13:03 is first (t = 0); one day later comes 06:13:03 (86400 s), and
    // 07:01:55 is 48 min 52 s after that: 86400 + 2932 = 89332 s.
    CHECK(t->jobs[0].submitS == 0);
    CHECK(t->jobs[0].gpus == 2);
    CHECK(t->jobs[1].submitS == 86400);
    CHECK(t->jobs[1].gpus == 8);
    CHECK(t->jobs[1].team == 1);
    CHECK(t->jobs[2].submitS == 89332);
    CHECK(t->jobs[2].durationS == 66);
}

TEST_CASE("a malformed trace names the line") {
    const char* header = "timestamp,duration,num_gpus,gpu_time,cluster\n";
    CHECK_THROWS_WITH(parsePhillyTrace("time,dur\n", "t.csv"),
                      Catch::StartsWith("t.csv: line 1: unexpected header"));
    CHECK_THROWS_WITH(parsePhillyTrace(std::string(header) + "2017-10-09 07:01:55,66.0,1,66.0,aa\n"
                                                             "2017-13-09 07:01:55,66.0,1,66.0,aa\n",
                                       "t.csv"),
                      "t.csv: line 3: bad timestamp \"2017-13-09 07:01:55\"");
    CHECK_THROWS_WITH(
        parsePhillyTrace(std::string(header) + "2017-10-09 07:01:55,66.0,0,66.0,aa\n", "t.csv"),
        "t.csv: line 2: num_gpus out of range: 0");
    CHECK_THROWS_WITH(
        parsePhillyTrace(std::string(header) + "2017-10-09 07:01:55,66.0,1\n", "t.csv"),
        "t.csv: line 2: expected 5 fields, got 3");
    CHECK_THROWS_WITH(
        parsePhillyTrace(std::string(header) + "2017-10-09 07:01:55,abc,1,1,aa\n", "t.csv"),
        "t.csv: line 2: bad duration \"abc\"");
    CHECK_THROWS_WITH(parsePhillyTrace(header, "t.csv"), "t.csv: line 1: no jobs in the file");
}

TEST_CASE("the real Philly trace shipped in presets/data") {
    const auto file = test::presetDataDir() / "philly" / "philly.csv";
    INFO("the Philly trace is expected at " << file.string()
                                            << " (the project's shared data folder)");
    REQUIRE(std::filesystem::exists(file));
    const auto t = readPhillyTrace(file);
    // 82,247 job rows (the file ends with an empty line), 15 virtual clusters.
    CHECK(t->jobs.size() == 82247);
    CHECK(t->teams.size() == 15);
    CHECK(t->jobs.front().submitS == 0);
    CHECK(std::is_sorted(t->jobs.begin(), t->jobs.end(), [](const TraceJob& a, const TraceJob& b) {
        return a.submitS < b.submitS;
    }));
}

TEST_CASE("a cluster id is a team name: bytes that break terminals and CSV rows are refused") {
    // Each row is good but for its cluster id; the error names the file, the line (2: the
    // header is line 1) and what is wrong, with the id escaped so the message stays whole.
    const std::string header = "timestamp,duration,num_gpus,gpu_time,cluster\n";
    const std::string row = "2017-10-09 07:01:55,66.0,1,66.0,";
    auto error = [&](const std::string& cluster) {
        try {
            parsePhillyTrace(header + row + cluster + "\n", "t.csv");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(error(std::string("a\0b", 3)) ==
          "t.csv: line 2: cluster id \"a\\u0000b\" holds a NUL byte "
          "(a cluster id is a team name)");
    CHECK(error("a\x1b[31mb") ==
          "t.csv: line 2: cluster id \"a\\u001b[31mb\" holds a control character (\\u001b) "
          "(a cluster id is a team name)");
    CHECK(error("caf\xff") ==
          "t.csv: line 2: cluster id \"caf\\xff\" is not UTF-8 text (byte \\xff) "
          "(a cluster id is a team name)");
    // A lone CR inside a row (a CRLF line end is fine, see below).
    CHECK(error("a\rb") ==
          "t.csv: line 2: cluster id \"a\\u000db\" holds a control character "
          "(\\u000d) (a cluster id is a team name)");
    // The format has no quoting: a quoted field holding a line break splits the row, and its
    // first half ends in a quote.
    CHECK(error("\"vc\nx\"") ==
          "t.csv: line 2: cluster id \"\"vc\" holds a quote (\") "
          "(a cluster id is a team name)");
    CHECK(error("has space") ==
          "t.csv: line 2: cluster id \"has space\" may only use letters, "
          "digits, '.', '_' and '-' (a cluster id is a team name)");
    CHECK(error("") == "t.csv: line 2: cluster id must not be empty (a cluster id is a team name)");
    // Good ids, with CRLF line ends.
    const auto t = parsePhillyTrace(header + row + "vc-7.a_B\r\n" + row + "6214e9\r\n", "t.csv");
    CHECK(t->teams == std::vector<std::string>{"vc-7.a_B", "6214e9"});
}

TEST_CASE("a trace with 100,000 cluster ids gives each its team, scenario teams reused") {
    // Teams are looked up by hash: with a linear search this trace took 30 s (no timing is
    // asserted here; the figures are in the commit message).
    const std::filesystem::path dir = test::scratchPath("gpuplan-trace-many-teams");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::string text = "timestamp,duration,num_gpus,gpu_time,cluster\n";
    constexpr int kIds = 100'000;
    for (int i = 0; i < kIds; ++i)
        text += "2017-10-09 00:00:00,60,1,60,c" + std::to_string(i) + "\n";
    text += "2017-10-09 00:00:01,60,1,60,c5\n";  // a repeated id: the same team again
    writeFileAtomic(dir / "many.csv", text);

    Scenario s = test::smallFleet(1, 1);
    s.teams.push_back(TeamDef{"p-c7", ""});  // a scenario team that the trace also names
    TraceDef trace;
    trace.file = "many.csv";
    trace.teamPrefix = "p-";
    trace.data = readPhillyTrace(dir / "many.csv");
    s.traces = {trace};
    const Workload w = generateWorkload(s, Fleet::build(s));
    std::filesystem::remove_all(dir);

    // Teams: "t", "p-c7" from the scenario, then the 99,999 other ids in order of first
    // appearance: 2 + 99,999 = 100,001.
    REQUIRE(w.teams.size() == 100'001);
    CHECK(w.teams[2] == "p-c0");
    CHECK(w.teams[8] == "p-c6");
    CHECK(w.teams[9] == "p-c8");  // c7 is the scenario's team 1
    CHECK(w.teams.back() == "p-c99999");
    // Rows keep file order at equal times; job k is cluster c<k>, the last one c5 again.
    REQUIRE(w.jobs.size() == kIds + 1);
    int wrong = 0;
    for (int k = 0; k < kIds; ++k)
        wrong += w.teams[w.jobs[k].team] != "p-c" + std::to_string(k);
    CHECK(wrong == 0);
    CHECK(w.jobs[7].team == 1);
    CHECK(w.jobs[kIds].team == w.jobs[5].team);
}
