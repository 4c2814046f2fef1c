// gpuplan-cli bench: whole-run engine benchmarks. Each benchmark runs in a child process so
// its peak RSS is its own (wait4's ru_maxrss).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "gpuplan/scenario_io.hpp"
#include "gpuplan/simulate.hpp"

namespace gpuplan::cli {

const char* const kBenchUsage =
    "usage: gpuplan-cli bench [--json] [--only NAME]... [--repeat N]\n"
    "\n"
    "Runs the engine benchmarks, each in its own process, and prints per benchmark the\n"
    "median wall seconds of simulate(), the load time, events/s and peak RSS, against the\n"
    "targets of DESIGN.md:\n"
    "  default_scenario     presets/scenarios/default.json      < 0.05 s\n"
    "  philly_replay_2048   presets/scenarios/philly-2048.json  < 1 s, >= 2 M events/s\n"
    "  synthetic_100k_gpus  presets/scenarios/synthetic-100k.json (100,000 GPUs,\n"
    "                       ~1,000,000 jobs, 30 days)           < 10 s, < 2 GB\n"
    "  --json          one JSON object per benchmark instead of a table\n"
    "  --only NAME     run only this benchmark (repeatable)\n"
    "  --repeat N      runs per benchmark (default: 15, 3, 1)\n"
    "  --data-dir DIR, --presets DIR, --catalog FILE as for run\n";

namespace {

using Clock = std::chrono::steady_clock;

struct Benchmark {
    const char* name;
    const char* preset;
    int repeat;
    double targetWallS;
    double targetEventsPerS;  // 0 = none
    double targetRssMb;       // 0 = none
};

constexpr Benchmark kBenchmarks[] = {
    {"default_scenario", "default.json", 15, 0.05, 0, 0},
    {"philly_replay_2048", "philly-2048.json", 3, 1.0, 2e6, 0},
    {"synthetic_100k_gpus", "synthetic-100k.json", 1, 10.0, 0, 2048},
};

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

/// Runs in the child: loads, simulates `repeat` times, returns a JSON report.
nlohmann::ordered_json runOne(const Benchmark& b, int repeat, const CommonOptions& common) {
    const auto t0 = Clock::now();
    const Scenario scenario =
        loadScenarioFor(presetsDirFor(common) / "scenarios" / b.preset, common);
    const double loadS = seconds(t0, Clock::now());
    std::vector<double> walls;
    Results last;
    RunOptions options;
    options.checkInvariants = false;
    for (int i = 0; i < repeat; ++i) {
        const auto s = Clock::now();
        last = simulate(scenario, options);
        walls.push_back(seconds(s, Clock::now()));
    }
    std::sort(walls.begin(), walls.end());
    const double median = walls[walls.size() / 2];
    return {{"name", b.name},
            {"ok", true},
            {"wall_s", median},
            {"wall_s_min", walls.front()},
            {"load_s", loadS},
            {"runs", repeat},
            {"events", last.eventCount},
            {"events_per_s", static_cast<double>(last.eventCount) / median},
            {"jobs", last.jobs.size()},
            {"gpus", last.fleet.totalGpus},
            {"fingerprint", last.fingerprintHex()}};
}

nlohmann::ordered_json runInChild(const Benchmark& b, int repeat, const CommonOptions& common) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        std::string text;
        try {
            text = runOne(b, repeat, common).dump();
        } catch (const std::exception& e) {
            text =
                nlohmann::ordered_json{{"name", b.name}, {"ok", false}, {"error", e.what()}}.dump();
        }
        ssize_t written = 0;
        while (written < static_cast<ssize_t>(text.size())) {
            const ssize_t n = write(fds[1], text.data() + written, text.size() - written);
            if (n <= 0) break;
            written += n;
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    nlohmann::ordered_json report =
        text.empty()
            ? nlohmann::ordered_json{{"name", b.name}, {"ok", false}, {"error", "child crashed"}}
            : nlohmann::ordered_json::parse(text);
    report["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return report;
}

std::string verdict(const Benchmark& b, const nlohmann::ordered_json& r) {
    if (!r.value("ok", false)) return "ERROR";
    bool pass = r["wall_s"].get<double>() < b.targetWallS;
    if (b.targetEventsPerS > 0)
        pass = pass && r["events_per_s"].get<double>() >= b.targetEventsPerS;
    if (b.targetRssMb > 0) pass = pass && r["peak_rss_mb"].get<double>() < b.targetRssMb;
    return pass ? "meets target" : "MISSES target";
}

}  // namespace

int benchCommand(Args& args) {
    CommonOptions common;
    bool json = false;
    std::vector<std::string> only;
    int repeat = 0;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else if (args.at("--only")) {
            only.push_back(args.value("--only"));
        } else if (args.at("--repeat")) {
            repeat = static_cast<int>(args.integer("--repeat", 1, 1000));
        } else {
            args.unknown();
        }
    }
    for (const std::string& name : only) {
        const bool known = std::any_of(std::begin(kBenchmarks), std::end(kBenchmarks),
                                       [&](const Benchmark& b) { return name == b.name; });
        if (!known) throw UsageError{"unknown benchmark " + name};
    }
    if (!json)
        std::printf("%-22s %10s %10s %12s %9s %10s %9s  %s\n", "benchmark", "wall_s", "load_s",
                    "events/s", "events", "jobs", "rss_MB", "target");
    int failures = 0;
    for (const Benchmark& b : kBenchmarks) {
        if (!only.empty() && std::find(only.begin(), only.end(), b.name) == only.end()) continue;
        const nlohmann::ordered_json r = runInChild(b, repeat > 0 ? repeat : b.repeat, common);
        if (!r.value("ok", false)) ++failures;
        if (json) {
            nlohmann::ordered_json out = r;
            out["verdict"] = verdict(b, r);
            std::printf("%s\n", out.dump().c_str());
        } else if (!r.value("ok", false)) {
            std::printf("%-22s error: %s\n", b.name, r.value("error", "?").c_str());
        } else {
            std::printf("%-22s %10.4f %10.4f %12.3g %9llu %10llu %9.1f  %s\n", b.name,
                        r["wall_s"].get<double>(), r["load_s"].get<double>(),
                        r["events_per_s"].get<double>(),
                        static_cast<unsigned long long>(r["events"].get<std::uint64_t>()),
                        static_cast<unsigned long long>(r["jobs"].get<std::uint64_t>()),
                        r["peak_rss_mb"].get<double>(), verdict(b, r).c_str());
        }
        std::fflush(stdout);
    }
    return failures ? kBadInput : kOk;
}

}  // namespace gpuplan::cli
