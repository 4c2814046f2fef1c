// Fail-slow nodes (lesson 5.3): a node whose GPUs run at a share of their pace slows every job
// on it, and a gang waits for its slowest pod at every step, so one slow node slows the whole
// gang. Test catalog: "n8" is 8 × tg; fabric tiers at full bisection give no other slowdown.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One rack: node0 healthy, node1 at `slowSpeed`.
Scenario twoNodes(double slowSpeed) {
    Scenario s = test::smallFleet(1, 1, "n8");
    NodeGroupDef slow = s.pods[0].racks[0].nodes[0];
    s.pods[0].racks[0].nodes[0].name = "fast";
    slow.name = "slow";
    slow.speed = slowSpeed;
    s.pods[0].racks[0].nodes.push_back(slow);
    return s;
}

}  // namespace

TEST_CASE("fail-slow: a gang goes at the pace of its slowest node", "[fail-slow]") {
    // A 16-GPU gang of 8-GPU pods needs both nodes; node1 runs at half speed, so 3600 s of
    // work takes 3600 / 0.5 = 7200 s.
    Scenario s = twoNodes(0.5);
    s.jobs = {test::job("gang", 16, 3600, 0, 8)};
    const Results r = test::run(s);
    const JobRecord& j = r.jobs[test::jobIndex(r, "gang")];
    CHECK(j.firstStartS == 0);
    CHECK(j.endS == Approx(7200));
    CHECK(j.slowdown == Approx(2.0f));
}

TEST_CASE("fail-slow: a job on healthy nodes is not slowed; one on the slow node is",
          "[fail-slow]") {
    // Two 8-GPU jobs at t = 0: pack puts the first on node "fast" (first in order, 1 h) and the
    // second on "slow" (speed 0.25: 3600 / 0.25 = 14,400 s).
    Scenario s = twoNodes(0.25);
    s.jobs = {test::job("a", 8, 3600, 0, 8), test::job("b", 8, 3600, 0, 8)};
    const Results r = test::run(s);
    const double endA = r.jobs[test::jobIndex(r, "a")].endS;
    const double endB = r.jobs[test::jobIndex(r, "b")].endS;
    CHECK(std::min(endA, endB) == Approx(3600));
    CHECK(std::max(endA, endB) == Approx(14400));
}

TEST_CASE("fail-slow: cordoning the slow node gives the gang full speed later", "[fail-slow]") {
    // The same 16-GPU gang on three nodes, the slow one cordoned: it runs on the two healthy
    // nodes at full pace, 3600 s.
    Scenario s = twoNodes(0.5);
    NodeGroupDef third = s.pods[0].racks[0].nodes[0];
    third.name = "spare";
    s.pods[0].racks[0].nodes.push_back(third);
    s.pods[0].racks[0].nodes[1].state = NodeState::Cordoned;
    s.jobs = {test::job("gang", 16, 3600, 0, 8)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "gang")].endS == Approx(3600));
}

TEST_CASE("fail-slow: the speed is read, written back and bounded", "[fail-slow]") {
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    std::string text = readTextFile(test::testDataDir() / "valid-minimal.json");
    const std::string type = "\"nodeType\": \"dgx-h100\"";
    text.replace(text.find(type), type.size(), type + ", \"speed\": 0.5");
    const Scenario s = parseScenario(text, "slow.json", catalog);
    CHECK(s.pods[0].racks[0].nodes[0].speed == 0.5);
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog) == s);
    std::string bad = text;
    bad.replace(bad.find("0.5"), 3, "0.001");
    const InputError e = test::inputErrorOf([&] { parseScenario(bad, "slow.json", catalog); });
    CHECK(e.place() == "/topology/pods/0/racks/0/nodes/0/speed");
}
