// gpuplan-cli study: every pod list × policy × seed of the FGD paper's fill study, on N
// threads. Each run is independent and deterministic, and results are kept by run index, so
// the output does not depend on the thread count (the seconds column aside).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "cli_fill.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::cli {

const char* const kStudyUsage =
    "usage: gpuplan-cli study --nodes FILE --pods-dir DIR --seeds A-B [--policies LIST]\n"
    "                         [--tune R] [--jobs N] [--out-dir DIR]\n"
    "\n"
    "Runs the fill experiment (see gpuplan-cli fill --help) for every pod list\n"
    "openb_pod_list_*.csv in DIR, every policy and every seed, and prints a markdown table\n"
    "of the allocation at 100 % arrived per pod list and policy: the mean over the seeds\n"
    "(min–max). A progress line (runs done, ETA) goes to stderr.\n"
    "  --nodes FILE     openb node list\n"
    "  --pods-dir DIR   folder with the pod lists\n"
    "  --seeds A-B      seeds A to B (or one seed N); at most 1000\n"
    "  --policies LIST  comma-separated, from fgd,bestfit,packing,clustering,dotprod,random\n"
    "                   (default: all six, in that order)\n"
    "  --tune R         as for fill (default 1.3)\n"
    "  --jobs N         runs at a time, 1 to 256 (default: the hardware threads)\n"
    "  --out-dir DIR    also write study_runs.csv (one row per run) and study_summary.md\n"
    "                   into DIR (created when missing)\n";

namespace {

struct Trace {
    std::filesystem::path file;
    std::string name;  ///< file name without .csv
    std::vector<OpenbPod> pods;
};

struct Job {
    int trace = 0;
    FillPolicy policy = FillPolicy::Fgd;
    std::uint64_t seed = 0;
};

struct Outcome {
    double allocPctAt100 = 0, allocPctFinal = 0, fragRatioPctAt90 = 0, seconds = 0;
    int arrivals = 0, placed = 0, failed = 0;
};

std::pair<std::uint64_t, std::uint64_t> seedRange(const std::string& text) {
    const auto dash = text.find('-');
    const auto a = parseUnsigned(text.substr(0, dash));
    const auto b = dash == std::string::npos ? a : parseUnsigned(text.substr(dash + 1));
    if (!a || !b || *b < *a || *b - *a >= 1000)
        throw UsageError{"--seeds takes A-B (A ≤ B, at most 1000 seeds) or one seed, got \"" +
                         text + "\""};
    return {*a, *b};
}

std::vector<FillPolicy> policyList(const std::string& text) {
    std::vector<FillPolicy> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string key = text.substr(start, comma - start);
        const auto p = parseFillPolicy(key);
        if (!p)
            throw UsageError{"--policies: unknown policy \"" + key +
                             "\" (fgd, bestfit, dotprod, packing, clustering, random)"};
        if (std::find(out.begin(), out.end(), *p) != out.end())
            throw UsageError{"--policies: " + key + " given twice"};
        out.push_back(*p);
        if (comma == text.size()) break;
        start = comma + 1;
    }
    return out;
}

std::vector<Trace> loadTraces(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw UsageError{"--pods-dir: \"" + dir.string() + "\" is not a folder"};
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("openb_pod_list_") && name.ends_with(".csv"))
            files.push_back(entry.path());
    }
    if (ec) throw UsageError{"--pods-dir: cannot list \"" + dir.string() + "\": " + ec.message()};
    if (files.empty())
        throw UsageError{"--pods-dir: no openb_pod_list_*.csv in \"" + dir.string() + "\""};
    std::sort(files.begin(), files.end());
    std::vector<Trace> traces;
    for (const auto& f : files)  // all read before any run: a bad file stops the study at once
        traces.push_back({f, f.stem().string(), loadFillPods(f)});
    return traces;
}

/// "mean (min–max)" of the seeds' values, or "-" when a run gave no reading.
std::string cell(const std::vector<double>& values) {
    if (values.empty() ||
        std::any_of(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }))
        return "-";
    double sum = 0;
    for (double v : values)
        sum += v;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f (%.2f–%.2f)", sum / static_cast<double>(values.size()),
                  *lo, *hi);
    return buf;
}

std::string summaryTable(const std::vector<Trace>& traces, const std::vector<FillPolicy>& policies,
                         const std::vector<Job>& jobs, const std::vector<Outcome>& outcomes) {
    std::string out =
        "Allocation (% of GPU capacity) at 100 % arrived: mean over seeds (min–max)\n\n";
    out += "| pod list |";
    for (FillPolicy p : policies)
        out += " " + std::string(fillPolicyName(p)) + " |";
    out += "\n|---|";
    for (std::size_t i = 0; i < policies.size(); ++i)
        out += "---|";
    out += '\n';
    for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
        out += "| " + traces[t].name + " |";
        for (FillPolicy p : policies) {
            std::vector<double> values;
            for (std::size_t j = 0; j < jobs.size(); ++j)
                if (jobs[j].trace == t && jobs[j].policy == p)
                    values.push_back(outcomes[j].allocPctAt100);
            out += " " + cell(values) + " |";
        }
        out += '\n';
    }
    return out;
}

std::string runsCsv(const std::vector<Trace>& traces, const std::vector<Job>& jobs,
                    const std::vector<Outcome>& outcomes) {
    std::string out =
        "pod_list,policy,seed,arrivals,placed,failed,alloc_pct_at_100,alloc_pct_final,"
        "frag_ratio_pct_at_90,seconds\n";
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const Outcome& o = outcomes[j];
        out += traces[jobs[j].trace].name + "," + std::string(fillPolicyKey(jobs[j].policy)) + "," +
               std::to_string(jobs[j].seed) + "," + std::to_string(o.arrivals) + "," +
               std::to_string(o.placed) + "," + std::to_string(o.failed) + "," +
               jsonNumber(o.allocPctAt100, 4) + "," + jsonNumber(o.allocPctFinal, 4) + "," +
               jsonNumber(o.fragRatioPctAt90, 4) + "," + jsonNumber(o.seconds, 3) + "\n";
    }
    return out;
}

}  // namespace

int studyCommand(Args& args) {
    std::optional<std::filesystem::path> nodesFile, podsDir, outDir;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> seeds;
    std::vector<FillPolicy> policies(std::begin(kFillPolicies), std::end(kFillPolicies));
    double tune = 1.3;
    unsigned jobsAtOnce = std::max(1u, std::thread::hardware_concurrency());
    while (!args.done()) {
        if (args.at("--nodes")) {
            nodesFile = args.value("--nodes");
        } else if (args.at("--pods-dir")) {
            podsDir = args.value("--pods-dir");
        } else if (args.at("--seeds")) {
            seeds = seedRange(args.value("--seeds"));
        } else if (args.at("--policies")) {
            policies = policyList(args.value("--policies"));
        } else if (args.at("--tune")) {
            tune = tuneValue(args);
        } else if (args.at("--jobs")) {
            jobsAtOnce = static_cast<unsigned>(args.integer("--jobs", 1, 256));
        } else if (args.at("--out-dir")) {
            outDir = args.value("--out-dir");
        } else {
            args.unknown();
        }
    }
    if (!nodesFile) throw UsageError{"--nodes FILE is required"};
    if (!podsDir) throw UsageError{"--pods-dir DIR is required"};
    if (!seeds) throw UsageError{"--seeds is required"};
    const std::vector<OpenbNode> nodes = loadFillNodes(*nodesFile);
    const std::vector<Trace> traces = loadTraces(*podsDir);
    if (outDir) prepareOutputFolder("--out-dir", *outDir);

    std::vector<Job> jobs;
    for (int t = 0; t < static_cast<int>(traces.size()); ++t)
        for (FillPolicy p : policies)
            for (std::uint64_t s = seeds->first;; ++s) {
                jobs.push_back({t, p, s});
                if (s == seeds->second) break;
            }
    std::vector<Outcome> outcomes(jobs.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex errorMutex;
    std::optional<std::pair<std::string, std::string>> error;  // pod list file, message
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        for (std::size_t j; (j = next++) < jobs.size();) {
            {
                std::lock_guard lock(errorMutex);
                if (error) return;
            }
            FillSpec spec;
            spec.nodes = nodes;
            spec.pods = traces[jobs[j].trace].pods;
            spec.policy = jobs[j].policy;
            spec.seed = jobs[j].seed;
            spec.tune = tune;
            try {
                const FillResult r = runFill(spec);
                outcomes[j] = {r.allocPctAt100, r.allocPctFinal,     r.fragRatioPctAt90,
                               r.seconds,       r.placed + r.failed, r.placed,
                               r.failed};
            } catch (const std::invalid_argument& e) {
                std::lock_guard lock(errorMutex);
                if (!error) error.emplace(traces[jobs[j].trace].file.string(), e.what());
                return;
            }
            ++done;
        }
    };
    std::vector<std::jthread> threads;
    const unsigned count = std::min<unsigned>(jobsAtOnce, static_cast<unsigned>(jobs.size()));
    for (unsigned i = 0; i < count; ++i)
        threads.emplace_back(worker);
    // Progress from this thread, twice a second, until every worker has finished.
    for (;;) {
        const std::size_t d = done.load();
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::string eta = "-";
        if (d > 0)
            eta = formatSeconds(elapsed / static_cast<double>(d) *
                                static_cast<double>(jobs.size() - d));
        std::fprintf(stderr, "\rstudy: %zu/%zu runs, %s elapsed, ETA %s   ", d, jobs.size(),
                     formatSeconds(elapsed).c_str(), eta.c_str());
        bool stopped;
        {
            std::lock_guard lock(errorMutex);
            stopped = error.has_value();
        }
        if (d == jobs.size() || stopped) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    threads.clear();  // joins
    std::fputc('\n', stderr);
    if (error) throw InputError(error->first, "", error->second);

    const std::string table = summaryTable(traces, policies, jobs, outcomes);
    std::fputs(table.c_str(), stdout);
    if (outDir) {
        writeFileAtomic(*outDir / "study_runs.csv", runsCsv(traces, jobs, outcomes));
        writeFileAtomic(*outDir / "study_summary.md", table);
    }
    return kOk;
}

}  // namespace gpuplan::cli
