#include "pending_index.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gpuplan {

namespace detail {

void indexPending(Results& r, double endS) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const std::size_t jobCount = r.jobs.size();
    // Recorded in time order: group by job, keeping each job's in time order.
    std::stable_sort(
        r.jobDiagnoses.begin(), r.jobDiagnoses.end(),
        [](const TimedDiagnosis& a, const TimedDiagnosis& b) { return a.entry.job < b.entry.job; });
    r.jobDiagnosisBegin.assign(jobCount + 1, 0);
    for (const TimedDiagnosis& d : r.jobDiagnoses)
        ++r.jobDiagnosisBegin[d.entry.job + 1];
    std::partial_sum(r.jobDiagnosisBegin.begin(), r.jobDiagnosisBegin.end(),
                     r.jobDiagnosisBegin.begin());

    // Segments by job, in time order, for jobs bound more than once (evictions are rare;
    // every other job's one segment is its lastSegment). A counting sort keeps bind order.
    std::vector<std::uint32_t> segmentBegin, byJob;
    if (std::any_of(r.jobs.begin(), r.jobs.end(),
                    [](const JobRecord& j) { return j.segmentCount > 1; })) {
        segmentBegin.assign(jobCount + 1, 0);
        for (const RunSegment& s : r.segments)
            ++segmentBegin[s.job + 1];
        std::partial_sum(segmentBegin.begin(), segmentBegin.end(), segmentBegin.begin());
        byJob.resize(r.segments.size());
        std::vector<std::uint32_t> next(segmentBegin.begin(), segmentBegin.end() - 1);
        for (std::uint32_t i = 0; i < r.segments.size(); ++i)
            byJob[next[r.segments[i].job]++] = i;
    }

    // A job waits from its submit to its first bind, and from each eviction to the next bind;
    // it is stuck from a bind to the end of its startup, or through a whole crash loop.
    // What still holds when the run ends stays open (+inf), so pendingAt(end) lists it.
    r.pendingSpans.clear();
    for (std::uint32_t j = 0; j < jobCount; ++j) {
        const JobRecord& rec = r.jobs[j];
        const JobSpec& spec = rec.spec;
        if (spec.submitS >= endS) continue;  // never arrived (a stopped run)
        double queuedFromS = spec.submitS;
        auto visit = [&](const RunSegment& s) {
            if (s.startS > queuedFromS) r.pendingSpans.push_back({queuedFromS, s.startS, j, false});
            const double heldUntilS = s.end == SegmentEnd::Horizon ? kInf : s.endS;
            const double stuckUntilS =
                s.crashLoop ? heldUntilS : std::min(heldUntilS, s.startS + spec.startupS);
            if (stuckUntilS > s.startS) r.pendingSpans.push_back({s.startS, stuckUntilS, j, true});
            queuedFromS = s.end == SegmentEnd::Evicted ? s.endS : kInf;
        };
        if (rec.segmentCount == 1) {
            visit(r.segments[rec.lastSegment]);
        } else if (rec.segmentCount > 1) {
            for (std::uint32_t i = segmentBegin[j]; i < segmentBegin[j + 1]; ++i)
                visit(r.segments[byJob[i]]);
        }
        if (queuedFromS < kInf) r.pendingSpans.push_back({queuedFromS, kInf, j, false});
    }
    std::sort(r.pendingSpans.begin(), r.pendingSpans.end(),
              [](const PendingSpan& a, const PendingSpan& b) {
                  return a.startS != b.startS ? a.startS < b.startS : a.job < b.job;
              });
}

}  // namespace detail

std::vector<PendingJob> Results::pendingAt(double timeS) const {
    std::vector<PendingJob> rows;
    const auto spansEnd =
        std::upper_bound(pendingSpans.begin(), pendingSpans.end(), timeS,
                         [](double t, const PendingSpan& s) { return t < s.startS; });
    for (auto it = pendingSpans.begin(); it != spansEnd; ++it) {
        if (it->endS <= timeS) continue;
        PendingJob row;
        row.job = it->job;
        row.layer = it->stuck ? Layer::Workload : Layer::Scheduling;  // until a diagnosis says
        row.waitingS = timeS - jobs[it->job].spec.submitS;
        row.diagnosedAtS = std::numeric_limits<double>::quiet_NaN();
        rows.push_back(row);
    }
    // A job's spans do not overlap, so each job appears once.
    std::sort(rows.begin(), rows.end(),
              [](const PendingJob& a, const PendingJob& b) { return a.job < b.job; });

    // The latest diagnosis at or before t: the sample's list, or one recorded after it.
    std::vector<PendingEntry> sampled;
    double sampleS = -std::numeric_limits<double>::infinity();
    if (!sampleTimesS.empty() && sampleIntervalS > 0 && timeS >= 0) {
        const std::size_t k = std::min(
            sampleTimesS.size() - 1, static_cast<std::size_t>(std::floor(timeS / sampleIntervalS)));
        const auto entries = pendingAtSample(k);
        sampled.assign(entries.begin(), entries.end());
        sampleS = sampleTimesS[k];
    }
    std::stable_sort(sampled.begin(), sampled.end(),
                     [](const PendingEntry& a, const PendingEntry& b) { return a.job < b.job; });
    auto sampledIt = sampled.begin();
    for (PendingJob& row : rows) {
        while (sampledIt != sampled.end() && sampledIt->job < row.job)
            ++sampledIt;
        if (sampledIt != sampled.end() && sampledIt->job == row.job) {
            row.layer = sampledIt->layer;
            row.reason = sampledIt->reason;
            row.diagnosedAtS = sampleS;
        }
        if (row.job + 1 >= jobDiagnosisBegin.size()) continue;
        const auto first = jobDiagnoses.begin() + jobDiagnosisBegin[row.job];
        const auto last = jobDiagnoses.begin() + jobDiagnosisBegin[row.job + 1];
        const auto after = std::upper_bound(
            first, last, timeS, [](double t, const TimedDiagnosis& d) { return t < d.timeS; });
        if (after == first) continue;
        const TimedDiagnosis& d = *(after - 1);
        if (row.reason != PendingJob::kNoReason && d.timeS <= sampleS) continue;
        row.layer = d.entry.layer;
        row.reason = d.entry.reason;
        row.diagnosedAtS = d.timeS;
    }
    return rows;
}

}  // namespace gpuplan
