// The resource model end to end (engine/README.md, "Resource model"): shares of a GPU under
// MPS and time-slicing, MIG instances, CPU and memory per pod, and what the results show.
#include <catch2/catch.hpp>

#include <map>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One rack of `nodes` nodes of `type`, all shared the same way.
Scenario sharedFleet(int nodes, const std::string& type, GpuSharingDef sharing) {
    Scenario s = test::smallFleet(1, nodes, type);
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    return s;
}

JobDef share(const std::string& name, int milli, double submitS = 0, int pods = 1) {
    JobDef j = test::job(name, pods, 3600, submitS);
    j.traits.gpuMilli = milli;
    return j;
}

double allocationAt(const Results& r, double timeS) {
    const Series* a = r.findSeries("allocation");
    return a->values[*r.sampleAt(timeS)];
}

}  // namespace

TEST_CASE("MPS shares pack onto the fullest GPU that still has room", "[resources]") {
    // One node of 4 GPUs under MPS. a, b, c ask 400 milli-GPU each at t = 0, d asks 2 whole
    // GPUs, e asks 1 whole GPU.
    //   a: every GPU has 1000 free; pack takes the least room that fits, ties to slot 0.
    //   b: GPU 0 has 600 left (< 1000 elsewhere) and 600 ≥ 400: GPU 0, now 800 used.
    //   c: GPU 0 has 200 < 400; GPUs 1–3 have 1000: GPU 1.
    //   d: wholly free GPUs are 2 and 3: it takes both.
    //   e: no wholly free GPU is left (0 and 1 are shared): it waits, though 800 milli-GPU
    //      are unused on them.
    GpuSharingDef mps;
    mps.mode = SharingMode::Mps;
    Scenario s = sharedFleet(1, "n4", mps);
    s.jobs = {share("a", 400), share("b", 400), share("c", 400), test::job("d", 2, 3600),
              test::job("e", 1, 3600)};
    const Results r = test::run(s);
    const ClusterSnapshot at = r.stateAt(60);
    const auto a = test::jobIndex(r, "a"), b = test::jobIndex(r, "b"), c = test::jobIndex(r, "c"),
               d = test::jobIndex(r, "d"), e = test::jobIndex(r, "e");
    REQUIRE(at.occupantsOf(0).size() == 2);
    CHECK(at.occupantsOf(0)[0] == GpuOccupant{a, 400});
    CHECK(at.occupantsOf(0)[1] == GpuOccupant{b, 400});
    CHECK(at.usedMilli(0) == 800);
    CHECK(at.occupantsOf(1).size() == 1);
    CHECK(at.occupantsOf(1)[0] == GpuOccupant{c, 400});
    CHECK(at.gpuJob == std::vector<std::int32_t>{std::int32_t(a), std::int32_t(c), std::int32_t(d),
                                                 std::int32_t(d)});
    CHECK(r.jobs[e].firstStartS == 3600);  // when a, b, c and d end together
    // Allocation counts GPU-equivalents: (3 × 0.4 + 2) / 4 GPUs = 0.8.
    CHECK(allocationAt(r, 60) == Approx(0.8));
}

TEST_CASE("MPS refuses a share past the GPU or past its client limit", "[resources]") {
    // One GPU, at most 2 clients: 600 + 300 fit (900 ≤ 1000, 2 clients); a third share of 100
    // would fit by milli-GPU but not by clients; 700 would fit by neither.
    GpuSharingDef mps;
    mps.mode = SharingMode::Mps;
    mps.mpsClients = 2;
    Scenario s = sharedFleet(1, "n1", mps);
    s.jobs = {share("a", 600), share("b", 300), share("c", 100), share("d", 700)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "a")].firstStartS == 0);
    CHECK(r.jobs[test::jobIndex(r, "b")].firstStartS == 0);
    CHECK(r.jobs[test::jobIndex(r, "c")].firstStartS == 3600);
    CHECK(r.jobs[test::jobIndex(r, "d")].firstStartS == 3600);
    // At 3600 a and b end; c (100) and d (700) both fit then: 800 ≤ 1000, 2 clients.
    CHECK(r.stateAt(3601).usedMilli(0) == 800);
}

TEST_CASE("Time-slicing hands out replicas, whatever share a pod asked", "[resources]") {
    // One GPU with 4 replicas: each pod holds one replica = 1000 / 4 = 250 milli-GPU, so 4 pods
    // asking 100 run at once and the fifth waits; allocation is 4 × 0.25 = 1.0, not 0.4.
    GpuSharingDef ts;
    ts.mode = SharingMode::TimeSlicing;
    ts.timeSliceReplicas = 4;
    Scenario s = sharedFleet(1, "n1", ts);
    s.jobs = {share("a", 100), share("b", 100), share("c", 100), share("d", 100), share("e", 100)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "e")].firstStartS == 3600);
    const ClusterSnapshot at = r.stateAt(60);
    REQUIRE(at.occupantsOf(0).size() == 4);
    for (const GpuOccupant& o : at.occupantsOf(0))
        CHECK(o.milliGpu == 250);
    CHECK(allocationAt(r, 60) == Approx(1.0));
}

TEST_CASE("A share never fits a GPU handed out whole: the reservation layer says so",
          "[resources]") {
    Scenario s = test::smallFleet(1, 1, "n4");  // whole GPUs only
    s.jobs = {share("a", 500)};
    const Results r = test::run(s);
    const std::vector<PendingJob> pending = r.pendingAt(60);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Reservation);
    CHECK_THAT(r.reasonText(pending[0].reason), Catch::Contains("each a 500 milli-GPU share"));
}

TEST_CASE("CPU per pod steers placement away from the fullest node", "[resources]") {
    // Two n4c nodes (4 GPUs, 16 CPUs each). x: 1 GPU and 12 CPUs, on node 0 (pack, ties to the
    // lowest index). y: 1 GPU and 8 CPUs: pack prefers node 0 (3 free GPUs < 4), but node 0
    // has 16 − 12 = 4 CPUs left < 8: node 1. z: 1 GPU and 4 CPUs fits node 0's last 4 CPUs
    // (3 free GPUs there, fewer than node 1's 3? equal: 3 and 3 → the lower index, node 0).
    Scenario s = test::smallFleet(1, 2, "n4c");
    JobDef x = test::job("x", 1, 3600), y = test::job("y", 1, 3600), z = test::job("z", 1, 3600);
    x.traits.cpuMilliPerPod = 12000;
    y.traits.cpuMilliPerPod = 8000;
    z.traits.cpuMilliPerPod = 4000;
    s.jobs = {x, y, z};
    const Results r = test::run(s);
    auto nodeOf = [&](const char* name) {
        const JobRecord& j = r.jobs[test::jobIndex(r, name)];
        return r.placementOf(r.segments[j.lastSegment])[0].node;
    };
    CHECK(nodeOf("x") == 0);
    CHECK(nodeOf("y") == 1);
    CHECK(nodeOf("z") == 0);
}

TEST_CASE("Memory per pod beyond every node is a reservation problem", "[resources]") {
    // n4c declares 65,536 MiB; a pod asking 70,000 MiB fits no node even empty.
    Scenario s = test::smallFleet(1, 2, "n4c");
    JobDef big = test::job("big", 1, 3600);
    big.traits.memoryMiBPerPod = 70000;
    s.jobs = {big};
    const Results r = test::run(s);
    const std::vector<PendingJob> pending = r.pendingAt(60);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Reservation);
    CHECK_THAT(r.reasonText(pending[0].reason), Catch::Contains("2 Insufficient memory"));
}

TEST_CASE("MIG pods take instances of their profile; whole-GPU pods never land on MIG",
          "[resources]") {
    // Two GPUs... one n4 node cut "4g.40gb, 3g.40gb" on each GPU (80 GB family): 4g at slot 0
    // (instance 0), 3g at slot 4 (instance 1).
    //   m: 2 pods of 3g.40gb. Pod 1: every GPU has 7 free compute slices; ties to GPU 0;
    //      its 3g is instance 1. Pod 2: GPU 0 has 4 free slices but no free 3g; GPUs 1–3 have
    //      7: GPU 1, instance 1.
    //   w: 1 whole GPU: no GPU of a MIG node is ever whole; the fleet has no other: reservation.
    // Allocation: 2 instances × 3/7 over 4 GPUs = 6/28.
    GpuSharingDef mig;
    mig.mode = SharingMode::Mig;
    mig.migLayout = "4g.40gb, 3g.40gb";
    Scenario s = sharedFleet(1, "n4", mig);
    JobDef m = test::job("m", 2, 3600);
    m.traits.migProfile = "3g.40gb";
    s.jobs = {m, test::job("w", 1, 3600)};
    const Results r = test::run(s);
    const JobRecord& mj = r.jobs[test::jobIndex(r, "m")];
    const auto pods = r.placementOf(r.segments[mj.lastSegment]);
    REQUIRE(pods.size() == 2);
    CHECK(pods[0].gpuMask == 0b01);
    CHECK(pods[0].migInstance == 1);
    CHECK(pods[1].gpuMask == 0b10);
    CHECK(pods[1].migInstance == 1);
    CHECK(pods[0].migComputeSlices == 3);
    CHECK(allocationAt(r, 60) == Approx(6.0 / 28));
    const std::vector<PendingJob> pending = r.pendingAt(60);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Reservation);
}

TEST_CASE("A MIG pod asking memory gets the smallest profile with that much", "[resources]") {
    // 80 GB family, ≥ 15 GB: 1g.10gb (10) is too small; 1g.20gb (2 memory slices, 1 compute)
    // and 2g.20gb (2, 2) both have 20 GB; fewer compute slices first: 1g.20gb. The layout
    // holds one 1g.20gb (instance 0 at slot 0... written first, placed by the driver's rule).
    GpuSharingDef mig;
    mig.mode = SharingMode::Mig;
    mig.migLayout = "1g.20gb, 2g.20gb, 3g.40gb";
    Scenario s = sharedFleet(1, "n1", mig);
    JobDef j = test::job("j", 1, 3600);
    j.traits.migMemoryGb = 15;
    s.jobs = {j};
    const Results r = test::run(s);
    const JobRecord& rec = r.jobs[test::jobIndex(r, "j")];
    REQUIRE(rec.firstStartS == 0);
    CHECK(r.placementOf(r.segments[rec.lastSegment])[0].migComputeSlices == 1);
}

TEST_CASE("A short share does not take the GPUs held for the queue head", "[resources]") {
    // One 8-GPU node under MPS. A holds 6 whole GPUs for 0–1000 s; H (8 whole GPUs) comes at
    // t = 1 and is reserved for t = 1000, holding the 2 free GPUs. S (500 milli-GPU, 10 s)
    // would end in time, but a share never uses held GPUs: the hold counts a GPU as coming
    // back only when a whole holder ends, and L (500 milli-GPU, 5000 s) could then join S's
    // GPU and keep it past 1000. So S and L wait for H, which starts at 1000 as promised
    // (test::run checks the promise after every pass).
    GpuSharingDef mps;
    mps.mode = SharingMode::Mps;
    Scenario s = sharedFleet(1, "n8", mps);
    s.jobs = {test::job("A", 6, 1000, 0, 6), test::job("H", 8, 100, 1, 8), share("S", 500, 2),
              share("L", 500, 3)};
    s.jobs[2].durationS = 10;
    s.jobs[3].durationS = 5000;
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "H")].firstStartS == 1000);
    CHECK(r.jobs[test::jobIndex(r, "S")].firstStartS >= 1100);
}

TEST_CASE("A gang of shares keeps to a model that can hold all of it", "[resources]") {
    // Two models, any allowed: a tg-big node (big8) under MPS with 1 client per GPU holds
    // 8 pods; a tg node (n4) under MPS holds 4 GPUs × 10 shares of 100 = 40. A gang of
    // 9 × 100 milli-GPU fits only the tg node: placement must not start it on big8 (node 0,
    // first in order, and the fullest-fitting GPU) and then fail on the ninth pod.
    Scenario s = test::smallFleet(1, 1, "big8");
    s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
    s.pods[0].racks[0].nodes[0].sharing.mpsClients = 1;
    NodeGroupDef small;
    small.name = "small";
    small.nodeType = "n4";
    small.sharing.mode = SharingMode::Mps;
    s.pods[0].racks[0].nodes.push_back(small);
    test::resolveHardware(s);
    s.jobs = {share("gang", 100, 0, 9)};
    const Results r = test::run(s);
    const JobRecord& g = r.jobs[test::jobIndex(r, "gang")];
    REQUIRE(g.firstStartS == 0);
    for (const PodPlacement& p : r.placementOf(r.segments[g.lastSegment]))
        CHECK(p.node == 1);
}

namespace {

/// A scenario of one n4 node (4 GPUs of the 80 GB MIG family) shared as `sharing` says.
std::string oneNodeSharing(const std::string& sharing) {
    return R"({"format": "gpuplan-scenario", "formatVersion": 1, "name": "x", "horizonS": 3600,
        "topology": {"pods": [{"name": "p", "racks": [{"name": "r", "nodes": [{"name": "n",
        "nodeType": "n4", "sharing": )" +
           sharing + R"(}]}]}]}, "teams": [{"name": "t"}]})";
}

const std::string kSharingAt = "/topology/pods/0/racks/0/nodes/0/sharing";

}  // namespace

TEST_CASE("A MIG node with a layout per GPU: read, placed, drawn, written", "[resources]") {
    // One n4 node: GPUs 0–1 "7g.80gb", GPUs 2–3 seven 1g.10gb each ("migLayouts", runs in GPU
    // order). m asks 2 pods of 7g.80gb: only GPUs 0 and 1 have one. s asks 14 pods of 1g.10gb:
    // 7 on GPU 2 and 7 on GPU 3. x asks a 3g.40gb: no GPU's layout has one, even empty: pending
    // on the reservation layer. Allocation: 2 × 7/7 + 14 × 1/7 = 4 GPU-equivalents of 4 GPUs.
    const std::string ones = "1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb";
    Scenario s = parseScenario(oneNodeSharing(R"({"mode": "mig", "migLayouts": [
        {"gpus": 2, "layout": "7g.80gb"}, {"gpus": 2, "layout": ")" +
                                              ones + R"("}]})"),
                               "x.json", test::testCatalog());
    const GpuSharingDef& sharing = s.pods[0].racks[0].nodes[0].sharing;
    CHECK(sharing.migLayout.empty());
    CHECK(sharing.migLayouts == std::vector<MigLayoutRun>{{2, "7g.80gb"}, {2, ones}});
    CHECK(sharing.migLayoutOfGpu(1) == "7g.80gb");
    CHECK(sharing.migLayoutOfGpu(2) == ones);
    // Written with the same key and read back the same.
    const std::string json = scenarioToJson(s);
    CHECK_THAT(json, Catch::Contains("\"migLayouts\"") && !Catch::Contains("\"migLayout\":"));
    CHECK(parseScenario(json, "again.json", test::testCatalog()) == s);

    JobDef m = test::job("m", 2, 3600);
    m.traits.migProfile = "7g.80gb";
    JobDef small = test::job("s", 14, 3600);
    small.traits.migProfile = "1g.10gb";
    JobDef x = test::job("x", 1, 3600);
    x.traits.migProfile = "3g.40gb";
    s.jobs = {m, small, x};
    const Results r = test::run(s);
    const auto podsOf = [&](const char* name) {
        const JobRecord& j = r.jobs[test::jobIndex(r, name)];
        REQUIRE(j.firstStartS == 0);
        return r.placementOf(r.segments[j.lastSegment]);
    };
    std::map<std::uint64_t, int> mPods, sPods;  // GPU mask → pods
    for (const PodPlacement& p : podsOf("m"))
        ++mPods[p.gpuMask];
    for (const PodPlacement& p : podsOf("s"))
        ++sPods[p.gpuMask];
    CHECK(mPods == std::map<std::uint64_t, int>{{0b0001, 1}, {0b0010, 1}});
    CHECK(sPods == std::map<std::uint64_t, int>{{0b0100, 7}, {0b1000, 7}});
    CHECK(allocationAt(r, 60) == Approx(1.0));
    const std::vector<PendingJob> pending = r.pendingAt(60);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Reservation);
    // The snapshot holds each GPU's own layout (the fleet view draws it).
    const ClusterSnapshot at = r.stateAt(60);
    REQUIRE(at.migLayouts.size() == 4);
    CHECK(at.migLayouts[0]->describe() == "7g.80gb@0");
    CHECK(at.migLayouts[3]->size() == 7);
}

TEST_CASE("Per-GPU MIG layouts are refused where they do not fit", "[resources]") {
    const auto refusal = [](const std::string& sharing) {
        return test::inputErrorOf(
            [&] { parseScenario(oneNodeSharing(sharing), "x.json", test::testCatalog()); });
    };
    // The runs' GPUs must be the node type's 4.
    InputError e = refusal(R"({"mode": "mig", "migLayouts": [{"gpus": 3, "layout": "7g.80gb"}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts");
    CHECK(e.message() == "the runs' \"gpus\" add up to 3, and node type \"n4\" has 4 GPUs");
    // Each layout against the real geometry: a second 4g.40gb has no start left (4g only at 0).
    e = refusal(R"({"mode": "mig", "migLayouts": [{"gpus": 2, "layout": "7g.80gb"},
        {"gpus": 2, "layout": "4g.40gb, 4g.40gb"}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts/1/layout");
    CHECK_THAT(e.message(),
               Catch::StartsWith("MIG layout item 2 \"4g.40gb\"") && Catch::EndsWith("(on tg)"));
    // One form or the other.
    e = refusal(R"({"mode": "mig", "migLayout": "7g.80gb",
        "migLayouts": [{"gpus": 4, "layout": "7g.80gb"}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts");
    CHECK_THAT(e.message(), Catch::Contains("not both"));
    // A GPU may have no instance, but a static node needs one somewhere.
    CHECK_NOTHROW(parseScenario(oneNodeSharing(R"({"mode": "mig", "migLayouts": [
        {"gpus": 3, "layout": ""}, {"gpus": 1, "layout": "7g.80gb"}]})"),
                                "x.json", test::testCatalog()));
    e = refusal(R"({"mode": "mig", "migLayouts": [{"gpus": 4, "layout": ""}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts");
    CHECK_THAT(e.message(), Catch::StartsWith("a MIG layout needs at least one instance"));
    e = refusal(R"({"mode": "mps", "migLayouts": [{"gpus": 4, "layout": "7g.80gb"}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts");
    CHECK(e.message() == "only applies to \"mode\": \"mig\"");
    e = refusal(R"({"mode": "mig", "migLayouts": [{"gpus": 0, "layout": "7g.80gb"}]})");
    CHECK(e.place() == kSharingAt + "/migLayouts/0/gpus");
}
