// Reserved capacity with on-demand overflow, as the simulated fleet runs it: a job is placed on
// reserved capacity while it fits there and on demand otherwise, and it stays where it started
// (a reserved GPU freed later does not take it back). For Poisson arrivals the reserved pool is
// then Erlang's loss system M/G/n/n: an arrival that finds the n reserved servers busy overflows
// to on demand, the share B(n, a) of all arrivals (Erlang's B formula, a = λ·E[S] offered
// Erlangs; the same for any run-time distribution). On demand carries a·B(n, a) Erlangs on
// average, so an hour costs
//     c_r·n + c_od·a·B(n, a)          (per server-hour prices, on demand paid while used).
// This is not the fluid (newsvendor) cost c_r·n + c_od·E[(D − n)+], D ~ Poisson(a) the
// infinite-server demand: that one lets a job move onto a reserved server freed while it runs
// on demand, so it counts less on-demand use (E[(D − n)+] ≤ a·B(n, a)) and misplaces the
// optimum: too low where reserving is cheap (a = 10, c_r ÷ c_od = 0.2: 13 servers where 15 are
// cheapest), too high where it is dear (0.8: 7 where 5 are).
//
// Jobs of several sizes (Hayward's approximation): servers of z GPUs, z the demand's
// peakedness Σ g²·d ÷ Σ g·d over jobs of g GPUs held d seconds (the variance ÷ mean of the GPUs
// in use, for Poisson arrivals); R GPUs reserved are R/z servers offered a/z Erlangs for a load
// of a GPUs. Exact when every job asks z GPUs (whole-node jobs: servers are nodes).
#pragma once

#include <span>

namespace gpuplan {

/// Erlang's loss formula B(n, a): the share of Poisson arrivals that find all n servers busy
/// in M/G/n/n with a offered Erlangs. By the stable recursion B(0) = 1, B(k) = a·B(k−1) ÷
/// (k + a·B(k−1)). 0 servers lose every arrival; no load loses none (n ≥ 1).
double erlangB(int servers, double offeredErlangs);

/// Hours of demand offered to reserved capacity with on-demand overflow.
struct OverflowModel {
    std::span<const double> offeredGpus;  ///< per hour: the mean GPUs the jobs want (a_h)
    double serverGpus = 1;                ///< z, GPUs per server (> 0)
    double usdPerGpuHourReserved = 0;
    double usdPerGpuHourOnDemand = 0;
};

/// One reserved level, averaged over the model's hours.
struct OverflowLevel {
    int servers = 0;
    double reservedGpus = 0;  ///< servers × serverGpus
    double onDemandGpus = 0;  ///< mean GPUs on demand: Σ_h a_h·B(n, a_h/z) ÷ hours
    double usdPerHour = 0;    ///< c_r·reservedGpus + c_od·onDemandGpus
};

/// The level of `servers` servers.
OverflowLevel overflowLevel(const OverflowModel& model, int servers);

/// The cheapest level, the fewest servers among equal costs. The cost is convex in n (Erlang's
/// B is convex in the servers, and so is its mean over the hours): the first level the next
/// does not undercut is the optimum. No hours: 0 servers.
OverflowLevel cheapestOverflowLevel(const OverflowModel& model);

}  // namespace gpuplan
