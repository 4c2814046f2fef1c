#include "gpuplan/export/chrome_trace.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

namespace {

/// A JSON string literal (nlohmann escapes it; bytes that are not UTF-8 become U+FFFD).
std::string jsonString(std::string_view text) {
    return nlohmann::json(std::string(text))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Thread ids: GPU slot × this + lane (a GPU has at most 48 MPS clients, 7 MIG instances,
/// or its time-slice replicas at once).
constexpr int kLanesPerGpu = 1000;

/// Microseconds, as an integer: simulated seconds are at most years, far inside 2^53 µs.
long long micros(double s) {
    return std::llround(s * 1e6);
}

}  // namespace

ChromeTraceCounts writeChromeTrace(const Results& r, std::ostream& out, const ProgressFn& progress,
                                   std::stop_token stop) {
    ChromeTraceCounts counts;
    const Fleet& fleet = r.fleet;
    const int nodes = static_cast<int>(fleet.nodes.size());
    const int clusterPid = nodes;  // counters live in a process of their own
    bool first = true;
    auto event = [&](const std::string& body) {
        out << (first ? "\n" : ",\n") << body;
        first = false;
    };
    out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    for (int n = 0; n < nodes; ++n)
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(n) +
              ",\"name\":\"process_name\",\"args\":{\"name\":" + jsonString(fleet.nodes[n].name) +
              "}},{\"ph\":\"M\",\"pid\":" + std::to_string(n) +
              ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + std::to_string(n) +
              "}}");
    event("{\"ph\":\"M\",\"pid\":" + std::to_string(clusterPid) +
          ",\"name\":\"process_name\",\"args\":{\"name\":\"cluster\"}}");
    // A thread per GPU lane (Results::gpuTimeline): a GPU shared by several jobs at once gets
    // one per overlapping holder, so every thread's complete events nest.
    const GpuTimeline& timeline = r.gpuTimeline;
    std::size_t nextCheck = 0;
    for (int n = 0; n < nodes; ++n)
        for (int slot = 0; slot < fleet.nodes[n].gpus; ++slot) {
            if (counts.completeEvents >= nextCheck) {
                if (stop.stop_requested()) {
                    counts.stopped = true;
                    return counts;
                }
                if (progress)
                    progress(static_cast<double>(counts.completeEvents) /
                             std::max<std::size_t>(timeline.intervalCount(), 1));
                nextCheck = counts.completeEvents + 4096;
            }
            const auto gpu = static_cast<std::size_t>(r.firstGpuOfNode[n] + slot);
            for (int lane = 0; lane < timeline.lanesOf(gpu); ++lane)
                event("{\"ph\":\"M\",\"pid\":" + std::to_string(n) +
                      ",\"tid\":" + std::to_string(slot * kLanesPerGpu + lane) +
                      ",\"name\":\"thread_name\",\"args\":{\"name\":\"GPU " + std::to_string(slot) +
                      (lane > 0 ? " · share " + std::to_string(lane + 1) : std::string()) + "\"}}");
            for (const GpuInterval& hold : timeline.intervalsOf(gpu)) {
                const RunSegment& seg = r.segments[hold.segment];
                const JobRecord& job = r.jobs[seg.job];
                const std::string team = jsonString(r.teams[job.spec.team]);
                event("{\"ph\":\"X\",\"pid\":" + std::to_string(n) +
                      ",\"tid\":" + std::to_string(slot * kLanesPerGpu + hold.lane) +
                      ",\"ts\":" + std::to_string(micros(hold.startS)) +
                      ",\"dur\":" + std::to_string(micros(hold.endS) - micros(hold.startS)) +
                      ",\"name\":" + jsonString(r.jobName(seg.job)) + ",\"cat\":" + team +
                      ",\"args\":{\"job\":" + std::to_string(seg.job) + ",\"team\":" + team +
                      ",\"class\":" + jsonString(r.jobClassName(seg.job)) +
                      ",\"slowdown\":" + std::to_string(seg.slowdown) + "}}");
                ++counts.completeEvents;
            }
        }
    for (const RunSegment& seg : r.segments) {
        if (seg.end != SegmentEnd::Preempted || seg.placementCount == 0) continue;
        event(
            "{\"ph\":\"i\",\"s\":\"p\",\"pid\":" + std::to_string(r.placementOf(seg).front().node) +
            ",\"tid\":0,\"ts\":" + std::to_string(micros(seg.endS)) +
            ",\"name\":\"preemption\",\"args\":{\"job\":" + jsonString(r.jobName(seg.job)) + "}}");
        ++counts.instantEvents;
    }
    for (const NodeStateChange& c : r.nodeChanges) {
        const bool reclaim = c.cause == NodeChangeCause::SpotReclaim;
        if (c.state != NodeState::Failed) continue;
        event("{\"ph\":\"i\",\"s\":\"p\",\"pid\":" + std::to_string(c.node) +
              ",\"tid\":0,\"ts\":" + std::to_string(micros(c.timeS)) +
              ",\"name\":" + (reclaim ? "\"spot reclaim\"" : "\"node failure\"") + "}");
        ++counts.instantEvents;
    }
    for (const char* name : {"allocation", "queue_length"}) {
        const Series* s = r.findSeries(name);
        if (!s) continue;
        for (std::size_t k = 0; k < s->values.size() && k < r.sampleTimesS.size(); ++k) {
            if (!std::isfinite(s->values[k])) continue;
            std::ostringstream value;
            value.precision(17);
            value << s->values[k];
            event("{\"ph\":\"C\",\"pid\":" + std::to_string(clusterPid) + ",\"ts\":" +
                  std::to_string(micros(r.sampleTimesS[k])) + ",\"name\":" + jsonString(name) +
                  ",\"args\":{" + jsonString(name) + ":" + value.str() + "}}");
            ++counts.counterEvents;
        }
    }
    out << "\n]}\n";
    if (progress) progress(1.0);
    return counts;
}

ChromeTraceCounts saveChromeTrace(const Results& results, const std::filesystem::path& file,
                                  const ProgressFn& progress, std::stop_token stop) {
    // Streamed to a temporary beside the file, then renamed over it: a failed write leaves
    // any earlier trace there as it was.
    std::filesystem::path temp = file;
    temp += ".partial";
    ChromeTraceCounts counts;
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(file.string() + ": cannot be written");
        counts = writeChromeTrace(results, out, progress, stop);
        out.flush();
        if (!out) {
            out.close();
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            throw std::runtime_error(file.string() + ": writing failed (disk full?)");
        }
    }
    std::error_code ec;
    if (counts.stopped) {
        std::filesystem::remove(temp, ec);
        return counts;
    }
    std::filesystem::rename(temp, file, ec);
    if (ec) {
        std::filesystem::remove(temp, ec);
        throw std::runtime_error(file.string() + ": cannot be replaced");
    }
    return counts;
}

}  // namespace gpuplan
