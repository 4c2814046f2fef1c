#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "gpuplan/model/openb.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

struct Malformed {
    const char* file;  // in tests/data/malformed/
    bool pods;         // a pod list (else a node list)
    const char* place;
    const char* message;  // the whole message
};

// Each file is good but for one thing; the error names the file, the line and the problem.
const Malformed kMalformed[] = {
    {"openb-nodes-empty.csv", false, "line 1",
     "empty file (expected a header line: sn,cpu_milli,memory_mib,gpu,model)"},
    {"openb-nodes-header-only.csv", false, "line 1", "no nodes in the file (only a header)"},
    {"openb-nodes-missing-column.csv", false, "line 1",
     "missing column memory_mib (the header is \"sn,cpu_milli,gpu,model\"; expected at least "
     "sn,cpu_milli,memory_mib,gpu,model)"},
    {"openb-nodes-duplicate-column.csv", false, "line 1", "column gpu appears twice in the header"},
    {"openb-nodes-duplicate-name.csv", false, "line 4",
     "duplicate node name \"n0\" (first on line 2)"},
    {"openb-nodes-too-many-gpus.csv", false, "line 2", "gpu 65 is above 64"},
    {"openb-nodes-negative-cpu.csv", false, "line 2", "cpu_milli -1000 is negative"},
    {"openb-nodes-absurd-memory.csv", false, "line 2",
     "memory_mib 999999999999 is above 67,108,864 MiB (64 TiB)"},
    {"openb-nodes-model-on-cpu-node.csv", false, "line 2",
     "model \"T4\" on a node with gpu 0 (a CPU-only node has an empty model)"},
    {"openb-nodes-gpu-without-model.csv", false, "line 2",
     "model is empty on a node with gpu 2 (a GPU node names its GPU model)"},
    {"openb-pods-empty.csv", true, "line 1",
     "empty file (expected a header line: name,cpu_milli,memory_mib,num_gpu,gpu_milli)"},
    {"openb-pods-header-only.csv", true, "line 2", "no pods in the file (only a header)"},
    {"openb-pods-missing-columns.csv", true, "line 1",
     "missing columns num_gpu, gpu_milli (the header is \"name,cpu_milli,memory_mib,gpu_spec\"; "
     "expected at least name,cpu_milli,memory_mib,num_gpu,gpu_milli)"},
    {"openb-pods-wrong-field-count.csv", true, "line 3",
     "expected 5 fields (as many as the header has), got 4"},
    {"openb-pods-not-a-number.csv", true, "line 2", "cpu_milli \"12k\" is not a whole number"},
    {"openb-pods-gpu-milli-above-1000.csv", true, "line 2",
     "gpu_milli 1200 is above 1,000 (a whole GPU)"},
    {"openb-pods-partial-multi-gpu.csv", true, "line 2",
     "gpu_milli 500 with num_gpu 2 (a partial GPU, 1 … 999, goes with num_gpu 1)"},
    {"openb-pods-milli-without-gpu.csv", true, "line 2",
     "gpu_milli 300 with num_gpu 0 (a CPU-only pod has gpu_milli 0)"},
    {"openb-pods-gpu-without-milli.csv", true, "line 2",
     "gpu_milli 0 with num_gpu 1 (a GPU pod asks 1 … 1000 milli-GPU per GPU)"},
    {"openb-pods-too-many-gpus.csv", true, "line 2", "num_gpu 128 is above 64"},
    {"openb-pods-absurd-cpu.csv", true, "line 2",
     "cpu_milli 20000000 is above 10,000,000 (10,000 vCPUs)"},
    {"openb-pods-quoted-name.csv", true, "line 3", "name \"\"p1\"\" holds a quote (\")"},
    {"openb-pods-control-character.csv", true, "line 2",
     "name \"p\\u001b[31m0\" holds a control character (\\u001b)"},
    {"openb-pods-not-utf8.csv", true, "line 2", "name \"caf\\xff\" is not UTF-8 text (byte \\xff)"},
    {"openb-pods-bad-gpu-spec.csv", true, "line 2",
     "gpu_spec \"T4||G2\": a model name must not be empty"},
    {"openb-pods-bad-time.csv", true, "line 2", "creation_time \"abc\" is not a number"},
};

/// The message of the InputError a pod list gives, or "accepted".
std::string podError(const std::string& text, const OpenbLimits& limits = {}) {
    try {
        parseOpenbPods(text, "p.csv", limits);
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

const std::string kFive = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n";
const std::string kFull =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

}  // namespace

TEST_CASE("openb: a node list keeps CPU-only rows, flagged", "[openb]") {
    const auto nodes = readOpenbNodes(test::testDataDir() / "openb" / "nodes-small.csv");
    REQUIRE(nodes.size() == 3);
    CHECK(nodes[0].name == "n-cpu-0");
    CHECK_FALSE(nodes[0].isGpuNode());
    CHECK(nodes[0].model.empty());
    CHECK(nodes[1].isGpuNode());
    CHECK(nodes[1].gpus == 2);
    CHECK(nodes[1].model == "P100");
    CHECK(nodes[2].cpuMilli == 96000);
    CHECK(nodes[2].memoryMiB == 786432);
    CHECK(nodes[2].gpus == 8);
    CHECK(nodes[2].model == "G2");
}

TEST_CASE("openb: the full pod form, CRLF line ends and an empty line", "[openb]") {
    const auto pods = readOpenbPods(test::testDataDir() / "openb" / "pods-full.csv");
    REQUIRE(pods.size() == 4);
    CHECK(pods[0].name == "pod-0");
    CHECK(pods[0].cpuMilli == 12000);
    CHECK(pods[0].memoryMiB == 16384);
    CHECK(pods[0].numGpu == 1);
    CHECK(pods[0].gpuMilli == 1000);
    CHECK(pods[0].gpuSpec.empty());
    CHECK(pods[0].qos == "LS");
    CHECK(pods[0].phase == "Running");
    CHECK(pods[0].creationS == 0);
    CHECK(pods[0].deletionS == 12537496);
    CHECK(pods[0].scheduledS == 0);
    // A partial GPU limited to two models, one written twice (as in the trace); never scheduled.
    CHECK(pods[1].gpuMilli == 460);
    CHECK(pods[1].gpuSpec == std::vector<std::string>{"V100M16", "V100M32", "V100M32"});
    CHECK(pods[1].phase == "Pending");
    CHECK(std::isnan(pods[1].scheduledS));
    CHECK(pods[2].numGpu == 8);
    CHECK(pods[2].gpuSpec == std::vector<std::string>{"G2"});
    CHECK(pods[3].numGpu == 0);
    CHECK(pods[3].gpuMilli == 0);
    CHECK(pods[3].qos == "Guaranteed");
}

TEST_CASE("openb: the five-column pod form, columns in any order, extras ignored", "[openb]") {
    const auto pods = readOpenbPods(test::testDataDir() / "openb" / "pods-five-columns.csv");
    REQUIRE(pods.size() == 3);
    CHECK(pods[0].name == "pod-a");
    CHECK(pods[0].cpuMilli == 8000);
    CHECK(pods[0].memoryMiB == 4096);
    CHECK(pods[0].numGpu == 1);
    CHECK(pods[0].gpuMilli == 500);
    CHECK(pods[1].numGpu == 4);
    CHECK(pods[1].gpuMilli == 1000);
    CHECK(pods[2].numGpu == 0);
    for (const OpenbPod& p : pods) {
        CHECK(p.gpuSpec.empty());
        CHECK(p.qos.empty());
        CHECK(p.phase.empty());
        CHECK(std::isnan(p.creationS));
        CHECK(std::isnan(p.deletionS));
        CHECK(std::isnan(p.scheduledS));
    }
}

TEST_CASE("openb: malformed lists are refused with file, line and problem", "[openb]") {
    CHECK(std::size(kMalformed) >= 25);
    for (const Malformed& m : kMalformed) {
        const fs::path file = test::testDataDir() / "malformed" / m.file;
        INFO("file: " << file.string());
        REQUIRE(fs::exists(file));
        try {
            if (m.pods)
                readOpenbPods(file);
            else
                readOpenbNodes(file);
            FAIL("accepted a malformed list");
        } catch (const InputError& e) {
            CHECK(e.file() == file.string());
            CHECK(e.place() == m.place);
            CHECK(e.message() == m.message);
            CHECK(std::string(e.what()) == file.string() + ": " + m.place + ": " + m.message);
        }
    }
}

TEST_CASE("openb: times, NUL bytes, quotes in the header, and the row limit", "[openb]") {
    const std::string row = "p0,1000,1024,1,1000,,LS,Running,";
    CHECK(podError(kFull + row + "10,5,10\n") ==
          "p.csv: line 2: deletion_time 5 is before creation_time 10");
    CHECK(podError(kFull + row + "-1,5,0\n") ==
          "p.csv: line 2: creation_time -1 is outside 0 … 1e10 s");
    CHECK(podError(kFull + row + "nan,5,0\n") ==
          "p.csv: line 2: creation_time \"nan\" is not a number");
    CHECK(podError(kFull + "p0,1000,1024,1,1000,T4,L" + std::string(1, '\0') +
                   "S,Running,0,1,0\n") == "p.csv: line 2: qos \"L\\u0000S\" holds a NUL byte");
    CHECK(podError(kFull + "p0,1000,1024,1,1000,T4|V100 M16,LS,Running,0,1,0\n") ==
          "p.csv: line 2: gpu_spec \"T4|V100 M16\": a model name \"V100 M16\" may only use "
          "letters, digits, '.', '_' and '-'");
    CHECK(podError(kFive + "p0,,1024,1,1000\n") == "p.csv: line 2: cpu_milli is empty");
    CHECK(podError(kFive + "p0,99999999999999999999,1024,1,1000\n") ==
          "p.csv: line 2: cpu_milli 99999999999999999999 is above 10,000,000 (10,000 vCPUs)");
    CHECK(podError(kFive + "p0,1.5,1024,1,1000\n") ==
          "p.csv: line 2: cpu_milli \"1.5\" is not a whole number");
    CHECK(podError("\"name\",cpu_milli,memory_mib,num_gpu,gpu_milli\n") ==
          "p.csv: line 1: the header \"\"name\",cpu_milli,memory_mib,num_gpu,gpu_milli\" holds "
          "a quote (the format has no quoting)");
    // A quoted field with a comma splits the row.
    CHECK(podError(kFull + "p0,1000,1024,1,1000,\"T4,G2\",LS,Running,0,1,0\n") ==
          "p.csv: line 2: expected 11 fields (as many as the header has), got 12");
    // Three rows pass a limit of three (empty lines do not count); a fourth does not.
    const std::string three = kFive + "a,1,1,0,0\n\nb,1,1,0,0\nc,1,1,0,0\n";
    CHECK(podError(three, OpenbLimits{3}) == "accepted");
    CHECK(podError(three + "d,1,1,0,0\n", OpenbLimits{3}) ==
          "p.csv: line 6: more than 3 pods (the limit for one file)");
    // A UTF-8 byte-order mark before the header is dropped.
    CHECK(parseOpenbPods("\xEF\xBB\xBF" + kFive + "a,1,1,0,0\n", "p.csv").size() == 1);
}

TEST_CASE("openb: the real node lists shipped in presets/data", "[openb]") {
    const fs::path dir = test::presetDataDir() / "openb";
    INFO("the openb trace is expected in " << dir.string() << " (the shared data folder)");
    REQUIRE(fs::exists(dir / "openb_node_list_gpu_node.csv"));
    const auto gpuNodes = readOpenbNodes(dir / "openb_node_list_gpu_node.csv");
    // SOURCE.md: 1,213 GPU nodes, 6,212 GPUs, 107,018 vCPU.
    CHECK(gpuNodes.size() == 1213);
    long long gpus = 0, cpuMilli = 0, gpuRows = 0;
    for (const OpenbNode& n : gpuNodes) {
        gpus += n.gpus;
        cpuMilli += n.cpuMilli;
        gpuRows += n.isGpuNode();
    }
    CHECK(gpuRows == 1213);
    CHECK(gpus == 6212);
    CHECK(cpuMilli == 107'018'000);
    // The all-node list adds 310 CPU-only nodes.
    const auto allNodes = readOpenbNodes(dir / "openb_node_list_all_node.csv");
    CHECK(allNodes.size() == 1523);
    CHECK(std::count_if(allNodes.begin(), allNodes.end(),
                        [](const OpenbNode& n) { return !n.isGpuNode(); }) == 310);
}

TEST_CASE("openb: the real default pod list and every variant read", "[openb]") {
    const fs::path dir = test::presetDataDir() / "openb";
    INFO("the openb trace is expected in " << dir.string() << " (the shared data folder)");
    REQUIRE(fs::exists(dir / "openb_pod_list_default.csv"));
    const auto pods = readOpenbPods(dir / "openb_pod_list_default.csv");
    // SOURCE.md: 8,152 pods; 1,088 CPU-only, 6,989 with one GPU (3,078 of them partial),
    // 16 / 15 / 44 with 2 / 4 / 8 GPUs.
    CHECK(pods.size() == 8152);
    int byGpus[9] = {}, partial = 0, unscheduled = 0, moreThan8 = 0;
    for (const OpenbPod& p : pods) {
        if (p.numGpu > 8) {
            ++moreThan8;
            continue;
        }
        ++byGpus[p.numGpu];
        partial += p.gpuMilli > 0 && p.gpuMilli < 1000;
        unscheduled += std::isnan(p.scheduledS);
    }
    CHECK(moreThan8 == 0);
    CHECK(byGpus[0] == 1088);
    CHECK(byGpus[1] == 6989);
    CHECK(partial == 3078);
    CHECK(byGpus[2] == 16);
    CHECK(byGpus[4] == 15);
    CHECK(byGpus[8] == 44);
    CHECK(unscheduled == 897);  // the pods with an empty scheduled_time (all Pending)
    // The 23 variants: 19 in the full form, the 4 multigpu ones with five columns.
    int files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("openb_pod_list_")) continue;
        INFO(name);
        const auto list = readOpenbPods(entry.path());
        CHECK(list.size() > 7000);
        CHECK(list.front().qos.empty() == name.starts_with("openb_pod_list_multigpu"));
        ++files;
    }
    CHECK(files == 24);
}
