// Workload values as the editor shows and reads them: quantities with their units
// ("2 h", "30 min", "8 GPUs") and distributions in one short line
// ("lognormal median 2 h σ 1"). Parsing is forgiving about spacing and keywords, strict about
// numbers and kinds; a failure says what was expected.
#pragma once

#include <QString>
#include <optional>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::ui {

/// What a distribution or quantity measures: GPUs (a bare count) or a duration in seconds.
enum class Quantity { Gpus, DurationS };

/// "90 s", "30 min", "2 h" (the unit that reads best).
QString formatDurationValue(double seconds);
/// "8 GPUs" or "2 h".
QString formatQuantity(double value, Quantity q);
/// A number with an optional unit: durations take s, min, h or d (bare numbers are hours);
/// GPU counts take an optional "GPU"/"GPUs". Empty optional and `error` set when unreadable.
std::optional<double> parseQuantity(const QString& text, Quantity q, QString* error);
/// A plain number, optionally followed by `suffix` ("80 %" with suffix "%").
std::optional<double> parseNumber(const QString& text, QString* error);

/// "fixed 8 GPUs", "exponential mean 30 min", "lognormal median 2 h σ 1",
/// "uniform 1 to 8 GPUs", "empirical 1:3, 8:1 GPUs" (value:weight), then " min … max …" when
/// bounded.
QString formatDistribution(const DistributionDef& d, Quantity q);
/// Reads what formatDistribution writes; keywords (mean, median, σ/sigma, to) are optional,
/// so "lognormal 2 h 1" works too, and a bare quantity is a fixed value.
std::optional<DistributionDef> parseDistribution(const QString& text, Quantity q, QString* error);

/// "poisson", "diurnal ±50 % peak 14 h", "list (3 times)".
QString formatArrival(const ArrivalDef& a);
/// Changes the process and its shape, keeping the rate (and list times): "poisson",
/// "diurnal 50 % 14" (amplitude %, peak hour), "list".
std::optional<ArrivalDef> parseArrival(const QString& text, const ArrivalDef& current,
                                       QString* error);

/// "none", "node pod-a-rack0-node1", "rack pod-a-rack2", "pod pod-b".
QString formatPin(const PinDef& pin);
std::optional<PinDef> parsePin(const QString& text, QString* error);

}  // namespace gpuplan::ui
