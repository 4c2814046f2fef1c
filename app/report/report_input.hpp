// What a planning-meeting report is made of: the scenario, its results (with the runs behind
// them when it was replicated) and, optionally, the pinned baseline to compare against (its
// results, and the scenario they ran, from which page 1 says what changed).
#pragma once

#include <QDate>
#include <QString>
#include <filesystem>
#include <memory>
#include <optional>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"
#include "plan_finding.hpp"

namespace gpuplan::report {

struct ReportInput {
    Scenario scenario;
    QString scenarioName;  ///< the footer's and the title's; the scenario's name when empty
    std::shared_ptr<const Results> results;
    std::shared_ptr<const Replications> replications;  ///< null: one run
    std::shared_ptr<const Results> baseline;           ///< null: no comparison
    std::shared_ptr<const Replications> baselineReplications;
    /// The scenario the baseline ran; nullopt: only the two fleets are compared.
    std::optional<Scenario> baselineScenario;
    QString baselineName;
    /// Where the price books are (their sources are cited): presets/pricebooks/*.json.
    std::filesystem::path presetsDir;
    QDate date = QDate::currentDate();  ///< printed in the footer
    /// A plan found for this scenario (the Plan tab): page 1 opens with its question and
    /// recommendation.
    std::optional<PlanFinding> plan;
};

}  // namespace gpuplan::report
