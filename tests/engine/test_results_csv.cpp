// The CSV files gpuplan writes, read back by a strict RFC 4180 reader whatever the names hold.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuplan/results_io.hpp"
#include "gpuplan/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

using Rows = std::vector<std::vector<std::string>>;

/// RFC 4180, strictly: records end in CRLF or LF; a field holding a comma, quote, CR or LF
/// is quoted, its quotes doubled. A quote, CR or LF in an unquoted field is an error, as
/// is anything after a closing quote but a comma or the record's end.
Rows parseCsv(const std::string& text) {
    Rows rows(1, std::vector<std::string>(1));
    std::size_t i = 0;
    auto endOfRecord = [&] {
        if (text.compare(i, 2, "\r\n") == 0) return i += 2, true;
        if (text[i] == '\n') return ++i, true;
        return false;
    };
    while (i < text.size()) {
        std::string& field = rows.back().back();
        if (text[i] == '"' && field.empty()) {
            for (++i;; ++i) {
                if (i >= text.size()) throw std::runtime_error("quoted field not closed");
                if (text[i] != '"') {
                    field += text[i];
                } else if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    ++i;
                    break;
                }
            }
            if (i < text.size() && text[i] != ',' && text[i] != '\n' &&
                text.compare(i, 2, "\r\n") != 0)
                throw std::runtime_error("text after a closing quote");
            continue;
        }
        if (endOfRecord()) {
            if (i < text.size()) rows.emplace_back(1);
            continue;
        }
        if (text[i] == ',') {
            rows.back().emplace_back();
        } else if (text[i] == '"' || text[i] == '\r' || text[i] == '\n') {
            throw std::runtime_error("a quote or line break in an unquoted field of record " +
                                     std::to_string(rows.size()));
        } else {
            field += text[i];
        }
        ++i;
    }
    return rows;
}

}  // namespace

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
    const fs::path dir =
        fs::temp_directory_path() / ("gpuplan-csv-quoting-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    writeResultsCsv(r, dir);

    const Rows rows = parseCsv(readTextFile(dir / "jobs.csv"));
    // The header and one record per job, 26 fields each; name (field 1) and team (field 3)
    // come back exactly, in submission order.
    REQUIRE(rows.size() == 1 + teams.size());
    CHECK(rows[0][1] == "name");
    CHECK(rows[0][3] == "team");
    for (std::size_t k = 0; k < teams.size(); ++k) {
        INFO("job " << k);
        REQUIRE(rows[k + 1].size() == 26);
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
