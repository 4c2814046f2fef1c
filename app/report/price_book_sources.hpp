// Where a run's prices come from: the books of presets/pricebooks whose name is the scenario's
// pricing.book, or, for a scenario that mixes books ("Lambda list prices, Crusoe spot"), each
// book that lists one of the prices the run paid (same GPU model, buying class and price),
// with the sources that book gives for those prices. The engine's price-book reader keeps no
// sources, so they are read here from the files.
#pragma once

#include <QString>
#include <QStringList>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

struct PriceBookSources {
    QString file;  ///< "pricebooks/lambda.json"
    QString name;
    QString asOf;
    QString description;   ///< for the book the scenario names; empty for a partial match
    QStringList supplies;  ///< partial match: the paid prices it lists ("h100-sxm spot $1.60")
    QStringList sources;   ///< "title — url"
};

/// The books behind `results`' prices: the one named `bookName` when there is one, else each
/// book that lists a price the run paid. Empty when none is found.
std::vector<PriceBookSources> priceBookSources(const std::filesystem::path& presetsDir,
                                               const QString& bookName, const Results& results);

}  // namespace gpuplan::report
