// How KPIs read: "71.2 %", "3.4 h", "2,718", "$76.7k", "$2.91/GPU-h"; deltas against a
// baseline in the KPI's own unit ("+4.3" points for fractions, "+$1.20k"), and which
// direction is good.
#pragma once

#include <QString>

#include "gpuplan/results.hpp"
#include "gpuplan/statistics.hpp"

namespace gpuplan::ui {

/// `value` with `decimals` places; never "-0.0" (a value that rounds to zero is "0.0").
QString formatFixed(double value, int decimals);
/// "+4.3", "−0.2" (a true minus), "±0.0" when it rounds to nothing.
QString formatSigned(double value, int decimals);
QString kpiLabel(const std::string& name);  ///< "allocation", "wait p95", "idle cost", …
/// Money to three significant digits: "$0.42", "$742", "$76.7k", "$1.23M"; never "-$0.00".
QString formatUsd(double usd);
/// A price or a cost per GPU-hour, to the cent: "$2.91/GPU-h".
QString formatUsdPerGpuHour(double usd);
QString formatKpiValue(const Kpi& kpi);
/// "+4.3", "−1.2", "±0.0" (percentage points for fractions, same unit otherwise); empty when
/// not comparable.
QString formatKpiDelta(const Kpi& current, const Kpi& baseline);
/// "± 2.9 h": the half-width of a KPI's interval over replications in the KPI's unit; empty
/// without an interval (fewer than two runs).
QString formatKpiHalfWidth(const Kpi& kpi, const MeanInterval& interval);
/// "[−1.2, +0.4]": a paired difference's interval in the KPI's delta unit; empty without one.
QString formatDeltaInterval(const Kpi& kpi, const MeanInterval& difference);
/// A KPI in US dollars ("cost_usd", "usd_per_useful_gpu_h"): only priced runs have them.
bool isCostKpi(const std::string& name);
/// +1 when more is better (allocation, goodput), −1 when less is (waits), 0 when neutral.
int goodDirection(const std::string& name);

}  // namespace gpuplan::ui
