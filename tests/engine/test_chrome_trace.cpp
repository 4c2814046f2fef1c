// Chrome trace export (gpuplan/export/chrome_trace.hpp): valid JSON, a complete event per job
// binding on each GPU it held, microsecond timestamps, and slices that nest on every thread.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpuplan/export/chrome_trace.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;

namespace {

nlohmann::json traceOf(const Results& r, ChromeTraceCounts* counts = nullptr) {
    std::ostringstream out;
    const ChromeTraceCounts c = writeChromeTrace(r, out);
    if (counts) *counts = c;
    return nlohmann::json::parse(out.str());
}

}  // namespace

TEST_CASE("a trace has a slice per binding per GPU, in microseconds", "[trace]") {
    // Two 4-GPU nodes. "a" (8 GPUs, two pods of 4, 1 h) binds at 0 on both nodes: 8 slices
    // [0, 3.6e9 µs). "b" (2 GPUs, 30 min) arrives at 600 s and waits for "a": it runs on
    // node0 [3,600, 5,400) s, 2 slices. node1 fails at 4,000 s: one instant. 10 slices.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 7200;
    s.sampleIntervalS = 600;
    s.jobs = {job("a", 8, 3600, 0, 4), job("b", 2, 1800, 600)};
    s.nodeEvents = {{4000, "pod-rack-node1", NodeState::Failed}};
    const Results r = test::run(s);
    ChromeTraceCounts counts;
    const nlohmann::json t = traceOf(r, &counts);
    CHECK(counts.completeEvents == 10);
    std::size_t slices = 0, instants = 0, counters = 0;
    std::map<std::string, std::size_t> slicesOf;
    for (const auto& e : t["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "X") {
            ++slices;
            ++slicesOf[e["name"].get<std::string>()];
            if (e["name"] == "a") {
                CHECK(e["ts"] == 0);
                CHECK(e["dur"] == 3'600'000'000LL);
            } else {
                CHECK(e["ts"] == 3'600'000'000LL);
                CHECK(e["dur"] == 1'800'000'000LL);
                CHECK(e["pid"] == 0);
            }
        }
        instants += ph == "i";
        counters += ph == "C";
    }
    CHECK(slices == 10);
    CHECK(slicesOf["a"] == 8);
    CHECK(slicesOf["b"] == 2);
    CHECK(instants == 1);
    // Allocation and queue length at each of the 12 samples (every 600 s over 2 h).
    CHECK(counters == 2 * r.sampleTimesS.size());
    CHECK(counts.counterEvents == counters);
}

TEST_CASE("slices nest on every thread, shared GPUs included", "[trace]") {
    // A time-sliced node (4 replicas per GPU) with six 1-replica jobs arriving together: on a
    // shared GPU, holders at once go to lanes (threads) of their own. On every thread, any two
    // slices are disjoint or one holds the other.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 7200;
    GpuSharingDef sharing;
    sharing.mode = SharingMode::TimeSlicing;
    sharing.timeSliceReplicas = 4;
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    for (int i = 0; i < 6; ++i) {
        JobDef j = job("share" + std::to_string(i), 1, 1200.0 + 300 * i, 60.0 * i);
        j.traits.gpuMilli = 250;
        s.jobs.push_back(j);
    }
    const Results r = test::run(s);
    const nlohmann::json t = traceOf(r);
    std::map<std::pair<int, int>, std::vector<std::pair<long long, long long>>> byThread;
    std::size_t slices = 0;
    for (const auto& e : t["traceEvents"])
        if (e["ph"] == "X") {
            const long long ts = e["ts"], dur = e["dur"];
            byThread[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(ts, ts + dur);
            ++slices;
        }
    CHECK(slices == r.segments.size());  // one GPU per share binding
    CHECK(slices == r.gpuTimeline.intervalCount());
    for (const auto& [thread, spans] : byThread)
        for (std::size_t i = 0; i < spans.size(); ++i)
            for (std::size_t j = i + 1; j < spans.size(); ++j) {
                const auto [a0, a1] = spans[i];
                const auto [b0, b1] = spans[j];
                const bool disjoint = a1 <= b0 || b1 <= a0;
                const bool nested = (a0 <= b0 && b1 <= a1) || (b0 <= a0 && a1 <= b1);
                CHECK((disjoint || nested));
            }
}

TEST_CASE("names are escaped and the file is replaced whole", "[trace]") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 3600;
    s.jobs = {job("quote \" back\\slash\ttab", 1, 600)};
    const Results r = test::run(s);
    const nlohmann::json t = traceOf(r);
    bool found = false;
    for (const auto& e : t["traceEvents"])
        found |= e["ph"] == "X" && e["name"] == "quote \" back\\slash\ttab";
    CHECK(found);
    const auto file = test::scratchPath("gpuplan-trace-test.json");
    saveChromeTrace(r, file);
    CHECK(nlohmann::json::parse(readTextFile(file))["traceEvents"].size() > 0);
    std::filesystem::remove(file);
    CHECK_THROWS_WITH(saveChromeTrace(r, "/nonexistent-dir/trace.json"),
                      Catch::Contains("/nonexistent-dir/trace.json"));
}

TEST_CASE("a stopped export leaves the file as it was; progress reaches 1", "[trace]") {
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 7200;
    s.jobs = {job("a", 8, 3600), job("b", 2, 600, 60)};
    const Results r = test::run(s);
    const auto file = test::scratchPath("gpuplan-trace-stop-test.json");
    writeFileAtomic(file, "earlier");
    std::stop_source stop;
    stop.request_stop();
    const ChromeTraceCounts cut = saveChromeTrace(r, file, {}, stop.get_token());
    CHECK(cut.stopped);
    CHECK(readTextFile(file) == "earlier");
    CHECK_FALSE(std::filesystem::exists(file.string() + ".partial"));
    // Progress never goes back and ends at 1; the whole trace then replaces the file.
    std::vector<double> fractions;
    const ChromeTraceCounts whole =
        saveChromeTrace(r, file, [&](double f) { fractions.push_back(f); });
    CHECK_FALSE(whole.stopped);
    CHECK(whole.completeEvents == 10);  // 8 GPUs of a, 2 of b
    REQUIRE_FALSE(fractions.empty());
    CHECK(std::is_sorted(fractions.begin(), fractions.end()));
    CHECK(fractions.back() == 1.0);
    CHECK(nlohmann::json::parse(readTextFile(file))["traceEvents"].size() > 10);
    std::filesystem::remove(file);
}
