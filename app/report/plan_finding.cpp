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

QString shown(const std::string& kpi, double value) {
    return ui::formatKpiValue(Kpi{kpi, value, planKpiUnit(kpi), ""});
}

/// "wait p95", "wait p95 of team applied".
QString targetLabel(const PlanTarget& t) {
    const QString kpi = ui::kpiLabel(t.kpi);
    return t.team.empty() ? kpi : tr("%1 of team %2").arg(kpi, QString::fromStdString(t.team));
}

QString boundText(const PlanTarget& t) {
    return (t.sense == TargetSense::AtMost ? QStringLiteral("≤ ") : QStringLiteral("≥ ")) +
           shown(t.kpi, t.bound);
}

QString intervalText(const std::string& kpi, const MeanInterval& m) {
    if (!std::isfinite(m.low) || !std::isfinite(m.high)) return QStringLiteral("–");
    return QStringLiteral("[%1, %2]").arg(shown(kpi, m.low), shown(kpi, m.high));
}

}  // namespace

std::string planKpiUnit(const std::string& kpi) {
    if (kpi.ends_with("_s") || kpi.find("_s_") != std::string::npos) return "s";
    if (kpi.starts_with("usd_per_")) return "usd_per_gpu_h";
    if (kpi.ends_with("_usd")) return "usd";
    if (kpi.starts_with("gpu_hours")) return "gpu_h";
    if (kpi.ends_with("_kw")) return "kW";
    if (kpi.starts_with("jobs_")) return "jobs";
    if (kpi.ends_with("_gpus_mean") || kpi.starts_with("gpus_")) return "gpus";
    for (const char* fraction : {"allocation", "occupancy", "mfu", "goodput", "share",
                                 "utilization", "fragmentation_ratio", "fragmentation_amount"})
        if (kpi.find(fraction) != std::string::npos) return "fraction";
    return "";
}

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
    for (const PlanTarget& t : q.targets)
        targets << QStringLiteral("%1 %2").arg(targetLabel(t), boundText(t));
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
        PlanFinding::Target row;
        row.label = targetLabel(target);
        row.bound = boundText(target);
        row.value = shown(target.kpi, best.targets[t].mean);
        row.interval = intervalText(target.kpi, best.targets[t]);
        row.met = best.targetMet[t];
        row.now = result.baseline ? shown(target.kpi, result.baseline->targets[t].mean)
                                  : QStringLiteral("–");
        f.targets.push_back(row);
    }
    const std::string& kpi = study.objectiveKpi();
    f.objectiveLabel = study.objectiveName() == "cost"   ? tr("Cost")
                       : study.objectiveName() == "gpus" ? tr("GPU-hours in service")
                                                         : tr("Peak power");
    f.objectiveValue = shown(kpi, best.objective.mean);
    f.objectiveInterval = intervalText(kpi, best.objective);
    f.objectiveNow =
        result.baseline ? shown(kpi, result.baseline->objective.mean) : QStringLiteral("–");
    if (result.baseline) {
        const Kpi now{kpi, best.objective.mean, planKpiUnit(kpi), ""};
        const Kpi before{kpi, result.baseline->objective.mean, planKpiUnit(kpi), ""};
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
