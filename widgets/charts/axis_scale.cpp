#include "axis_scale.hpp"

namespace gpuplan::ui {

AxisScale axisScaleFor(const QString& unit, double largest) {
    if (unit == QLatin1String("fraction")) return {100, QStringLiteral("%")};
    if (unit == QLatin1String("s"))
        return largest >= 7200  ? AxisScale{1 / 3600.0, QStringLiteral("h")}
               : largest >= 120 ? AxisScale{1 / 60.0, QStringLiteral("min")}
                                : AxisScale{1, QStringLiteral("s")};
    if (unit == QLatin1String("usd"))
        return largest >= 1e6   ? AxisScale{1e-6, QStringLiteral("$M")}
               : largest >= 1e4 ? AxisScale{1e-3, QStringLiteral("$k")}
                                : AxisScale{1, QStringLiteral("$")};
    if (unit == QLatin1String("gpu_h"))
        return largest >= 1e4 ? AxisScale{1e-3, QStringLiteral("k GPU-h")}
                              : AxisScale{1, QStringLiteral("GPU-h")};
    return {1, unit};
}

}  // namespace gpuplan::ui
