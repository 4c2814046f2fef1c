#include "scenario_read_pricing.hpp"

#include <cctype>
#include <set>

namespace gpuplan::detail {

namespace {

bool isIsoDate(const std::string& d) {
    if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (!std::isdigit(static_cast<unsigned char>(d[i]))) return false;
    const int month = std::stoi(d.substr(5, 2)), day = std::stoi(d.substr(8, 2));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

}  // namespace

void readPricing(JsonObject& root, Scenario& s, const Catalog& catalog) {
    auto node = root.optional("pricing");
    if (!node) return;
    JsonObject o = node->object();
    PricingDef p;
    p.book = o.required("book").string(200);
    if (p.book.empty()) o.fail("\"book\" must name where the prices come from");
    JsonNode asOf = o.required("asOf");
    p.asOf = asOf.string(10);
    if (!isIsoDate(p.asOf)) asOf.fail("expected a date like \"2026-08-06\"");
    std::set<std::string> seen;
    for (const JsonNode& item : o.required("gpuModels").array(1000)) {
        JsonObject g = item.object();
        GpuPriceDef price;
        JsonNode model = g.required("gpuModel");
        price.gpuModel = model.name();
        if (!catalog.findGpu(price.gpuModel))
            model.fail("unknown GPU model \"" + price.gpuModel + "\" (not in the catalog)");
        if (!seen.insert(price.gpuModel).second)
            model.fail("a second price list for GPU model \"" + price.gpuModel + "\"");
        JsonObject classes = g.required("usdPerGpuHour").object();
        for (int c = 0; c < kBuyingClassCount; ++c) {
            const auto buyingClass = static_cast<BuyingClass>(c);
            if (auto v = classes.optional(toString(buyingClass)))
                price.of(buyingClass) = v->number(0, kMaxUsdPerGpuHour);
        }
        classes.finish();
        g.finish();
        p.gpuModels.push_back(std::move(price));
    }
    o.finish();
    s.pricing = std::move(p);
}

void checkGroupPriced(const Scenario& s, const NodeGroupDef& group, const std::string& gpuModel,
                      const JsonNode& where) {
    if (!s.pricing) {
        if (group.usdPerGpuHour)
            where.fail(
                "usdPerGpuHour needs the scenario's \"pricing\" (costs are worked out "
                "only with prices for the whole fleet)");
        return;
    }
    if (group.usdPerGpuHour) return;
    const GpuPriceDef* price = s.pricing->find(gpuModel);
    if (price && price->of(group.buyingClass)) return;
    where.fail(std::string("no ") + toString(group.buyingClass) + " price for GPU model \"" +
               gpuModel + "\" in the scenario's pricing (book \"" + s.pricing->book +
               "\"): add one, or give this group its own usdPerGpuHour");
}

}  // namespace gpuplan::detail
