// gpuplan-cli fill: one FGD-study fill run on openb node and pod lists.
#include "cli_fill.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "cli_outputs.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::cli {

const char* const kFillUsage =
    "usage: gpuplan-cli fill --nodes FILE --pods FILE --policy POLICY --seed N [--tune R]\n"
    "                        [--out curve.csv] [--json]\n"
    "\n"
    "Runs the FGD paper's fill experiment: the pods of an openb pod list, shuffled and\n"
    "resampled to R times the GPU capacity, arrive one at a time on the node list's GPU\n"
    "nodes and never leave; POLICY places each. Prints the allocation when the arrived GPU\n"
    "demand reaches 100 % of capacity (the mean over the arrivals whose arrived % rounds to\n"
    "100, as the paper's analysis reads it), after the last arrival, and the fragmentation\n"
    "ratio at 90 % arrived.\n"
    "  --nodes FILE   openb node list (sn,cpu_milli,memory_mib,gpu,model); GPU nodes are used\n"
    "  --pods FILE    openb pod list (name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec…])\n"
    "  --policy P     fgd, bestfit, dotprod, packing, clustering or random\n"
    "  --seed N       seed of the shuffle, resampling, tie order and random draws\n"
    "                 (0 to 18446744073709551615)\n"
    "  --tune R       arrivals' GPU demand as a multiple of capacity, 0 to 10 (default 1.3;\n"
    "                 0 = the shuffled list as it is)\n"
    "  --out FILE     write the curve as CSV: one row per arrival\n"
    "  --json         print {\"alloc_pct_at_100\", \"alloc_pct_final\", \"frag_ratio_pct_at_90\",\n"
    "                 \"seconds\"} instead of the summary\n";

namespace {

std::string withCommas(long long n) {
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

std::string curveCsv(const FillSpec& spec, const Fleet& fleet, const FillResult& r) {
    std::string out =
        "arrival,pod,arrived_pct,alloc_pct,frag_ratio_pct,frag_amount_pct,outcome,node,gpus\n";
    char buf[160];
    for (std::size_t i = 0; i < r.curve.size(); ++i) {
        const FillRow& row = r.curve[i];
        std::snprintf(buf, sizeof buf, "%zu,%s,%.4f,%.4f,%.4f,%.4f,%s,", i + 1,
                      spec.pods[row.pod].name.c_str(), row.arrivedPct, row.allocPct,
                      row.fragRatioPct, row.fragAmountPct, row.placed() ? "placed" : "failed");
        out += buf;
        if (row.placed()) {
            out += fleet.nodes[row.node].name;
            out += ',';
            bool first = true;
            for (int g = 0; g < 64; ++g) {
                if (!(row.gpuMask >> g & 1u)) continue;
                out += (first ? "" : "-") + std::to_string(g);  // the simulator's GPU id form
                first = false;
            }
        } else {
            out += ',';
        }
        out += '\n';
    }
    return out;
}

}  // namespace

std::vector<OpenbNode> loadFillNodes(const std::filesystem::path& file) {
    std::vector<OpenbNode> nodes = readOpenbNodes(file);
    try {
        (void)openbFleet(nodes);  // no GPU node, too many models: say so before any run
    } catch (const std::invalid_argument& e) {
        throw InputError(file.string(), "", e.what());
    }
    return nodes;
}

std::vector<OpenbPod> loadFillPods(const std::filesystem::path& file) {
    return readOpenbPods(file);
}

double tuneValue(Args& args) {
    const std::string text = args.value("--tune");
    char* end = nullptr;
    const double v = text.empty() ? -1 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v > 10 ||
        !(text[0] >= '0' && text[0] <= '9'))
        throw UsageError{"--tune needs a number from 0 to 10, got \"" + text + "\""};
    return v;
}

std::string jsonNumber(double v, int decimals) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

int fillCommand(Args& args) {
    std::optional<std::filesystem::path> nodesFile, podsFile, outFile;
    std::optional<FillPolicy> policy;
    std::optional<std::uint64_t> seed;
    double tune = 1.3;
    bool json = false;
    while (!args.done()) {
        if (args.at("--nodes")) {
            nodesFile = args.value("--nodes");
        } else if (args.at("--pods")) {
            podsFile = args.value("--pods");
        } else if (args.at("--policy")) {
            const std::string key = args.value("--policy");
            policy = parseFillPolicy(key);
            if (!policy)
                throw UsageError{
                    "--policy takes fgd, bestfit, dotprod, packing, clustering or "
                    "random, got \"" +
                    key + "\""};
        } else if (args.at("--seed")) {
            seed = args.integer("--seed", 0, UINT64_MAX);
        } else if (args.at("--tune")) {
            tune = tuneValue(args);
        } else if (args.at("--out")) {
            outFile = args.value("--out");
        } else if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else {
            args.unknown();
        }
    }
    if (!nodesFile) throw UsageError{"--nodes FILE is required"};
    if (!podsFile) throw UsageError{"--pods FILE is required"};
    if (!policy) throw UsageError{"--policy is required"};
    if (!seed) throw UsageError{"--seed is required"};
    if (outFile) checkOutputFile("--out", *outFile);

    FillSpec spec;
    spec.nodes = loadFillNodes(*nodesFile);
    spec.pods = loadFillPods(*podsFile);
    spec.policy = *policy;
    spec.seed = *seed;
    spec.tune = tune;
    FillResult r;
    try {
        r = runFill(spec);
    } catch (const std::invalid_argument& e) {  // resampling bound: the pod list's fault
        throw InputError(podsFile->string(), "", e.what());
    }
    if (outFile) writeFileAtomic(*outFile, curveCsv(spec, openbFleet(spec.nodes), r));
    if (json) {
        std::printf(
            "{\"alloc_pct_at_100\": %s, \"alloc_pct_final\": %s, \"frag_ratio_pct_at_90\": %s, "
            "\"seconds\": %s}\n",
            jsonNumber(r.allocPctAt100, 4).c_str(), jsonNumber(r.allocPctFinal, 4).c_str(),
            jsonNumber(r.fragRatioPctAt90, 4).c_str(), jsonNumber(r.seconds, 4).c_str());
        return kOk;
    }
    auto pct = [](double v) { return std::isfinite(v) ? jsonNumber(v, 2) + " %" : "-"; };
    std::printf("fill %s, seed %llu, tune %g: %s nodes, %s GPUs; %s arrivals from %s listed pods\n",
                std::string(fillPolicyName(*policy)).c_str(),
                static_cast<unsigned long long>(*seed), tune, withCommas(r.nodes).c_str(),
                withCommas(r.totalGpus).c_str(), withCommas(r.placed + r.failed).c_str(),
                withCommas(r.listedPods).c_str());
    std::printf("  placed %s, failed %s; target workload: %d task shapes\n",
                withCommas(r.placed).c_str(), withCommas(r.failed).c_str(), r.workloadShapes);
    std::printf("  allocation at 100 %% arrived       %s\n", pct(r.allocPctAt100).c_str());
    std::printf("  allocation after the last arrival %s\n", pct(r.allocPctFinal).c_str());
    std::printf("  fragmentation ratio at 90 %% arrived %s\n", pct(r.fragRatioPctAt90).c_str());
    std::printf("  %.3f s (%s node scores computed, %s node states' fragments)\n", r.seconds,
                withCommas(static_cast<long long>(r.scoresComputed)).c_str(),
                withCommas(static_cast<long long>(r.fragmentStates)).c_str());
    return kOk;
}

}  // namespace gpuplan::cli
