// Dynamic MIG (engine/README.md, "Resource model"): idle GPUs of a dynamic MIG node group are
// re-cut for MIG requests still pending after a pass, out of service for the group's
// reconfiguration time (the provisioning layer), then serve the request.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One node of 8 × tg (80 GB, the H100-80 profile names), every GPU cut as `layout`.
Scenario migNode(const std::string& layout, bool dynamic, double reconfigureS = 300) {
    Scenario s = test::smallFleet(1, 1, "n8");
    GpuSharingDef& sharing = s.pods[0].racks[0].nodes[0].sharing;
    sharing.mode = SharingMode::Mig;
    sharing.migLayout = layout;
    sharing.migDynamic = dynamic;
    sharing.migReconfigureS = reconfigureS;
    return s;
}

JobDef instances(const std::string& name, const std::string& profile, int pods, double submitS) {
    JobDef j = test::job(name, pods, 3600, submitS);
    j.traits.migProfile = profile;
    return j;
}

int countOf(const std::string& layout, const std::string& profile) {
    int n = 0;
    for (std::size_t at = layout.find(profile); at != std::string::npos;
         at = layout.find(profile, at + 1))
        ++n;
    return n;
}

}  // namespace

TEST_CASE("Dynamic MIG re-cuts an idle GPU for a pending profile", "[mig][dynamic]") {
    // Every GPU is one 7g.80gb. "big" takes all 8 at t = 0 for an hour.
    //   small (3 × 1g.10gb, t = 60): no 1g instance exists and no GPU is idle: it waits.
    //   t = 3600: big ends, all 8 GPUs idle. The pass finds no 1g instance, so GPU 0 (the
    //   lowest idle) is re-cut: 3 × 1g.10gb (what small still needs; one GPU holds 7), then
    //   the old 7g.80gb again where it fits — it does not (it needs all 8 memory slices).
    //   GPU 0 is out of service 300 s: small starts at 3600 + 300 = 3900.
    //   mid (2 × 3g.40gb, t = 4000): GPUs 1–7 are idle 7g.80gb; GPU 1 is re-cut to
    //   2 × 3g.40gb (a GPU holds 2), ready at 4300, and mid starts then.
    Scenario s = migNode("7g.80gb", true);
    s.jobs = {instances("big", "7g.80gb", 8, 0), instances("small", "1g.10gb", 3, 60),
              instances("mid", "3g.40gb", 2, 4000)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "big")].firstStartS == 0);
    CHECK(r.jobs[test::jobIndex(r, "small")].firstStartS == 3900);
    CHECK(r.jobs[test::jobIndex(r, "mid")].firstStartS == 4300);
    REQUIRE(r.migRecuts.size() == 2);
    CHECK(r.migRecuts[0].startS == 3600);
    CHECK(r.migRecuts[0].readyS == 3900);
    CHECK(r.migRecuts[0].slot == 0);
    CHECK(countOf(r.migRecuts[0].layout, "1g.10gb") == 3);
    CHECK(countOf(r.migRecuts[0].layout, "7g.80gb") == 0);
    CHECK(r.migRecuts[1].slot == 1);
    CHECK(r.migRecuts[1].readyS == 4300);
    CHECK(countOf(r.migRecuts[1].layout, "3g.40gb") == 2);
    // small's three pods are all on GPU 0, each a 1g instance (1 of 7 compute slices).
    const RunSegment& seg = r.segments[r.jobs[test::jobIndex(r, "small")].lastSegment];
    for (const PodPlacement& pod : r.placementOf(seg)) {
        CHECK(pod.gpuMask == 1u);
        CHECK(pod.migComputeSlices == 1);
    }
}

TEST_CASE("Dynamic MIG keeps the old instances that still fit beside the new ones",
          "[mig][dynamic]") {
    // Each GPU: 4g.40gb + 3g.40gb. A one-pod 1g.10gb job at t = 0: no 1g exists and GPU 0 is
    // idle, so it is re-cut: one 1g.10gb first — nvidia-smi's choice on an empty GPU is
    // memory slot 6 (MigLayout::autoStart) — then the old instances, largest first: 4g.40gb
    // at its only start, slot 0 (slots 0–3 free); 3g.40gb needs slots 4–7 and slot 6 is
    // taken, so it is left out. The new layout holds 1g + 4g.
    Scenario s = migNode("4g.40gb, 3g.40gb", true, 0);
    s.jobs = {instances("one", "1g.10gb", 1, 0)};
    const Results r = test::run(s);
    REQUIRE(r.migRecuts.size() == 1);
    CHECK(countOf(r.migRecuts[0].layout, "1g.10gb") == 1);
    CHECK(countOf(r.migRecuts[0].layout, "4g.40gb") == 1);
    CHECK(countOf(r.migRecuts[0].layout, "3g.40gb") == 0);
    // No reconfiguration time: it starts at the instant it asked.
    CHECK(r.jobs[test::jobIndex(r, "one")].firstStartS == 0);
}

TEST_CASE("Without dynamic MIG a profile the layout lacks never fits", "[mig][dynamic]") {
    Scenario s = migNode("7g.80gb", false);
    s.jobs = {instances("small", "1g.10gb", 1, 0)};
    const Results r = test::run(s);
    CHECK(r.jobs[test::jobIndex(r, "small")].firstStartS < 0);
    CHECK(r.migRecuts.empty());
    const auto pending = r.pendingAt(600);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Reservation);
}

TEST_CASE("A GPU being re-cut is the provisioning layer, and says when it is ready",
          "[mig][dynamic]") {
    // Dynamic GPUs start uncut (an empty layout is allowed when dynamic). A 2 × 2g.20gb job
    // at t = 0: GPU 0 is cut to 2 × 2g.20gb (it needs 2; one GPU holds 3), ready at the
    // default 180 s. At t = 100 it waits on the provisioning layer.
    Scenario s = migNode("", true, GpuSharingDef{}.migReconfigureS);
    s.jobs = {instances("pair", "2g.20gb", 2, 0)};
    const Results r = test::run(s);
    CHECK(GpuSharingDef{}.migReconfigureS == 180);
    CHECK(r.jobs[test::jobIndex(r, "pair")].firstStartS == 180);
    REQUIRE(r.migRecuts.size() == 1);
    CHECK(countOf(r.migRecuts[0].layout, "2g.20gb") == 2);
    // Diagnosis at the sample after the arrival (samples every 60 s): provisioning.
    const auto pending = r.pendingAt(120);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].layer == Layer::Provisioning);
    CHECK_THAT(r.reasonText(pending[0].reason),
               Catch::Contains("MIG reconfiguration") && Catch::Contains("ready in"));
}

TEST_CASE("Dynamic MIG runs are deterministic and keep every invariant", "[mig][dynamic]") {
    // A stream of mixed profiles on 2 dynamic nodes: test::run checks the books (instances,
    // idle GPUs, allocation) after every event; two runs give one fingerprint.
    Scenario s = migNode("3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb", true, 120);
    s.pods[0].racks[0].nodes[0].count = 2;
    const std::vector<std::string> profiles = {"1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb",
                                               "7g.80gb"};
    for (std::size_t i = 0; i < profiles.size(); ++i) {
        JobClassDef c = test::jobClass("c" + profiles[i], 1, 6, 1800);
        c.traits.migProfile = profiles[i];
        s.jobClasses.push_back(c);
    }
    const Results a = test::run(s);
    const Results b = test::run(s);
    CHECK(a.fingerprint == b.fingerprint);
    CHECK(!a.migRecuts.empty());
    for (const MigRecutRecord& rc : a.migRecuts)
        CHECK(rc.readyS == rc.startS + 120);
}

TEST_CASE("Dynamic MIG keys are read, written and refused where they do not apply",
          "[mig][dynamic][scenario-io]") {
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog/catalog.json");
    Scenario s = loadScenario(test::testDataDir() / "valid-sharing.json", catalog);
    for (auto& g : s.pods[0].racks[0].nodes)
        if (g.sharing.mode == SharingMode::Mig) {
            g.sharing.migDynamic = true;
            g.sharing.migReconfigureS = 42;
            g.sharing.migLayout = "";
        }
    const Scenario back = parseScenario(scenarioToJson(s), "round-trip.json", catalog);
    CHECK(back.pods == s.pods);
    // "dynamic" on an MPS group, and a reconfiguration time past a day, are refused.
    std::string text = scenarioToJson(s);
    const auto mps = text.find("\"mpsClients\"");
    REQUIRE(mps != std::string::npos);
    std::string withDynamic = text;
    withDynamic.insert(mps, "\"dynamic\": true, ");
    CHECK_THROWS_WITH(parseScenario(withDynamic, "dynamic-on-mps.json", catalog),
                      Catch::Contains("only applies to \"mode\": \"mig\""));
    std::string longRecut = text;
    const auto at = longRecut.find("\"reconfigureS\": 42");
    REQUIRE(at != std::string::npos);
    longRecut.replace(at, std::string("\"reconfigureS\": 42").size(), "\"reconfigureS\": 1000000");
    CHECK_THROWS_WITH(parseScenario(longRecut, "long-recut.json", catalog),
                      Catch::Contains("reconfigureS"));
}
