// Slurm's nodes (`scontrol show node --oneliner`, engine/src/import/slurm_nodes.cpp) as an
// ImportedFleet: GPU model and count, CPUs, memory, state and reason, per node.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

using test::errorOf;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

SlurmNodeOptions h100IsPcie() {
    SlurmNodeOptions o;
    o.gpuTypeModels = {{"h100", "h100-pcie"}};
    return o;
}

/// A good first line, then `second` as line 2: the error must name line 2.
std::string secondLineError(const std::string& second, const SlurmNodeOptions& o = {}) {
    const std::string good =
        "NodeName=ok01 CPUTot=8 Gres=gpu:nvidia_h100_80gb_hbm3:8 RealMemory=1024 State=IDLE\n";
    return errorOf([&] { parseSlurmNodes(good + second + "\n", "n.txt", catalog(), o); });
}

const ImportedNode& node(const ImportedFleet& f, const std::string& name) {
    for (const ImportedNode& n : f.nodes)
        if (n.name == name) return n;
    FAIL("no node " << name);
    throw;
}

}  // namespace

TEST_CASE("scontrol nodes: GPUs, CPUs, memory and state per node", "[slurm]") {
    // tests/data/slurm/nodes.txt, eight nodes of a Slurm 22.05 cluster:
    //   gpu01 Gres=gpu:nvidia_h100_80gb_hbm3:8(S:0-1), CPUEfctv=104 (CPUTot=112), MIXED
    //   gpu02 the same, IDLE+DRAIN, Reason=bad gpu [root@2026-10-01T08:00:00]
    //   gpu03 the same, DOWN*+DRAIN (not responding and drained)
    //   gpu04 Gres=gpu:a100-sxm4-40gb:4,shard:…:16, CPUTot=64 only, ALLOCATED+COMPLETING
    //   gpu05 Gres=(null), CfgTRES=…,gres/gpu:l40s=2, IDLE* (not responding)
    //   gpu06 Gres=gpu:h100:4 (--gpu-type h100=h100-pcie), RealMemory=1, MIXED+DRAIN
    //   cpu01, cpu02 no GPU: left out, counted
    const ImportedFleet f =
        readSlurmNodes(test::testDataDir() / "slurm" / "nodes.txt", catalog(), h100IsPcie());
    REQUIRE(f.nodes.size() == 6);

    const ImportedNode& gpu01 = node(f, "gpu01");
    // nvml's type nvidia_h100_80gb_hbm3 = h100-sxm's product label NVIDIA-H100-80GB-HBM3
    // ignoring case and '_' vs '-'.
    CHECK(gpu01.gpuModel == "h100-sxm");
    CHECK(gpu01.gpus == 8);
    CHECK(gpu01.cpuCores == 104);  // CPUEfctv, not CPUTot's 112
    // RealMemory=2063937 MB (MiB) / 1024 = 2015.5634765625 GiB, exact in binary.
    CHECK(gpu01.memoryGiB == 2015.5634765625);
    CHECK(gpu01.state == NodeState::Ready);
    CHECK(gpu01.stateReason.empty());
    CHECK(gpu01.file == (test::testDataDir() / "slurm" / "nodes.txt").string());
    CHECK(gpu01.place == "line 1");

    const ImportedNode& gpu02 = node(f, "gpu02");
    CHECK(gpu02.state == NodeState::Cordoned);
    CHECK(gpu02.stateReason == "IDLE+DRAIN: bad gpu [root@2026-10-01T08:00:00]");

    // DOWN* (not responding) wins over DRAIN: Failed.
    const ImportedNode& gpu03 = node(f, "gpu03");
    CHECK(gpu03.state == NodeState::Failed);
    CHECK(gpu03.stateReason == "DOWN*+DRAIN: Not responding [slurm@2026-09-30T02:14:07]");

    // a100-sxm4-40gb = a100-40gb-sxm's label NVIDIA-A100-SXM4-40GB without "NVIDIA-"; the
    // shard entry is not a GPU. No CPUEfctv (Slurm 21.08): CPUTot. 515000 / 1024 =
    // 502.9296875 GiB. COMPLETING is a flag of a working node: Ready.
    const ImportedNode& gpu04 = node(f, "gpu04");
    CHECK(gpu04.gpuModel == "a100-40gb-sxm");
    CHECK(gpu04.gpus == 4);
    CHECK(gpu04.cpuCores == 64);
    CHECK(gpu04.memoryGiB == 502.9296875);
    CHECK(gpu04.state == NodeState::Ready);

    // No Gres: CfgTRES's gres/gpu:l40s=2. 256000 / 1024 = 250 GiB. IDLE*: Failed.
    const ImportedNode& gpu05 = node(f, "gpu05");
    CHECK(gpu05.gpuModel == "l40s");
    CHECK(gpu05.gpus == 2);
    CHECK(gpu05.memoryGiB == 250);
    CHECK(gpu05.state == NodeState::Failed);
    CHECK(gpu05.stateReason == "IDLE*");

    // "h100" is h100-sxm, h100-pcie or h100-nvl: --gpu-type says which. RealMemory=1 is
    // Slurm's default (not configured): memory not known, 0.
    const ImportedNode& gpu06 = node(f, "gpu06");
    CHECK(gpu06.gpuModel == "h100-pcie");
    CHECK(gpu06.gpus == 4);
    CHECK(gpu06.cpuCores == 48);
    CHECK(gpu06.memoryGiB == 0);
    CHECK(gpu06.state == NodeState::Cordoned);

    REQUIRE(f.summary.skipped.size() == 1);
    CHECK(f.summary.skipped[0] == "2 nodes without GPUs: cpu01, cpu02");
    REQUIRE(f.summary.assumptions.size() == 1);
    CHECK_THAT(f.summary.assumptions[0], Catch::StartsWith("1 node with RealMemory=1"));
    CHECK_THAT(f.summary.mapped[0],
               Catch::Contains("a100-sxm4-40gb → a100-40gb-sxm (1 node)") &&
                   Catch::Contains("h100 → h100-pcie (1 node)") &&
                   Catch::Contains("nvidia_h100_80gb_hbm3 → h100-sxm (3 nodes)") &&
                   Catch::Contains("l40s → l40s (1 node)"));
}

TEST_CASE("scontrol nodes: a real Slurm 22.05's line", "[slurm]") {
    // tests/data/slurm/real-22.05-node.txt: printed by the one-node Slurm of
    // tests/cli/slurm_import_real_test.sh (Gres=gpu:h100:8). Double spaces after some values,
    // an OS with '#' and '@', CfgTRES without gres/gpu (no AccountingStorageTRES).
    SlurmNodeOptions sxm;
    sxm.gpuTypeModels = {{"h100", "h100-sxm"}};
    const ImportedFleet f =
        readSlurmNodes(test::testDataDir() / "slurm" / "real-22.05-node.txt", catalog(), sxm);
    REQUIRE(f.nodes.size() == 1);
    const ImportedNode& n = f.nodes[0];
    CHECK(n.name == "gpuplan-node");
    CHECK(n.gpuModel == "h100-sxm");
    CHECK(n.gpus == 8);
    CHECK(n.cpuCores == 2);
    CHECK(n.memoryGiB == 12052.0 / 1024);  // 11.76953125 GiB
    CHECK(n.state == NodeState::Ready);
}

TEST_CASE("scontrol nodes: Gres and CfgTRES variants", "[slurm]") {
    SlurmNodeOptions untypedIsL4;
    untypedIsL4.gpuTypeModels = {{"gpu", "l4"}};
    // Untyped gpu:2 plus another gpu:2 entry of the same (no) type: 4 GPUs; no_consume and
    // the (S:…) socket list are not counts.
    const ImportedFleet f = parseSlurmNodes(
        "NodeName=a Gres=gpu:2(S:0),gpu:no_consume:2 State=IDLE\n"
        "NodeName=b Gres=(null) CfgTRES=cpu=8,mem=1000M,gres/gpu=3 State=IDLE\n"
        "NodeName=c Gres=gpu:H100_NVL:2(S:0,1) State=IDLE\n",
        "n.txt", catalog(), untypedIsL4);
    REQUIRE(f.nodes.size() == 3);
    CHECK(f.nodes[0].gpus == 4);
    CHECK(f.nodes[0].gpuModel == "l4");
    CHECK(f.nodes[0].cpuCores == 0);  // no CPUTot: not known
    CHECK(f.nodes[1].gpus == 3);
    CHECK(f.nodes[1].gpuModel == "l4");
    // "(S:0,1)" holds a comma: entries split outside parentheses. H100_NVL = h100-nvl.
    CHECK(f.nodes[2].gpus == 2);
    CHECK(f.nodes[2].gpuModel == "h100-nvl");
    CHECK(f.source == "scontrol show node (n.txt)");
}

TEST_CASE("scontrol nodes: a Reason or OS with spaces and '=' stays one value", "[slurm]") {
    const ImportedFleet f = parseSlurmNodes(
        "NodeName=a OS=Linux 5.15.0 #1 SMP x=1 Gres=gpu:l4:1 State=DOWN "
        "Reason=fan failure, temp=95C [ops@2026-10-01T08:00:00]\n",
        "n.txt", catalog());
    REQUIRE(f.nodes.size() == 1);
    // " x=1" and " temp=95C" start with a small letter: no scontrol key does.
    CHECK(f.nodes[0].stateReason == "DOWN: fan failure, temp=95C [ops@2026-10-01T08:00:00]");
    CHECK(f.nodes[0].state == NodeState::Failed);
}

TEST_CASE("scontrol nodes: states", "[slurm]") {
    const auto stateOf = [](const std::string& state) {
        return parseSlurmNodes("NodeName=a Gres=gpu:l4:1 State=" + state + "\n", "n.txt", catalog())
            .nodes.at(0)
            .state;
    };
    CHECK(stateOf("IDLE") == NodeState::Ready);
    CHECK(stateOf("ALLOCATED") == NodeState::Ready);
    CHECK(stateOf("MIXED+COMPLETING") == NodeState::Ready);
    CHECK(stateOf("IDLE+CLOUD+POWERED_DOWN") == NodeState::Ready);
    CHECK(stateOf("IDLE+RESERVED") == NodeState::Ready);
    CHECK(stateOf("MIXED+DRAIN") == NodeState::Cordoned);
    CHECK(stateOf("IDLE+DRAINED") == NodeState::Cordoned);
    CHECK(stateOf("ALLOCATED+DRAINING") == NodeState::Cordoned);
    CHECK(stateOf("IDLE+MAINT") == NodeState::Cordoned);
    CHECK(stateOf("FUTURE") == NodeState::Cordoned);
    CHECK(stateOf("DOWN") == NodeState::Failed);
    CHECK(stateOf("DOWN*") == NodeState::Failed);
    CHECK(stateOf("IDLE*") == NodeState::Failed);
    CHECK(stateOf("IDLE+FAIL") == NodeState::Failed);
    CHECK(stateOf("MIXED+NOT_RESPONDING") == NodeState::Failed);
    CHECK(stateOf("DOWN+DRAIN+MAINT") == NodeState::Failed);
    CHECK(stateOf("UNKNOWN*") == NodeState::Failed);
}

TEST_CASE("scontrol nodes: malformed lines fail with the line and what is wrong", "[slurm]") {
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1 State=IDLE+WEIRD"),
               Catch::StartsWith("n.txt: line 2: node a: unknown state \"WEIRD\""));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1 State=SLEEPY"),
               Catch::Contains("line 2: node a: unknown state \"SLEEPY\""));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1"),
               Catch::Contains("line 2: node a has an empty State"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:v100:4 State=IDLE"),
               Catch::Contains("line 2: node a: GPU type \"v100\" matches no catalog GPU model; "
                               "name it with --gpu-type v100=MODEL"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:h100:4 State=IDLE"),
               Catch::Contains("line 2: node a: GPU type \"h100\" is not one catalog GPU model "
                               "(it could be h100-sxm, h100-pcie, h100-nvl); name it with "
                               "--gpu-type h100=MODEL"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:8 State=IDLE"),
               Catch::Contains("line 2: node a has untyped GPUs (gpu:<count>): name their model "
                               "with --gpu-type gpu=MODEL"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:x State=IDLE"),
               Catch::Contains("line 2: Gres: GPU count \"x\" is not a whole number"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:99999 State=IDLE"),
               Catch::Contains("line 2: Gres: GPU count \"99999\""));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:a:b:c:4 State=IDLE"),
               Catch::Contains("line 2: Gres entry \"gpu:a:b:c:4\" is not gpu:<count>"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1(S:0 State=IDLE"),
               Catch::Contains("line 2: Gres \"gpu:l4:1(S:0\": unbalanced parentheses"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1,gpu:l40s:1 State=IDLE"),
               Catch::Contains("line 2: node a has GPUs of several types (l4, l40s)"));
    CHECK_THAT(secondLineError("NodeName=a CfgTRES=gres/gpu=-1 State=IDLE"),
               Catch::Contains("line 2: CfgTRES: GPU count \"-1\""));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1 State=IDLE State=DOWN"),
               Catch::Contains("line 2: field State appears twice"));
    CHECK_THAT(secondLineError("NodeName=a$b Gres=gpu:l4:1 State=IDLE"),
               Catch::Contains("line 2: NodeName \"a$b\""));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1 CPUTot=many State=IDLE"),
               Catch::Contains("line 2: node a: CPUTot \"many\" is not a whole number of CPUs"));
    CHECK_THAT(secondLineError("NodeName=a Gres=gpu:l4:1 RealMemory=2T State=IDLE"),
               Catch::Contains("line 2: node a: RealMemory \"2T\" is not a whole number of MB"));
    CHECK_THAT(secondLineError("   CoresPerSocket=8 CPUAlloc=0"),
               Catch::Contains("line 2: an indented line: export with scontrol show node "
                               "--oneliner"));
    CHECK_THAT(secondLineError("PartitionName=gpu Nodes=a"),
               Catch::Contains("line 2: expected a line starting NodeName="));
    CHECK_THAT(secondLineError("NodeName=a " + std::string(70'000, 'x')),
               Catch::Contains("line 2: line longer than 65536 bytes"));
    std::string manyFields = "NodeName=a";
    for (int i = 0; i < 600; ++i)
        manyFields += " K" + std::to_string(i) + "=1";
    CHECK_THAT(secondLineError(manyFields), Catch::Contains("line 2: more than 512 fields"));
}

TEST_CASE("scontrol nodes: files without GPU nodes and bad --gpu-type", "[slurm]") {
    CHECK_THAT(errorOf([] { parseSlurmNodes("", "n.txt", catalog()); }),
               Catch::StartsWith("n.txt: line 1: no GPU node (0 without GPUs)"));
    CHECK_THAT(
        errorOf([] { parseSlurmNodes("NodeName=c1 CPUTot=8 State=IDLE\n", "n.txt", catalog()); }),
        Catch::StartsWith("n.txt: line 1: no GPU node (1 without GPUs)"));
    SlurmNodeOptions wrong;
    wrong.gpuTypeModels = {{"h100", "h1000"}};
    CHECK_THAT(errorOf([&] {
                   parseSlurmNodes("NodeName=a Gres=gpu:h100:1 State=IDLE\n", "n.txt", catalog(),
                                   wrong);
               }),
               Catch::StartsWith("--gpu-type: h100=h1000: no GPU model \"h1000\" in the catalog"));
}

TEST_CASE("Slurm GPU types match catalog ids, names and product labels", "[slurm]") {
    const SlurmNodeOptions none;
    CHECK(slurmGpuModel("h100-sxm", catalog(), none) == "h100-sxm");
    CHECK(slurmGpuModel("H100_SXM", catalog(), none) == "h100-sxm");
    CHECK(slurmGpuModel("nvidia_h100_80gb_hbm3", catalog(), none) == "h100-sxm");
    CHECK(slurmGpuModel("NVIDIA-A100-SXM4-80GB", catalog(), none) == "a100-80gb-sxm");
    CHECK(slurmGpuModel("a100-sxm4-80gb", catalog(), none) == "a100-80gb-sxm");
    CHECK(slurmGpuModel("nvidia_l40s", catalog(), none) == "l40s");
    CHECK(slurmGpuModel("mi300x", catalog(), none) == "mi300x");
    CHECK(slurmGpuModel("h100", catalog(), none).empty());  // three H100s: ambiguous
    CHECK(slurmGpuModel("tesla", catalog(), none).empty());
    CHECK(slurmGpuModel("h100", catalog(), h100IsPcie()) == "h100-pcie");
    CHECK(slurmGpuModel("H100", catalog(), h100IsPcie()) == "h100-pcie");
}

TEST_CASE("Slurm topology.conf: leaf switches are racks, their parents pods", "[slurm]") {
    // tests/data/slurm/topology.conf: leaf1 = gpu01, gpu02 (cpu01, cpu02 are not GPU nodes:
    // ignored), leaf2 = gpu03, gpu04, both under spine1; edge = gpu05 under no switch; gpu06
    // named nowhere.
    ImportedFleet f =
        readSlurmNodes(test::testDataDir() / "slurm" / "nodes.txt", catalog(), h100IsPcie());
    readSlurmTopology(test::testDataDir() / "slurm" / "topology.conf", f);
    const auto where = [&](const std::string& name) {
        const ImportedNode& n = node(f, name);
        return n.pod + "/" + n.rack;
    };
    CHECK(where("gpu01") == "spine1/leaf1");
    CHECK(where("gpu02") == "spine1/leaf1");
    CHECK(where("gpu03") == "spine1/leaf2");
    CHECK(where("gpu04") == "spine1/leaf2");
    CHECK(where("gpu05") == "/edge");
    CHECK(where("gpu06") == "/");
    CHECK_THAT(f.summary.mapped.back(), Catch::Contains("3 leaf switches as racks"));
    CHECK_THAT(f.summary.assumptions.back(),
               Catch::StartsWith("1 GPU node under no switch of ") &&
                   Catch::EndsWith("in racks of their own in name order: gpu06"));
    // The builder makes them pods and racks: spine1 (leaf1, leaf2) and cluster (edge, rack0).
    const ImportedScenario s = importedScenario(f, catalog(), {});
    REQUIRE(s.scenario.pods.size() == 2);
    CHECK(s.scenario.pods[0].name == "cluster");
    CHECK(s.scenario.pods[1].name == "spine1");
    REQUIRE(s.scenario.pods[1].racks.size() == 2);
    CHECK(s.scenario.pods[1].racks[0].name == "leaf1");
    CHECK(s.scenario.pods[1].racks[0].nodes.size() == 2);
}

TEST_CASE("Slurm topology.conf: hostlists", "[slurm]") {
    // r[1-2]n[08-10]: 2 × 3 names, zero-padded to the first number's width (08 → 09, 10);
    // x[1,3]: x1, x3; a plain name; the same names in another leaf are refused below.
    ImportedFleet f;
    for (const char* name :
         {"r1n08", "r1n09", "r1n10", "r2n08", "r2n09", "r2n10", "x1", "x3", "solo"}) {
        ImportedNode n;
        n.name = name;
        f.nodes.push_back(n);
    }
    applySlurmTopology(
        "SwitchName=s1 Nodes=r[1-2]n[08-10]\n"
        "switchname=s2 nodes=x[1,3],solo   # keys in any case\n",
        "t.conf", f);
    for (std::size_t i = 0; i < 6; ++i)
        CHECK(f.nodes[i].rack == "s1");
    CHECK(f.nodes[6].rack == "s2");
    CHECK(f.nodes[7].rack == "s2");
    CHECK(f.nodes[8].rack == "s2");
}

TEST_CASE("Slurm topology.conf: malformed files fail with the line", "[slurm]") {
    const auto error = [](const std::string& text) {
        ImportedFleet f;
        return errorOf([&] { applySlurmTopology(text, "t.conf", f); });
    };
    CHECK_THAT(error("SwitchName=a Nodes=n1\nBlockName=b1 Nodes=n[1-4]\n"),
               Catch::StartsWith("t.conf: line 2: BlockName lines are topology/block's"));
    CHECK_THAT(error("SwitchName=a Nodes=n1\nNodes=n2\n"),
               Catch::StartsWith("t.conf: line 2: expected a SwitchName=… line"));
    CHECK_THAT(error("SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n"),
               Catch::StartsWith("t.conf: line 2: switch a is defined twice (first at line 1)"));
    CHECK_THAT(error("SwitchName=a Nodes=n1 Switches=b\n"),
               Catch::StartsWith("t.conf: line 1: switch a has both Nodes= and Switches="));
    CHECK_THAT(error("SwitchName=a Nodes=n1\nSwitchName=top Switches=a,b\n"),
               Catch::StartsWith("t.conf: line 2: switch top names switch \"b\", which no "
                                 "SwitchName line defines"));
    CHECK_THAT(error("SwitchName=a Nodes=n1\nSwitchName=p Switches=a\nSwitchName=q Switches=a\n"),
               Catch::StartsWith("t.conf: line 3: switch a is under both p and q"));
    CHECK_THAT(error("SwitchName=a Nodes=n[1-3]\nSwitchName=b Nodes=n3\n"),
               Catch::StartsWith("t.conf: line 2: node n3 is under both a and b"));
    CHECK_THAT(error("SwitchName=a Nodes=n[1-3\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n[1-3: a '[' without ']'"));
    CHECK_THAT(error("SwitchName=a Nodes=n[3-1]\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n[3-1]: range \"3-1\" runs backwards"));
    CHECK_THAT(error("SwitchName=a Nodes=n[x-2]\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n[x-2]: range \"x-2\" is not N or N-M"));
    CHECK_THAT(error("SwitchName=a Nodes=n[0-999999999]\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n[0-999999999]: more than 200000 names"));
    CHECK_THAT(error("SwitchName=a Nodes=n[0-999]m[0-999]\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n[0-999]m[0-999]: more than 200000"));
    CHECK_THAT(error("SwitchName=a Nodes=n[0-150000]\nSwitchName=b Nodes=m[0-150000]\n"),
               Catch::StartsWith("t.conf: line 2: more than 200000 node and switch names"));
    CHECK_THAT(error("SwitchName=a$ Nodes=n1\n"), Catch::StartsWith("t.conf: line 1: SwitchName"));
    std::string deep = "SwitchName=a Nodes=n";
    for (int i = 0; i < 10'000; ++i)
        deep += "[1]";
    CHECK_THAT(error(deep.substr(0, 60) + "\n"),
               Catch::Contains("more than 8 [ranges] in one name"));
    // 200,000 names of 60 KB each would be 12 GB: a long name is refused before expanding.
    CHECK_THAT(error("SwitchName=a Nodes=n[1-200000]" + std::string(60'000, 'x') + "\n"),
               Catch::Contains("a name of more than 256 characters"));
    CHECK_THAT(error(deep + "\n"), Catch::Contains("a name of more than 256 characters"));
    CHECK_THAT(error("SwitchName=a Nodes=n1,,n2\n"),
               Catch::StartsWith("t.conf: line 1: Nodes=n1,,n2: an empty name"));
    CHECK_THAT(error("SwitchName=a Nodes=n1 oops\n"),
               Catch::StartsWith("t.conf: line 1: expected Key=Value, got \"oops\""));
}

TEST_CASE("An ambiguous Slurm GPU type says what it could be, for a chooser", "[slurm]") {
    // "h100" is in the ids, names or labels of three catalog models, exactly in none: the
    // refusal carries the type and the three, in catalog order (File ▸ Import offers them).
    CHECK(slurmGpuTypeCandidates("h100", catalog()) ==
          std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
    CHECK(slurmGpuTypeCandidates("v100", catalog()).empty());
    try {
        parseSlurmNodes(
            "NodeName=a Gres=gpu:l4:1 State=IDLE\nNodeName=b Gres=gpu:h100:4 "
            "State=IDLE\n",
            "n.txt", catalog());
        FAIL("accepted");
    } catch (const SlurmGpuTypeError& e) {
        CHECK(e.file() == "n.txt");
        CHECK(e.place() == "line 2");
        CHECK(e.type() == "h100");
        CHECK(e.candidates() == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
    }
    // The same rule over any list of models: among the scenario's own, "h100" may be one.
    const std::vector<GpuModel> one = {*catalog().findGpu("h100-sxm"), *catalog().findGpu("l4")};
    CHECK(gpuModelNamedBy("nvidia_h100_80gb_hbm3", one, {}) == "h100-sxm");
    const std::vector<std::pair<std::string, std::string>> toL4 = {{"h100", "l4"}};
    CHECK(gpuModelNamedBy("h100", one, toL4) == "l4");
    const std::vector<std::pair<std::string, std::string>> toAbsent = {{"h100", "h100-nvl"}};
    CHECK(gpuModelNamedBy("h100", one, toAbsent).empty());  // mapped to a model not in the list
}
