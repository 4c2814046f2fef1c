// An openb pod list replayed in time (TraceFormat::Openb): each GPU pod becomes a job of one
// pod that arrives at its creation_time and runs until its deletion_time.
//
// Read from the data (the default list, 7,064 GPU pods): every GPU pod has a creation and a
// deletion time; 6,203 were scheduled (pod_phase Running, Succeeded or Failed), a median of
// seconds after creation, and the 861 never scheduled are all Pending. So:
//  - duration = deletion − scheduled: the time the pod held its GPUs, what the replay re-creates
//    (the wait before scheduling is the replayed scheduler's to decide, not the trace's);
//  - a pod never scheduled waited from creation until someone deleted it: its demand was real
//    for deletion − creation, so it is replayed for that long (counted as neverScheduled);
//  - pods without a creation or deletion time (the five-column variants have none) cannot be
//    replayed in time: they are skipped and counted; a file with no replayable pod is refused;
//  - CPU-only pods (num_gpu 0) are skipped and counted: the fleet is the GPU nodes;
//  - the team is the pod's qos (LS, BE, Burstable, Guaranteed): the trace has no owner column,
//    and its service classes are the split a planner asks about (latency-sensitive vs best
//    effort); priorities stay the trace's traits' (one for all).
// Row order problems (a deletion before its scheduling, …) are refused by parseOpenbPods with
// the line.
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/openb.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

std::shared_ptr<const TraceData> openbTraceData(const std::vector<OpenbPod>& pods,
                                                const std::string& sourceName) {
    auto data = std::make_shared<TraceData>();
    data->resolvedPath = sourceName;
    data->rowsArePods = true;
    data->format = TraceFormat::Openb;
    std::vector<TraceJob> jobs;
    jobs.reserve(pods.size());
    auto indexOf = [](std::vector<std::string>& names, const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it != names.end()) return static_cast<int>(it - names.begin());
        names.push_back(name);
        return static_cast<int>(names.size()) - 1;
    };
    for (const OpenbPod& p : pods) {
        if (p.numGpu == 0) {
            ++data->rows.cpuOnly;
            continue;
        }
        if (std::isnan(p.creationS) || std::isnan(p.deletionS)) {
            ++data->rows.noTimes;
            continue;
        }
        const bool scheduled = !std::isnan(p.scheduledS);
        if (!scheduled) ++data->rows.neverScheduled;
        TraceJob job;
        job.submitS = p.creationS;
        job.durationS = p.deletionS - (scheduled ? p.scheduledS : p.creationS);
        job.gpus = p.numGpu;
        job.gpuMilli = p.gpuMilli;
        job.cpuMilliPerPod = static_cast<int>(p.cpuMilli);
        job.memoryMiBPerPod = static_cast<int>(p.memoryMiB);
        job.team = indexOf(data->teams, p.qos.empty() ? std::string("no-qos") : p.qos);
        std::uint64_t allowed = 0;
        for (const std::string& model : p.gpuSpec) {
            const std::size_t before = data->gpuModels.size();
            const int bit = indexOf(data->gpuModels, model);
            if (data->gpuModels.size() > before) data->gpuModelFirstPod.push_back(p.name);
            if (bit >= 64)
                throw InputError(sourceName, "pod " + p.name,
                                 "gpu_spec names more than 64 distinct GPU models in the file");
            allowed |= std::uint64_t{1} << bit;
        }
        if (std::popcount(allowed) > 1) ++data->rows.severalModels;
        job.allowedGpuModels = allowed;
        jobs.push_back(job);
    }
    if (jobs.empty())
        throw InputError(sourceName, "line 1",
                         "no GPU pod with a creation_time and a deletion_time to replay (" +
                             std::to_string(data->rows.cpuOnly) + " CPU-only, " +
                             std::to_string(data->rows.noTimes) +
                             " without times; the five-column lists serve only the fill study)");
    // By creation time, file order among equals.
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const TraceJob& a, const TraceJob& b) { return a.submitS < b.submitS; });
    data->jobs = std::move(jobs);
    return data;
}

std::string describeTraceRows(const TraceData& data) {
    if (data.format == TraceFormat::Sacct) return describeSacctRows(data);
    if (!data.rowsArePods) return {};
    const TraceRowCounts& c = data.rows;
    auto count = [](int n, const char* what) {
        return detail::withThousands(static_cast<long long>(n)) + " " + what;
    };
    std::string text = count(static_cast<int>(data.jobs.size()), "GPU pods replayed");
    std::string notes;
    if (c.neverScheduled > 0)
        notes += count(c.neverScheduled, "never scheduled: from creation to deletion");
    if (c.severalModels > 0)
        notes +=
            (notes.empty() ? "" : "; ") + count(c.severalModels,
                                                "allowing several GPU models: kept to the one with "
                                                "the most GPUs");
    if (!notes.empty()) text += " (" + notes + ")";
    std::string left;
    if (c.cpuOnly > 0) left += count(c.cpuOnly, "CPU-only pods");
    if (c.noTimes > 0)
        left +=
            (left.empty() ? "" : ", ") + count(c.noTimes, "pods without creation or deletion time");
    if (!left.empty()) text += "; left out: " + left;
    return text;
}

std::shared_ptr<const TraceData> parseOpenbTrace(std::string_view text,
                                                 const std::string& sourceName) {
    return openbTraceData(parseOpenbPods(text, sourceName), sourceName);
}

std::shared_ptr<const TraceData> readOpenbTrace(const std::filesystem::path& file) {
    return parseOpenbTrace(readTextFile(file), file.string());
}

}  // namespace gpuplan
