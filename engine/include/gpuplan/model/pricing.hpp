// What capacity costs: a price per GPU-hour for each GPU model and buying class, as a price book
// gives it. A scenario carries the prices it runs with (a book applied to it: presets/pricebooks),
// so a saved scenario costs the same anywhere.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

/// How a node's capacity was bought.
enum class BuyingClass { Reserved, OnDemand, Spot, CapacityBlock, OnPrem };
inline constexpr int kBuyingClassCount = 5;
inline constexpr std::array<BuyingClass, kBuyingClassCount> kBuyingClasses = {
    BuyingClass::Reserved, BuyingClass::OnDemand, BuyingClass::Spot, BuyingClass::CapacityBlock,
    BuyingClass::OnPrem};
/// No offer charges more: a larger price in a file is a mistake.
inline constexpr double kMaxUsdPerGpuHour = 10000;
const char* toString(BuyingClass);

/// Committed capacity is paid for whatever its state; a cloud instance bought on demand or
/// on the spot market is not billed while it is failed (the provider replaces or drops it).
inline bool isCommitted(BuyingClass c) {
    return c == BuyingClass::Reserved || c == BuyingClass::CapacityBlock ||
           c == BuyingClass::OnPrem;
}

/// USD per GPU-hour of one GPU model, per buying class; unset = the book has no such offer.
struct GpuPriceDef {
    std::string gpuModel;  ///< GpuModel::id
    std::array<std::optional<double>, kBuyingClassCount> usdPerGpuHour{};
    std::optional<double>& of(BuyingClass c) { return usdPerGpuHour[static_cast<int>(c)]; }
    const std::optional<double>& of(BuyingClass c) const {
        return usdPerGpuHour[static_cast<int>(c)];
    }
    bool operator==(const GpuPriceDef&) const = default;
};

/// The prices a scenario runs with, and where they came from.
struct PricingDef {
    std::string book;  ///< the price book's name (provenance, shown with every cost)
    std::string asOf;  ///< the book's date, "YYYY-MM-DD"
    std::vector<GpuPriceDef> gpuModels;
    const GpuPriceDef* find(const std::string& gpuModel) const {
        for (const GpuPriceDef& p : gpuModels)
            if (p.gpuModel == gpuModel) return &p;
        return nullptr;
    }
    bool operator==(const PricingDef&) const = default;
};

}  // namespace gpuplan
