#include "cost_meter.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace gpuplan::detail {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double ratio(double a, double b) {
    return b > 0 ? a / b : kNaN;
}
}  // namespace

CostMeter::CostMeter(RunRecord& record, const Fleet& fleet,
                     const std::optional<PricingDef>& pricing, std::size_t samples, double warmupS)
    : m_record(&record), m_fleet(fleet), m_active(fleet.priced), m_window{warmupS} {
    m_rateSeries.fill(-1);
    m_breakevenUtilization = kNaN;
    if (!m_active) return;
    // A reservation pays off above this utilisation: its price ÷ the same GPUs on demand.
    double reservedUsdPerHour = 0, onDemandUsdPerHour = 0;
    for (const FleetNode& node : fleet.nodes) {
        if (node.buyingClass != BuyingClass::Reserved) continue;
        const GpuPriceDef* p = pricing ? pricing->find(fleet.gpuModels[node.gpuModel].id) : nullptr;
        if (!p || !p->of(BuyingClass::OnDemand)) {
            onDemandUsdPerHour = kNaN;
            break;
        }
        reservedUsdPerHour += node.gpus * node.usdPerGpuHour;
        onDemandUsdPerHour += node.gpus * *p->of(BuyingClass::OnDemand);
    }
    m_breakevenUtilization = ratio(reservedUsdPerHour, onDemandUsdPerHour);
    m_onDemandUsdPerGpuHour.assign(fleet.nodes.size(), 0.0);
    for (std::uint32_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        if (node.buyingClass != BuyingClass::Spot) continue;
        m_anySpot = true;
        const GpuPriceDef* p = pricing ? pricing->find(fleet.gpuModels[node.gpuModel].id) : nullptr;
        m_onDemandUsdPerGpuHour[n] =
            p && p->of(BuyingClass::OnDemand) ? *p->of(BuyingClass::OnDemand) : kNaN;
    }
    m_state.resize(fleet.nodes.size());
    m_delivered.resize(fleet.nodes.size());
    for (std::uint32_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        m_state[n] = node.initialState;
        m_delivered[n] = node.initialState != NodeState::Provisioning;
        const int c = static_cast<int>(node.buyingClass);
        if (m_rateSeries[c] < 0) {
            record.series.push_back(
                Series{std::string("cost_rate_usd_per_h{") + toString(node.buyingClass) + "}",
                       "usd_per_h", std::vector<double>(samples, 0.0)});
            m_rateSeries[c] = static_cast<int>(record.series.size() - 1);
        }
        if (billed(n)) {
            m_paidUsdPerHour[c] += node.gpus * node.usdPerGpuHour;
            m_paidGpus[c] += node.gpus;
            m_spotAtOnDemandUsdPerHour += node.gpus * m_onDemandUsdPerGpuHour[n];
        }
    }
}

bool CostMeter::billed(std::uint32_t node) const {
    // Cloud capacity is paid while it is up: not while failed, not once given back.
    return m_delivered[node] &&
           (isCommitted(m_fleet.nodes[node].buyingClass) ||
            (m_state[node] != NodeState::Failed && m_state[node] != NodeState::Repairing &&
             m_state[node] != NodeState::Provisioning));
}

void CostMeter::nodeChange(std::uint32_t node, NodeState from, NodeState to) {
    if (!m_active) return;
    const FleetNode& n = m_fleet.nodes[node];
    const int c = static_cast<int>(n.buyingClass);
    const bool before = billed(node);
    m_state[node] = to;
    m_delivered[node] |= to != NodeState::Provisioning;
    (void)from;
    const bool after = billed(node);
    if (before == after) return;
    const int sign = after ? 1 : -1;
    m_paidUsdPerHour[c] += sign * n.gpus * n.usdPerGpuHour;
    m_paidGpus[c] += sign * n.gpus;
    m_spotAtOnDemandUsdPerHour += sign * n.gpus * m_onDemandUsdPerGpuHour[node];
}

void CostMeter::lostWork(std::span<const PodPlacement> pods, double lostS) {
    if (!m_anySpot) return;
    for (const PodPlacement& pod : pods)
        m_run.spotLostUsd +=
            pod.gpuEquivalents() * lostS / 3600 * m_onDemandUsdPerGpuHour[pod.node];
}

void CostMeter::held(std::span<const PodPlacement> pods, int sign) {
    if (!m_active) return;
    m_heldUsdPerHour += sign * usdPerHourOf(m_fleet, pods);
    for (const PodPlacement& pod : pods)
        m_heldGpus[static_cast<int>(m_fleet.nodes[pod.node].buyingClass)] +=
            sign * pod.gpuEquivalents();
}

void CostMeter::advanceTo(double timeS) {
    if (!m_active || timeS <= m_lastS) return;
    if (m_lastS < m_window.fromS && m_window.fromS <= timeS) {
        integrateTo(m_window.fromS);
        m_atWarmup = m_run;
    }
    integrateTo(timeS);
}

void CostMeter::integrateTo(double timeS) {
    if (timeS <= m_lastS) return;
    const double dt = timeS - m_lastS;
    for (int c = 0; c < kBuyingClassCount; ++c) {
        m_run.paidUsd[c] += m_paidUsdPerHour[c] * dt / 3600;
        m_run.paidGpuS[c] += m_paidGpus[c] * dt;
        m_run.heldGpuS[c] += m_heldGpus[c] * dt;
    }
    m_run.spotAtOnDemandUsd += m_spotAtOnDemandUsdPerHour * dt / 3600;
    m_run.heldUsd += m_heldUsdPerHour * dt / 3600;
    m_run.occupiedUsd += m_occupiedUsdPerHour * dt / 3600;
    m_lastS = timeS;
}

void CostMeter::sample(std::size_t k) {
    if (!m_active) return;
    for (int c = 0; c < kBuyingClassCount; ++c)
        if (m_rateSeries[c] >= 0) m_record->series[m_rateSeries[c]].values[k] = m_paidUsdPerHour[c];
}

void CostMeter::writeKpis(Results& r) const {
    if (!m_active) return;
    // The measurement window [warmupS, end): the run's integrals less the warm-up's.
    // A run stopped (or a snapshot taken) before the warm-up ended measured nothing yet.
    const Integrals b = m_window.measuredNothing(m_lastS) ? m_run : m_atWarmup;
    Integrals w = m_run;
    for (int c = 0; c < kBuyingClassCount; ++c) {
        w.paidUsd[c] -= b.paidUsd[c];
        w.paidGpuS[c] -= b.paidGpuS[c];
        w.heldGpuS[c] -= b.heldGpuS[c];
    }
    w.heldUsd -= b.heldUsd;
    w.occupiedUsd -= b.occupiedUsd;
    w.spotAtOnDemandUsd -= b.spotAtOnDemandUsd;
    w.spotLostUsd -= b.spotLostUsd;
    double paidUsd = 0;
    for (double usd : w.paidUsd)
        paidUsd += usd;
    auto add = [&](const char* name, double value, const char* unit, const char* description) {
        r.kpis.push_back({name, value, unit, description});
    };
    add("cost_usd", paidUsd, "usd",
        "What the fleet cost: each node's GPUs × its price per GPU-hour, from its delivery on "
        "(committed capacity whatever its state; on-demand and spot only while up: not while "
        "failed or reclaimed, nor once given back).");
    add("idle_cost_usd", paidUsd - w.occupiedUsd, "usd",
        "Paid GPU-hours whose SMs were not busy: idle_unallocated_usd + idle_allocated_usd.");
    add("idle_unallocated_usd", paidUsd - w.heldUsd, "usd", "Paid GPU-hours no job held.");
    add("idle_allocated_usd", w.heldUsd - w.occupiedUsd, "usd",
        "GPU-hours jobs held but did not keep busy (allocation − occupancy), at their price.");
    add("usd_per_allocated_gpu_h", ratio(paidUsd, r.kpi("gpu_hours_allocated")), "usd_per_gpu_h",
        "cost_usd ÷ GPU-hours bound to jobs.");
    add("usd_per_useful_gpu_h", ratio(paidUsd, r.kpi("gpu_hours_useful")), "usd_per_gpu_h",
        "cost_usd ÷ GPU-hours of useful progress (lost work, startup and crash loops excluded).");
    const int reserved = static_cast<int>(BuyingClass::Reserved);
    add("reserved_commitment_utilization", ratio(w.heldGpuS[reserved], w.paidGpuS[reserved]),
        "fraction", "GPU-hours jobs held on reserved nodes ÷ reserved GPU-hours paid for.");
    add("breakeven_utilization", m_breakevenUtilization, "fraction",
        "Reserved price ÷ on-demand price of the reserved GPUs: a reservation used more than "
        "this costs less than the same GPU-hours on demand.");
    if (m_anySpot)
        add("spot_savings_usd",
            w.spotAtOnDemandUsd - w.paidUsd[static_cast<int>(BuyingClass::Spot)] - w.spotLostUsd,
            "usd",
            "What the spot GPU-hours paid would have cost on demand, less what they cost, less "
            "the work reclaims and failures lost on spot nodes, priced on demand (it is done "
            "again).");
    // Chargeback: what each team's jobs held in the window, at the price of what they held.
    std::vector<double> teamUsd(r.teams.size(), 0.0);
    for (const RunSegment& seg : r.segments)
        if (const double share = m_window.shareOf(seg.startS, seg.endS); share > 0)
            teamUsd[r.jobs[seg.job].spec.team] += r.costUsdOf(seg) * share;
    for (GroupKpis& g : r.teamKpis)
        for (std::size_t t = 0; t < r.teams.size(); ++t)
            if (r.teams[t] == g.name) g.costUsd = teamUsd[t];
}

}  // namespace gpuplan::detail
