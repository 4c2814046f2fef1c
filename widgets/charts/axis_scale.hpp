// How a KPI's unit reads on a chart's axis: fractions in percent, long times in hours or
// minutes, money and GPU-hours in thousands when large. The study and the plan-frontier charts
// scale their axes by it.
#pragma once

#include <QString>

namespace gpuplan::ui {

struct AxisScale {
    double factor = 1;  ///< multiply a value in the KPI's unit by this
    QString title;      ///< the axis' unit as shown: "%", "h", "$k", "k GPU-h"
};

/// `unit` is Kpi::unit ("fraction", "s", "usd", "gpu_h", …); `largest` the largest magnitude
/// drawn, in that unit.
AxisScale axisScaleFor(const QString& unit, double largest);

}  // namespace gpuplan::ui
