// What the fleet costs while it runs (engine/README.md, Costs): each node is paid for
// at its price per GPU-hour from its delivery on — committed capacity (reserved, capacity
// block, on-prem) whatever its state, cloud capacity bought on demand or on the spot market
// except while failed (the provider drops a failed instance). Paid GPU-hours split into what
// jobs held (allocated) and what nobody held (idle, unallocated); allocated into what kept
// SMs busy (occupied) and what did not (idle, allocated). Rates are piecewise constant
// between events and integrated exactly; nothing here runs without pricing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/results/results.hpp"
#include "scheduling/binding.hpp"

namespace gpuplan::detail {

class CostMeter {
public:
    /// Inactive (every call a no-op) unless the fleet is priced. Active: appends a
    /// cost_rate_usd_per_h{class} series per buying class the fleet has, `samples` values each.
    /// `pricing` gives the on-demand prices the break-even utilisation compares with.
    /// KPIs measure [warmupS, end): what was paid before is left out.
    CostMeter(RunRecord& record, const Fleet& fleet, const std::optional<PricingDef>& pricing,
              std::size_t samples, double warmupS = 0);

    bool active() const { return m_active; }

    /// A node changes state (before it does): starts or stops paying for it.
    void nodeChange(std::uint32_t node, NodeState from, NodeState to);
    /// A binding starts or ends: the GPU-equivalents its pods hold, at their nodes' prices.
    void bindingStarted(const Binding& b) { held(b.pods, +1); }
    void bindingEnded(const Binding& b) { held(b.pods, -1); }
    /// Occupied capacity changed by this many GPU-equivalents × USD per GPU-hour.
    void occupied(double usdPerHour) { m_occupiedUsdPerHour += usdPerHour; }
    double usdPerGpuHour(std::uint32_t node) const { return m_fleet.nodes[node].usdPerGpuHour; }
    /// A job lost `lostS` of work (ideal seconds) on these pods: on spot nodes, that work is
    /// what spot's savings are net of.
    void lostWork(std::span<const PodPlacement> pods, double lostS);

    void advanceTo(double timeS);
    void sample(std::size_t k);
    /// Appends the cost KPIs (Results::kpis, after the metrics recorder's: it reads their GPU
    /// hours) and each team's cost (GroupKpis::costUsd, from the run segments).
    void writeKpis(Results& results) const;
    /// Series are written into `record` from now on: a copy of the meter closes a copy of
    /// the record (a partial snapshot) while the run goes on.
    void retarget(RunRecord& record) { m_record = &record; }

private:
    bool billed(std::uint32_t node) const;
    /// Pods bound (+1) or released (−1).
    void held(std::span<const PodPlacement> pods, int sign);

    RunRecord* m_record;
    const Fleet& m_fleet;
    bool m_active = false;
    std::vector<NodeState> m_state;
    std::vector<std::uint8_t> m_delivered;  ///< left Provisioning at least once
    double m_lastS = 0;
    // Rates now (USD per hour; GPUs), by buying class where split.
    std::array<double, kBuyingClassCount> m_paidUsdPerHour{}, m_paidGpus{}, m_heldGpus{};
    double m_heldUsdPerHour = 0, m_occupiedUsdPerHour = 0;
    /// Their integrals (USD; GPU-seconds), and the work lost on spot nodes priced on demand.
    struct Integrals {
        std::array<double, kBuyingClassCount> paidUsd{}, paidGpuS{}, heldGpuS{};
        double heldUsd = 0, occupiedUsd = 0, spotAtOnDemandUsd = 0, spotLostUsd = 0;
    };
    void integrateTo(double timeS);
    Integrals m_run;       ///< over the run so far
    Integrals m_atWarmup;  ///< m_run when the clock reached warmupS: the KPIs leave it out
    MeasurementWindow m_window;
    std::array<int, kBuyingClassCount> m_rateSeries{};  ///< into RunRecord::series, −1 = none
    double m_breakevenUtilization;
    // Spot savings net of lost work (spot_savings_usd): spot GPU-hours paid, priced on demand;
    // work lost on spot nodes, priced on demand (it is done again). NaN per node without an
    // on-demand price for its model.
    std::vector<double> m_onDemandUsdPerGpuHour;  ///< per spot node
    bool m_anySpot = false;
    double m_spotAtOnDemandUsdPerHour = 0;
};

}  // namespace gpuplan::detail
