// The assumptions a report states, each with where it comes from: the price book (its date
// and source URLs, price_book_sources.hpp), failure rates (Llama 3's MTBF), spot
// reclaims, on-demand scaling and GPU sharing. Only what the scenario has.
#pragma once

#include <QString>
#include <QStringList>
#include <filesystem>
#include <vector>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

struct Assumption {
    QString topic;        ///< "Prices", "Node failures", …
    QString text;         ///< what the run assumed, with numbers
    QStringList sources;  ///< citations and URLs
};

std::vector<Assumption> assumptionsOf(const Scenario& scenario, const Results& results,
                                      const std::filesystem::path& presetsDir);

}  // namespace gpuplan::report
