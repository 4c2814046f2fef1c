#include <catch2/catch.hpp>
#include <filesystem>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

struct Malformed {
    const char* file;
    const char* place;    // JSON pointer, or a prefix of "line L, column C"
    const char* message;  // a part of the message
};

// Every file is a small edit of ../valid-minimal.json (which must load) that breaks one rule.
const Malformed kMalformed[] = {
    {"truncated", "line ", "the file ends too early (truncated?)"},
    // valid-minimal.json, then "\0garbage": nlohmann's lexer took the NUL for the end.
    {"nul-after-document", "line 61, column 2", "NUL byte"},
    // "]}\0" closes the document before "jobs" (line 51, column 4): jobs silently dropped.
    {"nul-before-jobs", "line 51, column 4", "NUL byte"},
    // A second object after the document, on line 62.
    {"trailing-garbage", "line 62, column 1", "unexpected text after the JSON document"},
    {"empty", "line 1, column 1", "the file ends too early (truncated?)"},
    {"not-json", "line 1, column 1", "invalid JSON"},
    {"nan-value", "line ", "invalid JSON"},
    {"deep-nesting", "/x/0/0/0", "nested deeper than 64 levels"},
    // The second "seed" comes after "horizonS": the pointer is the duplicate's, not the key's
    // before it.
    {"duplicate-key", "/seed", "duplicate key \"seed\""},
    {"top-level-array", "/", "expected an object, got an array"},
    {"unknown-key", "/topolgy", "unknown key \"topolgy\""},
    {"wrong-type", "/horizonS", "expected a number, got a string"},
    {"missing-topology", "/", "missing required key \"topology\""},
    {"negative-count", "/topology/pods/0/racks/0/nodes/0/count",
     "must be between 1 and 200000, got -4"},
    {"fractional-count", "/topology/pods/0/racks/0/count", "expected an integer, got 2.5"},
    // 1000 pods × 2 racks × 1000 nodes = 2,000,000 nodes.
    {"absurd-fleet", "/topology/pods/0/racks/0/nodes/0",
     "the fleet would have 2,000,000 nodes; at most 200,000"},
    {"empty-pods", "/topology/pods", "a fleet needs at least one pod"},
    {"unknown-node-type", "/topology/pods/0/racks/0/nodes/0/nodeType",
     "unknown node type \"dgx-h900\""},
    {"duplicate-node-names", "/topology", "duplicate node name pod-rack0-node0"},
    {"node-type-shadows-catalog", "/nodeTypes/0/id", "node type \"dgx-h100\" is the catalog's"},
    {"node-type-unknown-gpu", "/nodeTypes/0/gpuModel",
     "unknown GPU model \"h900\" (not in the catalog)"},
    {"node-type-duplicate-id", "/nodeTypes/1/id", "duplicate node type id \"imported-h100-8gpu\""},
    {"node-type-negative-cpu", "/nodeTypes/0/cpuCores", "-1"},
    {"node-type-unknown-key", "/nodeTypes/0/gpus", "unknown key \"gpus\""},
    {"ready-at-without-provisioning", "/topology/pods/0/racks/0/nodes/0/readyAtS",
     "\"readyAtS\" only applies to \"state\": \"provisioning\""},
    {"ready-at-zero", "/topology/pods/0/racks/0/nodes/0/readyAtS", "must be after 0"},
    {"unknown-gpu-model", "/jobClasses/0/gpuModel", "unknown GPU model \"h900\""},
    {"unknown-team", "/jobs/0/team", "unknown team \"ghost\""},
    {"duplicate-team", "/teams/1/name", "duplicate team \"t\""},
    {"bad-name", "/teams/0/name", "may only use letters, digits"},
    {"format-version-2", "/formatVersion", "format version 2 is not supported"},
    {"wrong-format", "/format", "expected \"gpuplan-scenario\""},
    {"bad-enum", "/scheduler/placement",
     "unknown value \"random\" (expected one of \"pack\", \"spread\", \"topology\")"},
    {"empirical-mismatch", "/jobClasses/0/gpus/weights",
     "needs one weight per value (3 values, 2 weights)"},
    {"min-above-max", "/jobClasses/0/durationS/max", "\"max\" must not be below \"min\""},
    {"sm-activity-above-one", "/jobClasses/0/smActivity", "must be between 0 and 1, got 1.5"},
    // A 250 milli-GPU share 80 % active keeps 0.8 × 0.25 = 0.2 of the SMs busy: its kernels run
    // at least 0.2 of the time, so an engine activity of 0.15 is impossible.
    {"engine-active-below-sm-activity", "/jobClasses/0/engineActive",
     "engine activity 0.15 is below the SM activity it implies, 0.2 (smActivity 0.8 × 250 "
     "milli-GPU)"},
    // A DGX A100 fleet: an A100 has no FP8 tensor cores (reference hardware.md §1).
    {"fp8-on-gpu-without-fp8", "/jobClasses/0/precision",
     "FP8 needs FP8 tensor cores, and a100-40gb-sxm has none"},
    {"arrival-wrong-field", "/jobClasses/0/arrival/amplitude", "unknown key \"amplitude\""},
    {"rate-too-high", "/jobClasses/0", "jobs in the horizon (limit 5000000)"},
    {"too-many-samples", "/sampleIntervalS", "more than 1000000 samples"},
    {"pin-unknown-node", "/jobs/0/pin", "no node named \"nowhere\" in the topology"},
    {"pin-two-targets", "/jobs/0/pin", "a pin names exactly one of"},
    // Two racks of two 8-GPU nodes: a node has 8 GPUs, a rack 16, no node an A100.
    {"pin-too-many-gpus-for-node", "/jobs/0",
     "job \"too-big\" can never run on node \"pod-rack0-node1\": it asks 16 GPUs per pod and the "
     "node has 8"},
    {"pin-wrong-gpu-model", "/jobs/0",
     "job \"wrong-model\" can never run on rack \"pod-rack0\": it asks GPU model a100-80gb-sxm "
     "and no node there has it"},
    {"pin-gang-larger-than-rack", "/jobClasses/0",
     "job class \"gang\" can never run on rack \"pod-rack0\": it asks 64 GPUs (8 pods of 8) and, "
     "even empty and healthy, the rack holds 2 such pods (16 GPUs)"},
    {"gpus-not-multiple", "/jobs/0/gpus", "must be a multiple of gpusPerPod (8)"},
    // Resource model: sharing modes per node group, shares and MIG instances per pod.
    {"sharing-mig-layout-refused", "/topology/pods/0/racks/0/nodes/0/sharing/migLayout",
     "at most 1 × 4g.40gb"},
    {"sharing-mig-without-geometry", "/topology/pods/0/racks/0/nodes/0/sharing/mode",
     "GPU model \"gb200\" of node type \"gb200-nvl72-tray\" has no MIG geometry"},
    {"sharing-replicas-under-mps", "/topology/pods/0/racks/0/nodes/0/sharing/replicas",
     "only applies to \"mode\": \"time-slicing\""},
    {"sharing-mps-compute-cap-zero", "/topology/pods/0/racks/0/nodes/0/sharing/mpsComputeCapPct",
     "must be between 1 and 100"},
    {"sharing-mps-memory-limit-negative",
     "/topology/pods/0/racks/0/nodes/0/sharing/mpsMemoryLimitGb", "must be between 0 and"},
    {"sharing-compute-cap-under-time-slicing",
     "/topology/pods/0/racks/0/nodes/0/sharing/mpsComputeCapPct",
     "only applies to \"mode\": \"mps\""},
    // GpuSharingDef's ranges: 48 MPS clients (Volta and later), 2–64 time-slicing replicas.
    {"sharing-mps-clients-too-many", "/topology/pods/0/racks/0/nodes/0/sharing/mpsClients",
     "must be between 1 and 48"},
    {"sharing-replicas-too-many", "/topology/pods/0/racks/0/nodes/0/sharing/replicas",
     "must be between 2 and 64"},
    {"job-gpu-share-with-pod-size", "/jobs/0/gpusPerPod", "has one GPU (gpusPerPod 1)"},
    {"job-mig-profile-unknown", "/jobs/0/migProfile",
     "no MIG-capable GPU has a profile \"5g.50gb\""},
    {"job-mig-and-gpu-share", "/jobs/0/gpuMilli", "a MIG pod takes an instance"},
    {"negative-duration", "/jobs/0/durationS", "must be between 1 and"},
    {"negative-seed", "/seed", "expected a non-negative integer"},
    {"missing-trace", "/traces/0/file", "trace file \"nope/missing.csv\" not found"},
    // A trace path with a NUL: the part before it (a real trace) must not be read. A folder or
    // a device is refused at the key that names it, as a missing file is.
    {"trace-path-nul", "/traces/0/file",
     "the trace file \"../traces/one-job.csv\\u0000.json\" holds a NUL byte, which no file "
     "name can"},
    {"trace-path-folder", "/traces/0/file", "/: is a folder, not a regular file"},
    {"trace-path-device", "/traces/0/file", "/dev/null: is a character device, not a regular file"},
    // A fleet from an openb node list (topology.nodeList) and an openb pod list replayed.
    {"openb-node-list-and-pods", "/topology/pods", "give \"pods\" or \"nodeList\", not both"},
    {"openb-node-list-missing", "/topology/nodeList/file",
     "node list \"openb/no-such-node-list.csv\" not found"},
    {"openb-trace-gpu-milli-trait", "/traces/0/gpuMilli",
     "an openb pod list gives each pod's own \"gpuMilli\""},
    {"openb-trace-model-not-in-fleet", "/traces/0/file",
     "pod pod-1 allows GPU model \"V100M16\" (gpu_spec), which no node of the fleet has"},
    // 30 events on a pod of 100,000 nodes would change 3 M node states.
    {"node-event-explosion", "/nodeEvents/20/node",
     "node events change more than 2000000 node states"},
    // Quotas and cohorts (edits of ../valid-quotas.json).
    {"quota-unknown-team", "/quotas/0/team", "unknown team \"nobody\""},
    {"quota-second-for-team", "/quotas/3/team", "a second quota for team \"w\""},
    {"quota-unknown-cohort", "/quotas/0/cohort", "unknown cohort \"mll\""},
    {"quota-unknown-gpu", "/quotas/1/flavors/0/gpuModel", "no node of the fleet has GPU model"},
    {"quota-lends-above-nominal", "/quotas/0/flavors/0/lendingLimitGpus",
     "lends more than its nominal quota of 16 GPUs"},
    {"quota-borrows-without-cohort", "/quotas/2/flavors/0/borrowingLimitGpus",
     "borrowing needs a cohort"},
    {"quota-negative-nominal", "/quotas/2/flavors/0/nominalGpus", "must be between 0"},
    {"quota-duplicate-flavor", "/quotas/2/flavors/1/gpuModel", "a second quota for GPU model"},
    {"cohort-cycle", "/cohorts/0/parent", "is its own ancestor"},
    {"cohort-unknown-parent", "/cohorts/1/parent", "unknown cohort \"orgg\""},
    {"quota-bad-reclaim", "/quotas/0/reclaimWithinCohort", "unknown value \"Sometimes\""},
    {"thrashing-preemptions-zero", "/scheduler/thrashingPreemptions", "must be between 1"},
    {"starvation-wait-negative", "/scheduler/starvationWaitS", "must be between 1"},
    {"preemption-grace-two-days", "/scheduler/preemptionGraceS", "must be between 0"},
    // Prices: every node group needs one for its model and class; a book is dated.
    {"pricing-no-spot-price", "/topology/pods/0/racks/0/nodes/0/buyingClass",
     "no spot price for GPU model \"h100-sxm\" in the scenario's pricing (book \"test book\")"},
    {"pricing-group-price-without-pricing", "/topology/pods/0/racks/0/nodes/0",
     "usdPerGpuHour needs the scenario's \"pricing\""},
    // A name printed as it is (gpuplan-cli run's first line) would end at the NUL.
    {"name-with-nul", "/name", "the text holds a NUL byte"},
    {"pricing-bad-date", "/pricing/asOf", "\"2026-13-01\" has no month 13 (1 to 12)"},
    // Not any day 1-31: February 2026 has 28.
    {"pricing-day-not-in-month", "/pricing/asOf",
     "\"2026-02-31\" is not a day of the calendar (2026-02 has 28 days)"},
    {"pricing-negative-price", "/pricing/gpuModels/0/usdPerGpuHour/on-demand", "must be between 0"},
    {"pricing-unknown-class", "/pricing/gpuModels/0/usdPerGpuHour/cheap", "unknown key"},
    {"pricing-duplicate-model", "/pricing/gpuModels/1/gpuModel", "a second price list"},
    {"preemption-policy-typo", "/jobClasses/0/preemptionPolicy", "unknown value \"never\""},
    {"checkpoint-interval-negative", "/jobClasses/0/checkpointIntervalS", "must be between 0"},
    // Buying, spot and failures (edits of ../valid-pricing.json: 10 nodes, no spot price in
    // the book; its spot group has its own).
    {"checkpoint-cost-without-interval", "/jobClasses/0/checkpointCostS",
     "a checkpoint cost needs \"checkpointIntervalS\""},
    {"spot-interruption-certain", "/spot/monthlyInterruptionFraction", "must be between"},
    {"elastic-not-above-gpus", "/jobs/0/elastic/maxGpus", "maxGpus must be more"},
    {"elastic-gpu-share", "/jobClasses/0/elastic", "grows by whole GPUs"},
    {"spot-without-return", "/spot", "returnS"},
    {"on-demand-without-delay", "/onDemand", "provisioningDelayS"},
    {"buying-mix-larger-than-fleet", "/buyingMix", "more than the fleet's 10 nodes"},
    {"buying-mix-spot-unpriced", "/buyingMix", "the mix buys spot h100-sxm nodes"},
    // An empty fill order would fill no class first.
    {"fill-order-empty", "/buyingMix/fillOrder", "an empty fill order: list the classes"},
    // A NIC count of 1.5 is refused, not cut to 1.
    {"node-type-nic-count-fraction", "/nodeTypes/0/nicCount", "expected an integer, got 1.5"},
    {"hot-spares-more-than-nodes", "/failures/hotSpareNodes", "more than the fleet's 10 nodes"},
    {"warmup-past-horizon", "/warmupS", "must be shorter than horizonS"},
};

}  // namespace

TEST_CASE("the minimal valid scenario loads") {
    const Scenario s = loadScenario(test::testDataDir() / "valid-minimal.json", catalog());
    CHECK(s.name == "base");
    CHECK(s.nodeTypes.size() == 1);
    CHECK(s.gpuModels.at(0).id == "h100-sxm");
}

TEST_CASE("sharing modes, shares, MIG instances and host resources load and write back") {
    const Scenario s = loadScenario(test::testDataDir() / "valid-sharing.json", catalog());
    const auto& groups = s.pods[0].racks[0].nodes;
    REQUIRE(groups.size() == 4);
    CHECK(groups[0].sharing.mode == SharingMode::Whole);
    CHECK(groups[1].sharing.mode == SharingMode::Mps);
    CHECK(groups[1].sharing.mpsClients == 8);
    CHECK(groups[1].sharing.mpsComputeCapPct == 25);
    CHECK(groups[1].sharing.mpsMemoryLimitGb == 20);
    CHECK(groups[2].sharing.mode == SharingMode::TimeSlicing);
    CHECK(groups[2].sharing.timeSliceReplicas == 3);
    CHECK(groups[3].sharing.migLayout == "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb");
    CHECK(s.jobs[0].traits.cpuMilliPerPod == 16000);
    CHECK(s.jobs[0].traits.memoryMiBPerPod == 65536);
    CHECK(s.jobs[1].traits.gpuMilli == 300);
    CHECK(s.jobs[2].traits.migProfile == "1g.10gb");
    CHECK(s.jobs[3].traits.migMemoryGb == 15);
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog()) == s);
}

TEST_CASE("a scenario's own node types load, size the nodes and write back") {
    // valid-minimal.json's fleet on a node type of the scenario's own: 4 × H100 with
    // 191.45 cores and 1000.5 GiB (what an imported node reports allocatable).
    std::string text = readTextFile(test::testDataDir() / "valid-minimal.json");
    const std::string type = "\"dgx-h100\"";
    text.replace(text.find(type), type.size(), "\"own-h100\"");
    text.insert(text.find("\"topology\""),
                R"("nodeTypes": [{"id": "own-h100", "gpuModel": "h100-sxm", "gpusPerNode": 4,
                   "cpuCores": 191.45, "ramGb": 1000.5}], )");
    const Scenario s = parseScenario(text, "own.json", catalog());
    REQUIRE(s.definedNodeTypes.size() == 1);
    CHECK(s.definedNodeTypes[0].name == "own-h100");  // no name: the id
    CHECK(s.findNodeType("own-h100"));
    const Fleet fleet = Fleet::build(s);
    CHECK(fleet.nodes.at(0).gpus == 4);
    CHECK(fleet.nodes.at(0).cpuMilli == 191450);    // 191.45 × 1000
    CHECK(fleet.nodes.at(0).memoryMiB == 1024512);  // 1000.5 × 1024
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog()) == s);
}

TEST_CASE("prices: a book's by model and class, a group's own, and they round-trip") {
    const Scenario s = loadScenario(test::testDataDir() / "valid-pricing.json", catalog());
    REQUIRE(s.pricing);
    CHECK(s.pricing->book == "test book");
    CHECK(s.pricing->asOf == "2026-08-06");
    const GpuPriceDef* h100 = s.pricing->find("h100-sxm");
    REQUIRE(h100);
    CHECK(h100->of(BuyingClass::Reserved) == 4.3);
    CHECK(h100->of(BuyingClass::OnDemand) == 6.88);
    CHECK(h100->of(BuyingClass::OnPrem) == 1.25);
    CHECK_FALSE(h100->of(BuyingClass::Spot));
    const auto& groups = s.pods[0].racks[0].nodes;
    REQUIRE(groups.size() == 4);
    CHECK(groups[2].buyingClass == BuyingClass::OnPrem);
    CHECK(groups[3].usdPerGpuHour == 2.5);  // spot at its own price: the book has none
    // The fleet's nodes carry their prices: the racks' 2 × (2 + 1 + 1 + 1) nodes.
    const Fleet f = Fleet::build(s);
    CHECK(f.priced);
    CHECK(f.nodes[0].usdPerGpuHour == 4.3);
    CHECK(f.nodes[2].usdPerGpuHour == 6.88);
    CHECK(f.nodes[3].usdPerGpuHour == 1.25);
    CHECK(f.nodes[4].usdPerGpuHour == 2.5);
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog()) == s);
}

TEST_CASE("quotas, cohorts and preemption traits load and write back") {
    const Scenario s = loadScenario(test::testDataDir() / "valid-quotas.json", catalog());
    REQUIRE(s.cohorts.size() == 2);
    CHECK(s.cohorts[1].parent == "org");
    CHECK(s.cohorts[1].fairSharing);
    CHECK(s.cohorts[1].fairShareWeight == 2);
    CHECK(s.cohorts[1].flavors.at(0).borrowingLimitGpus == 1);
    REQUIRE(s.quotas.size() == 3);
    const QuotaDef& t = s.quotas[0];
    CHECK(t.team == "t");
    CHECK(t.cohort == "ml");
    CHECK(t.flavors.at(0).nominalGpus == 16);
    CHECK(t.flavors.at(0).borrowingLimitGpus == 8);
    CHECK(t.flavors.at(0).lendingLimitGpus == 4.5);
    CHECK(t.fairShareWeight == 2);
    CHECK(t.reclaimWithinCohort == ReclaimPolicy::Any);
    CHECK(t.withinTeam == WithinTeamPolicy::LowerOrNewerEqualPriority);
    CHECK(s.quotas[1].flavors.at(0).nominalGpus == 0.5);        // a share's worth
    CHECK_FALSE(s.quotas[1].flavors.at(0).borrowingLimitGpus);  // unset: the cohort's
    CHECK(s.quotas[2].cohort.empty());
    CHECK(s.scheduler.preemption == PreemptionMode::Priority);
    CHECK(s.scheduler.preemptionGraceS == 30);
    CHECK(s.scheduler.thrashingPreemptions == 5);
    CHECK(s.scheduler.starvationWaitS == 7200);
    CHECK(s.jobClasses[0].traits.preemptionPolicy == PreemptionPolicy::Never);
    CHECK(s.jobClasses[0].traits.checkpointIntervalS == 1800);
    CHECK(s.jobClasses[0].minAvailable == 2);
    CHECK(parseScenario(scenarioToJson(s), "again.json", catalog()) == s);
}

TEST_CASE("malformed scenarios are rejected with file, place and reason") {
    CHECK(std::size(kMalformed) >= 20);
    for (const Malformed& m : kMalformed) {
        const fs::path file = test::testDataDir() / "malformed" / (std::string(m.file) + ".json");
        INFO("file: " << file.string());
        REQUIRE(fs::exists(file));
        try {
            loadScenario(file, catalog());
            FAIL("accepted a malformed scenario");
        } catch (const InputError& e) {
            CHECK(e.file() == file.string());
            CHECK(std::string(e.place()).rfind(m.place, 0) == 0);
            CHECK_THAT(e.message(), Catch::Contains(m.message));
            CHECK_THAT(std::string(e.what()), Catch::StartsWith(file.string() + ": "));
        }
    }
}

TEST_CASE("keys holding NUL, control characters or non-UTF-8 are printed escaped, not cut") {
    // {"se\u0000ed": 1} is a key "se", NUL, "ed": printed raw, the message would end at the
    // NUL ("error: FILE: /se"). Each key below is unknown; the pointer and message show it escaped.
    const std::string valid = readTextFile(test::testDataDir() / "valid-minimal.json");
    auto error = [&](const std::string& key) {
        try {  // valid-minimal.json with `"KEY": 1,` after its first brace
            parseScenario("{\"" + key + "\": 1," + valid.substr(1), "s.json", catalog());
        } catch (const InputError& e) {
            return std::make_pair(e.place(), std::string(e.what()));
        }
        return std::make_pair(std::string("accepted"), std::string());
    };
    const auto [nulPlace, nulWhat] = error("se\\u0000ed");
    CHECK(nulPlace == "/se\\u0000ed");
    CHECK_THAT(nulWhat, Catch::StartsWith("s.json: /se\\u0000ed: unknown key \"se\\u0000ed\""));
    CHECK(nulWhat.find('\0') == std::string::npos);
    // ESC written raw is invalid JSON; written \u001b it is a key holding ESC.
    CHECK(error("red\\u001b[31m").first == "/red\\u001b[31m");
    // A raw 0xff byte is not UTF-8: nlohmann refuses it, and its message quotes the byte
    // escaped (not copied raw).
    const auto [badPlace, badWhat] = error("k\xff");
    CHECK(badPlace == "line 1, column 4");
    CHECK_THAT(badWhat, Catch::Contains("\\xff"));
    CHECK(badWhat.find('\xff') == std::string::npos);
    // A duplicate key holding NUL: reported at the duplicate, escaped.
    CHECK_THROWS_WITH(parseScenario("{\"a\": 1, \"n\\u0000\": 1, \"b\": 2, \"n\\u0000\": 3}",
                                    "s.json", catalog()),
                      "s.json: /n\\u0000: duplicate key \"n\\u0000\"");
}

TEST_CASE("a NUL byte or trailing text in a catalog is refused like in a scenario") {
    const std::string text = readTextFile(test::presetsDir() / "catalog" / "catalog.json");
    CHECK_NOTHROW(parseCatalog(text + "\n  \n", "c.json"));  // trailing whitespace is fine
    CHECK_THROWS_WITH(parseCatalog(text + std::string(1, '\0') + "x", "c.json"),
                      Catch::StartsWith("c.json: line ") && Catch::Contains("NUL byte"));
    CHECK_THROWS_WITH(parseCatalog(text + "]", "c.json"),
                      Catch::StartsWith("c.json: line ") &&
                          Catch::EndsWith("unexpected text after the JSON document"));
}

TEST_CASE("a missing scenario file is reported, not thrown as something else") {
    CHECK_THROWS_MATCHES(loadScenario("/nonexistent/scenario.json", catalog()), InputError,
                         Catch::Matchers::Message("/nonexistent/scenario.json: file not found"));
}

TEST_CASE("save → open round-trips to an equal scenario") {
    const Scenario original =
        loadScenario(test::presetsDir() / "scenarios" / "default.json", catalog());
    const fs::path dir = test::scratchPath("gpuplan-io-test");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "copy.json";
    saveScenarioAtomic(original, file);
    const Scenario reread = loadScenario(file, catalog());
    CHECK(reread == original);
    // The canonical text is stable: writing the re-read scenario gives the same bytes.
    CHECK(scenarioToJson(reread) == scenarioToJson(original));
    // The atomic save leaves no temporary file behind, and overwriting works.
    saveScenarioAtomic(reread, file);
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++entries;
    CHECK(entries == 1);
    fs::remove_all(dir);
}

TEST_CASE("a scenario built in code is validated by the same rules") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.pods[0].racks[0].nodes[0].nodeType = "dgx-h100";
    test::resolveHardware(s, catalog());
    CHECK_NOTHROW(validateScenario(s, catalog()));
    s.pods[0].racks[0].nodes[0].count = -1;
    CHECK_THROWS_AS(validateScenario(s, catalog()), InputError);
}

TEST_CASE("the demand multiplier is written only when not 1, read back, and bounded") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.pods[0].racks[0].nodes[0].nodeType = "dgx-h100";
    test::resolveHardware(s, catalog());
    CHECK(scenarioToJson(s).find("demandMultiplier") == std::string::npos);
    s.demandMultiplier = 1.3;
    CHECK_THAT(scenarioToJson(s), Catch::Contains("\"demandMultiplier\": 1.3"));
    CHECK(parseScenario(scenarioToJson(s), "s", catalog()).demandMultiplier == 1.3);
    for (double bad : {0.0, -1.0, 100.5}) {
        INFO("multiplier " << bad);
        s.demandMultiplier = bad;
        try {
            validateScenario(s, catalog());
            FAIL("accepted demand multiplier " << bad);
        } catch (const InputError& e) {
            CHECK(e.place() == "/demandMultiplier");
        }
    }
    // A class of 1000 jobs/h over a day is 24,000 jobs; × 100 would be 2.4 M, still allowed;
    // 30,000 jobs/h × 100 over a day would be 72 M, over the 5 M per-class limit.
    s.demandMultiplier = 100;
    s.jobClasses = {test::jobClass("c", 1, 1000, 60)};
    CHECK_NOTHROW(validateScenario(s, catalog()));
    s.jobClasses[0].arrival.ratePerHour = 30000;
    CHECK_THROWS_WITH(validateScenario(s, catalog()), Catch::Contains("limit 5000000"));
}

TEST_CASE("the catalog holds the reference GPUs and node types with their sources") {
    const Catalog& c = catalog();
    const GpuModel* h100 = c.findGpu("h100-sxm");
    REQUIRE(h100);
    CHECK(h100->bf16DenseTflops == Approx(989.4));  // dense, not the 2:4-sparse headline
    CHECK(h100->hbmGb == 80);
    CHECK_FALSE(h100->sources.empty());
    // GPU Feature Discovery's nvidia.com/gpu.product for it (a Kueue flavor's node label).
    CHECK(h100->productLabels == std::vector<std::string>{"NVIDIA-H100-80GB-HBM3"});
    const NodeType* dgx = c.findNodeType("dgx-h100");
    REQUIRE(dgx);
    CHECK(dgx->gpusPerNode == 8);
    CHECK(dgx->fabricGBpsPerGpu() == Approx(50));  // 8 × 400 Gb/s ÷ 8 bit ÷ 8 GPUs
    const NodeType* tray = c.findNodeType("gb200-nvl72-tray");
    REQUIRE(tray);
    CHECK(tray->nvlinkDomain == NvlinkDomain::Rack);
    CHECK(tray->nodesPerNvlinkDomain * tray->gpusPerNode == 72);
}

TEST_CASE("a malformed catalog is rejected with its place") {
    CHECK_THROWS_WITH(parseCatalog(R"({"format": "gpuplan-catalog", "formatVersion": 1,
        "asOf": "x", "sources": {}, "gpuModels": [{"id": "g"}], "nodeTypes": []})",
                                   "cat.json"),
                      Catch::Contains("cat.json: /gpuModels/0: missing required key \"name\""));
    // A product label names one GPU model, whatever its case.
    const std::string model = R"("name": "G", "vendor": "v", "bf16DenseTflops": 1, "hbmGb": 1,
        "hbmTbps": 1, "nvlinkGBps": 0, "tdpW": 1, "migMaxInstances": 0)";
    CHECK_THROWS_WITH(
        parseCatalog(R"({"format": "gpuplan-catalog", "formatVersion": 1, "asOf": "x",
            "sources": {}, "nodeTypes": [], "gpuModels": [
            {"id": "a", "productLabels": ["NVIDIA-X"], )" +
                         model + R"(},
            {"id": "b", "productLabels": ["nvidia-x"], )" +
                         model + "}]}",
                     "cat.json"),
        "cat.json: /gpuModels/1/productLabels/0: product label \"nvidia-x\" is already GPU "
        "model \"a\"'s");
}

TEST_CASE("randomly damaged scenarios are rejected cleanly, never crash") {
    // Byte-level damage to the default preset (flips, deletions, duplications, digits in
    // odd places): every variant either loads or is rejected with an InputError; no other
    // exception escapes and nothing crashes (CI also runs this under ASan and UBSan).
    const std::string original = readTextFile(test::presetsDir() / "scenarios" / "default.json");
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return state >> 33;
    };
    int rejected = 0, loaded = 0;
    for (int round = 0; round < 600; ++round) {
        std::string text = original;
        const int edits = 1 + static_cast<int>(next() % 4);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const std::size_t at = next() % text.size();
            switch (next() % 4) {
                case 0:
                    text[at] = static_cast<char>(next() % 128);
                    break;
                case 1:
                    text.erase(at, 1 + next() % 8);
                    break;
                case 2:
                    text.insert(at, text.substr(at, 1 + next() % 16));
                    break;
                case 3:
                    text.insert(at, std::to_string(next() % 100000));
                    break;
            }
        }
        try {
            const Scenario s = parseScenario(text, "damaged.json", catalog());
            ++loaded;
            RunOptions o;
            o.diagnosePending = false;
            o.checkInvariants = true;
            simulate(s, o);  // whatever loads must also run
        } catch (const InputError& e) {
            ++rejected;
            CHECK_THAT(std::string(e.what()), Catch::StartsWith("damaged.json: "));
        }
    }
    CHECK(rejected > 300);
}
