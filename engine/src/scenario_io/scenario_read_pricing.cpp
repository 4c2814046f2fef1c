#include "scenario_read_pricing.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/civil_time.hpp"

namespace gpuplan::detail {

std::optional<std::string> dateProblem(const std::string& d, bool monthOnly) {
    const std::string expected = monthOnly ? "expected a date like \"2026-08-06\" or \"2026-08\""
                                           : "expected a date like \"2026-08-06\"";
    const bool month = d.size() == 7, day = d.size() == 10;
    if (!(day || (monthOnly && month)) || d[4] != '-' || (day && d[7] != '-')) return expected;
    for (std::size_t i = 0; i < d.size(); ++i)
        if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(d[i]))) return expected;
    const int year = std::stoi(d.substr(0, 4));
    const auto m = static_cast<unsigned>(std::stoi(d.substr(5, 2)));
    if (m < 1 || m > 12) return "\"" + d + "\" has no month " + std::to_string(m) + " (1 to 12)";
    if (!day) return std::nullopt;
    const auto dd = static_cast<unsigned>(std::stoi(d.substr(8, 2)));
    if (!isCalendarDate(year, m, dd))
        return "\"" + d + "\" is not a day of the calendar (" + d.substr(0, 7) + " has " +
               std::to_string(daysInMonth(year, m)) + " days)";
    return std::nullopt;
}

void readProvenance(JsonObject& o, const std::vector<std::string>& sourceKeys) {
    if (auto notes = o.optional("notes")) notes->string();
    if (auto sources = o.optional("sources"))
        for (const JsonNode& key : sources->array(32)) {
            const std::string k = key.string(64);
            if (std::find(sourceKeys.begin(), sourceKeys.end(), k) == sourceKeys.end())
                key.fail("unknown source \"" + k + "\" (not in \"sources\")");
        }
}

std::vector<GpuPriceDef> readGpuPrices(const JsonNode& list, const Catalog& catalog,
                                       bool provenance,
                                       const std::vector<std::string>& sourceKeys) {
    std::vector<GpuPriceDef> prices;
    std::set<std::string> seen;
    for (const JsonNode& item : list.array(1000)) {
        JsonObject g = item.object();
        GpuPriceDef price;
        JsonNode model = g.required("gpuModel");
        price.gpuModel = model.name();
        if (!catalog.findGpu(price.gpuModel))
            model.fail("unknown GPU model \"" + price.gpuModel + "\" (not in the catalog)");
        if (!seen.insert(price.gpuModel).second)
            model.fail("a second price list for GPU model \"" + price.gpuModel + "\"");
        JsonObject classes = g.required("usdPerGpuHour").object();
        for (BuyingClass c : kBuyingClasses)
            if (auto v = classes.optional(toString(c)))
                price.of(c) = v->number(0, kMaxUsdPerGpuHour);
        classes.finish();
        if (provenance) readProvenance(g, sourceKeys);
        g.finish();
        prices.push_back(std::move(price));
    }
    return prices;
}

void readPricing(JsonObject& root, Scenario& s, const Catalog& catalog) {
    auto node = root.optional("pricing");
    if (!node) return;
    JsonObject o = node->object();
    PricingDef p;
    p.book = o.required("book").string(200);
    if (p.book.empty()) o.fail("\"book\" must name where the prices come from");
    JsonNode asOf = o.required("asOf");
    p.asOf = asOf.string(10);
    if (const auto problem = dateProblem(p.asOf, true)) asOf.fail(*problem);
    p.gpuModels = readGpuPrices(o.required("gpuModels"), catalog, false);
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

void readBuying(JsonObject& root, Scenario& s) {
    if (auto n = root.optional("onDemand")) {
        JsonObject o = n->object();
        OnDemandDef d;
        d.provisioningDelayS = o.required("provisioningDelayS").number(0, 7 * 86400.0);
        if (auto v = o.optional("idleTimeoutS")) d.idleTimeoutS = v->number(0, 30 * 86400.0);
        if (auto v = o.optional("maxNodes"))
            d.maxNodes = static_cast<int>(v->integer(0, 10'000'000));
        o.finish();
        s.onDemand = d;
    }
    if (auto n = root.optional("buyingMix")) {
        JsonObject o = n->object();
        BuyingMixDef mix;
        if (auto v = o.optional("reservedNodes"))
            mix.reservedNodes = static_cast<int>(v->integer(0, 100'000'000));
        if (auto v = o.optional("spotNodes"))
            mix.spotNodes = static_cast<int>(v->integer(0, 100'000'000));
        if (auto v = o.optional("fillOrder")) {
            mix.fillOrder.clear();
            // An empty order would fill no class first: say one, or leave the key out.
            if (v->array(3).empty())
                v->fail(
                    "an empty fill order: list the classes jobs fill first, such as "
                    "[\"reserved\", \"spot\", \"on-demand\"] (the default when left out)");
            for (const JsonNode& item : v->array(3)) {
                const BuyingClass c =
                    item.enumeration<BuyingClass>({{"reserved", BuyingClass::Reserved},
                                                   {"spot", BuyingClass::Spot},
                                                   {"on-demand", BuyingClass::OnDemand}});
                if (std::find(mix.fillOrder.begin(), mix.fillOrder.end(), c) != mix.fillOrder.end())
                    item.fail(std::string("\"") + toString(c) + "\" is listed twice");
                mix.fillOrder.push_back(c);
            }
        }
        o.finish();
        s.buyingMix = mix;
    }
}

}  // namespace gpuplan::detail
