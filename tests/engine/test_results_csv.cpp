// The CSV files gpuplan writes, read back by a strict RFC 4180 reader whatever the names hold.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuplan/export/results_io.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

using test::parseCsv;
using test::Rows;

TEST_CASE("the test's RFC 4180 reader reads what the RFC says") {
    CHECK(parseCsv("a,\"b,c\",\"say \"\"hi\"\"\"\r\nx,\"1\r\n2\",\n") ==
          Rows{{"a", "b,c", "say \"hi\""}, {"x", "1\r\n2", ""}});
    CHECK_THROWS(parseCsv("a\rb,c\n"));
    CHECK_THROWS(parseCsv("a\"b\n"));
    CHECK_THROWS(parseCsv("\"a\"b\n"));
}

TEST_CASE("jobs.csv quotes every field holding a comma, quote, CR or LF (RFC 4180)") {
    // Names built in code, where no reader's name rule applies: every kind of trouble.
    const std::vector<std::string> teams = {"a,b", "say \"hi\"", "car\rriage", "line\nfeed",
                                            " padded "};
    Scenario s = test::smallFleet(1, 1, "n4");
    s.teams.clear();
    for (const std::string& t : teams)
        s.teams.push_back(TeamDef{t, ""});
    for (std::size_t k = 0; k < teams.size(); ++k) {
        JobDef j = test::job("job " + std::to_string(k) + ",\"" + teams[k] + "\"", 1, 60);
        j.traits.team = teams[k];
        s.jobs.push_back(j);
    }
    const Results r = test::run(s);
    const fs::path dir = test::scratchPath("gpuplan-csv-quoting");
    fs::remove_all(dir);
    writeResultsCsv(r, dir);

    const Rows rows = parseCsv(readTextFile(dir / "jobs.csv"));
    // The header and one record per job, 29 fields each; name (field 1) and team (field 3)
    // come back exactly, in submission order.
    REQUIRE(rows.size() == 1 + teams.size());
    CHECK(rows[0][1] == "name");
    CHECK(rows[0][3] == "team");
    for (std::size_t k = 0; k < teams.size(); ++k) {
        INFO("job " << k);
        REQUIRE(rows[k + 1].size() == 29);
        CHECK(rows[k + 1][1] == "job " + std::to_string(k) + ",\"" + teams[k] + "\"");
        CHECK(rows[k + 1][3] == teams[k]);
    }
    // Every other CSV written there reads back too: as many fields per row as in its header.
    for (const auto& entry : fs::directory_iterator(dir)) {
        INFO(entry.path().filename().string());
        const Rows other = parseCsv(readTextFile(entry.path()));
        for (const auto& row : other)
            CHECK(row.size() == other[0].size());
    }
    fs::remove_all(dir);
}
