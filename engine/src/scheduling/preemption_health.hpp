// Preemption health KPIs: how many jobs thrash (preempted again and again) and how
// many starve (wait past the starvation threshold at a stretch), fleet-wide and per team.
// The per-job rule is Results::healthByJob; this only counts it.
#pragma once

#include "gpuplan/results/results.hpp"

namespace gpuplan::detail {

/// Appends jobs_thrashing and jobs_starved to results.kpis and fills the team KPIs' counts.
void writePreemptionHealthKpis(Results& results);

}  // namespace gpuplan::detail
