#include "plan_finding.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <cmath>

#include "format/kpi_format.hpp"
#include "gpuplan/studies/plan_words.hpp"

namespace gpuplan::report {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("PlanFinding", text);
}

/// A value in the unit the runs report its KPI in.
QString shown(const std::string& kpi, const std::string& unit, double value) {
    return ui::formatKpiValue(Kpi{kpi, value, unit, ""});
}

/// "wait p95", "wait p95 of team applied".
QString targetLabel(const PlanTarget& t) {
    const QString kpi = ui::kpiLabel(t.kpi);
    return t.team.empty() ? kpi : tr("%1 of team %2").arg(kpi, QString::fromStdString(t.team));
}

QString boundText(const PlanTarget& t, const std::string& unit) {
    return (t.sense == TargetSense::AtMost ? QStringLiteral("≤ ") : QStringLiteral("≥ ")) +
           shown(t.kpi, unit, t.bound);
}

QString intervalText(const std::string& kpi, const std::string& unit, const MeanInterval& m) {
    if (!std::isfinite(m.low) || !std::isfinite(m.high)) return QStringLiteral("–");
    return QStringLiteral("[%1, %2]").arg(shown(kpi, unit, m.low), shown(kpi, unit, m.high));
}

}  // namespace

PlanFinding planFinding(const PlanStudy& study, const PlanSearchResult& result,
                        double demandMultiplier) {
    const PlanQuestion& q = study.question();
    const Scenario& scenario = study.scenario();
    PlanFinding f;
    f.feasible = result.feasible;
    QStringList places, targets;
    for (const PlanDimension& d : q.dimensions) {
        const QString place = QString::fromStdString(describePlanPlace(scenario, d.pointer));
        places << (d.isChoice() ? tr("%1 (one of %2)")
                                      .arg(place, QString::fromStdString(
                                                      d.text.substr(d.text.find('=') + 1)))
                                : tr("%1 (%2 to %3)").arg(place).arg(d.lo).arg(d.hi));
    }
    for (std::size_t t = 0; t < q.targets.size(); ++t)
        targets << QStringLiteral("%1 %2").arg(targetLabel(q.targets[t]),
                                               boundText(q.targets[t], study.targetUnit(t)));
    const QString objective = study.objectiveName() == "cost"   ? tr("the least cost")
                              : study.objectiveName() == "gpus" ? tr("the fewest GPU-hours")
                                                                : tr("the least peak power");
    f.question =
        tr("What change to %1 keeps %2%3, at %4?")
            .arg(places.join(tr(" and ")), targets.join(tr(" and ")),
                 demandMultiplier != 1
                     ? tr(" with demand × %1").arg(QLocale::c().toString(demandMultiplier, 'g', 4))
                     : QString(),
                 objective);
    const PlanVerdict& best = result.best;
    if (!result.evaluated.empty())
        for (std::size_t d = 0; d < q.dimensions.size(); ++d)
            f.changes << QString::fromStdString(
                describePlanChange(scenario, q.dimensions[d].pointer, study.currentValues()[d],
                                   planValueText(q.dimensions[d], best.candidate[d])));
    for (std::size_t t = 0; t < q.targets.size() && t < best.targets.size(); ++t) {
        const PlanTarget& target = q.targets[t];
        const std::string& unit = study.targetUnit(t);
        PlanFinding::Target row;
        row.label = targetLabel(target);
        row.bound = boundText(target, unit);
        row.value = shown(target.kpi, unit, best.targets[t].mean);
        row.interval = intervalText(target.kpi, unit, best.targets[t]);
        row.met = best.targetMet[t];
        row.now = result.baseline ? shown(target.kpi, unit, result.baseline->targets[t].mean)
                                  : QStringLiteral("–");
        f.targets.push_back(row);
    }
    const std::string& kpi = study.objectiveKpi();
    const std::string& unit = study.objectiveUnit();
    f.objectiveLabel = study.objectiveName() == "cost"   ? tr("Cost")
                       : study.objectiveName() == "gpus" ? tr("GPU-hours in service")
                                                         : tr("Peak power");
    f.objectiveValue = shown(kpi, unit, best.objective.mean);
    f.objectiveInterval = intervalText(kpi, unit, best.objective);
    f.objectiveNow =
        result.baseline ? shown(kpi, unit, result.baseline->objective.mean) : QStringLiteral("–");
    if (result.baseline) {
        const Kpi now{kpi, best.objective.mean, unit, ""};
        const Kpi before{kpi, result.baseline->objective.mean, unit, ""};
        f.objectiveDelta = ui::formatKpiDelta(now, before);
    }
    int most = 0;
    for (const PlanVerdict& v : result.evaluated)
        most = std::max(most, v.replications);
    f.method = tr("%1 candidates judged with %2 runs, 2 to %3 per candidate on the same seeds; a "
                  "target is met when its 95 % interval is within its bound.")
                   .arg(result.evaluated.size())
                   .arg(result.evaluations)
                   .arg(most);
    if (result.capped)
        f.method += ' ' + tr("The search stopped at its bound: a cheaper plan may exist.");
    return f;
}

}  // namespace gpuplan::report
