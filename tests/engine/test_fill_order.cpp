// The buying mix's fill order (BuyingMixDef::fillOrder): a job is placed on the first class
// of the order if it fits there, else on the first two, else anywhere; within each step the
// placement policy chooses as always.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {

/// Three 8-GPU nodes bought by the mix: node0 reserved, node1 spot, node2 on demand (not
/// elastic: always up). p (4 GPUs) is pinned to node2 from 0, so pack's best fit alone would
/// put a later 4-GPU job beside it on node2.
Scenario threeClasses(std::vector<BuyingClass> order) {
    Scenario s = test::smallFleet(1, 3, "n8");
    s.pricing = test::tgPrices();
    s.buyingMix = BuyingMixDef{1, 1, std::move(order)};
    JobDef p = job("p", 4, 7200, 0);
    p.traits.pin = PinDef{PinLevel::Node, "pod-rack-node2"};
    s.jobs = {p, job("a", 4, 3600, 10), job("g", 16, 3600, 20, 8)};
    return s;
}

std::vector<std::string> nodesOf(const Results& r, const std::string& name) {
    std::vector<std::string> out;
    const std::uint32_t j = jobIndex(r, name);
    for (const PodPlacement& pod : r.placementOf(r.segments[r.jobs[j].lastSegment]))
        out.push_back(r.fleet.nodes[pod.node].name);
    return out;
}

}  // namespace

TEST_CASE("reserved first, then spot, then on demand", "[fill-order]") {
    // a fits on the reserved node0: it goes there, not beside p on node2. g (two pods of 8)
    // at 20 s finds 4, 8 and 4 GPUs free on node0, node1, node2: no step holds two whole
    // free nodes, not even the whole fleet; when a ends at 3,610 node0 is empty and the
    // second step (reserved + spot) holds g: node0 and node1.
    const Results r = test::run(threeClasses(BuyingMixDef{}.fillOrder));
    CHECK(r.fleet.fillTiers == std::vector<std::pair<int, int>>{{0, 1}, {0, 2}});
    CHECK(nodesOf(r, "a") == std::vector<std::string>{"pod-rack-node0"});
    CHECK(nodesOf(r, "g") == std::vector<std::string>{"pod-rack-node0", "pod-rack-node1"});
    CHECK(r.jobs[jobIndex(r, "g")].firstStartS == 3610);
}

TEST_CASE("a fill order puts on-demand or spot capacity first", "[fill-order]") {
    // On demand first: a joins p on node2 (best fit within the step).
    const Results onDemand =
        test::run(threeClasses({BuyingClass::OnDemand, BuyingClass::Reserved, BuyingClass::Spot}));
    CHECK(nodesOf(onDemand, "a") == std::vector<std::string>{"pod-rack-node2"});
    // Spot first: a goes to node1. The second step (spot + on demand) is [1, 3).
    const Results spot =
        test::run(threeClasses({BuyingClass::Spot, BuyingClass::OnDemand, BuyingClass::Reserved}));
    CHECK(spot.fleet.fillTiers == std::vector<std::pair<int, int>>{{1, 2}, {1, 3}});
    CHECK(nodesOf(spot, "a") == std::vector<std::string>{"pod-rack-node1"});
    // Reserved then on demand: the two are not next to each other (spot between): that step
    // is skipped, and so is every later one.
    const Results gap =
        test::run(threeClasses({BuyingClass::Reserved, BuyingClass::OnDemand, BuyingClass::Spot}));
    CHECK(gap.fleet.fillTiers == std::vector<std::pair<int, int>>{{0, 1}});
}

TEST_CASE("a fill order is read, written and checked", "[fill-order][input]") {
    const Scenario s =
        threeClasses({BuyingClass::Spot, BuyingClass::Reserved, BuyingClass::OnDemand});
    const Scenario back = parseScenario(scenarioToJson(s), "fill.json", test::testCatalog());
    CHECK(back.buyingMix == s.buyingMix);
    std::string text = scenarioToJson(s);
    const auto at = text.find("\"spot\"", text.find("\"fillOrder\""));
    REQUIRE(at != std::string::npos);
    text.replace(at, 6, "\"reserved\"");
    CHECK_THROWS_WITH(parseScenario(text, "fill.json", test::testCatalog()),
                      Catch::Contains("/buyingMix/fillOrder/1") && Catch::Contains("twice"));
}
