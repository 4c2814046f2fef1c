// Kubernetes resource quantities ("8", "500m", "1.5", "2k", "64Gi", "1e3"), as a Kueue
// manifest writes its quotas and weights.
#pragma once

#include <optional>
#include <string_view>

namespace gpuplan::detail {

/// The value of a quantity in Kubernetes' grammar: an optional sign, digits with at most one
/// '.', then a decimal SI suffix (n u m k M G T P E), a binary one (Ki Mi Gi Ti Pi Ei) or an
/// exponent (e3, E-2). Nothing else: no spaces, no hex, no "inf". Nullopt when `text` is not
/// a quantity or its value is not finite. Negative values are returned; callers refuse them.
std::optional<double> parseKubeQuantity(std::string_view text);

}  // namespace gpuplan::detail
