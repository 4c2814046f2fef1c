#include "kpi_format.hpp"

#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>

#include "ui_palette.hpp"

namespace gpuplan::ui {

namespace {
/// A cost per GPU-hour is named usd_per_…_gpu_h (its label) and has the unit usd_per_gpu_h.
bool isUsdPerGpuHourName(const std::string& name) {
    return name.rfind("usd_per_", 0) == 0 && name.ends_with("_gpu_h");
}
bool isUsdPerGpuHour(const Kpi& k) {
    return k.unit == "usd_per_gpu_h";
}
}  // namespace

QString kpiLabel(const std::string& name) {
    // usd_per_useful_gpu_h reads "useful compute $2.91/GPU-h": its value says the rest.
    if (isUsdPerGpuHourName(name))
        return QString::fromStdString(name.substr(8, name.size() - 8 - 6)) +
               QStringLiteral(" compute");
    if (name == "wait_s_mean") return QStringLiteral("mean wait");  // not "wait s"
    QString label = QString::fromStdString(name);
    if (label.endsWith(QLatin1String("_usd"))) label.chop(4);  // the value says "$"
    label.replace(QLatin1String("_mean"), QString());
    label.replace(QLatin1String("wait_s_"), QLatin1String("wait "));
    label.replace(QLatin1String("jct_s"), QLatin1String("job completion time"));
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    label.replace(QLatin1String("gpus"), QLatin1String("GPUs"));
    label.replace(QLatin1String("mfu"), QLatin1String("MFU"));
    return label;
}

QString formatFixed(double value, int decimals) {
    if (!std::isfinite(value)) return QStringLiteral("–");
    // A value that rounds to zero is written "0.0": "-0.0" reads as a loss that is not there.
    const double unit = std::pow(10.0, decimals);
    if (std::round(std::fabs(value) * unit) == 0) value = 0;
    return QString::number(value + 0.0, 'f', decimals);
}

QString formatSigned(double value, int decimals) {
    const QString magnitude = formatFixed(std::fabs(value), decimals);
    if (!std::isfinite(value)) return magnitude;
    if (magnitude == formatFixed(0, decimals)) return QStringLiteral("±") + magnitude;
    return (value > 0 ? QStringLiteral("+") : QStringLiteral("−")) + magnitude;
}

QString formatUsd(double usd) {
    if (!std::isfinite(usd)) return QStringLiteral("–");
    static const char* const kUnits[] = {"", "k", "M", "B"};
    // Three significant digits, judged after rounding: $9.996 reads "$10.0", $999.7 "$1.00k".
    auto decimalsFor = [](double v) { return v < 9.995 ? 2 : v < 99.95 ? 1 : 0; };
    double m = std::fabs(usd);
    int unit = 0;
    while (m >= 999.5 && unit < 3) {
        m /= 1000;
        ++unit;
    }
    const QString digits = formatFixed(m, decimalsFor(m));
    const QString magnitude = QStringLiteral("$") + digits + QLatin1String(kUnits[unit]);
    return usd < 0 && digits != formatFixed(0, 2) ? QStringLiteral("−") + magnitude : magnitude;
}

QString formatUsdPerGpuHour(double usd) {
    if (!std::isfinite(usd)) return QStringLiteral("–");
    return QStringLiteral("$%1/GPU-h").arg(formatFixed(usd, 2));
}

QString formatGrouped(double value, int decimals) {
    if (!std::isfinite(value)) return QStringLiteral("–");
    const double unit = std::pow(10.0, decimals);
    if (std::round(std::fabs(value) * unit) == 0) value = 0;  // never "-0"
    // The app writes numbers the English way ("1,234.5", as formatFixed's "."), so the
    // separators do not change with the system's locale (a C locale omits them).
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(value + 0.0, 'f', decimals);
}

namespace {
/// "+16,128", "−0.5", "±0": a signed formatGrouped.
QString signedGrouped(double value, int decimals) {
    const QString magnitude = formatGrouped(std::fabs(value), decimals);
    if (!std::isfinite(value)) return magnitude;
    if (magnitude == formatGrouped(0, decimals)) return QStringLiteral("±") + magnitude;
    return (value > 0 ? QStringLiteral("+") : QStringLiteral("−")) + magnitude;
}

bool isWhole(double v) {
    return v == std::floor(v);
}
}  // namespace

QString formatKpiValue(const Kpi& k) {
    if (!std::isfinite(k.value)) return QStringLiteral("–");
    if (isUsdPerGpuHour(k)) return formatUsdPerGpuHour(k.value);
    if (k.unit == "usd") return formatUsd(k.value);
    if (k.unit == "fraction") return QStringLiteral("%1 %").arg(formatFixed(100 * k.value, 1));
    if (k.unit == "s") return formatDuration(k.value);
    if (k.unit == "jobs" && isWhole(k.value)) return formatGrouped(k.value, 0);
    if (k.unit == "gpu_h") return formatGrouped(k.value, 0) + QStringLiteral(" GPU-h");
    if (k.unit == "x") return QStringLiteral("%1×").arg(formatFixed(k.value, 3));
    if (k.unit == "gpus") return QStringLiteral("%1 GPUs").arg(formatGrouped(k.value, 1));
    return QStringLiteral("%1 %2").arg(formatGrouped(k.value, 1), QString::fromStdString(k.unit));
}

QString formatKpiDelta(const Kpi& current, const Kpi& baseline) {
    if (!std::isfinite(current.value) || !std::isfinite(baseline.value)) return {};
    const double d = current.value - baseline.value;
    if (current.unit == "fraction") return signedGrouped(100 * d, 1) + QStringLiteral(" pp");
    if (current.unit == "s") {
        if (formatDuration(std::fabs(d)) == formatDuration(0))
            return QStringLiteral("±") + formatDuration(0);
        return (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatDuration(std::fabs(d));
    }
    if (isUsdPerGpuHour(current)) {
        const QString cents = formatSigned(d, 2);  // "+0.05" → "+$0.05/GPU-h"
        return cents.left(1) + QStringLiteral("$") + cents.mid(1) + QStringLiteral("/GPU-h");
    }
    if (current.unit == "usd") {
        const QString magnitude = formatUsd(std::fabs(d));
        if (magnitude == formatUsd(0)) return QStringLiteral("±") + magnitude;
        return (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + magnitude;
    }
    // A count reads as its values do: "+12", bare, as "2,718" is; means of counts ("7.4 jobs")
    // keep the unit.
    if (current.unit == "jobs" && isWhole(current.value) && isWhole(baseline.value))
        return signedGrouped(d, 0);
    if (current.unit == "gpu_h") return signedGrouped(d, 0) + QStringLiteral(" GPU-h");
    if (current.unit == "x") return formatSigned(d, 3) + QStringLiteral("×");
    if (current.unit == "gpus") return signedGrouped(d, 1) + QStringLiteral(" GPUs");
    return signedGrouped(d, 1) + QLatin1Char(' ') + QString::fromStdString(current.unit);
}

QString formatKpiHalfWidth(const Kpi& kpi, const MeanInterval& interval) {
    if (!std::isfinite(interval.low)) return {};
    Kpi half = kpi;
    half.value = interval.halfWidth();
    return QStringLiteral("± ") + formatKpiValue(half);
}

QString formatDeltaInterval(const Kpi& kpi, const MeanInterval& difference) {
    if (!std::isfinite(difference.low)) return {};
    const Kpi zero{kpi.name, 0, kpi.unit, {}};
    return QStringLiteral("[%1, %2]")
        .arg(formatKpiDelta(Kpi{kpi.name, difference.low, kpi.unit, {}}, zero),
             formatKpiDelta(Kpi{kpi.name, difference.high, kpi.unit, {}}, zero));
}

QString formatDeltaHalfWidth(const Kpi& kpi, const MeanInterval& difference) {
    if (!std::isfinite(difference.low)) return {};
    // The half-width as a delta of its own, its sign replaced: "+2.9 h" → "± 2.9 h".
    const QString half = formatKpiDelta(Kpi{kpi.name, difference.halfWidth(), kpi.unit, {}},
                                        Kpi{kpi.name, 0, kpi.unit, {}});
    return QStringLiteral("± ") + half.mid(1);
}

bool isCostKpi(const std::string& name) {
    return name.ends_with("_usd") || name.rfind("usd_per_", 0) == 0;
}

int goodDirection(const std::string& name) {
    if (name.rfind("wait_s", 0) == 0 || name == "jct_s_mean" || name == "queue_length_mean" ||
        name == "stranded_gpus_mean" || name == "pending_gpus_mean" || name == "jobs_failed" ||
        name == "jobs_waiting_at_end" || name == "gpus_waiting_at_end" || name == "slowdown_mean" ||
        name == "gpu_hours_lost" || isCostKpi(name))
        return -1;
    if (name == "allocation_mean" || name == "occupancy_mean" || name == "mfu_mean" ||
        name == "goodput" || name == "jobs_completed" || name == "jobs_started" ||
        name == "gpu_hours_useful" || name == "reserved_commitment_utilization")
        return +1;
    return 0;
}

QColor deltaToneColor(DeltaTone tone) {
    switch (tone) {
        case DeltaTone::Better:
            return QColor(QStringLiteral("#1e8449"));
        case DeltaTone::Worse:
            return QColor(QStringLiteral("#c0392b"));
        case DeltaTone::Neutral:
            break;
    }
    return QColor(QStringLiteral("#7a7a7a"));
}

KpiDelta compareKpi(const Kpi& current, const Kpi& baseline,
                    const std::optional<MeanInterval>& paired) {
    KpiDelta out;
    out.text = formatKpiDelta(current, baseline);
    // One pair is no interval: a single run each, compared as such.
    const bool intervals = paired && paired->n >= 2;
    if (intervals) {
        out.interval = formatDeltaInterval(current, *paired);
        out.halfWidth = formatDeltaHalfWidth(current, *paired);
        out.significant = paired->excludesZero();
    }
    const int good = goodDirection(current.name);
    // "±0.0 pp" is no change, whatever the digits behind it; noise is no change either.
    const bool readsZero = out.text.isEmpty() || out.text.startsWith(QStringLiteral("±"));
    if (readsZero || good == 0 || out.significant == false) return out;
    const double d = intervals ? paired->mean : current.value - baseline.value;
    out.tone = (d > 0) == (good > 0) ? DeltaTone::Better : DeltaTone::Worse;
    return out;
}

QString measuredSpan(const Results& results) {
    return QObject::tr("over %1").arg(
        formatDuration(std::max(0.0, results.endS - results.measurementWindow().fromS)));
}

QString wrappedToolTip(const QString& plain) {
    return QStringLiteral("<p>%1</p>").arg(plain.toHtmlEscaped());
}

}  // namespace gpuplan::ui
