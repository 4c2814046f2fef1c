#include "gpuplan/results/run_record.hpp"

#include <algorithm>

namespace gpuplan {

const char* toString(ReasonToken token) {
    switch (token) {
        case ReasonToken::None:
            return "";
        case ReasonToken::ExceedsMaxQuota:
            return "ExceedsMaxQuota";
        case ReasonToken::BorrowingLimitReached:
            return "BorrowingLimitReached";
        case ReasonToken::WaitingForQuota:
            return "WaitingForQuota";
        case ReasonToken::WaitingForPreemptedWorkloads:
            return "WaitingForPreemptedWorkloads";
        case ReasonToken::Preempted:
            return "Preempted";
    }
    return "?";
}

const char* toString(Layer l) {
    switch (l) {
        case Layer::Reservation:
            return "reservation";
        case Layer::Provisioning:
            return "provisioning";
        case Layer::Scheduling:
            return "scheduling";
        case Layer::Workload:
            return "workload";
    }
    return "?";
}

const char* toString(JobStatus s) {
    switch (s) {
        case JobStatus::Pending:
            return "pending";
        case JobStatus::Running:
            return "running";
        case JobStatus::Completed:
            return "completed";
        case JobStatus::Failed:
            return "failed";
    }
    return "?";
}

const Series* RunRecord::findSeries(std::string_view name) const {
    for (const Series& s : series)
        if (s.name == name) return &s;
    return nullptr;
}

double usdPerHourOf(const Fleet& fleet, std::span<const PodPlacement> pods) {
    double usdPerHour = 0;
    for (const PodPlacement& pod : pods)
        usdPerHour += pod.gpuEquivalents() * fleet.nodes[pod.node].usdPerGpuHour;
    return usdPerHour;
}

double RunRecord::costUsdOf(const RunSegment& segment) const {
    return usdPerHourOf(fleet, placementOf(segment)) * (segment.endS - segment.startS) / 3600;
}

const char* toString(NodeChangeCause c) {
    switch (c) {
        case NodeChangeCause::Scheduled:
            return "scheduled";
        case NodeChangeCause::Delivery:
            return "delivery";
        case NodeChangeCause::Failure:
            return "failure";
        case NodeChangeCause::Repair:
            return "repair";
        case NodeChangeCause::SpotNotice:
            return "spot notice";
        case NodeChangeCause::SpotReclaim:
            return "spot reclaim";
        case NodeChangeCause::SpotReturn:
            return "spot return";
        case NodeChangeCause::ScaleUp:
            return "scale-up";
        case NodeChangeCause::ScaleDown:
            return "scale-down";
        case NodeChangeCause::DrainDone:
            return "drained";
        case NodeChangeCause::SpareIn:
            return "spare in";
        case NodeChangeCause::SpareOut:
            return "spare out";
    }
    return "?";
}

CheckpointPolicy RunRecord::checkpointOf(std::uint32_t job) const {
    return sourceTraits.checkpointOf(jobs[job].spec);
}

int RunRecord::maxPodsOf(std::uint32_t job) const {
    const JobSpec& s = jobs[job].spec;
    // Whole GPUs only (a trace's rows may ask shares or instances the reader cannot see).
    if (!s.holdsWholeGpus()) return s.pods();
    const int most = sourceTraits.elasticMaxGpusOf(s) / s.gpusPerPod;
    return std::max(s.pods(), most);
}

std::string RunRecord::jobName(std::uint32_t job) const {
    const JobSpec& s = jobs[job].spec;
    switch (s.source) {
        case JobSource::Class:
            return classNames[s.sourceIndex] + "-" + std::to_string(s.sequence);
        case JobSource::Explicit:
            return explicitNames[s.sourceIndex];
        case JobSource::Trace:
            return traceNames[s.sourceIndex] + "-" + std::to_string(s.sequence);
    }
    return "job-" + std::to_string(job);
}

std::string RunRecord::jobClassName(std::uint32_t job) const {
    const JobSpec& s = jobs[job].spec;
    switch (s.source) {
        case JobSource::Class:
            return classNames[s.sourceIndex];
        case JobSource::Explicit:
            return "(explicit jobs)";
        case JobSource::Trace:
            return "(trace " + traceNames[s.sourceIndex] + ")";
    }
    return "?";
}

std::string RunRecord::reasonText(std::uint32_t reason) const {
    return reason < reasons.size() ? reasons[reason] : "not diagnosed";
}

std::span<const PendingEntry> RunRecord::pendingAtSample(std::size_t sample) const {
    if (sample + 1 >= pendingBegin.size()) return {};
    return {pending.data() + pendingBegin[sample], pending.data() + pendingBegin[sample + 1]};
}

}  // namespace gpuplan
