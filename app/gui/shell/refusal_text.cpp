#include "refusal_text.hpp"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

namespace gpuplan::app {

namespace {

/// A scenario file key as a planner says it, and its unit (empty: none or not a number).
struct FieldWords {
    const char* key;
    const char* words;
    const char* unit;
};

// One table for every key the file knows; keys not listed are shown as they are.
constexpr FieldWords kFields[] = {
    {"amplitude", "amplitude", ""},
    {"arrival", "arrival", ""},
    {"backfill", "backfill", ""},
    {"borrowingLimitGpus", "borrowing limit", "GPUs"},
    {"buyingClass", "buying class", ""},
    {"checkpointCostS", "checkpoint cost", "s"},
    {"checkpointIntervalS", "checkpoint interval", "s"},
    {"cohort", "cohort", ""},
    {"color", "colour", ""},
    {"count", "count", ""},
    {"demandMultiplier", "demand multiplier", ""},
    {"description", "description", ""},
    {"dist", "distribution", ""},
    {"durationS", "duration", "s"},
    {"durationScale", "duration scale", ""},
    {"elastic", "elastic", ""},
    {"fabric", "fabric", ""},
    {"failures", "random failures", ""},
    {"fairShareWeight", "fair-share weight", ""},
    {"fairSharing", "fair sharing", ""},
    {"fallbackFabricGBpsPerGpu", "fallback fabric bandwidth per GPU", "GB/s"},
    {"file", "file", ""},
    {"flopsPerByte", "FLOPs per byte", "FLOP/B"},
    {"format", "format", ""},
    {"gpuModel", "GPU model", ""},
    {"gpus", "GPUs", "GPUs"},
    {"gpusPerPod", "GPUs per pod", "GPUs"},
    {"high", "high", ""},
    {"horizonS", "horizon", "s"},
    {"lendingLimitGpus", "lending limit", "GPUs"},
    {"low", "low", ""},
    {"matmulShare", "matmul share", ""},
    {"max", "max", ""},
    {"maxGpus", "max GPUs", "GPUs"},
    {"maxJobs", "max jobs", "jobs"},
    {"mean", "mean", ""},
    {"median", "median", ""},
    {"memoryGbPerGpu", "memory per GPU", "GB"},
    {"mfu", "MFU", ""},
    {"min", "min", ""},
    // No unit: its refusal for too many failures quotes a count ("at most 1,000,000").
    {"mtbfGpuHours", "MTBF (GPU-hours per GPU)", ""},
    {"name", "name", ""},
    {"node", "node", ""},
    {"nodeType", "node type", ""},
    {"nominalGpus", "nominal quota", "GPUs"},
    {"offsetS", "offset", "s"},
    {"parent", "parent cohort", ""},
    {"peakHourOfDay", "peak hour of day", "h"},
    {"pin", "pin", ""},
    {"placement", "placement", ""},
    {"podUplinkOversubscription", "pod uplink oversubscription", ""},
    {"precision", "precision", ""},
    {"preemption", "preemption", ""},
    {"preemptionGraceS", "grace period", "s"},
    {"priority", "priority", ""},
    {"process", "arrival process", ""},
    {"queueOrder", "queue order", ""},
    {"rackUplinkOversubscription", "rack uplink oversubscription", ""},
    {"ratePerHour", "rate", "jobs/h"},
    {"readyAtS", "ready at", "s"},
    {"reclaimWithinCohort", "reclaim within cohort", ""},
    {"repairS", "repair time", "s"},
    {"sampleIntervalS", "sample interval", "s"},
    {"scheduler", "scheduler", ""},
    {"seed", "seed", ""},
    {"sigma", "σ", ""},
    {"smActivity", "SM activity", ""},
    {"startupS", "start-up time", "s"},
    {"starvationWaitS", "starvation threshold", "s"},
    {"state", "state", ""},
    {"submitS", "submit time", "s"},
    {"team", "team", ""},
    {"teamPrefix", "team prefix", ""},
    {"thrashingPreemptions", "thrashing threshold", "preemptions"},
    {"timeS", "time", "s"},
    {"timeScale", "time scale", ""},
    {"timesS", "arrival times", "s"},
    {"topology", "topology", ""},
    {"topologySensitivity", "topology sensitivity", ""},
    {"value", "value", ""},
    {"values", "values", ""},
    {"weights", "weights", ""},
    {"withinTeam", "preemption within team", ""},
};

const FieldWords* findField(const QString& key) {
    for (const FieldWords& f : kFields)
        if (key == QLatin1String(f.key)) return &f;
    return nullptr;
}

QStringList split(const std::string& pointer) {
    QStringList keys = QString::fromStdString(pointer).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (QString& k : keys)  // RFC 6901 escapes
        k.replace(QStringLiteral("~1"), QStringLiteral("/"))
            .replace(QStringLiteral("~0"), QStringLiteral("~"));
    return keys;
}

/// `kind "name"` of element `index` of a named list, or `kind n` (1-based) past its end.
template <typename T>
QString named(const char* kind, const std::vector<T>& list, int index) {
    const QString k = QObject::tr(kind);
    if (index >= 0 && index < static_cast<int>(list.size()) && !list[index].name.empty())
        return QStringLiteral("%1 \"%2\"").arg(k, QString::fromStdString(list[index].name));
    return QStringLiteral("%1 %2").arg(k).arg(index + 1);
}

}  // namespace

QString describePlace(const Scenario& s, const std::string& pointer) {
    const QStringList keys = split(pointer);
    QStringList objects;  // "pod "a"", "rack "r1"", …
    QStringList field;    // "duration", "median"
    const PodDef* pod = nullptr;
    const RackDef* rack = nullptr;
    const std::vector<FlavorQuotaDef>* flavors = nullptr;  // of the quota or cohort named last
    for (int i = 0; i < keys.size(); ++i) {
        const QString& key = keys[i];
        bool isIndex = false;
        const int index = i + 1 < keys.size() ? keys[i + 1].toInt(&isIndex) : -1;
        if (isIndex) {
            // A list and the element in it: name the element from the scenario.
            if (key == QLatin1String("jobClasses")) {
                objects << named("job class", s.jobClasses, index);
            } else if (key == QLatin1String("jobs")) {
                objects << named("job", s.jobs, index);
            } else if (key == QLatin1String("teams")) {
                objects << named("team", s.teams, index);
            } else if (key == QLatin1String("pods")) {
                objects << named("pod", s.pods, index);
                pod = index < static_cast<int>(s.pods.size()) ? &s.pods[index] : nullptr;
            } else if (key == QLatin1String("racks")) {
                static const std::vector<RackDef> none;
                objects << named("rack", pod ? pod->racks : none, index);
                rack = pod && index < static_cast<int>(pod->racks.size()) ? &pod->racks[index]
                                                                          : nullptr;
            } else if (key == QLatin1String("nodes")) {
                static const std::vector<NodeGroupDef> none;
                objects << named("node group", rack ? rack->nodes : none, index);
            } else if (key == QLatin1String("quotas")) {
                const bool known = index >= 0 && index < static_cast<int>(s.quotas.size());
                objects << (known ? QObject::tr("quota of team \"%1\"")
                                        .arg(QString::fromStdString(s.quotas[index].team))
                                  : QObject::tr("quota %1").arg(index + 1));
                flavors = known ? &s.quotas[index].flavors : nullptr;
            } else if (key == QLatin1String("cohorts")) {
                objects << named("cohort", s.cohorts, index);
                flavors = index >= 0 && index < static_cast<int>(s.cohorts.size())
                              ? &s.cohorts[index].flavors
                              : nullptr;
            } else if (key == QLatin1String("flavors")) {
                objects << (flavors && index >= 0 && index < static_cast<int>(flavors->size())
                                ? QObject::tr("GPU model \"%1\"")
                                      .arg(QString::fromStdString((*flavors)[index].gpuModel))
                                : QObject::tr("GPU model %1").arg(index + 1));
            } else if (key == QLatin1String("traces")) {
                objects << QObject::tr("trace %1").arg(index + 1);
            } else if (key == QLatin1String("nodeEvents")) {
                objects << QObject::tr("node event %1").arg(index + 1);
            } else {
                // A list of values (arrival times, weights): "weights #3".
                const FieldWords* f = findField(key);
                field << QStringLiteral("%1 #%2")
                             .arg(f ? QString::fromUtf8(f->words) : key)
                             .arg(index + 1);
            }
            ++i;  // the index is consumed
            continue;
        }
        if (key == QLatin1String("topology") && objects.isEmpty() && field.isEmpty()) continue;
        const FieldWords* f = findField(key);
        field << (f ? QString::fromUtf8(f->words) : key);
    }
    QStringList parts;
    if (!objects.isEmpty()) parts << objects.join(QStringLiteral(" · "));
    if (!field.isEmpty()) parts << field.join(QLatin1Char(' '));
    return parts.isEmpty() ? QObject::tr("the scenario") : parts.join(QStringLiteral(" · "));
}

QString unitOfPlace(const std::string& pointer) {
    const QStringList keys = split(pointer);
    for (auto k = keys.crbegin(); k != keys.crend(); ++k)
        if (const FieldWords* f = findField(*k); f && *f->unit) return QString::fromUtf8(f->unit);
    return {};
}

QString refusalText(const Scenario& s, const std::string& pointer, const std::string& message) {
    QString reason = QString::fromStdString(message);
    if (pointer.empty() || pointer == "/") return reason;
    if (const QString unit = unitOfPlace(pointer); !unit.isEmpty()) {
        // The bounds and the value the reason quotes are in the field's unit.
        static const QRegularExpression number(
            QStringLiteral("\\b(between|and|got|least|most|than) (-?[0-9][0-9.]*(?:e[+-]?[0-9]+)?)"
                           "(?=,|;|\\)|$| )"));
        reason.replace(number, QStringLiteral("\\1 \\2 ") + unit);
    }
    return QStringLiteral("%1: %2").arg(describePlace(s, pointer), reason);
}

}  // namespace gpuplan::app
