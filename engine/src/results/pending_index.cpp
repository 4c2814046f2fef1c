#include "pending_index.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include "core/sorted_runs.hpp"
#include "gpuplan/core/time_format.hpp"

namespace gpuplan {

namespace detail {

namespace {

void indexSpanEnds(Results& r) {
    r.pendingSpanIndex =
        StabbingIndex(r.pendingSpans.size(), [&](std::size_t i) { return r.pendingSpans[i].endS; });
}

/// Samples that left queued jobs out of their list share one reason (one text, not one per
/// sample: a million samples would otherwise hold a million texts); the row's diagnosedAtS
/// says which sample and Results::pendingOmitted how many it left out. A generated job queued
/// before it keeps only the layer found when it was queued, and its row says so.
void addOmittedReasons(Results& r) {
    r.omittedReason.assign(r.sampleTimesS.size(), PendingJob::kNoReason);
    std::uint32_t text = PendingJob::kNoReason;
    for (std::size_t k = 0; k < r.sampleTimesS.size() && k < r.pendingOmitted.size(); ++k) {
        if (r.pendingOmitted[k] == 0) continue;
        if (text == PendingJob::kNoReason) {
            text = static_cast<std::uint32_t>(r.reasons.size());
            r.reasons.push_back(
                "Not diagnosed in detail: beyond the limit on detailed reasons at the last sample "
                "(the first in queue order get one); the layer is the one found when it was "
                "queued.");
        }
        r.omittedReason[k] = text;
    }
}

}  // namespace

void indexPending(Results& r, double endS) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const std::size_t jobCount = r.jobs.size();
    // Recorded in time order: group by job, keeping each job's in time order (a counting
    // sort: one pass to count, one to place).
    r.jobDiagnosisBegin.assign(jobCount + 1, 0);
    for (const TimedDiagnosis& d : r.jobDiagnoses)
        ++r.jobDiagnosisBegin[d.entry.job + 1];
    std::partial_sum(r.jobDiagnosisBegin.begin(), r.jobDiagnosisBegin.end(),
                     r.jobDiagnosisBegin.begin());
    {
        std::vector<TimedDiagnosis> byJob(r.jobDiagnoses.size());
        std::vector<std::uint32_t> next(r.jobDiagnosisBegin.begin(), r.jobDiagnosisBegin.end() - 1);
        for (const TimedDiagnosis& d : r.jobDiagnoses)
            byJob[next[d.entry.job]++] = d;
        r.jobDiagnoses = std::move(byJob);
    }

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
    // Spans are kept by (start, job). They are built as three lists that are in that order
    // already, or nearly, and merged (a sort of millions of spans was 7 % of a 100k run):
    // waits from submit in job order (which is submit order), stuck spans in bind order
    // (ties put in job order), and the few waits after evictions, sorted.
    auto byStartThenJob = [](const PendingSpan& a, const PendingSpan& b) {
        return a.startS != b.startS ? a.startS < b.startS : a.job < b.job;
    };
    std::vector<PendingSpan> fromSubmit, stuck, afterEviction;
    for (std::uint32_t j = 0; j < jobCount; ++j) {
        const JobRecord& rec = r.jobs[j];
        const JobSpec& spec = rec.spec;
        if (spec.submitS >= endS) continue;  // never arrived (a stopped run)
        double queuedFromS = spec.submitS;
        bool bound = false;  // waits before the first bind start at submit
        auto wait = [&](double untilS) {
            (bound ? afterEviction : fromSubmit).push_back({queuedFromS, untilS, j, false});
        };
        auto visit = [&](const RunSegment& s) {
            if (s.startS > queuedFromS) wait(s.startS);
            bound = true;
            queuedFromS =
                s.end == SegmentEnd::Evicted || s.end == SegmentEnd::Preempted ? s.endS : kInf;
        };
        if (rec.segmentCount == 1) {
            visit(r.segments[rec.lastSegment]);
        } else if (rec.segmentCount > 1) {
            for (std::uint32_t i = segmentBegin[j]; i < segmentBegin[j + 1]; ++i)
                visit(r.segments[byJob[i]]);
        }
        if (queuedFromS < kInf) wait(kInf);
    }
    for (const RunSegment& s : r.segments) {  // bind order: start times never decrease
        const JobSpec& spec = r.jobs[s.job].spec;
        const double heldUntilS = s.end == SegmentEnd::Horizon ? kInf : s.endS;
        const double stuckUntilS =
            s.crashLoop ? heldUntilS : std::min(heldUntilS, s.startS + spec.startupS);
        if (stuckUntilS > s.startS) stuck.push_back({s.startS, stuckUntilS, s.job, true});
    }
    for (auto group = stuck.begin(); group != stuck.end();) {
        const auto groupEnd = std::find_if(
            group, stuck.end(), [&](const PendingSpan& x) { return x.startS != group->startS; });
        std::sort(group, groupEnd, byStartThenJob);
        group = groupEnd;
    }
    std::sort(afterEviction.begin(), afterEviction.end(), byStartThenJob);
    r.pendingSpans = std::move(fromSubmit);
    r.pendingSpans.insert(r.pendingSpans.end(), stuck.begin(), stuck.end());
    r.pendingSpans.insert(r.pendingSpans.end(), afterEviction.begin(), afterEviction.end());
    sortByRuns(r.pendingSpans, byStartThenJob);
    indexSpanEnds(r);
    addOmittedReasons(r);
}

}  // namespace detail

namespace {

/// A span open at the queried time (copied: reading the spans again by index after sorting
/// by job misses the cache on large answers).
struct OpenSpan {
    double startS = 0;
    std::uint32_t job = 0;
    bool stuck = false;
};

}  // namespace

std::optional<std::size_t> Results::sampleAt(double timeS) const {
    const auto it = std::upper_bound(sampleTimesS.begin(), sampleTimesS.end(), timeS);
    if (it == sampleTimesS.begin()) return std::nullopt;
    return static_cast<std::size_t>(it - sampleTimesS.begin() - 1);
}

std::vector<PendingJob> Results::pendingAt(double timeS) const {
    // Spans open at t: started at or before it, ending after it. The end tree skips every
    // block of spans that all ended by t, so the walk costs about the answer, not the past.
    const std::size_t started = static_cast<std::size_t>(
        std::upper_bound(pendingSpans.begin(), pendingSpans.end(), timeS,
                         [](double t, const PendingSpan& s) { return t < s.startS; }) -
        pendingSpans.begin());
    std::vector<OpenSpan> open;
    pendingSpanIndex.forEachCandidate(started, timeS, [&](std::size_t i) {
        if (pendingSpans[i].endS > timeS)
            open.push_back({pendingSpans[i].startS, pendingSpans[i].job, pendingSpans[i].stuck});
    });
    // In job order. A job's spans do not overlap, so each job appears once: a large answer
    // is placed by job index in one pass, a small one sorted.
    if (open.size() * 4 >= jobs.size()) {
        std::vector<std::uint32_t> slotOfJob(jobs.size(), ~0u);
        for (std::uint32_t i = 0; i < open.size(); ++i)
            slotOfJob[open[i].job] = i;
        std::vector<OpenSpan> byJob;
        byJob.reserve(open.size());
        for (std::uint32_t slot : slotOfJob)
            if (slot != ~0u) byJob.push_back(open[slot]);
        open = std::move(byJob);
    } else {
        std::sort(open.begin(), open.end(),
                  [](const OpenSpan& a, const OpenSpan& b) { return a.job < b.job; });
    }

    // The latest diagnosis at or before t: the sample's list, or one recorded after it.
    std::vector<PendingEntry> sampled;
    double sampleS = -std::numeric_limits<double>::infinity();
    std::uint32_t omittedReasonText = PendingJob::kNoReason;
    if (const std::optional<std::size_t> k = sampleAt(timeS)) {
        const auto entries = pendingAtSample(*k);
        sampled.assign(entries.begin(), entries.end());
        sampleS = sampleTimesS[*k];
        if (*k < omittedReason.size()) omittedReasonText = omittedReason[*k];
    }
    std::stable_sort(sampled.begin(), sampled.end(),
                     [](const PendingEntry& a, const PendingEntry& b) { return a.job < b.job; });
    std::vector<PendingJob> rows;
    rows.reserve(open.size());
    auto sampledIt = sampled.begin();
    for (const OpenSpan& o : open) {
        const OpenSpan& span = o;
        PendingJob row;
        row.job = o.job;
        row.layer = span.stuck ? Layer::Workload : Layer::Scheduling;  // until a diagnosis says
        row.waitingS = timeS - jobs[o.job].spec.submitS;
        row.diagnosedAtS = std::numeric_limits<double>::quiet_NaN();
        while (sampledIt != sampled.end() && sampledIt->job < row.job)
            ++sampledIt;
        const bool inSample = sampledIt != sampled.end() && sampledIt->job == row.job;
        if (inSample) {
            row.layer = sampledIt->layer;
            row.token = sampledIt->token;
            row.reason = sampledIt->reason;
            row.diagnosedAtS = sampleS;
        }
        if (row.job + 1 < jobDiagnosisBegin.size()) {
            const auto first = jobDiagnoses.begin() + jobDiagnosisBegin[row.job];
            const auto last = jobDiagnoses.begin() + jobDiagnosisBegin[row.job + 1];
            const auto after = std::upper_bound(
                first, last, timeS, [](double t, const TimedDiagnosis& d) { return t < d.timeS; });
            if (after != first && !(inSample && (after - 1)->timeS <= sampleS)) {
                const TimedDiagnosis& d = *(after - 1);
                row.layer = d.entry.layer;
                row.token = d.entry.token;
                row.reason = d.entry.reason;
                row.diagnosedAtS = d.timeS;
            }
        }
        // Waiting at the sample but left out of its list: a generated job has only its layer
        // from when it was queued; say so rather than keep that placeholder.
        if (!inSample && !span.stuck && span.startS <= sampleS &&
            omittedReasonText != PendingJob::kNoReason &&
            jobs[o.job].spec.source != JobSource::Explicit) {
            row.reason = omittedReasonText;
            row.diagnosedAtS = sampleS;
        }
        rows.push_back(row);
    }
    return rows;
}

}  // namespace gpuplan
