// libFuzzer target: bytes → the openb node and pod list readers (the first byte picks which),
// and an accepted pod list → a fill run on two fixed nodes with every policy. Expected
// outcome for bad bytes: an InputError naming the line. A list it accepts must hold what the
// fill engine relies on, and the fill must finish; anything else is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gpuplan/fragmentation/fill.hpp"
#include "gpuplan/model/openb.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace {

[[noreturn]] void finding(const char* what, std::size_t row) {
    std::fprintf(stderr, "fuzz_openb: row %zu: %s\n", row, what);
    std::abort();
}

void checkNodes(const std::vector<gpuplan::OpenbNode>& nodes) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const gpuplan::OpenbNode& n = nodes[i];
        if (n.gpus < 0 || n.gpus > 64) finding("GPUs outside 0..64", i);
        if (n.cpuMilli < 0 || n.memoryMiB < 0) finding("negative CPU or memory", i);
        if (n.isGpuNode() && n.model.empty()) finding("a GPU node without a model", i);
    }
}

void checkPods(const std::vector<gpuplan::OpenbPod>& pods) {
    for (std::size_t i = 0; i < pods.size(); ++i) {
        const gpuplan::OpenbPod& p = pods[i];
        if (p.numGpu < 0 || p.numGpu > 64) finding("GPUs outside 0..64", i);
        if ((p.numGpu == 0) != (p.gpuMilli == 0)) finding("GPU count and share disagree", i);
        if (p.gpuMilli < 0 || p.gpuMilli > 1000) finding("share outside 0..1000", i);
        if (p.gpuMilli > 0 && p.gpuMilli < 1000 && p.numGpu != 1)
            finding("a partial share on more than one GPU", i);
        if (p.cpuMilli < 0 || p.memoryMiB < 0) finding("negative CPU or memory", i);
        if (std::isinf(p.creationS) || std::isinf(p.deletionS)) finding("an infinite time", i);
    }
}

/// Two small GPU nodes the fill runs on: one with two "G1" GPUs, one with one "T4".
std::vector<gpuplan::OpenbNode> fixedNodes() {
    return {gpuplan::OpenbNode{"n0", 32000, 131072, 2, "G1"},
            gpuplan::OpenbNode{"n1", 16000, 65536, 1, "T4"}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const bool nodeList = data[0] & 1;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        if (nodeList) {
            checkNodes(gpuplan::parseOpenbNodes(text, "fuzz.csv"));
            return 0;
        }
        const std::vector<gpuplan::OpenbPod> pods = gpuplan::parseOpenbPods(text, "fuzz.csv");
        checkPods(pods);
        if (pods.empty() || pods.size() > 200) return 0;
        for (gpuplan::FillPolicy policy : gpuplan::kFillPolicies) {
            gpuplan::FillSpec spec;
            spec.nodes = fixedNodes();
            spec.pods = pods;
            spec.policy = policy;
            spec.seed = data[0];
            const gpuplan::FillResult r = gpuplan::runFill(spec);
            for (const gpuplan::FillRow& row : r.curve)
                if (!(row.allocPct >= 0 && row.allocPct <= 100.0000001))
                    finding("allocation outside 0..100 %", 0);
        }
    } catch (const gpuplan::InputError&) {
        return 0;  // rejected with a file, a line and a reason: what bad input should get
    }
    return 0;
}
