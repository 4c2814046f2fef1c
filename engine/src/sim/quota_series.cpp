#include "quota_series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan::detail {

namespace {

double gpus(std::int64_t units) {
    return gpusOfUnits(units);
}

/// The mean of the values sampled from `first` on (the measurement window's samples).
double mean(const std::vector<double>& values, std::size_t first) {
    if (first >= values.size()) return std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    for (std::size_t k = first; k < values.size(); ++k)
        sum += values[k];
    return sum / static_cast<double>(values.size() - first);
}

}  // namespace

QuotaSeries::QuotaSeries(RunRecord& record, const QuotaLedger& quota, bool preemption,
                         std::size_t samples) {
    auto add = [&](std::string name, const char* unit) {
        record.series.push_back(Series{std::move(name), unit, std::vector<double>(samples, 0.0)});
        return record.series.size() - 1;
    };
    for (int t = 0; t < static_cast<int>(record.teams.size()); ++t) {
        if (!quota.manages(t)) continue;
        const std::string& team = record.teams[t];
        m_teams.push_back({t, add("quota_used_gpus{" + team + "}", "gpus"),
                           add("quota_borrowed_gpus{" + team + "}", "gpus"),
                           add("quota_lent_gpus{" + team + "}", "gpus"),
                           add("quota_pending_gpus{" + team + "}", "gpus")});
    }
    if (preemption) m_preemptionSeries = static_cast<int>(add("preemptions", "jobs"));
}

void QuotaSeries::sample(RunRecord& record, std::size_t k, const QuotaLedger& quota,
                         const JobQueue& queue) {
    auto& s = record.series;
    if (m_preemptionSeries >= 0) {
        s[m_preemptionSeries].values[k] = m_preemptionsSinceSample;
        m_preemptionsSinceSample = 0;
    }
    if (m_teams.empty()) return;
    // Queued demand per team: managed teams' jobs are grouped by team (Scheduler).
    std::vector<std::int64_t> pending(record.teams.size(), 0);
    for (const JobQueue::Group& g : queue.groups())
        if (g.live > 0 && g.key.team >= 0) pending[g.key.team] += g.liveGpuUnits;
    const std::vector<QuotaLedger::TeamQuotaNow> byTeam = quota.nowByTeam();
    for (const TeamSeries& t : m_teams) {
        const QuotaLedger::TeamQuotaNow& now = byTeam[t.team];
        s[t.used].values[k] = gpus(now.used);
        s[t.borrowed].values[k] = gpus(now.borrowed);
        s[t.lent].values[k] = gpus(now.lent);
        s[t.pending].values[k] = gpus(pending[t.team]);
    }
}

void QuotaSeries::writeKpis(Results& results, const QuotaLedger& quota) const {
    if (!active()) return;
    // The measurement window: preemptions from warmupS on, and the samples taken then.
    std::vector<int> preemptions(results.teams.size(), 0);
    for (const RunSegment& seg : results.segments)
        if (seg.end == SegmentEnd::Preempted && results.measurementWindow().counts(seg.endS))
            ++preemptions[results.jobs[seg.job].spec.team];
    const std::size_t first = results.measurementWindow().firstSample(results.sampleTimesS);
    for (GroupKpis& k : results.teamKpis) {
        int team = -1;
        for (int t = 0; t < static_cast<int>(results.teams.size()); ++t)
            if (results.teams[t] == k.name) team = t;
        if (team < 0) continue;
        k.preemptions = preemptions[team];
        for (const TeamSeries& t : m_teams) {
            if (t.team != team) continue;
            std::int64_t nominal = 0;
            for (int model : quota.flavorsOf(team))
                nominal += quota.nominal(team, model);
            k.nominalGpus = gpus(nominal);
            k.usedGpusMean = mean(results.series[t.used].values, first);
            k.borrowedGpusMean = mean(results.series[t.borrowed].values, first);
            k.lentGpusMean = mean(results.series[t.lent].values, first);
        }
    }
}

}  // namespace gpuplan::detail
