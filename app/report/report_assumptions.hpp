// The assumptions a report states, each with where it comes from: the price book (its date
// and source URLs, read from presets/pricebooks), failure rates (Llama 3's MTBF), spot
// reclaims, on-demand scaling and GPU sharing. Only what the scenario has.
#pragma once

#include <QString>
#include <QStringList>
#include <filesystem>
#include <vector>

#include "gpuplan/results.hpp"
#include "gpuplan/scenario.hpp"

namespace gpuplan::report {

struct Assumption {
    QString topic;        ///< "Prices", "Node failures", …
    QString text;         ///< what the run assumed, with numbers
    QStringList sources;  ///< citations and URLs
};

/// A price book's provenance as its file states it.
struct PriceBookSources {
    QString file;  ///< empty when no book in the folder has that name
    QString asOf;
    QString description;
    QStringList sources;  ///< "title — url"
};

/// The book in `presetsDir`/pricebooks whose "name" is `bookName`.
PriceBookSources findPriceBookSources(const std::filesystem::path& presetsDir,
                                      const QString& bookName);

std::vector<Assumption> assumptionsOf(const Scenario& scenario, const Results& results,
                                      const std::filesystem::path& presetsDir);

}  // namespace gpuplan::report
