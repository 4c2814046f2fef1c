// gpuplan-cli import-k8s's engine side: tests/data/k8s/nodes.json and pods.json, modelled on
// `kubectl get nodes -o json` / `kubectl get pods -A -o json` of an EKS cluster with the NVIDIA
// GPU operator, into an ImportedFleet and the scenario the builder makes of it.
// The fixture's nodes:
//   gpu-h100-a1  8 × H100, EKS layer-2 nn-spine-1 / layer-3 nn-leaf-1, the GPU taint only
//   gpu-h100-a2  same rack, cordoned (spec.unschedulable), runs pod drain-me
//   gpu-h100-b1  nn-leaf-2, Ready condition False (KubeletNotReady)
//   gpu-h100-b2  nn-leaf-2, tainted maintenance=nvlink:NoSchedule (and a PreferNoSchedule)
//   gpu-a100-mig 2 × A100 40GB, mixed MIG: 2 each of 3g.20gb, 2g.10gb, 1g.5gb; no topology
//   gpu-l4-ts    1 × L4 time-sliced into 4 replicas ("NVIDIA-L4-SHARED"); no topology
//   cpu-0        no GPU;  mi300-0  amd.com/gpu only
#include <catch2/catch.hpp>

#include <functional>

#include "gpuplan/import/fleet_import.hpp"
#include "gpuplan/import/k8s_import.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

std::filesystem::path fixture(const std::string& name) {
    return test::testDataDir() / "k8s" / name;
}

ImportedFleet importFixture(const K8sImportOptions& options = {}, bool withPods = true) {
    return importK8sFiles(catalog(), fixture("nodes.json"),
                          withPods ? std::optional(fixture("pods.json")) : std::nullopt, options);
}

const ImportedNode& nodeNamed(const ImportedFleet& f, const std::string& name) {
    for (const ImportedNode& n : f.nodes)
        if (n.name == name) return n;
    FAIL("no node " << name);
    throw;
}

const JobDef& jobNamed(const Scenario& s, const std::string& name) {
    for (const JobDef& j : s.jobs)
        if (j.name == name) return j;
    FAIL("no job " << name);
    throw;
}

using test::inputErrorOf;

/// The fixture's nodes.json with one text replaced (it must occur).
std::string editedNodes(const std::string& from, const std::string& to) {
    std::string text = readTextFile(fixture("nodes.json"));
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

InputError nodesError(const std::string& text, const K8sImportOptions& options = {}) {
    return inputErrorOf([&] { importK8s(catalog(), {"nodes.json", text}, std::nullopt, options); });
}

bool hasLineWith(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& l : lines)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("k8s import: GPU nodes, models, CPU and memory from allocatable", "[k8s]") {
    const ImportedFleet f = importFixture({}, false);
    // 8 nodes: cpu-0 and mi300-0 are skipped, 6 GPU nodes stay.
    REQUIRE(f.nodes.size() == 6);
    const ImportedNode& a1 = nodeNamed(f, "gpu-h100-a1");
    CHECK(a1.gpuModel == "h100-sxm");      // NVIDIA-H100-80GB-HBM3 is h100-sxm's productLabel
    CHECK(a1.gpus == 8);                   // nvidia.com/gpu.count
    CHECK(a1.cpuCores == Approx(191.45));  // 191450m = 191.45 cores
    // 2097152000Ki = 2,097,152,000 × 1024 B = 2,147,483,648,000 B = 2000 × 2^30 B: 2000 GiB.
    CHECK(a1.memoryGiB == Approx(2000));
    // EKS labels: layer 2 is the pod, layer 3 (nearest the node) the rack.
    CHECK(a1.pod == "nn-spine-1");
    CHECK(a1.rack == "nn-leaf-1");
    CHECK(a1.state == NodeState::Ready);  // its nvidia.com/gpu taint is a GPU pod's own
    CHECK(a1.place == "/items/0");
    CHECK(a1.file == fixture("nodes.json").string());

    const ImportedNode& l4 = nodeNamed(f, "gpu-l4-ts");
    CHECK(l4.gpuModel == "l4");  // "NVIDIA-L4-SHARED" less "-SHARED"
    CHECK(l4.gpus == 1);
    CHECK(l4.sharing.mode == SharingMode::TimeSlicing);
    CHECK(l4.sharing.timeSliceReplicas == 4);
    CHECK(l4.cpuCores == Approx(31.85));
    CHECK(l4.memoryGiB == Approx(126));  // 126Gi
    CHECK(l4.pod.empty());

    CHECK(hasLineWith(f.summary.skipped, "2 nodes without GPUs: cpu-0, mi300-0"));
    CHECK(hasLineWith(f.summary.skipped, "mi300-0: its GPUs are not NVIDIA's"));
    CHECK(hasLineWith(f.summary.mapped, "topology.k8s.aws/network-node-layer-2"));
}

TEST_CASE("k8s import: node states from conditions, cordons and taints", "[k8s]") {
    const ImportedFleet f = importFixture({}, false);
    CHECK(nodeNamed(f, "gpu-h100-a2").state == NodeState::Cordoned);
    CHECK(nodeNamed(f, "gpu-h100-a2").stateReason == "cordoned");
    CHECK(nodeNamed(f, "gpu-h100-b1").state == NodeState::Failed);
    CHECK(nodeNamed(f, "gpu-h100-b1").stateReason == "NotReady: KubeletNotReady");
    // maintenance=nvlink:NoSchedule keeps GPU pods off; spot:PreferNoSchedule would not.
    CHECK(nodeNamed(f, "gpu-h100-b2").state == NodeState::Cordoned);
    CHECK(nodeNamed(f, "gpu-h100-b2").stateReason == "tainted maintenance=nvlink:NoSchedule");

    // Capacity 8 GPUs, allocatable 0: the device plugin finds none healthy.
    std::string text = readTextFile(fixture("nodes.json"));
    const std::string alloc = R"("nvidia.com/gpu": "8")";
    text.replace(text.find(alloc), alloc.size(), R"("nvidia.com/gpu": "0")");
    const ImportedFleet sickFleet = importK8s(catalog(), {"nodes.json", text}, std::nullopt, {});
    const ImportedNode& sick = nodeNamed(sickFleet, "gpu-h100-a1");
    CHECK(sick.gpus == 8);
    CHECK(sick.state == NodeState::Cordoned);
    CHECK_THAT(sick.stateReason, Catch::Contains("no allocatable GPUs"));

    CHECK(hasLineWith(f.summary.assumptions,
                      "1 nodes cordoned by taint maintenance: if the GPU pods tolerate it, "
                      "import with --tolerate maintenance"));

    K8sImportOptions tolerant;
    tolerant.toleratedTaints = {"maintenance"};
    CHECK(nodeNamed(importFixture(tolerant, false), "gpu-h100-b2").state == NodeState::Ready);
}

TEST_CASE("k8s import: mixed-strategy MIG resources become each GPU's layout", "[k8s]") {
    const ImportedFleet fleet = importFixture({}, false);
    const ImportedNode& mig = nodeNamed(fleet, "gpu-a100-mig");
    CHECK(mig.gpuModel == "a100-40gb-sxm");
    CHECK(mig.gpus == 2);
    CHECK(mig.sharing.mode == SharingMode::Mig);
    // 2 × 3g.20gb, 2 × 2g.10gb, 2 × 1g.5gb over 2 GPUs: one of each per GPU, largest first:
    // 3 + 2 + 1 compute slices of 7, 4 + 2 + 1 memory slices of 8, a layout an A100 40GB
    // holds (3g.20gb at slot 0, 2g.10gb at 4, 1g.5gb at 6).
    CHECK(mig.sharing.migLayout == "3g.20gb, 2g.10gb, 1g.5gb");
    CHECK(mig.cpuCores == 94);
    CHECK(mig.memoryGiB == 1024);  // 1Ti
}

TEST_CASE("k8s import: single-strategy MIG counts instances, not GPUs", "[k8s]") {
    // GFD's single strategy: the product names the one profile and nvidia.com/gpu.count (like
    // allocatable nvidia.com/gpu) counts the MIG devices: 8 A100 40GB as all-1g.5gb are
    // 8 × 7 = 56 devices. Physical GPUs = 56 ÷ 7 (1g.5gb's most per GPU) = 8.
    const std::string node = R"({"kind": "List", "items": [{"kind": "Node",
        "metadata": {"name": "a100-single", "labels": {
            "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb",
            "nvidia.com/gpu.count": "56", "nvidia.com/mig.strategy": "single"}},
        "status": {"allocatable": {"cpu": "94", "memory": "1Ti", "nvidia.com/gpu": "56"}}}]})";
    const ImportedFleet f = importK8s(catalog(), {"nodes.json", node}, std::nullopt, {});
    const ImportedNode& n = nodeNamed(f, "a100-single");
    CHECK(n.gpuModel == "a100-40gb-sxm");
    CHECK(n.gpus == 8);
    CHECK(n.sharing.migLayout == "1g.5gb, 1g.5gb, 1g.5gb, 1g.5gb, 1g.5gb, 1g.5gb, 1g.5gb");
    // A pod there asking 2 nvidia.com/gpu asks 2 instances of 1g.5gb.
    const std::string pods = R"({"kind": "List", "items": [{"kind": "Pod",
        "metadata": {"name": "nb", "namespace": "ds"},
        "spec": {"nodeName": "a100-single", "containers": [{"name": "c",
            "resources": {"limits": {"nvidia.com/gpu": "2"}}}]},
        "status": {"phase": "Running"}}]})";
    const ImportedFleet withPods =
        importK8s(catalog(), {"nodes.json", node}, K8sListText{"pods.json", pods}, {});
    REQUIRE(withPods.jobs.size() == 1);
    CHECK(withPods.jobs[0].traits.migProfile == "1g.5gb");
    CHECK(withPods.jobs[0].gpus == 2);
}

TEST_CASE("k8s import: hostile numbers are refused at their place", "[k8s]") {
    SECTION("a MIG count no node has") {
        const InputError e = nodesError(
            editedNodes(R"("nvidia.com/mig-2g.10gb": "2")", R"("nvidia.com/mig-2g.10gb": "1e12")"));
        CHECK(e.place() == "/items/4/status/allocatable/nvidia.com~1mig-2g.10gb");
        CHECK_THAT(e.message(), Catch::Contains("more than any node or pod has"));
    }
    SECTION("a GPU count no node has") {
        const InputError e = nodesError(
            editedNodes(R"("nvidia.com/gpu": "8")", R"("nvidia.com/gpu": "4294967304")"));
        CHECK(e.place() == "/items/0/status/allocatable/nvidia.com~1gpu");
    }
    SECTION("null where a quantity is: absent") {
        const ImportedFleet f = importK8s(
            catalog(),
            {"nodes.json",
             editedNodes(R"("nvidia.com/mig-2g.10gb": "2")", R"("nvidia.com/mig-2g.10gb": null)")},
            std::nullopt, {});
        CHECK(nodeNamed(f, "gpu-a100-mig").sharing.migLayout == "3g.20gb, 1g.5gb");
    }
}

TEST_CASE("k8s import: running and pending GPU pods become jobs", "[k8s]") {
    K8sImportOptions options;
    const ImportedFleet f = importFixture(options);
    const Scenario s = importedScenario(f, catalog(), {"k8s", 86400, 1}).scenario;
    // Running on gpu-h100-a1: 8 GPUs, one pod; CPU 96 + the sidecar's 0.1 = 96.1 cores;
    // memory 1000Gi + 64Mi = 1,024,000 + 64 MiB; priority 1000; team its namespace.
    const JobDef& train = jobNamed(s, "train-0");
    CHECK(train.gpus == 8);
    CHECK(train.traits.gpusPerPod == 8);
    CHECK(train.traits.cpuMilliPerPod == 96100);
    CHECK(train.traits.memoryMiBPerPod == 1024064);
    CHECK(train.traits.priority == 1000);
    CHECK(train.traits.team == "research");
    CHECK(train.traits.pin.level == PinLevel::Node);
    CHECK(train.traits.pin.target == "nn-spine-1-nn-leaf-1-gpu-h100-a1");
    CHECK(train.submitS == 0);
    CHECK(train.durationS == 86400);
    // One replica of an L4 time-sliced 4 ways: 1000 / 4 = 250 milli-GPU.
    const JobDef& infer = jobNamed(s, "infer-a");
    CHECK(infer.gpus == 1);
    CHECK(infer.traits.gpuMilli == 250);
    CHECK(jobNamed(s, "notebook").traits.migProfile == "1g.5gb");
    // Pending: queued at t = 0, not pinned.
    CHECK(jobNamed(s, "finetune").traits.pin.level == PinLevel::None);
    CHECK(jobNamed(s, "finetune").gpus == 4);
    // Running jobs come first, so they take their nodes before the queue does.
    CHECK(s.jobs.back().name == "finetune");
    // "lost" runs on the node that is down; "etl" asks no GPU; "old-train" has Succeeded.
    for (const JobDef& j : s.jobs) {
        CHECK(j.name != "lost");
        CHECK(j.name != "etl");
        CHECK(j.name != "old-train");
    }
    CHECK(s.jobs.size() == 5);

    K8sImportOptions byLabel = options;
    byLabel.teamLabel = "team";
    const Scenario labelled =
        importedScenario(importFixture(byLabel), catalog(), {"k8s", 86400, 1}).scenario;
    CHECK(jobNamed(labelled, "train-0").traits.team == "llm");
    CHECK(jobNamed(labelled, "infer-a").traits.team == "product");  // no label: namespace
}

TEST_CASE("k8s import: the scenario runs with its pods where they run", "[k8s]") {
    K8sImportOptions options;
    const ImportedScenario imported =
        importedScenario(importFixture(options), catalog(), {"k8s", 86400, 1});
    const Scenario& s = imported.scenario;
    // Node types: the four H100 nodes share one (same model, GPUs, CPU, memory).
    REQUIRE(s.definedNodeTypes.size() == 3);
    const Fleet fleet = Fleet::build(s);
    REQUIRE(fleet.nodes.size() == 6);
    const auto a1 = fleet.findNode("nn-spine-1-nn-leaf-1-gpu-h100-a1");
    REQUIRE(a1);
    CHECK(fleet.nodes[*a1].cpuMilli == 191450);
    CHECK(fleet.nodes[*a1].memoryMiB == 2048000);  // 2000 GiB × 1024
    // The cordoned node that runs drain-me starts Ready and is cordoned at 1 s.
    REQUIRE(s.nodeEvents.size() == 1);
    CHECK(s.nodeEvents[0].node == "nn-spine-1-nn-leaf-1-gpu-h100-a2");
    CHECK(s.nodeEvents[0].state == NodeState::Cordoned);
    CHECK(s.nodeEvents[0].timeS == 1);

    validateScenario(s, catalog());
    const Scenario reread = parseScenario(scenarioToJson(s), "imported.json", catalog());
    CHECK(reread.definedNodeTypes == s.definedNodeTypes);
    CHECK(reread.pods == s.pods);

    // Every running pod starts at t = 0 on its node (drain-me too, before the cordon).
    const Results r = test::run(reread);
    for (const char* name : {"train-0", "infer-a", "notebook", "drain-me"}) {
        const std::uint32_t j = test::jobIndex(r, name);
        CHECK(r.jobs[j].firstStartS == 0);
    }
}

TEST_CASE("k8s import: malformed input names the file and the place", "[k8s]") {
    SECTION("a CPU quantity that is not one") {
        const InputError e = nodesError(editedNodes(R"("cpu": "191450m")", R"("cpu": "lots")"));
        CHECK(e.file() == "nodes.json");
        CHECK(e.place() == "/items/0/status/allocatable/cpu");
        CHECK_THAT(e.message(), Catch::Contains("\"lots\" is not a Kubernetes quantity"));
    }
    SECTION("a product the catalog does not know") {
        const InputError e = nodesError(editedNodes("NVIDIA-L4-SHARED", "NVIDIA-RTX-PRO-6000"));
        CHECK(e.place() == "/items/5/metadata/name");
        CHECK_THAT(e.message(), Catch::Contains("node gpu-l4-ts"));
        CHECK_THAT(e.message(), Catch::Contains("\"NVIDIA-RTX-PRO-6000\" is not in the catalog"));
        CHECK_THAT(e.message(), Catch::Contains("--gpu-product"));
        K8sImportOptions named;
        named.productModels = {{"NVIDIA-RTX-PRO-6000", "l40s"}};
        const ImportedFleet f = importK8s(
            catalog(), {"nodes.json", editedNodes("NVIDIA-L4-SHARED", "NVIDIA-RTX-PRO-6000")},
            std::nullopt, named);
        CHECK(nodeNamed(f, "gpu-l4-ts").gpuModel == "l40s");
    }
    SECTION("a GPU count label that is not a count") {
        const InputError e = nodesError(
            editedNodes(R"("nvidia.com/gpu.count": "8")", R"("nvidia.com/gpu.count": "eight")"));
        CHECK(e.place() == "/items/0/metadata/name");
        CHECK_THAT(e.message(), Catch::Contains("nvidia.com/gpu.count is \"eight\""));
    }
    SECTION("pods where nodes belong") {
        const InputError e = inputErrorOf([] {
            importK8s(catalog(), {"pods.json", readTextFile(fixture("pods.json"))}, std::nullopt,
                      {});
        });
        CHECK(e.place() == "/items/0/kind");
        CHECK_THAT(e.message(), Catch::Contains("expected a Node, got \"Pod\""));
    }
    SECTION("not JSON") {
        const InputError e = nodesError("{\"kind\": \"List\", \"items\": [");
        CHECK(e.file() == "nodes.json");
    }
    SECTION("an option naming no GPU model") {
        K8sImportOptions bad;
        bad.productModels = {{"X", "h900"}};
        const InputError e = inputErrorOf([&] { importFixture(bad, false); });
        CHECK(e.file() == "--gpu-product");
    }
    SECTION("a MIG profile the GPU does not have") {
        const InputError e = nodesError(
            editedNodes(R"("nvidia.com/mig-2g.10gb": "2")", R"("nvidia.com/mig-2g.20gb": "2")"));
        CHECK_THAT(e.message(), Catch::Contains("node gpu-a100-mig") &&
                                    Catch::Contains("MIG profile \"2g.20gb\" is not one "
                                                    "a100-40gb-sxm has"));
    }
}

TEST_CASE("k8s import: MIG instances no layout holds are left out and named", "[k8s]") {
    // gpu-a100-mig with 2 × 7g.40gb instead of its 2g.10gb: a 7g takes a whole GPU, so the two
    // 7g fill both GPUs and 2 × 3g.20gb and 2 × 1g.5gb fit nowhere (7 + 3 compute slices and
    // 8 + 4 memory slices are more than one GPU has): kept 2, said the 4 others.
    const ImportedFleet f = importK8s(
        catalog(),
        {"nodes.json",
         editedNodes(R"("nvidia.com/mig-2g.10gb": "2")", R"("nvidia.com/mig-7g.40gb": "2")")},
        std::nullopt, {});
    CHECK(nodeNamed(f, "gpu-a100-mig").sharing.migLayout == "7g.40gb");
    CHECK_THAT(f.summary.text(),
               Catch::Contains("gpu-a100-mig: 4 MIG instances (2 × 3g.20gb, 2 × 1g.5gb) left "
                               "out: no layout of its 2 GPUs holds them with the others"));
}

TEST_CASE("k8s import: a pod asking a MIG profile no GPU has is left out, not thrown on", "[k8s]") {
    // The notebook pod, running on gpu-a100-mig, asks nvidia.com/mig-1x.5gb instead of 1g.5gb:
    // no MIG family has a "1x.5gb" profile, so the pod cannot become a job. It is skipped and
    // named; the four other pods stay (a fuzzer found the builder's pin check throwing here).
    std::string pods = readTextFile(fixture("pods.json"));
    const std::string asked = R"("nvidia.com/mig-1g.5gb": "1")";
    const auto at = pods.find(asked);
    REQUIRE(at != std::string::npos);
    pods.replace(at, asked.size(), R"("nvidia.com/mig-1x.5gb": "1")");
    const ImportedFleet f =
        importK8s(catalog(), {"nodes.json", readTextFile(fixture("nodes.json"))},
                  K8sListText{"pods.json", pods}, {});
    CHECK(hasLineWith(f.summary.skipped, "notebook"));
    CHECK(hasLineWith(f.summary.skipped, "1x.5gb"));
    const Scenario s = importedScenario(f, catalog(), {"k8s", 86400, 1}).scenario;
    CHECK(s.jobs.size() == 4);
    for (const JobDef& j : s.jobs)
        CHECK(j.name != "notebook");
}

TEST_CASE("k8s import: a mixed-strategy node keeps every instance, a layout per GPU", "[k8s]") {
    // The trial's node: 8 H100 in MIG's mixed strategy reporting 8 × 3g.40gb, 4 × 2g.20gb and
    // 14 × 1g.10gb. Spread as test_mig_geometry.cpp works out: GPUs 0–3 3g + 2g + 1g, GPUs 4–5
    // 3g + 3 × 1g, GPUs 6–7 3g + 2 × 1g, all 26 instances (3g + 1g on every GPU would drop
    // 10).
    const std::string node = R"({"kind": "List", "items": [{"kind": "Node",
        "metadata": {"name": "h100-mixed", "labels": {
            "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "8",
            "nvidia.com/mig.strategy": "mixed"}},
        "status": {"allocatable": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "0",
            "nvidia.com/mig-3g.40gb": "8", "nvidia.com/mig-2g.20gb": "4",
            "nvidia.com/mig-1g.10gb": "14"}}}]})";
    const ImportedFleet f = importK8s(catalog(), {"nodes.json", node}, std::nullopt, {});
    const ImportedNode& n = nodeNamed(f, "h100-mixed");
    CHECK(n.gpus == 8);
    CHECK(n.sharing.migLayout.empty());
    CHECK(n.sharing.migLayouts ==
          std::vector<MigLayoutRun>{{4, "3g.40gb, 2g.20gb, 1g.10gb"},
                                    {2, "3g.40gb, 1g.10gb, 1g.10gb, 1g.10gb"},
                                    {2, "3g.40gb, 1g.10gb, 1g.10gb"}});
    const std::string summary = f.summary.text();
    CHECK_THAT(summary, !Catch::Contains("left out"));

    // The scenario validates, writes "migLayouts" and reads back the same; a run holds every
    // instance at once: 8 jobs of a 3g.40gb, 4 of a 2g.20gb, 14 of a 1g.10gb, all pinned to the
    // node at t = 0, all start at t = 0 (with 3g + 1g per GPU, only 8 + 0 + 8 could).
    ImportedScenario imported = importedScenario(f, catalog(), {"mixed", 3600, 1});
    CHECK_THAT(imported.summary.text(),
               Catch::Contains("1 node with MIG: h100-mixed (4 GPUs: 3g.40gb, 2g.20gb, 1g.10gb; "
                               "2 GPUs: 3g.40gb, 1g.10gb, 1g.10gb, 1g.10gb; 2 GPUs: 3g.40gb, "
                               "1g.10gb, 1g.10gb)"));
    Scenario& s = imported.scenario;
    const std::string nodeName = s.pods[0].name + "-" + s.pods[0].racks[0].name + "-h100-mixed";
    s.teams = {TeamDef{"t", ""}};
    int jobNumber = 0;
    for (const auto& [profile, count] :
         {std::pair{"3g.40gb", 8}, std::pair{"2g.20gb", 4}, std::pair{"1g.10gb", 14}})
        for (int i = 0; i < count; ++i) {
            JobDef j = test::job("j" + std::to_string(jobNumber++), 1, 600);
            j.traits.migProfile = profile;
            j.traits.pin = {PinLevel::Node, nodeName};
            s.jobs.push_back(j);
        }
    validateScenario(s, catalog());
    const std::string json = scenarioToJson(s);
    CHECK_THAT(json, Catch::Contains("\"migLayouts\""));
    CHECK(parseScenario(json, "again.json", catalog()) == s);
    const Results r = simulate(s, {});
    REQUIRE(r.jobs.size() == 26);
    for (const JobRecord& j : r.jobs)
        CHECK(j.firstStartS == 0);
    // The snapshot draws each GPU's own layout: 3 instances on GPU 0, 4 on GPU 4, 3 on GPU 7.
    const ClusterSnapshot snap = r.stateAt(0);
    REQUIRE(snap.migLayouts.size() == 8);
    CHECK(snap.migLayouts[0]->size() == 3);
    CHECK(snap.migLayouts[4]->size() == 4);
    CHECK(snap.migLayouts[7]->size() == 3);
}

TEST_CASE("k8s import: a node name past 64 characters keeps its start and a hash", "[k8s]") {
    // Kubernetes allows 253 characters; a scenario name 64. 80 characters: the first 47, a
    // dash and 16 hex digits of its FNV-1a hash = 64.
    const std::string longName(80, 'n');
    const ImportedFleet f =
        importK8s(catalog(), {"nodes.json", editedNodes("\"gpu-h100-a1\"", "\"" + longName + "\"")},
                  std::nullopt, {});
    const ImportedScenario s = importedScenario(f, catalog(), {});
    std::string group;
    for (const RackDef& r : s.scenario.pods.back().racks)
        for (const NodeGroupDef& g : r.nodes)
            if (g.name.starts_with("nnnn")) group = g.name;
    CHECK(group.size() == 64);
    CHECK(group.substr(0, 48) == std::string(47, 'n') + "-");
    validateScenario(s.scenario, catalog());
}

TEST_CASE("k8s import: topology labels the user names, or a flat fleet", "[k8s]") {
    K8sImportOptions zone;
    zone.topologyLabelsGiven = true;
    zone.podLabel = "topology.kubernetes.io/zone";
    const ImportedFleet f = importFixture(zone, false);
    CHECK(nodeNamed(f, "gpu-h100-a1").pod == "us-east-1a");
    CHECK(nodeNamed(f, "gpu-h100-a1").rack.empty());

    K8sImportOptions none;
    none.topologyLabelsGiven = true;
    const ImportedScenario flat = importedScenario(importFixture(none, false), catalog(), {});
    // No labels: one pod "cluster", racks of 32 nodes in name order: 6 nodes, one rack;
    // 4 × 8 H100 + 2 A100 + 1 L4 = 35 GPUs.
    REQUIRE(flat.scenario.pods.size() == 1);
    CHECK(flat.scenario.pods[0].name == "cluster");
    REQUIRE(flat.scenario.pods[0].racks.size() == 1);
    CHECK(flat.scenario.pods[0].racks[0].nodes.front().name == "gpu-a100-mig");
    CHECK(hasLineWith(flat.summary.mapped, "6 GPU nodes with 35 GPUs in 1 pod and 1 rack"));
}
