#include "gpuplan/scenario_io/pricebook.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "gpuplan/io/text_files.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "io/json_reader.hpp"
#include "scenario_read_pricing.hpp"

namespace gpuplan {

using detail::JsonNode;
using detail::JsonObject;

namespace {
constexpr double kHoursPerYear = 8760;  // 365 days: the depreciation and colocation year
}  // namespace

double onPremUsdPerGpuHour(const OnPremTcoDef& t, int gpusPerNode) {
    const double usdPerHour = t.purchaseUsd / (t.depreciationYears * kHoursPerYear) +
                              t.energyKw * t.pue * t.usdPerKwh +
                              t.colocationKw * t.colocationUsdPerKwMonth * 12 / kHoursPerYear;
    return usdPerHour / gpusPerNode;
}

PriceBook parsePriceBook(std::string_view text, const std::string& sourceName,
                         const Catalog& catalog) {
    const detail::Json doc = detail::parseStrict(text, sourceName);
    JsonObject root = JsonNode(doc, "", sourceName).object();
    JsonNode format = root.required("format");
    if (format.string(64) != "gpuplan-pricebook") format.fail("expected \"gpuplan-pricebook\"");
    root.required("formatVersion").integer(1, 1);
    PriceBook book;
    book.name = root.required("name").prose(200);
    if (book.name.empty()) root.required("name").fail("a price book needs a name");
    JsonNode asOf = root.required("asOf");
    book.asOf = asOf.string(10);
    if (const auto problem = detail::dateProblem(book.asOf, true)) asOf.fail(*problem);
    JsonNode currency = root.required("currency");
    if (currency.string(8) != "USD") currency.fail("prices are in \"USD\"");
    if (auto d = root.optional("description")) book.description = d->prose();
    // Every price names its sources: {"key": {"title", "url"}}.
    std::vector<std::string> sourceKeys;
    JsonObject sources = root.required("sources").object();
    for (const auto& [key, value] : sources.node().raw().items()) {
        JsonObject s = sources.required(key).object();
        s.required("title").string();
        s.required("url").string();
        s.finish();
        sourceKeys.push_back(key);
    }
    sources.finish();
    if (auto list = root.optional("gpuModels"))
        book.gpuModels = detail::readGpuPrices(*list, catalog, true, sourceKeys);
    if (auto list = root.optional("onPremTco")) {
        std::set<std::string> seen;
        for (const JsonNode& item : list->array(1000)) {
            JsonObject o = item.object();
            OnPremTcoDef t;
            JsonNode type = o.required("nodeType");
            t.nodeType = type.name();
            if (!catalog.findNodeType(t.nodeType))
                type.fail("unknown node type \"" + t.nodeType + "\" (not in the catalog)");
            if (!seen.insert(t.nodeType).second)
                type.fail("a second TCO entry for node type \"" + t.nodeType + "\"");
            t.purchaseUsd = o.required("purchaseUsd").number(0, 1e9);
            t.depreciationYears = o.required("depreciationYears").number(0.5, 30);
            t.energyKw = o.required("energyKw").number(0, 1000);
            t.pue = o.required("pue").number(1, 5);
            t.usdPerKwh = o.required("usdPerKwh").number(0, 10);
            t.colocationKw = o.required("colocationKw").number(0, 1000);
            t.colocationUsdPerKwMonth = o.required("colocationUsdPerKwMonth").number(0, 10000);
            detail::readProvenance(o, sourceKeys);
            o.finish();
            book.onPremTco.push_back(std::move(t));
        }
    }
    if (book.gpuModels.empty() && book.onPremTco.empty())
        root.fail("a price book needs \"gpuModels\" or \"onPremTco\"");
    root.finish();
    return book;
}

PriceBook loadPriceBook(const std::filesystem::path& file, const Catalog& catalog) {
    return parsePriceBook(readTextFile(file), file.string(), catalog);
}

PricingDef pricingOf(const PriceBook& book, const Catalog& catalog) {
    PricingDef pricing{book.name, book.asOf, book.gpuModels};
    for (const OnPremTcoDef& t : book.onPremTco) {
        const NodeType* type = catalog.findNodeType(t.nodeType);
        if (!type) throw std::invalid_argument("unknown node type " + t.nodeType);
        GpuPriceDef* price = nullptr;
        for (GpuPriceDef& p : pricing.gpuModels)
            if (p.gpuModel == type->gpuModel) price = &p;
        if (!price) {
            pricing.gpuModels.push_back(GpuPriceDef{type->gpuModel, {}});
            price = &pricing.gpuModels.back();
        }
        // Two node types of one GPU model: the cheaper to own prices the model.
        const double usd = onPremUsdPerGpuHour(t, type->gpusPerNode);
        auto& onPrem = price->of(BuyingClass::OnPrem);
        onPrem = onPrem ? std::min(*onPrem, usd) : usd;
    }
    return pricing;
}

}  // namespace gpuplan
