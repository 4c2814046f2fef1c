// Pricing edits as pure functions: the price books a folder holds, and the scenario
// priced with one of them or with none. The result is committed through ScenarioDocument::edit,
// so a book that cannot price some node group comes back refused with the validator's reason.
#pragma once

#include <QString>
#include <filesystem>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/pricebook.hpp"

namespace gpuplan::app {

/// One file of the price-book folder: its book, or why it could not be read.
struct PriceBookFile {
    std::filesystem::path file;
    PriceBook book;  ///< empty when `error` is set
    QString error;
};

/// Every *.json in `folder`, by file name, each read strictly against the catalog. A missing
/// folder gives none.
std::vector<PriceBookFile> readPriceBooks(const std::filesystem::path& folder,
                                          const Catalog& catalog);

struct PricingEdit {
    Scenario after;
    QString text;  ///< the undo step's name: "Price with Lambda list prices (2026-04)"
};

/// The scenario priced with the book (pricingOf: its list prices and its on-prem TCO).
PricingEdit priceWithBook(const Scenario& s, const PriceBook& book, const Catalog& catalog);
/// The scenario without prices: its runs report no costs.
PricingEdit removePricing(const Scenario& s);

/// The index of the book the scenario's pricing came from (same name and date), or −1
/// (unpriced, or prices of a book not in the list).
int priceBookOf(const Scenario& s, const std::vector<PriceBookFile>& books);

}  // namespace gpuplan::app
