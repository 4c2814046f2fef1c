// How KPIs read: "71.2 %", "3.4 h", "2,718", "$76.7k", "$2.91/GPU-h", "16,128 GPU-h"; deltas
// against a baseline in the KPI's own unit ("+4.3 pp" for fractions, "+$1.20k",
// "+16,128 GPU-h"), which direction is good and the one rule that colours a delta.
#pragma once

#include <QColor>
#include <QString>
#include <optional>

#include "gpuplan/core/statistics.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// `value` with `decimals` places; never "-0.0" (a value that rounds to zero is "0.0").
QString formatFixed(double value, int decimals);
/// "+4.3", "−0.2" (a true minus), "±0.0" when it rounds to nothing.
QString formatSigned(double value, int decimals);
/// With thousands separators, whatever the system's locale: "16,128", "1,234.5"; never "-0".
QString formatGrouped(double value, int decimals);
QString kpiLabel(const std::string& name);  ///< "allocation", "wait p95", "idle cost", …
/// Money to three significant digits: "$0.42", "$742", "$76.7k", "$1.23M"; never "-$0.00".
QString formatUsd(double usd);
/// A price or a cost per GPU-hour, to the cent: "$2.91/GPU-h".
QString formatUsdPerGpuHour(double usd);
QString formatKpiValue(const Kpi& kpi);
/// current − baseline in the value's own unit, with a sign and thousands separators: "+4.3 pp"
/// (percentage points, for fractions), "−1.3 h", "+$1.20k", "+$0.05/GPU-h", "+16,128 GPU-h",
/// "+12" (a count); "±0.0 pp" when it rounds to nothing; empty when not comparable.
QString formatKpiDelta(const Kpi& current, const Kpi& baseline);
/// "± 2.9 h": the half-width of a KPI's interval over replications in the KPI's unit; empty
/// without an interval (fewer than two runs).
QString formatKpiHalfWidth(const Kpi& kpi, const MeanInterval& interval);
/// "[−1.2, +0.4]": a paired difference's interval in the KPI's delta unit; empty without one.
QString formatDeltaInterval(const Kpi& kpi, const MeanInterval& difference);
/// "± 2.9 h", "± 4.5 pp": the half-width of a paired difference's interval (symmetric about
/// its mean) in the KPI's delta unit; empty without one.
QString formatDeltaHalfWidth(const Kpi& kpi, const MeanInterval& difference);
/// A KPI in US dollars ("cost_usd", "usd_per_useful_gpu_h"): only priced runs have them.
bool isCostKpi(const std::string& name);
/// +1 when more is better (allocation, goodput), −1 when less is (waits), 0 when neutral.
int goodDirection(const std::string& name);

/// How a delta reads: better or worse by its KPI's direction, or neutral (no direction, a
/// delta that rounds to nothing, or one its paired interval cannot tell from noise).
enum class DeltaTone { Neutral, Better, Worse };
/// The colour of a tone: green, red, grey. The strip, the Compare tab and the report use it.
QColor deltaToneColor(DeltaTone tone);

/// A KPI against the baseline, as every view shows it.
struct KpiDelta {
    QString text;       ///< formatKpiDelta; empty when not comparable
    QString interval;   ///< "[−1.2, +0.4]" over paired replications (formatDeltaInterval), or ""
    QString halfWidth;  ///< "± 0.8": the same interval as mean ± this (formatDeltaHalfWidth)
    /// Over paired replications: whether the interval holds no 0; nullopt for single runs.
    std::optional<bool> significant;
    DeltaTone tone = DeltaTone::Neutral;
};
/// The one rule for a delta: current − baseline of the KPI `current.name` (whose direction
/// goodDirection gives), with `paired` the paired difference over replications when both ran
/// on the same seeds (nullopt otherwise). A delta that reads as zero, or is not significant, is
/// neutral.
KpiDelta compareKpi(const Kpi& current, const Kpi& baseline,
                    const std::optional<MeanInterval>& paired = std::nullopt);

/// "over 7.0 d": the span the run's totals (costs, GPU-hours) count, its measurement window
/// from the warm-up's end to the end of the run.
QString measuredSpan(const Results& results);
/// A tooltip that wraps at a readable width instead of running on in one line (rich text:
/// Qt wraps those), `plain` escaped.
QString wrappedToolTip(const QString& plain);

}  // namespace gpuplan::ui
