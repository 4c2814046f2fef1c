#include <catch2/catch.hpp>

#include "gpuplan/model/topology.hpp"
#include "test_support.hpp"

using namespace gpuplan;

TEST_CASE("Fleet names pods, racks and nodes and counts GPUs") {
    Scenario s = test::smallFleet(2, 3, "n8");
    s.pods[0].count = 2;
    s.pods[0].name = "p";
    const Fleet f = Fleet::build(s);
    // 2 pods × 2 racks × 3 nodes × 8 GPUs = 96 GPUs.
    CHECK(f.pods.size() == 2);
    CHECK(f.racks.size() == 4);
    CHECK(f.nodes.size() == 12);
    CHECK(f.totalGpus == 96);
    CHECK(f.nodes[0].name == "p0-rack0-node0");
    CHECK(f.nodes[11].name == "p1-rack1-node2");
    CHECK(f.findNode("p1-rack0-node1") == 7);
    CHECK(f.findRack("p1-rack1") == 3);
    CHECK(f.findPod("p1") == 1);
    CHECK_FALSE(f.findNode("nowhere"));
    // Largest units of model tg: a node (= NVLink domain) 8, a rack 24, a pod 48.
    CHECK(f.extents[0].maxDomainGpus == 8);
    CHECK(f.extents[0].maxRackGpus == 24);
    CHECK(f.extents[0].maxPodGpus == 48);
    CHECK(f.neededTier(8, 0) == FabricTier::Nvlink);
    CHECK(f.neededTier(16, 0) == FabricTier::Rack);
    CHECK(f.neededTier(48, 0) == FabricTier::Pod);
    CHECK(f.neededTier(49, 0) == FabricTier::Fleet);
}

TEST_CASE("NVL72-style trays share one NVLink domain per rack") {
    // 18 trays × 4 GPUs in a rack form one 72-GPU NVLink domain.
    Scenario s = test::smallFleet(2, 18, "tray4");
    const Fleet f = Fleet::build(s);
    CHECK(f.nvlinkDomainCount == 2);
    CHECK(f.nodes[0].nvlinkDomain == f.nodes[17].nvlinkDomain);
    CHECK(f.nodes[17].nvlinkDomain != f.nodes[18].nvlinkDomain);
    CHECK(f.extents[0].maxDomainGpus == 72);
    CHECK(f.neededTier(72, 0) == FabricTier::Nvlink);
    const std::uint32_t sameRack[] = {0, 17};
    CHECK(f.tierOf(sameRack) == FabricTier::Nvlink);
    const std::uint32_t twoRacks[] = {0, 18};
    CHECK(f.tierOf(twoRacks) == FabricTier::Pod);
}

TEST_CASE("Slowdown follows the bandwidth ratio of the needed and the actual tier") {
    Scenario s = test::smallFleet(2, 2, "n8");
    s.fabric.rackUplinkOversubscription = 2;
    s.fabric.podUplinkOversubscription = 4;
    s.pods[0].count = 2;
    const Fleet f = Fleet::build(s);
    const int n8 = 0;
    // Per-GPU one-way bandwidth: NVLink 900/2 = 450; rack 3200 Gb/s / 8 bit / 8 GPUs = 50;
    // pod 50/2 = 25; fleet 50/(2·4) = 6.25 GB/s.
    CHECK(f.tierBandwidthGBps(FabricTier::Nvlink, n8) == Approx(450));
    CHECK(f.tierBandwidthGBps(FabricTier::Rack, n8) == Approx(50));
    CHECK(f.tierBandwidthGBps(FabricTier::Pod, n8) == Approx(25));
    CHECK(f.tierBandwidthGBps(FabricTier::Fleet, n8) == Approx(6.25));
    // Fits a node, lands across racks of one pod: 1 + 0.1·(450/25 − 1) = 2.7.
    CHECK(f.slowdown(FabricTier::Nvlink, FabricTier::Pod, 0.1, n8) == Approx(2.7));
    // Needs a rack anyway, lands across pods: 1 + 0.2·(50/6.25 − 1) = 2.4.
    CHECK(f.slowdown(FabricTier::Rack, FabricTier::Fleet, 0.2, n8) == Approx(2.4));
    // No penalty at or below the needed tier, or for an insensitive job.
    CHECK(f.slowdown(FabricTier::Pod, FabricTier::Rack, 0.5, n8) == 1.0);
    CHECK(f.slowdown(FabricTier::Nvlink, FabricTier::Fleet, 0.0, n8) == 1.0);
}
