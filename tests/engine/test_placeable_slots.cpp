// Largest placeable job (gpuplan/resources/placeable.hpp): slot counts and largest gangs on
// hand-built fleets, worked out from the definitions in the header; the run's series against the
// table.
#include <catch2/catch.hpp>

#include "gpuplan/resources/placeable.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::test;

namespace {

JobDef pinnedHolder(const std::string& name, int gpus, const std::string& node) {
    JobDef j = job(name, gpus, 10000);
    j.traits.pin = {PinLevel::Node, node};
    return j;
}

Scenario defaultPreset() {
    const Catalog catalog = loadCatalog(presetsDir() / "catalog" / "catalog.json");
    return loadScenario(presetsDir() / "scenarios" / "default.json", catalog);
}

const Series& seriesNamed(const Results& r, const std::string& name) {
    const Series* s = r.findSeries(name);
    REQUIRE(s != nullptr);
    return *s;
}

}  // namespace

TEST_CASE("placeable slots: one pod, 2 racks × 2 nodes × 8 GPUs") {
    // rack0: node0 8 free, node1 8 free; rack1: node0 holds 3 (5 free), node1 holds 6 (2 free).
    Scenario s = smallFleet(2, 2, "n8");
    s.jobs = {pinnedHolder("h3", 3, "pod-rack1-node0"), pinnedHolder("h6", 6, "pod-rack1-node1")};
    const Results r = run(s);
    const PlaceableSlots t = placeableSlotsAt(r.fleet, r.stateAt(100));

    CHECK(t.freeGpus == 8 + 8 + 5 + 2);  // 23
    // The fleet has 32 whole GPUs of one model: sizes 1 … 32.
    CHECK(t.gangSizes == std::vector<int>{1, 2, 4, 8, 16, 32});
    // Node level, ⌊free / G⌋ per node (G ≤ 8 is one pod):
    //   G=1: 8+8+5+2 = 23; G=2: 4+4+2+1 = 11; G=4: 2+2+1+0 = 5; G=8: 1+1 = 2; G ≥ 16: 0.
    CHECK(t.slotCounts[0] == std::vector<long long>{23, 11, 5, 2, 0, 0});
    // Rack level: G ≤ 8 as at the node level. G=16 is 2 pods of 8: rack0 has two whole free
    // nodes → 1 slot, rack1 none. G=32 (4 whole nodes) fits no rack.
    CHECK(t.slotCounts[1] == std::vector<long long>{23, 11, 5, 2, 1, 0});
    // Pod and fleet (one pod): the same 2 whole free nodes → one 16-GPU gang, no 32.
    CHECK(t.slotCounts[2] == std::vector<long long>{23, 11, 5, 2, 1, 0});
    CHECK(t.slotCounts[3] == t.slotCounts[2]);
    // Largest: a node holds 8; a rack, the pod and the fleet 2 whole nodes = 16.
    CHECK(t.largest(SlotLevel::Node) == 8);
    CHECK(t.largest(SlotLevel::Rack) == 16);
    CHECK(t.largest(SlotLevel::Pod) == 16);
    CHECK(t.largest(SlotLevel::Fleet) == 16);
    CHECK(t.slotsFor(SlotLevel::Rack, 16) == 1);
    CHECK(t.slotsFor(SlotLevel::Rack, 3) == 0);  // not a table size
    // Every size up to 23 free that the table has (1 … 16) fits one rack.
    CHECK(explainPlaceable(t, r.fleet) ==
          "23 GPUs free: a gang of up to 16 GPUs can start inside one rack (8 GPUs on one "
          "node, 16 GPUs inside one pod).");
}

TEST_CASE("placeable slots: two pods, each with one whole free node") {
    // pod0: node0 8 free, node1 holds 4 (4 free); pod1 the same. 24 free GPUs.
    Scenario s = smallFleet(1, 2, "n8");
    s.pods[0].count = 2;
    s.jobs = {pinnedHolder("a", 4, "pod0-rack-node1"), pinnedHolder("b", 4, "pod1-rack-node1")};
    const Results r = run(s);
    const PlaceableSlots t = placeableSlotsAt(r.fleet, r.stateAt(100));

    CHECK(t.freeGpus == 24);
    // 2 pods × 2 nodes × 8 = 32 whole GPUs: sizes 1 … 32.
    CHECK(t.gangSizes == std::vector<int>{1, 2, 4, 8, 16, 32});
    // G=4: node 2+1+2+1 = 6 at every level; G=8: the 2 whole free nodes at every level.
    // G=16 (2 whole nodes): no rack or pod has two, the fleet does (no locality): 1.
    CHECK(t.slotCounts[0] == std::vector<long long>{24, 12, 6, 2, 0, 0});
    CHECK(t.slotCounts[1] == std::vector<long long>{24, 12, 6, 2, 0, 0});
    CHECK(t.slotCounts[2] == std::vector<long long>{24, 12, 6, 2, 0, 0});
    CHECK(t.slotCounts[3] == std::vector<long long>{24, 12, 6, 2, 1, 0});
    CHECK(t.largest(SlotLevel::Node) == 8);
    CHECK(t.largest(SlotLevel::Rack) == 8);
    CHECK(t.largest(SlotLevel::Pod) == 8);
    CHECK(t.largest(SlotLevel::Fleet) == 16);
    // 16 ≤ 24 free; a rack (2 nodes, 16 GPUs) is its own level: no rack holds it now, no pod
    // either (one rack each), the fleet does.
    CHECK(explainPlaceable(t, r.fleet) ==
          "24 GPUs free, but no rack has 16 free GPUs on 2 whole nodes: the largest "
          "rack-local gang now is 8 GPUs. It could start only across pods (up to 16 GPUs).");
}

TEST_CASE("placeable slots: scattered free GPUs fit no large gang anywhere") {
    // Each of 4 nodes holds 5: 3 free each, 12 free. G=8 needs one node with 8 (8 ≤ 8 GPUs per
    // node is one pod): none anywhere. The largest gang is 3 (one node's 3).
    Scenario s = smallFleet(2, 2, "n8");
    for (const char* node :
         {"pod-rack0-node0", "pod-rack0-node1", "pod-rack1-node0", "pod-rack1-node1"})
        s.jobs.push_back(pinnedHolder(std::string("h-") + node, 5, node));
    const Results r = run(s);
    const PlaceableSlots t = placeableSlotsAt(r.fleet, r.stateAt(100));
    CHECK(t.freeGpus == 12);
    CHECK(t.slotsFor(SlotLevel::Fleet, 2) == 4);  // ⌊3 / 2⌋ on each node
    CHECK(t.slotsFor(SlotLevel::Fleet, 4) == 0);
    for (int l = 0; l < kSlotLevelCount; ++l)
        CHECK(t.largestGangGpus[l] == 3);
    CHECK(explainPlaceable(t, r.fleet) ==
          "12 GPUs free, but they are scattered: no 4-GPU gang fits anywhere (it needs 4 free "
          "GPUs on one node); the largest gang now is 3 GPUs.");
}

TEST_CASE("placeable slots count only wholly free GPUs of Ready nodes") {
    // One MPS node with a 300 milli-GPU share on one GPU (7 wholly free) and one whole node.
    Scenario s = smallFleet(1, 1, "n8");
    NodeGroupDef mps = s.pods[0].racks[0].nodes[0];
    mps.name = "mps";
    mps.sharing.mode = SharingMode::Mps;
    NodeGroupDef whole = s.pods[0].racks[0].nodes[0];
    whole.name = "whole";
    s.pods[0].racks[0].nodes = {mps, whole};
    JobDef share = job("share", 1, 10000);
    share.traits.gpuMilli = 300;
    s.jobs = {share};
    const Results r = run(s);
    ClusterSnapshot snap = r.stateAt(100);
    REQUIRE(snap.runningJobs.size() == 1);

    PlaceableSlots t = placeableSlotsAt(r.fleet, snap);
    CHECK(t.freeGpus == 7 + 8);
    CHECK(t.slotsFor(SlotLevel::Node, 8) == 1);  // the whole node only
    CHECK(t.largest(SlotLevel::Rack) == 8);
    // Cordon the whole node: only the MPS node's 7 wholly free GPUs are left.
    snap.nodeStates[*r.fleet.findNode("pod-rack-whole")] = NodeState::Cordoned;
    t = placeableSlotsAt(r.fleet, snap);
    CHECK(t.freeGpus == 7);
    CHECK(t.slotsFor(SlotLevel::Node, 8) == 0);
    CHECK(t.slotsFor(SlotLevel::Node, 4) == 1);
    CHECK(t.largest(SlotLevel::Fleet) == 7);
}

TEST_CASE("placeable series of a run match the table at each sample") {
    // The first scenario's series at t = 60 (a sample: every 60 s): largest 8 / 16 / 16 / 16,
    // two 8-GPU node slots, no 64-GPU rack slot (a rack has 16 GPUs).
    Scenario s = smallFleet(2, 2, "n8");
    s.jobs = {pinnedHolder("h3", 3, "pod-rack1-node0"), pinnedHolder("h6", 6, "pod-rack1-node1")};
    const Results r = run(s);
    const auto k = r.sampleAt(60);
    REQUIRE(k);
    CHECK(seriesNamed(r, "largest_gang_gpus{node}").values[*k] == 8);
    CHECK(seriesNamed(r, "largest_gang_gpus{rack}").values[*k] == 16);
    CHECK(seriesNamed(r, "largest_gang_gpus{pod}").values[*k] == 16);
    CHECK(seriesNamed(r, "largest_gang_gpus{fleet}").values[*k] == 16);
    CHECK(seriesNamed(r, "slots_8gpu{node}").values[*k] == 2);
    CHECK(seriesNamed(r, "slots_64gpu{rack}").values[*k] == 0);
    CHECK(seriesNamed(r, "largest_gang_gpus{node}").unit == "gpus");
    CHECK(seriesNamed(r, "slots_8gpu{node}").unit == "jobs");
    // After the holders end (t = 10,000): everything free, 4 whole nodes in one pod.
    const auto end = r.sampleAt(10020);
    REQUIRE(end);
    CHECK(seriesNamed(r, "largest_gang_gpus{rack}").values[*end] == 16);
    CHECK(seriesNamed(r, "largest_gang_gpus{fleet}").values[*end] == 32);
}

TEST_CASE("placeable series equal the snapshot table on the default preset") {
    // Two paths, one rule: the recorder reads the cluster's live histograms, the table
    // rebuilds them from Results::stateAt. They must agree at every sample checked.
    const Results r = simulate(defaultPreset(), RunOptions{});
    const char* names[] = {"largest_gang_gpus{node}", "largest_gang_gpus{rack}",
                           "largest_gang_gpus{pod}", "largest_gang_gpus{fleet}"};
    bool someBusy = false;
    for (std::size_t k = 0; k < r.sampleTimesS.size(); k += 7) {
        const PlaceableSlots t = placeableSlotsAt(r.fleet, r.stateAt(r.sampleTimesS[k]));
        for (int l = 0; l < kSlotLevelCount; ++l)
            CHECK(seriesNamed(r, names[l]).values[k] == t.largestGangGpus[l]);
        CHECK(seriesNamed(r, "slots_8gpu{node}").values[k] == t.slotsFor(SlotLevel::Node, 8));
        CHECK(seriesNamed(r, "slots_64gpu{rack}").values[k] == t.slotsFor(SlotLevel::Rack, 64));
        someBusy |= t.freeGpus < r.fleet.totalGpus;
    }
    CHECK(someBusy);
}

TEST_CASE("a run's samples skip only racks and pods that cannot change an answer") {
    // Racks of 1, 2 and 8 eight-GPU nodes (8, 16, 64 GPUs) and a pod of one one-node rack:
    // a sample reads only units with two nodes' worth (16 GPUs) for the largest gang and 64
    // GPUs for the rack slots; the table at t walks every unit. Under load from 8- and
    // 16-GPU jobs they must agree at every sample.
    Scenario s = smallFleet(1, 1, "n8");
    const NodeGroupDef n8 = s.pods[0].racks[0].nodes[0];
    auto rack = [&](const std::string& name, int count, int nodes) {
        RackDef r;
        r.name = name;
        r.count = count;
        r.nodes = {n8};
        r.nodes[0].count = nodes;
        return r;
    };
    s.pods[0].racks = {rack("one", 6, 1), rack("two", 3, 2), rack("eight", 2, 8)};
    PodDef lone = s.pods[0];
    lone.name = "lone";
    lone.racks = {rack("one", 1, 1)};
    s.pods.push_back(lone);
    s.horizonS = 2 * 86400;
    s.sampleIntervalS = 600;
    JobClassDef small = jobClass("eight", 8, 6, 3 * 3600);
    JobClassDef gang = jobClass("sixteen", 16, 2, 4 * 3600);
    gang.traits.gpusPerPod = 8;
    s.jobClasses = {small, gang};
    const Results r = run(s);
    const char* names[] = {"largest_gang_gpus{node}", "largest_gang_gpus{rack}",
                           "largest_gang_gpus{pod}", "largest_gang_gpus{fleet}"};
    bool someBusy = false, someRackSlot = false;
    for (std::size_t k = 0; k < r.sampleTimesS.size(); ++k) {
        const PlaceableSlots t = placeableSlotsAt(r.fleet, r.stateAt(r.sampleTimesS[k]));
        for (int l = 0; l < kSlotLevelCount; ++l)
            CHECK(seriesNamed(r, names[l]).values[k] == t.largestGangGpus[l]);
        CHECK(seriesNamed(r, "slots_8gpu{node}").values[k] == t.slotsFor(SlotLevel::Node, 8));
        CHECK(seriesNamed(r, "slots_64gpu{rack}").values[k] == t.slotsFor(SlotLevel::Rack, 64));
        someBusy |= t.freeGpus < r.fleet.totalGpus;
        someRackSlot |= t.slotsFor(SlotLevel::Rack, 64) > 0;
    }
    CHECK(someBusy);
    CHECK(someRackSlot);
}
