// A plan the planner found, as a planning meeting reads it: the question in words, the
// recommendation ("+3 racks of 4 × DGX H100 in pod-a ▸ rack (4 → 7)"), each target with its
// 95 % interval and whether it is met, and the objective against the scenario as it stood.
// The Plan tab shows it and page 1 of the report states it, from the same text.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "gpuplan/studies/plan_study.hpp"

namespace gpuplan::report {

struct PlanFinding {
    QString question;  ///< "The cheapest change to … that keeps … (judged on …)."
    bool feasible = false;
    QStringList changes;  ///< the plan in words, a line per dimension
    struct Target {
        QString label;     ///< "wait p95 of team applied"
        QString bound;     ///< "≤ 2.0 h"
        QString value;     ///< the plan's mean: "1.4 h"
        QString interval;  ///< "[1.1 h, 1.7 h]"
        bool met = false;
        QString now;  ///< the scenario as it stood (its mean), or "–" when not run
    };
    std::vector<Target> targets;
    QString objectiveLabel;  ///< "Cost", "GPU-hours", "Peak power"
    QString objectiveValue, objectiveInterval, objectiveNow;
    QString objectiveDelta;  ///< "+$39.8k" against now, or empty
    QString method;          ///< "7 candidates judged with 22 runs (…)"
};

/// The finding of `result`, a search `study` ran. `demandMultiplier` is the demand the
/// question assumed (1: as the scenario has it).
PlanFinding planFinding(const PlanStudy& study, const PlanSearchResult& result,
                        double demandMultiplier);

}  // namespace gpuplan::report
