// Price books (presets/pricebooks): list prices per GPU model and buying class, with their
// date and sources, and on-prem TCO inputs per node type. Applying a book sets a scenario's
// pricing; the scenario then carries the numbers (gpuplan/model/pricing.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/pricing.hpp"

namespace gpuplan {

/// What owning a node costs per hour: its purchase spread over its depreciation, its energy at the
/// facility's PUE, and its colocation space and power.
struct OnPremTcoDef {
    std::string nodeType;  ///< NodeType::id of the catalog
    double purchaseUsd = 0;
    double depreciationYears = 5;
    double energyKw = 0;  ///< average IT power drawn
    double pue = 1.5;
    double usdPerKwh = 0;
    double colocationKw = 0;  ///< capacity the colocation contract reserves (often max power)
    double colocationUsdPerKwMonth = 0;
    bool operator==(const OnPremTcoDef&) const = default;
};

/// USD per GPU-hour of owning one node of a type with `gpusPerNode` GPUs: (purchase ÷
/// (years × 8,760 h) + energy kW × PUE × USD/kWh + colocation kW × USD/kW-month × 12 ÷ 8,760)
/// ÷ GPUs.
double onPremUsdPerGpuHour(const OnPremTcoDef& tco, int gpusPerNode);

struct PriceBook {
    std::string name;
    std::string asOf;  ///< "YYYY-MM-DD" or "YYYY-MM"
    std::string description;
    std::vector<GpuPriceDef> gpuModels;
    std::vector<OnPremTcoDef> onPremTco;
};

/// Strict reading (InputError with the file and JSON pointer), against the catalog's GPU
/// models and node types.
PriceBook parsePriceBook(std::string_view text, const std::string& sourceName,
                         const Catalog& catalog);
PriceBook loadPriceBook(const std::filesystem::path& file, const Catalog& catalog);

/// The pricing a scenario runs with under this book: its list prices, and for each TCO
/// entry the on-prem price of its node type's GPU model.
PricingDef pricingOf(const PriceBook& book, const Catalog& catalog);

}  // namespace gpuplan
