// Parameter sweeps (gpuplan/studies/sweep.hpp): the grid's order, the scenario at a point, runs.csv
// that reads back exactly, shards that merge into one machine's bytes, and "find" bisecting
// an M/M/c queue's server count against Erlang C.
#include <catch2/catch.hpp>

#include <filesystem>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/sweep.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// c nodes of one GPU (c servers), 1-GPU jobs at 18 an hour, exponential run times of mean
/// 600 s: M/M/c with a = λ/µ = 3. Erlang C and Wq = C/(cµ − λ):
///   c = 4: Σ_{k<4} a^k/k! = 13,     a^4/4!·4/1 = 13.5,   C = 0.5094, Wq = 305.7 s
///   c = 5: Σ_{k<5} a^k/k! = 16.375, a^5/5!·5/2 = 5.0625, C = 0.2362, Wq = 0.2362·600/2 = 70.8 s
///   c = 6: Σ_{k<6} a^k/k! = 18.4,   a^6/6!·6/3 = 2.025,  C = 0.0991, Wq = 0.0991·600/3 = 19.8 s
///   c ≤ 3: ρ ≥ 1, the queue grows without bound.
std::filesystem::path writeMmc(const std::filesystem::path& folder) {
    Scenario s = test::smallFleet(1, 4, "n1");
    s.horizonS = 30 * 86400.0;
    s.sampleIntervalS = 3600;
    s.seed = 11;
    JobClassDef c = test::jobClass("mmc", 1, 18, 600);
    c.durationS.kind = DistKind::Exponential;
    c.durationS.mean = 600;
    s.jobClasses = {c};
    // Priced on demand only: breakeven_utilization and reserved_commitment_utilization are
    // NaN in every run, columns runs.csv must keep through a merge.
    s.pods[0].racks[0].nodes[0].buyingClass = BuyingClass::OnDemand;
    s.pricing = test::tgPrices();
    const std::filesystem::path file = folder / "mmc.json";
    saveScenarioAtomic(s, file);
    return file;
}

struct TempFolder {
    std::filesystem::path path;
    TempFolder() {
        path = test::scratchPath("gpuplan-sweep-test-" +
                                 std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(path);
    }
    ~TempFolder() { std::filesystem::remove_all(path); }
};

const char* const kCount = "/topology/pods/0/racks/0/nodes/0/count";

SweepSpec grid(const std::filesystem::path& folder, const std::string& values, int replications,
               const std::string& extra = "") {
    return parseSweepSpec(
        R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "mmc.json",
            "replications": )" +
            std::to_string(replications) + R"(, "parameters": [{"pointer": ")" + kCount +
            R"(", "values": )" + values + "}]" + extra + "}",
        "sweep.json", folder);
}

SweepOptions quick(int threads = 0, Shard shard = {}) {
    SweepOptions o;
    o.threads = threads;
    o.shard = shard;
    o.run.checkInvariants = false;
    o.run.diagnosePending = false;
    return o;
}

}  // namespace

TEST_CASE("a grid varies its last parameter fastest; points are read as given", "[sweep]") {
    const SweepSpec g = parseSweepSpec(
        R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "s.json",
            "parameters": [{"pointer": "/a", "values": [1, 2]},
                           {"pointer": "/b", "values": ["x", "y", "z"]}]})",
        "g.json", "/tmp");
    REQUIRE(g.points.size() == 6);
    CHECK(g.points[0] == std::vector<std::string>{"1", "\"x\""});
    CHECK(g.points[1] == std::vector<std::string>{"1", "\"y\""});
    CHECK(g.points[3] == std::vector<std::string>{"2", "\"x\""});
    CHECK(g.replications == 1);
    CHECK(g.scenarioFile == std::filesystem::path("/tmp/s.json"));
    const SweepSpec p = parseSweepSpec(
        R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "s.json", "replications": 2,
            "points": [{"/a": 1, "/b": true}, {"/a": 5, "/b": false}]})",
        "p.json", "/tmp");
    CHECK(p.pointers == std::vector<std::string>{"/a", "/b"});
    CHECK(p.points[1] == std::vector<std::string>{"5", "false"});
    CHECK(p.runCount() == 4);
}

TEST_CASE("a malformed sweep file names the place", "[sweep]") {
    const auto fails = [](const std::string& body, const std::string& place,
                          const std::string& text) {
        CHECK_THROWS_WITH(
            parseSweepSpec(
                R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "s.json", )" + body +
                    "}",
                "bad.json", "/tmp"),
            Catch::Contains("bad.json") && Catch::Contains(place) && Catch::Contains(text));
    };
    fails(R"("parameters": [{"pointer": "a/b", "values": [1]}])", "/parameters/0/pointer",
          "not a JSON pointer");
    fails(R"("parameters": [{"pointer": "/a", "values": []}])", "/parameters/0/values",
          "at least one value");
    fails(R"("parameters": [{"pointer": "/a", "values": [1], "step": 2}])", "/parameters/0",
          "unknown key");
    fails(R"("points": [{"/a": 1}, {"/b": 2}])", "/points/1", "sets no \"/a\"");
    fails(R"("points": [{"/a": 1}], "parameters": [])", "", "either \"parameters\"");
    fails(R"("parameters": [{"pointer": "/a", "values": [1]}, {"pointer": "/a/b", "values": [2]}])",
          "", "set the same place");
    fails(R"("parameters": [{"pointer": "/a", "values": [1]}, {"pointer": "/a", "values": [2]}])",
          "", "set the same place");
    fails(R"("parameters": [{"pointer": "/a\nb", "values": [1]}])", "/parameters/0/pointer",
          "control character");
    fails(R"("replications": 0, "points": [{"/a": 1}])", "/replications", "between");
    fails(R"("points": [{"/a": 1, "/b": 2}], "find": {"kpi": "wait_s_mean", "atMost": 1})", "/find",
          "one parameter");
    fails(
        R"("replications": 10000, "parameters": [{"pointer": "/a", "values": [1,2,3,4,5,6,7,8,9,10,11]}])",
        "/parameters", "more than 100000 runs");
}

TEST_CASE("the scenario at a point has its values; a bad value names the point", "[sweep]") {
    TempFolder dir;
    writeMmc(dir.path);
    const SweepSpec spec = grid(dir.path, "[2, 0]", 1);
    const Catalog catalog = test::testCatalog();
    CHECK(scenarioAtPoint(spec, 0, catalog, {}).pods[0].racks[0].nodes[0].count == 2);
    CHECK_THROWS_WITH(scenarioAtPoint(spec, 1, catalog, {}),
                      Catch::Contains(kCount) && Catch::Contains("point 1"));
    const SweepSpec nowhere = parseSweepSpec(
        R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "mmc.json",
            "points": [{"/topology/pods/7/count": 1}]})",
        "sweep.json", dir.path);
    CHECK_THROWS_WITH(scenarioAtPoint(nowhere, 0, catalog, {}), Catch::Contains("no such place"));
    // An index too large to be one is no place either (not nlohmann's own exception).
    const SweepSpec huge = parseSweepSpec(
        R"({"format": "gpuplan-sweep", "formatVersion": 1, "scenario": "mmc.json",
            "points": [{"/topology/pods/99999999999999999999/count": 1}]})",
        "sweep.json", dir.path);
    CHECK_THROWS_WITH(scenarioAtPoint(huge, 0, catalog, {}),
                      Catch::Contains("sweep.json") && Catch::Contains("no such place"));
}

TEST_CASE("null at a point removes the key: the reader's default applies", "[sweep]") {
    TempFolder dir;
    writeMmc(dir.path);  // its node group is bought on demand
    const Catalog catalog = test::testCatalog();
    auto pointSetting = [&](const std::string& pointer) {
        return parseSweepSpec(R"({"format": "gpuplan-sweep", "formatVersion": 1,
            "scenario": "mmc.json", "points": [{")" +
                                  pointer + R"(": null}]})",
                              "sweep.json", dir.path);
    };
    const std::string group = "/topology/pods/0/racks/0/nodes/0";
    CHECK(scenarioAtPoint(pointSetting(group + "/buyingClass"), 0, catalog, {})
              .pods[0]
              .racks[0]
              .nodes[0]
              .buyingClass == BuyingClass::Reserved);
    // A key that is not there, or an array element, is nothing to remove.
    CHECK_THROWS_WITH(scenarioAtPoint(pointSetting(group + "/readyAtS"), 0, catalog, {}),
                      Catch::Contains("no such key to remove"));
    CHECK_THROWS_WITH(scenarioAtPoint(pointSetting(group), 0, catalog, {}),
                      Catch::Contains("no such key to remove"));
}

TEST_CASE("runs.csv reads back exactly; shards merge into one machine's bytes", "[sweep]") {
    TempFolder dir;
    writeMmc(dir.path);
    const SweepSpec spec = grid(dir.path, "[4, 5, 6]", 3);  // 9 runs
    const Catalog catalog = test::testCatalog();
    const std::vector<SweepRun> whole = runSweep(spec, catalog, {}, quick(2));
    REQUIRE(whole.size() == 9);
    CHECK(whole[4].point == 1);
    CHECK(whole[4].replication == 1);
    // Replication r of every point runs the same seed (common random numbers).
    CHECK(whole[1].seed == whole[4].seed);
    CHECK(whole[1].seed != whole[2].seed);
    // One thread gives the same rows.
    CHECK(sweepRunsCsv(spec, runSweep(spec, catalog, {}, quick(1))) == sweepRunsCsv(spec, whole));
    const std::string csv = sweepRunsCsv(spec, whole);
    REQUIRE(csv.find("breakeven_utilization") != std::string::npos);
    const std::vector<SweepRun> back = parseSweepRunsCsv(csv, "runs.csv", spec);
    CHECK(sweepRunsCsv(spec, back) == csv);
    CHECK(sweepSummaryCsv(spec, back) == sweepSummaryCsv(spec, whole));
    // Shards 1/2 (runs 0, 2, 4, 6, 8) and 2/2, each through its CSV, merge to the same files.
    std::vector<std::vector<SweepRun>> shards;
    for (int k = 1; k <= 2; ++k) {
        const std::string part = sweepRunsCsv(spec, runSweep(spec, catalog, {}, quick(1, {k, 2})));
        shards.push_back(parseSweepRunsCsv(part, "shard.csv", spec));
    }
    CHECK(shards[0].size() == 5);
    const std::vector<SweepRun> merged = mergeSweepRuns(spec, shards);
    CHECK(sweepRunsCsv(spec, merged) == csv);
    CHECK(sweepSummaryCsv(spec, merged) == sweepSummaryCsv(spec, whole));
    // A missing shard, or one given twice, is an error saying which runs.
    CHECK_THROWS_WITH(mergeSweepRuns(spec, {shards[0]}), Catch::Contains("1, 3, 5, 7"));
    CHECK_THROWS_WITH(mergeSweepRuns(spec, {shards[0], shards[1], shards[1]}),
                      Catch::Contains("more than one shard"));
    // Another sweep's runs are refused with the line.
    const SweepSpec other = grid(dir.path, "[4, 5, 7]", 3);
    CHECK_THROWS_WITH(parseSweepRunsCsv(csv, "runs.csv", other),
                      Catch::Contains("runs.csv: line 8") && Catch::Contains("sets"));
}

TEST_CASE("find bisects to the fewest servers that keep the mean wait down", "[sweep]") {
    // c = 1…8 servers; the mean wait falls as c grows (worked above: 305.7 s at 4, 70.8 s at
    // 5, 19.8 s at 6). At most 150 s: c = 5, found by probing ⌈log2 9⌉ = 4 points at most, not 8.
    TempFolder dir;
    writeMmc(dir.path);
    const SweepSpec spec = grid(dir.path, "[1, 2, 3, 4, 5, 6, 7, 8]", 4,
                                R"(, "find": {"kpi": "wait_s_mean", "atMost": 150})");
    const FindResult found = findSmallest(spec, test::testCatalog(), {}, quick());
    REQUIRE(found.point);
    CHECK(spec.points[*found.point][0] == "5");
    CHECK(found.probed.size() <= 4);
    CHECK(found.runs.size() == found.probed.size() * 4);
}
