// Price books (presets/pricebooks): strict reading, the on-prem TCO formula worked by hand,
// and the pricing a book gives a scenario.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/pricebook.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

std::string refusal(const std::string& text) {
    try {
        parsePriceBook(text, "book.json", catalog());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

const char* kHeader = R"("format": "gpuplan-pricebook", "formatVersion": 1, "name": "b",
    "asOf": "2026-08", "currency": "USD", "sources": {"s": {"title": "t", "url": "u"}})";

}  // namespace

TEST_CASE("owning a node costs its depreciation, energy and colocation per GPU-hour",
          "[pricebook]") {
    // A DGX H100 at $300,000 over 5 years: 300,000 / 43,800 h = $6.849315/h. 8.5 kW at PUE
    // 1.56 and $0.085/kWh: $1.127100/h. 10.2 kW of colocation at $184.06 per kW-month:
    // 10.2 × 184.06 × 12 / 8,760 = $2.571797/h. In all $10.548212/h, over 8 GPUs $1.318527.
    const OnPremTcoDef tco{"dgx-h100", 300000, 5, 8.5, 1.56, 0.085, 10.2, 184.06};
    CHECK(onPremUsdPerGpuHour(tco, 8) == Approx(1.318527).epsilon(1e-6));
}

TEST_CASE("every preset price book reads, and prices the models it names", "[pricebook]") {
    for (const char* name :
         {"aws-us-east-1.json", "lambda.json", "crusoe.json", "onprem-tco.json"}) {
        INFO(name);
        const PriceBook book = loadPriceBook(test::presetsDir() / "pricebooks" / name, catalog());
        const PricingDef pricing = pricingOf(book, catalog());
        CHECK(pricing.book == book.name);
        CHECK_FALSE(pricing.gpuModels.empty());
    }
    // The TCO book prices its node types' GPU models as on-prem: the DGX H100 above.
    const PricingDef onPrem = pricingOf(
        loadPriceBook(test::presetsDir() / "pricebooks" / "onprem-tco.json", catalog()), catalog());
    REQUIRE(onPrem.find("h100-sxm"));
    CHECK(*onPrem.find("h100-sxm")->of(BuyingClass::OnPrem) == Approx(1.318527).epsilon(1e-6));
    // Lambda's reservation ÷ on-demand: the break-even utilisation 1.85 / 2.99.
    const PricingDef lambda = pricingOf(
        loadPriceBook(test::presetsDir() / "pricebooks" / "lambda.json", catalog()), catalog());
    CHECK(*lambda.find("h100-sxm")->of(BuyingClass::Reserved) == 1.85);
}

TEST_CASE("a malformed price book is refused with its place", "[pricebook]") {
    CHECK_THAT(refusal(std::string("{") + kHeader + R"(, "gpuModels": [{"gpuModel": "h999",
        "usdPerGpuHour": {"spot": 1}}]})"),
               Catch::Contains("/gpuModels/0/gpuModel: unknown GPU model \"h999\""));
    CHECK_THAT(refusal(std::string("{") + kHeader + R"(, "gpuModels": [{"gpuModel": "l4",
        "usdPerGpuHour": {"spot": 1}, "sources": ["nope"]}]})"),
               Catch::Contains("/gpuModels/0/sources/0: unknown source \"nope\""));
    CHECK_THAT(refusal(std::string("{") + kHeader + R"(, "onPremTco": [{"nodeType": "dgx-h100",
        "purchaseUsd": 1, "depreciationYears": 0, "energyKw": 1, "pue": 1.5, "usdPerKwh": 0.1,
        "colocationKw": 1, "colocationUsdPerKwMonth": 100}]})"),
               Catch::Contains("/onPremTco/0/depreciationYears: must be between 0.5"));
    CHECK_THAT(refusal(std::string("{") + kHeader + "}"),
               Catch::Contains("needs \"gpuModels\" or \"onPremTco\""));
    CHECK_THAT(refusal(R"({"format": "gpuplan-pricebook", "formatVersion": 1, "name": "b",
        "asOf": "2026-08", "currency": "EUR", "sources": {}, "gpuModels": []})"),
               Catch::Contains("/currency: prices are in \"USD\""));
}

TEST_CASE("a book's date is a day of the calendar, leap years included", "[pricebook]") {
    // 2026-02-31 is refused: not any day 1-31 of any month.
    CHECK_THROWS_WITH(
        loadPriceBook(test::testDataDir() / "pricebooks" / "asof-day-not-in-month.json", catalog()),
        Catch::EndsWith("asof-day-not-in-month.json: /asOf: \"2026-02-31\" is not a "
                        "day of the calendar (2026-02 has 28 days)"));
    const auto dated = [](const std::string& asOf) {
        return refusal(R"({"format": "gpuplan-pricebook", "formatVersion": 1, "name": "b",
            "asOf": ")" +
                       asOf + R"(", "currency": "USD", "sources": {},
            "gpuModels": [{"gpuModel": "l4", "usdPerGpuHour": {"spot": 1}}]})");
    };
    // Leap years: divisible by 4, except centuries not divisible by 400.
    CHECK(dated("2024-02-29").empty());
    CHECK(dated("2000-02-29").empty());
    CHECK(dated("2025-02-28").empty());
    CHECK(dated("2026-04-30").empty());
    CHECK(dated("2026-12-31").empty());
    CHECK(dated("2026-02").empty());  // a month is enough
    CHECK(dated("2025-02-29") ==
          "book.json: /asOf: \"2025-02-29\" is not a day of the calendar (2025-02 has 28 days)");
    CHECK(dated("2100-02-29") ==
          "book.json: /asOf: \"2100-02-29\" is not a day of the calendar (2100-02 has 28 days)");
    CHECK(dated("2026-04-31") ==
          "book.json: /asOf: \"2026-04-31\" is not a day of the calendar (2026-04 has 30 days)");
    CHECK(dated("2026-01-00") ==
          "book.json: /asOf: \"2026-01-00\" is not a day of the calendar (2026-01 has 31 days)");
    CHECK(dated("2026-13") == "book.json: /asOf: \"2026-13\" has no month 13 (1 to 12)");
    CHECK(dated("2026-1-01") ==
          "book.json: /asOf: expected a date like \"2026-08-06\" or \"2026-08\"");
}
