#include "gpuplan/economics/checkpoint_advice.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace gpuplan {

namespace {

/// GPUs of the distinct nodes a binding spans: a failure of any of them ends the job.
double gpusExposed(const Results& r, const RunSegment& seg) {
    std::vector<std::uint32_t> nodes;
    for (const PodPlacement& p : r.placementOf(seg))
        if (std::find(nodes.begin(), nodes.end(), p.node) == nodes.end()) nodes.push_back(p.node);
    double gpus = 0;
    for (std::uint32_t n : nodes)
        gpus += r.fleet.nodes[n].gpus;
    return gpus;
}

/// What the advice calls a job's source: its class, its own name when explicit, its trace.
std::string sourceName(const Results& r, std::uint32_t job) {
    return r.jobs[job].spec.source == JobSource::Explicit ? r.jobName(job) : r.jobClassName(job);
}

CheckpointAdvice advise(std::string source, const CheckpointPolicy& policy, double mtbfGpuHours,
                        double gpus) {
    CheckpointAdvice a{std::move(source), policy, gpus};
    a.mtbfS = jobMtbfS(mtbfGpuHours, gpus);
    a.youngS = youngIntervalS(policy.costS, a.mtbfS);
    a.dalyS = dalyIntervalS(policy.costS, a.mtbfS);
    return a;
}

}  // namespace

std::optional<CheckpointAdvice> checkpointAdviceOf(const Results& r, std::uint32_t job) {
    const CheckpointPolicy policy = r.checkpointOf(job);
    const JobRecord& rec = r.jobs[job];
    if (!(r.failureMtbfGpuHours > 0) || !(policy.costS > 0) || rec.segmentCount == 0)
        return std::nullopt;
    const double gpus = gpusExposed(r, r.segments[rec.lastSegment]);
    if (!(gpus > 0)) return std::nullopt;
    return advise(sourceName(r, job), policy, r.failureMtbfGpuHours, gpus);
}

std::vector<CheckpointAdvice> checkpointAdvice(const Results& r) {
    std::vector<CheckpointAdvice> out;
    if (!(r.failureMtbfGpuHours > 0)) return out;
    // Per source: the exposure summed over its bound jobs, and their count.
    std::map<std::pair<int, std::uint32_t>, std::pair<double, int>> exposure;
    for (std::uint32_t job = 0; job < r.jobs.size(); ++job) {
        const JobRecord& rec = r.jobs[job];
        if (rec.segmentCount == 0 || !(r.checkpointOf(job).costS > 0)) continue;
        auto& [gpus, n] = exposure[{static_cast<int>(rec.spec.source), rec.spec.sourceIndex}];
        gpus += gpusExposed(r, r.segments[rec.lastSegment]);
        ++n;
    }
    for (const auto& [key, sum] : exposure) {
        // Any job of the source names it and carries its policy.
        std::uint32_t any = 0;
        while (static_cast<int>(r.jobs[any].spec.source) != key.first ||
               r.jobs[any].spec.sourceIndex != key.second)
            ++any;
        out.push_back(advise(sourceName(r, any), r.checkpointOf(any), r.failureMtbfGpuHours,
                             sum.first / sum.second));
    }
    return out;
}

}  // namespace gpuplan
