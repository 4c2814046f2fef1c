#include "scenario_summary.hpp"

#include <QLocale>
#include <QObject>
#include <map>

#include "format/sharing_format.hpp"
#include "format/ui_palette.hpp"

namespace gpuplan::report {

namespace {

QString count(long long n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(QLocale().toString(n), n == 1 ? one : many);
}

/// "48 nodes whole GPUs, 4 nodes MIG 3g.40gb+2×2g.20gb": how many nodes of each kind.
template <typename Key>
QString tallyNodes(const std::map<Key, long long>& nodes, const auto& name) {
    QStringList parts;
    for (const auto& [key, n] : nodes)
        parts << QStringLiteral("%1 (%2)").arg(name(key),
                                               count(n, QObject::tr("node"), QObject::tr("nodes")));
    return joinList(parts, 12);
}

}  // namespace

QString joinList(const QStringList& items, int max) {
    if (items.isEmpty()) return {};
    if (items.size() == 1) return items.front();
    if (items.size() > max)
        return items.mid(0, max).join(QStringLiteral(", ")) +
               QObject::tr(", … and %1 more").arg(items.size() - max);
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QObject::tr(" and ") +
           items.back();
}

QString describeScenario(const Scenario& scenario, const Results& results, int replications) {
    const Fleet& fleet = results.fleet;
    std::map<int, long long> gpusByModel;
    std::map<std::string, long long> nodesBySharing;
    std::map<int, long long> nodesByClass;
    for (const FleetNode& n : fleet.nodes) {
        gpusByModel[n.gpuModel] += n.gpus;
        nodesBySharing[ui::sharingSummary(n.sharing, &fleet.gpuModels[n.gpuModel])] += 1;
        nodesByClass[static_cast<int>(n.buyingClass)] += 1;
    }
    QStringList models;
    for (const auto& [model, gpus] : gpusByModel)
        models << QStringLiteral("%1 × %2").arg(
            QLocale().toString(gpus), QString::fromStdString(fleet.gpuModels[model].name));
    QString text;
    text +=
        QObject::tr("The fleet has %1, %2 and %3 with %4: %5. ")
            .arg(count(static_cast<long long>(fleet.pods.size()), QObject::tr("pod"),
                       QObject::tr("pods")),
                 count(static_cast<long long>(fleet.racks.size()), QObject::tr("rack"),
                       QObject::tr("racks")),
                 count(static_cast<long long>(fleet.nodes.size()), QObject::tr("node"),
                       QObject::tr("nodes")),
                 count(fleet.totalGpus, QObject::tr("GPU"), QObject::tr("GPUs")), joinList(models));
    text +=
        QObject::tr("GPU sharing: %1. ").arg(tallyNodes(nodesBySharing, [](const std::string& s) {
            return QString::fromStdString(s);
        }));
    text += QObject::tr("Bought as %1.").arg(tallyNodes(nodesByClass, [](int c) {
        return QString::fromLatin1(toString(static_cast<BuyingClass>(c)));
    }));
    if (scenario.buyingMix)
        text += QObject::tr(
                    " By node order: the first %1 reserved, the next %2 on spot, the rest "
                    "on demand.")
                    .arg(scenario.buyingMix->reservedNodes)
                    .arg(scenario.buyingMix->spotNodes);
    QStringList teams;
    for (const std::string& t : results.teams)
        teams << QString::fromStdString(t);
    text += ' ' + QObject::tr("Teams (%1): %2. ").arg(teams.size()).arg(joinList(teams));
    QStringList work;
    if (!scenario.jobClasses.empty())
        work << count(static_cast<long long>(scenario.jobClasses.size()), QObject::tr("job class"),
                      QObject::tr("job classes"));
    if (!scenario.jobs.empty())
        work << count(static_cast<long long>(scenario.jobs.size()), QObject::tr("explicit job"),
                      QObject::tr("explicit jobs"));
    for (const TraceDef& t : scenario.traces)
        work << QObject::tr("the %1 trace %2")
                    .arg(QString::fromLatin1(toString(t.format)), QString::fromStdString(t.file));
    text += QObject::tr("Work: %1, %2 submitted in the run")
                .arg(joinList(work), count(static_cast<long long>(results.jobs.size()),
                                           QObject::tr("job"), QObject::tr("jobs")));
    if (scenario.demandMultiplier != 1)
        text += QObject::tr(" (demand × %1)").arg(scenario.demandMultiplier);
    text += QStringLiteral(". ");
    text += QObject::tr("Simulated over %1, sampled every %2")
                .arg(ui::formatDuration(scenario.horizonS),
                     ui::formatDuration(scenario.sampleIntervalS));
    if (scenario.warmupS > 0)
        text += QObject::tr("; KPIs measured after a warm-up of %1")
                    .arg(ui::formatDuration(scenario.warmupS));
    text += replications > 1
                ? QObject::tr(
                      "; %1 replications on seeds derived from seed %2 (KPIs are their "
                      "means, ± the half-width of the 95 % interval). ")
                      .arg(replications)
                      .arg(scenario.seed)
                : QObject::tr("; one run, seed %1. ").arg(scenario.seed);
    const SchedulerDef& s = scenario.scheduler;
    text += QObject::tr("Scheduler: queue order %1, placement %2, backfill %3, preemption %4.")
                .arg(QString::fromLatin1(toString(s.queueOrder)),
                     QString::fromLatin1(toString(s.placement)),
                     QString::fromLatin1(toString(s.backfill)),
                     QString::fromLatin1(toString(s.preemption)));
    if (!scenario.quotas.empty())
        text += ' ' + QObject::tr("%1 with a quota (%2).")
                          .arg(count(static_cast<long long>(scenario.quotas.size()),
                                     QObject::tr("team"), QObject::tr("teams")),
                               count(static_cast<long long>(scenario.cohorts.size()),
                                     QObject::tr("cohort"), QObject::tr("cohorts")));
    // Last, and as the file's words: an edit (three racks added) does not change them.
    if (!scenario.description.empty())
        text += ' ' + QObject::tr("The scenario's file describes it as: \u201c%1\u201d")
                          .arg(QString::fromStdString(scenario.description));
    return text;
}

}  // namespace gpuplan::report
