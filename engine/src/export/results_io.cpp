#include "gpuplan/export/results_io.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "gpuplan/io/text_files.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/replications.hpp"
#include "io/csv_text.hpp"

namespace gpuplan {

namespace {

using detail::csvField;
using detail::csvNumber;
using OJson = nlohmann::ordered_json;

OJson number(double v) {
    return std::isfinite(v) ? OJson(v) : OJson(nullptr);
}

OJson groupsToJson(const std::vector<GroupKpis>& groups) {
    OJson list = OJson::array();
    for (const GroupKpis& g : groups) {
        OJson o{{"name", g.name},
                {"allocation_share", number(g.allocationShare)},
                {"gpu_hours", number(g.gpuHours)},
                {"wait_s_p50", number(g.waitP50S)},
                {"wait_s_p95", number(g.waitP95S)},
                {"jobs_submitted", g.submitted},
                {"jobs_completed", g.completed},
                {"jobs_waiting_at_end", g.waitingAtEnd},
                {"gpus_waiting_at_end", number(g.gpusWaitingAtEnd)}};
        if (!std::isnan(g.nominalGpus)) {  // a team with a quota
            o["quota_nominal_gpus"] = number(g.nominalGpus);
            o["quota_used_gpus_mean"] = number(g.usedGpusMean);
            o["quota_borrowed_gpus_mean"] = number(g.borrowedGpusMean);
            o["quota_lent_gpus_mean"] = number(g.lentGpusMean);
        }
        if (g.preemptions > 0) o["preemptions"] = g.preemptions;
        if (!std::isnan(g.costUsd)) o["cost_usd"] = number(g.costUsd);
        if (g.thrashingJobs > 0) o["jobs_thrashing"] = g.thrashingJobs;
        if (g.starvedJobs > 0) o["jobs_starved"] = g.starvedJobs;
        list.push_back(o);
    }
    return list;
}

/// A series value as CSV text. GPU series (unit "gpus": allocated and pending GPU-equivalents
/// are exact sums of MIG instances, 1/7, and shares, 1/1000) are written as the shortest text
/// that reads back as the same double, as JSON writes them: 2/7 of a GPU is 0.2857142857142857
/// (ten digits would read back as another number), a 300 milli-GPU share 0.3. Other series
/// with csvNumber's ten significant digits.
std::string seriesCsvNumber(const Series& s, double v) {
    if (s.unit != "gpus" || !std::isfinite(v)) return csvNumber(v);
    char buf[32];
    const auto [end, error] = std::to_chars(buf, buf + sizeof buf, v);
    return error == std::errc{} ? std::string(buf, end) : csvNumber(v);
}

}  // namespace

std::string seriesFileStem(const std::string& metric) {
    std::string out;
    for (char c : metric) {
        if (c == '{')
            out += '_';
        else if (c != '}')
            out += c;
    }
    return out;
}

std::string resultsToJson(const Results& r) {
    OJson root;
    OJson kpis = OJson::object();
    for (const Kpi& k : r.kpis)
        kpis[k.name] = number(k.value);
    root["kpis"] = kpis;
    OJson descriptions = OJson::object();
    for (const Kpi& k : r.kpis)
        descriptions[k.name] = k.description + " [" + k.unit + "]";
    root["kpi_descriptions"] = descriptions;
    root["by_team"] = groupsToJson(r.teamKpis);
    root["by_class"] = groupsToJson(r.classKpis);
    OJson series = OJson::object();
    OJson times = OJson::array();
    for (double t : r.sampleTimesS)
        times.push_back(t);
    series["time_s"] = times;
    for (const Series& s : r.series) {
        OJson values = OJson::array();
        for (double v : s.values)
            values.push_back(number(v));
        series[s.name] = values;
    }
    root["series"] = series;
    root["fingerprint"] = r.fingerprintHex();
    root["events"] = r.eventCount;
    root["stopped"] = r.stopped;
    return root.dump(1) + "\n";
}

void writeResultsCsv(const Results& r, const std::filesystem::path& folder) {
    std::filesystem::create_directories(folder);
    std::string all = "time_s";
    for (const Series& s : r.series)
        all += "," + csvField(s.name);
    all += "\n";
    for (std::size_t k = 0; k < r.sampleTimesS.size(); ++k) {
        all += csvNumber(r.sampleTimesS[k]);
        for (const Series& s : r.series)
            all += "," + seriesCsvNumber(s, s.values[k]);
        all += "\n";
    }
    writeFileAtomic(folder / "series.csv", all);
    for (const Series& s : r.series) {
        std::string text = "time_s," + csvField(s.name) + "\n";
        for (std::size_t k = 0; k < s.values.size(); ++k)
            text += csvNumber(r.sampleTimesS[k]) + "," + seriesCsvNumber(s, s.values[k]) + "\n";
        writeFileAtomic(folder / (seriesFileStem(s.name) + ".csv"), text);
    }
    // Jobs that never started: their layer and reason at the horizon (spans still open when
    // a run ends reach past it, so a stopped run's waiting jobs are found too).
    std::vector<const PendingJob*> atEnd(r.jobs.size(), nullptr);
    const std::vector<PendingJob> pendingAtEnd = r.pendingAt(r.horizonS);
    for (const PendingJob& p : pendingAtEnd)
        atEnd[p.job] = &p;
    std::string jobs =
        "job,name,class,team,gpus,gpus_per_pod,priority,submit_s,duration_s,startup_s,start_s,"
        "end_s,wait_s,status,slowdown,evictions,nodes,pending_layer,pending_reason,pending_token,"
        "lost_work_s,checkpoint_interval_s,preemptions,longest_wait_s,thrashing,starved,"
        "cost_usd,max_gpus,resizes\n";
    const std::vector<JobInterruptions> interruptions = r.interruptionsByJob();
    // Elastic jobs: bindings that ended by growing or shrinking.
    std::vector<int> resizes(r.jobs.size(), 0);
    for (const RunSegment& seg : r.segments)
        resizes[seg.job] += seg.end == SegmentEnd::Resized;
    // Chargeback per job: what its bindings held at their GPUs' prices (priced fleets only).
    std::vector<double> costUsd(r.fleet.priced ? r.jobs.size() : 0, 0.0);
    if (r.fleet.priced)
        for (const RunSegment& seg : r.segments)
            costUsd[seg.job] += r.costUsdOf(seg);
    const std::vector<JobHealth> health = r.healthByJob();
    for (std::uint32_t i = 0; i < r.jobs.size(); ++i) {
        const JobRecord& j = r.jobs[i];
        std::string nodes;
        if (j.segmentCount > 0) {
            for (const PodPlacement& p : r.placementOf(r.segments[j.lastSegment]))
                nodes += (nodes.empty() ? "" : " ") + r.fleet.nodes[p.node].name;
        }
        const bool started = j.firstStartS >= 0;
        const PendingJob* never = started ? nullptr : atEnd[i];
        if (never && never->reason == PendingJob::kNoReason) never = nullptr;  // not diagnosed
        jobs +=
            std::to_string(i) + "," + csvField(r.jobName(i)) + "," + csvField(r.jobClassName(i)) +
            "," + csvField(r.teams[j.spec.team]) + "," + std::to_string(j.spec.gpus) + "," +
            std::to_string(j.spec.gpusPerPod) + "," + std::to_string(j.spec.priority) + "," +
            csvNumber(j.spec.submitS) + "," + csvNumber(j.spec.durationS) + "," +
            csvNumber(j.spec.startupS) + "," + (started ? csvNumber(j.firstStartS) : "") + "," +
            (j.endS >= 0 ? csvNumber(j.endS) : "") + "," + (started ? csvNumber(j.waitS()) : "") +
            "," + csvField(toString(j.status)) + "," + csvNumber(j.slowdown) + "," +
            std::to_string(interruptions[i].restarts) + "," + csvField(nodes) + "," +
            (never ? csvField(toString(never->layer)) : "") + "," +
            (never ? csvField(r.reasonText(never->reason)) : "") + "," +
            (never ? csvField(toString(never->token)) : "") + "," +
            csvNumber(interruptions[i].lostWorkS) + "," + csvNumber(r.checkpointIntervalS(i)) +
            "," + std::to_string(health[i].preemptions) + "," +
            csvNumber(health[i].longestQueuedS) + "," + (health[i].thrashing ? "1" : "0") + "," +
            (health[i].starved ? "1" : "0") + "," + (r.fleet.priced ? csvNumber(costUsd[i]) : "") +
            "," + std::to_string(r.maxPodsOf(i) * j.spec.gpusPerPod) + "," +
            std::to_string(resizes[i]) + "\n";
    }
    writeFileAtomic(folder / "jobs.csv", jobs);
}

}  // namespace gpuplan

namespace gpuplan {

std::string replicationsToJson(const Replications& r) {
    OJson root;
    root["replications"] = r.count;
    root["confidence"] = r.confidence;
    OJson kpis = OJson::object(), intervals = OJson::object(), descriptions = OJson::object();
    for (const KpiEstimate& k : r.kpis) {
        kpis[k.name] = number(k.interval.mean);
        intervals[k.name] = OJson::array({number(k.interval.low), number(k.interval.high)});
        descriptions[k.name] = k.description + " [" + k.unit + "]";
    }
    root["kpis"] = kpis;
    root["kpis_ci95"] = intervals;
    root["kpi_descriptions"] = descriptions;
    OJson series = OJson::object(), bands = OJson::object();
    series["time_s"] = r.sampleTimesS;
    for (const SeriesBand& s : r.series) {
        OJson mean = OJson::array(), low = OJson::array(), high = OJson::array();
        for (std::size_t k = 0; k < s.mean.size(); ++k) {
            mean.push_back(number(s.mean[k]));
            low.push_back(number(s.low[k]));
            high.push_back(number(s.high[k]));
        }
        series[s.name] = mean;
        bands[s.name] = OJson{{"low", low}, {"high", high}};
    }
    root["series"] = series;
    root["series_ci95"] = bands;
    OJson runs = OJson::array();
    for (int i = 0; i < r.count; ++i)
        runs.push_back(
            OJson{{"seed", r.seeds[i]}, {"fingerprint", fingerprintHex(r.fingerprints[i])}});
    root["runs"] = runs;
    return root.dump(1) + "\n";
}

void writeReplicationsCsv(const Replications& r, const std::filesystem::path& folder) {
    std::filesystem::create_directories(folder);
    std::string summary = "kpi,unit,mean,ci95_low,ci95_high,n\n";
    for (const KpiEstimate& k : r.kpis)
        summary += csvField(k.name) + "," + csvField(k.unit) + "," + csvNumber(k.interval.mean) +
                   "," + csvNumber(k.interval.low) + "," + csvNumber(k.interval.high) + "," +
                   std::to_string(k.interval.n) + "\n";
    writeFileAtomic(folder / "kpis_ci95.csv", summary);
    // Tidy: one row per run, its seed and every KPI.
    std::string runs = "replication,seed,fingerprint";
    for (const KpiEstimate& k : r.kpis)
        runs += "," + csvField(k.name);
    runs += "\n";
    for (int i = 0; i < r.count; ++i) {
        runs += std::to_string(i) + "," + std::to_string(r.seeds[i]) + "," +
                fingerprintHex(r.fingerprints[i]);
        for (const KpiEstimate& k : r.kpis)
            runs += "," + csvNumber(k.values[i]);
        runs += "\n";
    }
    writeFileAtomic(folder / "replications.csv", runs);
}

}  // namespace gpuplan
