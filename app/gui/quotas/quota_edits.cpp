#include "quota_edits.hpp"

#include <QObject>
#include <algorithm>

#include "format/workload_format.hpp"
#include "tables/quota_table_model.hpp"

namespace gpuplan::app {

namespace {

using ui::gpuShortName;

QuotaEdit refused(const QString& reason) {
    QuotaEdit e;
    e.refusal = reason;
    return e;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString number(double v) {
    return QString::number(v, 'g', 6);
}

QuotaDef* findQuota(Scenario& s, const std::string& team) {
    for (QuotaDef& quota : s.quotas)
        if (quota.team == team) return &quota;
    return nullptr;
}

FlavorQuotaDef* findFlavor(QuotaDef& quota, const std::string& gpuModel) {
    for (FlavorQuotaDef& f : quota.flavors)
        if (f.gpuModel == gpuModel) return &f;
    return nullptr;
}

/// Applies `change` to the team's quota of that GPU model in a copy of `s`.
template <typename Change>
QuotaEdit editFlavor(const Scenario& s, const std::string& team, const std::string& gpuModel,
                     const QString& text, Change change) {
    QuotaEdit e{s, text, {}};
    QuotaDef* quota = findQuota(e.after, team);
    if (!quota) return refused(QObject::tr("Team \"%1\" has no quota.").arg(q(team)));
    FlavorQuotaDef* flavor = findFlavor(*quota, gpuModel);
    if (!flavor)
        return refused(QObject::tr("Team \"%1\" has no quota for GPU model %2.")
                           .arg(q(team), gpuShortName(gpuModel)));
    change(*flavor);
    return e;
}

template <typename Change>
QuotaEdit editQuota(const Scenario& s, const std::string& team, const QString& text,
                    Change change) {
    QuotaEdit e{s, text, {}};
    QuotaDef* quota = findQuota(e.after, team);
    if (!quota) return refused(QObject::tr("Team \"%1\" has no quota.").arg(q(team)));
    change(*quota);
    return e;
}

}  // namespace

QuotaEdit setNominalGpus(const Scenario& s, const std::string& team, const std::string& gpuModel,
                         double nominalGpus) {
    return editFlavor(s, team, gpuModel,
                      QObject::tr("Set %1's nominal %2 quota to %3")
                          .arg(q(team), gpuShortName(gpuModel), number(nominalGpus)),
                      [&](FlavorQuotaDef& f) { f.nominalGpus = nominalGpus; });
}

QuotaEdit setBorrowingLimitGpus(const Scenario& s, const std::string& team,
                                const std::string& gpuModel, std::optional<double> limitGpus) {
    const QString text =
        limitGpus
            ? QObject::tr("Set %1's %2 borrowing limit to %3")
                  .arg(q(team), gpuShortName(gpuModel), number(*limitGpus))
            : QObject::tr("Clear %1's %2 borrowing limit").arg(q(team), gpuShortName(gpuModel));
    return editFlavor(s, team, gpuModel, text,
                      [&](FlavorQuotaDef& f) { f.borrowingLimitGpus = limitGpus; });
}

QuotaEdit setLendingLimitGpus(const Scenario& s, const std::string& team,
                              const std::string& gpuModel, std::optional<double> limitGpus) {
    const QString text =
        limitGpus ? QObject::tr("Set %1's %2 lending limit to %3")
                        .arg(q(team), gpuShortName(gpuModel), number(*limitGpus))
                  : QObject::tr("Clear %1's %2 lending limit").arg(q(team), gpuShortName(gpuModel));
    return editFlavor(s, team, gpuModel, text,
                      [&](FlavorQuotaDef& f) { f.lendingLimitGpus = limitGpus; });
}

QuotaEdit setQuotaCohort(const Scenario& s, const std::string& team, const std::string& cohort) {
    return editQuota(s, team,
                     cohort.empty() ? QObject::tr("Take %1 out of its cohort").arg(q(team))
                                    : QObject::tr("Move %1 to cohort %2").arg(q(team), q(cohort)),
                     [&](QuotaDef& quota) { quota.cohort = cohort; });
}

QuotaEdit setFairShareWeight(const Scenario& s, const std::string& team, double weight) {
    return editQuota(s, team,
                     QObject::tr("Set %1's fair-share weight to %2").arg(q(team), number(weight)),
                     [&](QuotaDef& quota) { quota.fairShareWeight = weight; });
}

QuotaEdit setReclaimWithinCohort(const Scenario& s, const std::string& team, ReclaimPolicy policy) {
    return editQuota(s, team,
                     QObject::tr("Set %1's reclaim within cohort to %2")
                         .arg(q(team), QLatin1String(toString(policy))),
                     [&](QuotaDef& quota) { quota.reclaimWithinCohort = policy; });
}

QuotaEdit setCohortFairSharing(const Scenario& s, const std::string& cohort, bool on) {
    QuotaEdit e{s,
                on ? QObject::tr("Turn fair sharing on in cohort %1").arg(q(cohort))
                   : QObject::tr("Turn fair sharing off in cohort %1").arg(q(cohort)),
                {}};
    for (CohortDef& c : e.after.cohorts)
        if (c.name == cohort) {
            c.fairSharing = on;
            return e;
        }
    return refused(QObject::tr("There is no cohort \"%1\".").arg(q(cohort)));
}

QuotaEdit addQuota(const Scenario& s, const std::string& team) {
    if (s.gpuModels.empty()) return refused(QObject::tr("The fleet has no GPU model to quota."));
    QuotaEdit e{s, {}, {}};
    if (QuotaDef* quota = findQuota(e.after, team)) {
        // The fleet's next GPU model the team has no quota for, in fleet order.
        for (const GpuModel& model : s.gpuModels)
            if (!findFlavor(*quota, model.id)) {
                quota->flavors.push_back(FlavorQuotaDef{model.id, 0, {}, {}});
                e.text = QObject::tr("Add %1's %2 quota").arg(q(team), gpuShortName(model.id));
                return e;
            }
        return refused(
            QObject::tr("Team \"%1\" already has a quota for every GPU model of the fleet.")
                .arg(q(team)));
    }
    QuotaDef quota;
    quota.team = team;
    if (!s.cohorts.empty()) quota.cohort = s.cohorts.front().name;
    quota.flavors.push_back(FlavorQuotaDef{s.gpuModels.front().id, 0, {}, {}});
    e.after.quotas.push_back(std::move(quota));
    e.text = QObject::tr("Add %1's %2 quota").arg(q(team), gpuShortName(s.gpuModels.front().id));
    return e;
}

QuotaEdit removeQuota(const Scenario& s, const std::string& team, const std::string& gpuModel) {
    QuotaEdit e{s, QObject::tr("Remove %1's %2 quota").arg(q(team), gpuShortName(gpuModel)), {}};
    QuotaDef* quota = findQuota(e.after, team);
    if (!quota || !findFlavor(*quota, gpuModel))
        return refused(QObject::tr("Team \"%1\" has no quota for GPU model %2.")
                           .arg(q(team), gpuShortName(gpuModel)));
    std::erase_if(quota->flavors, [&](const FlavorQuotaDef& f) { return f.gpuModel == gpuModel; });
    if (quota->flavors.empty())
        std::erase_if(e.after.quotas, [&](const QuotaDef& d) { return d.team == team; });
    return e;
}

std::optional<std::optional<double>> parseLimitGpus(const QString& text, QString* error) {
    const QString t = text.trimmed();
    if (t.isEmpty() || t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return std::optional<double>{};
    const std::optional<double> v = ui::parseQuantity(t, ui::Quantity::Gpus, error);
    if (!v) return std::nullopt;
    return std::optional<double>{*v};
}

}  // namespace gpuplan::app
