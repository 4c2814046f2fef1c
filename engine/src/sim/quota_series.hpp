// The quota side of a run's results: per team with a quota, its used, borrowed and lent
// GPU-equivalents and its queued demand at every sample (what the cohort view draws), the
// preemptions per sample interval, and the team KPIs they average to.
#pragma once

#include <cstdint>
#include <vector>

#include "gpuplan/results/results.hpp"
#include "quota/quota_ledger.hpp"
#include "scheduling/job_queue.hpp"

namespace gpuplan::detail {

class QuotaSeries {
public:
    QuotaSeries() = default;
    /// Appends the series to record.series (after the fixed ones): for each managed team
    /// quota_{used,borrowed,lent,pending}_gpus{team}; "preemptions" when preemption can
    /// happen. `samples` values each.
    QuotaSeries(RunRecord& record, const QuotaLedger& quota, bool preemption, std::size_t samples);

    bool active() const { return m_preemptionSeries >= 0 || !m_teams.empty(); }
    void preempted() { ++m_preemptionsSinceSample; }
    void sample(RunRecord& record, std::size_t k, const QuotaLedger& quota, const JobQueue& queue);
    /// Team KPIs: nominal, and used / borrowed / lent averaged over the samples taken;
    /// preemptions of every team's jobs (from the run segments).
    void writeKpis(Results& results, const QuotaLedger& quota) const;

private:
    struct TeamSeries {
        int team;
        std::size_t used, borrowed, lent, pending;  ///< into RunRecord::series
    };
    std::vector<TeamSeries> m_teams;
    int m_preemptionSeries = -1;
    std::uint32_t m_preemptionsSinceSample = 0;
};

}  // namespace gpuplan::detail
