#include <catch2/catch.hpp>
#include <filesystem>

#include "gpuplan/scenario_io.hpp"
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

TEST_CASE("the real Philly trace from ../shared/data") {
    const auto file = test::sharedDataDir() / "philly" / "philly.csv";
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
