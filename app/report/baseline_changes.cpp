#include "baseline_changes.hpp"

#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "format/kpi_format.hpp"
#include "format/sharing_format.hpp"
#include "format/ui_palette.hpp"
#include "scenario_summary.hpp"

namespace gpuplan::report {

namespace {

/// "+2 racks", "−1 rack": a signed count (a true minus sign).
QString signedCount(long long n, const QString& one, const QString& many) {
    return (n > 0 ? QStringLiteral("+") : QStringLiteral("−")) + countOf(std::llabs(n), one, many);
}

/// "1.3", "0.25": a factor or a rate as written, to four significant digits.
QString number(double v) {
    return QLocale::c().toString(v, 'g', 4);
}

QString gpus(long long n) {
    return countOf(n, QObject::tr("GPU"), QObject::tr("GPUs"));
}

QString nodes(long long n) {
    return countOf(n, QObject::tr("node"), QObject::tr("nodes"));
}

// ---- the fleets -------------------------------------------------------------------------

/// What one pod holds: racks, nodes per node type id, GPUs.
struct PodTally {
    long long racks = 0;
    std::map<std::string, long long> nodesByType;
    long long gpus = 0;
};

std::vector<std::pair<std::string, PodTally>> podTallies(const Fleet& fleet) {
    std::vector<std::pair<std::string, PodTally>> pods;
    for (const FleetPod& p : fleet.pods) {
        PodTally t;
        t.racks = p.rackCount;
        for (int i = p.firstNode; i < p.firstNode + p.nodeCount; ++i) {
            ++t.nodesByType[fleet.nodeTypes[fleet.nodes[i].nodeType].id];
            t.gpus += fleet.nodes[i].gpus;
        }
        pods.emplace_back(p.name, std::move(t));
    }
    return pods;
}

/// "16 × DGX H100, 4 racks, 128 GPUs" of a whole pod.
QString podContents(const PodTally& t, const NodeTypeNames& names) {
    QStringList parts;
    parts << countOf(t.racks, QObject::tr("rack"), QObject::tr("racks"));
    for (const auto& [type, n] : t.nodesByType)
        parts << QStringLiteral("%1 × %2").arg(ui::formatGrouped(n, 0), names(type));
    parts << gpus(t.gpus);
    return parts.join(QStringLiteral(", "));
}

void podChanges(const Fleet& a, const Fleet& b, const NodeTypeNames& names, QStringList& out) {
    const auto before = podTallies(a);
    const auto after = podTallies(b);
    auto find = [](const auto& pods, const std::string& name) -> const PodTally* {
        for (const auto& [n, t] : pods)
            if (n == name) return &t;
        return nullptr;
    };
    for (const auto& [name, now] : after) {
        const QString pod = QString::fromStdString(name);
        const PodTally* was = find(before, name);
        if (!was) {
            out << QObject::tr("+pod %1 (%2)").arg(pod, podContents(now, names));
            continue;
        }
        QStringList detail;
        std::map<std::string, long long> delta = now.nodesByType;
        for (const auto& [type, n] : was->nodesByType)
            delta[type] -= n;
        for (const auto& [type, n] : delta)
            if (n != 0)
                detail << QStringLiteral("%1 × %2").arg(
                    (n > 0 ? QStringLiteral("+") : QStringLiteral("−")) +
                        ui::formatGrouped(std::llabs(n), 0),
                    names(type));
        const long long gpuDelta = now.gpus - was->gpus;
        if (gpuDelta != 0) detail << signedCount(gpuDelta, QObject::tr("GPU"), QObject::tr("GPUs"));
        const long long rackDelta = now.racks - was->racks;
        if (rackDelta != 0)
            out << QObject::tr("%1 in %2%3")
                       .arg(signedCount(rackDelta, QObject::tr("rack"), QObject::tr("racks")), pod,
                            detail.isEmpty() ? QString()
                                             : QStringLiteral(" (%1)").arg(detail.join(", ")));
        else if (!detail.isEmpty())
            out << QObject::tr("%1 in %2").arg(detail.join(QStringLiteral(", ")), pod);
    }
    for (const auto& [name, was] : before)
        if (!find(after, name))
            out << QObject::tr("−pod %1 (%2)")
                       .arg(QString::fromStdString(name), podContents(was, names));
}

/// Nodes of both fleets (matched by name) whose `key` changed, tallied by (before, after):
/// "8 nodes (64 GPUs) reserved → on demand".
template <typename Key>
void nodeTransitions(const Fleet& a, const Fleet& b, const Key& key, QStringList& out,
                     bool sameClassOnly = false) {
    std::map<std::pair<QString, QString>, std::pair<long long, long long>> moved;
    for (const FleetNode& n : b.nodes) {
        const std::optional<int> i = a.findNode(n.name);
        if (!i || (sameClassOnly && a.nodes[*i].buyingClass != n.buyingClass)) continue;
        const QString from = key(a, a.nodes[*i]), to = key(b, n);
        if (from == to) continue;
        auto& [count, gpuCount] = moved[{from, to}];
        ++count;
        gpuCount += n.gpus;
    }
    for (const auto& [change, tally] : moved)
        out << QObject::tr("%1 (%2) %3 → %4")
                   .arg(nodes(tally.first), gpus(tally.second), change.first, change.second);
}

void nodeChanges(const Fleet& a, const Fleet& b, bool prices, QStringList& out) {
    nodeTransitions(
        a, b,
        [](const Fleet&, const FleetNode& n) {
            return buyingClassWords(n.buyingClass) +
                   (n.elastic ? QObject::tr(" (scaled)") : QString());
        },
        out);
    nodeTransitions(
        a, b,
        [](const Fleet& f, const FleetNode& n) {
            return QString::fromStdString(ui::sharingSummary(n.sharing, &f.gpuModels[n.gpuModel]));
        },
        out);
    nodeTransitions(
        a, b,
        [](const Fleet&, const FleetNode& n) {
            if (n.initialState != NodeState::Provisioning || n.elastic)
                return QObject::tr("there from the start");
            return n.readyAtS > 0
                       ? QObject::tr("delivered at %1").arg(ui::formatSimTime(n.readyAtS))
                       : QObject::tr("never delivered");
        },
        out);
    nodeTransitions(
        a, b,
        [](const Fleet&, const FleetNode& n) {
            return QObject::tr("at %1 % speed").arg(ui::formatFixed(100 * n.speed, 0));
        },
        out);
    if (prices && a.priced && b.priced)
        nodeTransitions(
            a, b,
            [](const Fleet&, const FleetNode& n) {
                return ui::formatUsdPerGpuHour(n.usdPerGpuHour);
            },
            out, true);  // a new class's price goes with the class
}

// ---- the scenarios ----------------------------------------------------------------------

/// Compares one setting: when it differs, says so (`say(before, after)`), then sets the
/// current scenario's to the baseline's, so whatever differs at the end is something not
/// compared here.
template <typename T>
void setting(const T& before, T& after, QStringList& out,
             const std::function<QString(const T&, const T&)>& say) {
    if (before == after) return;
    if (QString phrase = say(before, after); !phrase.isEmpty()) out << phrase;
    after = before;
}

QString was(const QString& now, const QString& before) {
    return QObject::tr("%1 (baseline %2)").arg(now, before);
}

void demandAndTime(const Scenario& a, Scenario& b, QStringList& out) {
    setting<double>(a.demandMultiplier, b.demandMultiplier, out, [](double before, double now) {
        const QString times = QObject::tr("demand × %1").arg(number(now));
        return before == 1 ? times : was(times, QStringLiteral("× %1").arg(number(before)));
    });
    auto duration = [](const QString& what) {
        return std::function<QString(const double&, const double&)>(
            [what](const double& before, const double& now) {
                return was(QStringLiteral("%1 %2").arg(what, ui::formatDuration(now)),
                           ui::formatDuration(before));
            });
    };
    setting<double>(a.horizonS, b.horizonS, out, duration(QObject::tr("simulated")));
    setting<double>(a.warmupS, b.warmupS, out, duration(QObject::tr("warm-up")));
    setting<double>(a.sampleIntervalS, b.sampleIntervalS, out,
                    duration(QObject::tr("sampled every")));
    setting<std::uint64_t>(a.seed, b.seed, out, [](std::uint64_t before, std::uint64_t now) {
        return was(QObject::tr("seed %1").arg(now), QString::number(before));
    });
    b.replications = a.replications;  // the report says how many runs each side has
}

void schedulerChanges(const Scenario& a, Scenario& b, QStringList& out) {
    SchedulerDef& s = b.scheduler;
    const SchedulerDef& base = a.scheduler;
    auto named = [](const char* what) {
        return [what](const auto& before, const auto& now) {
            return was(QStringLiteral("%1 %2").arg(QObject::tr(what), QLatin1String(toString(now))),
                       QLatin1String(toString(before)));
        };
    };
    setting<QueueOrder>(base.queueOrder, s.queueOrder, out, named("queue order"));
    setting<PlacementPolicy>(base.placement, s.placement, out, named("placement"));
    setting<BackfillMode>(base.backfill, s.backfill, out, named("backfill"));
    setting<PreemptionMode>(base.preemption, s.preemption, out, named("preemption"));
    setting<SchedulerDef>(base, s, out, [](const SchedulerDef&, const SchedulerDef&) {
        return QObject::tr("scheduler thresholds (grace, thrashing, starvation, elastic growth)");
    });
}

double nominalGpus(const QuotaDef& q) {
    double sum = 0;
    for (const FlavorQuotaDef& f : q.flavors)
        sum += f.nominalGpus;
    return sum;
}

void quotaChanges(const Scenario& a, Scenario& b, QStringList& out) {
    auto find = [](const std::vector<QuotaDef>& quotas, const std::string& team) {
        const auto it = std::find_if(quotas.begin(), quotas.end(),
                                     [&](const QuotaDef& q) { return q.team == team; });
        return it == quotas.end() ? nullptr : &*it;
    };
    auto gpuText = [](double n) {
        return QObject::tr("%1 GPUs").arg(ui::formatGrouped(n, n == std::floor(n) ? 0 : 1));
    };
    for (const QuotaDef& q : b.quotas) {
        const QString team = QString::fromStdString(q.team);
        const QuotaDef* before = find(a.quotas, q.team);
        if (!before)
            out << QObject::tr("quota for %1: %2 (none in the baseline)")
                       .arg(team, gpuText(nominalGpus(q)));
        else if (nominalGpus(q) != nominalGpus(*before))
            out << was(QObject::tr("quota of %1 %2").arg(team, gpuText(nominalGpus(q))),
                       gpuText(nominalGpus(*before)));
        else if (!(q == *before))
            out << QObject::tr("quota limits of %1").arg(team);
    }
    for (const QuotaDef& q : a.quotas)
        if (!find(b.quotas, q.team))
            out << QObject::tr("no quota for %1 (baseline %2)")
                       .arg(QString::fromStdString(q.team), gpuText(nominalGpus(q)));
    b.quotas = a.quotas;
    setting<std::vector<CohortDef>>(
        a.cohorts, b.cohorts, out, [](const auto&, const auto&) { return QObject::tr("cohorts"); });
}

QString gpuModelName(const Scenario& s, const std::string& id) {
    const GpuModel* g = s.findGpu(id);
    QString name = g ? QString::fromStdString(g->name) : QString::fromStdString(id);
    if (name.startsWith(QLatin1String("NVIDIA "))) name.remove(0, 7);
    return name;
}

void priceChanges(const Scenario& a, Scenario& b, QStringList& out) {
    if (a.pricing == b.pricing) return;
    if (!a.pricing || !b.pricing) {
        out << (b.pricing ? QObject::tr("priced with %1 (baseline unpriced)")
                                .arg(QString::fromStdString(b.pricing->book))
                          : QObject::tr("unpriced (baseline priced with %1)")
                                .arg(QString::fromStdString(a.pricing->book)));
        b.pricing = a.pricing;
        return;
    }
    if (a.pricing->book != b.pricing->book)
        out << was(QObject::tr("price book %1").arg(QString::fromStdString(b.pricing->book)),
                   QString::fromStdString(a.pricing->book));
    for (const GpuPriceDef& p : b.pricing->gpuModels) {
        const GpuPriceDef* before = a.pricing->find(p.gpuModel);
        for (BuyingClass c : kBuyingClasses) {
            const std::optional<double> now = p.of(c);
            const std::optional<double> then = before ? before->of(c) : std::nullopt;
            if (now == then) continue;
            auto price = [](const std::optional<double>& usd) {
                return usd ? ui::formatUsdPerGpuHour(*usd) : QObject::tr("no price");
            };
            out << was(QStringLiteral("%1 %2 %3")
                           .arg(gpuModelName(b, p.gpuModel), buyingClassWords(c), price(now)),
                       price(then));
        }
    }
    b.pricing = a.pricing;  // what else differs (the date) goes unsaid
}

/// "size, duration": what differs between two versions of a job class.
QStringList classAspects(const JobClassDef& a, const JobClassDef& b) {
    QStringList aspects;
    if (!(a.arrival == b.arrival)) {
        if (a.arrival.process == b.arrival.process &&
            a.arrival.ratePerHour != b.arrival.ratePerHour &&
            a.arrival.process != ArrivalProcess::List &&
            a.arrival.process != ArrivalProcess::Tide) {
            JobClassDef rateOnly = a;
            rateOnly.arrival.ratePerHour = b.arrival.ratePerHour;
            aspects << was(QObject::tr("%1 jobs an hour").arg(number(b.arrival.ratePerHour)),
                           number(a.arrival.ratePerHour));
            if (!(rateOnly.arrival == b.arrival)) aspects << QObject::tr("arrival pattern");
        } else {
            aspects << QObject::tr("arrivals");
        }
    }
    if (!(a.gpus == b.gpus)) aspects << QObject::tr("GPUs per job");
    if (!(a.durationS == b.durationS)) aspects << QObject::tr("duration");
    if (a.traits.team != b.traits.team)
        aspects << was(QObject::tr("team %1").arg(QString::fromStdString(b.traits.team)),
                       QString::fromStdString(a.traits.team));
    JobTraitsDef traits = b.traits;
    traits.team = a.traits.team;
    if (!(traits == a.traits)) aspects << QObject::tr("job traits");
    if (a.maxJobs != b.maxJobs || a.minAvailable != b.minAvailable)
        aspects << QObject::tr("limits");
    return aspects;
}

void workChanges(const Scenario& a, Scenario& b, QStringList& out) {
    auto find = [](const std::vector<JobClassDef>& classes, const std::string& name) {
        const auto it = std::find_if(classes.begin(), classes.end(),
                                     [&](const JobClassDef& c) { return c.name == name; });
        return it == classes.end() ? nullptr : &*it;
    };
    for (const JobClassDef& c : b.jobClasses) {
        const QString name = QString::fromStdString(c.name);
        const JobClassDef* before = find(a.jobClasses, c.name);
        if (!before)
            out << QObject::tr("+job class %1").arg(name);
        else if (!(c == *before))
            out << QObject::tr("job class %1: %2").arg(name, classAspects(*before, c).join(", "));
    }
    for (const JobClassDef& c : a.jobClasses)
        if (!find(b.jobClasses, c.name))
            out << QObject::tr("−job class %1").arg(QString::fromStdString(c.name));
    b.jobClasses = a.jobClasses;
    setting<std::vector<JobDef>>(a.jobs, b.jobs, out, [](const auto& before, const auto& now) {
        const long long delta =
            static_cast<long long>(now.size()) - static_cast<long long>(before.size());
        return delta != 0
                   ? signedCount(delta, QObject::tr("explicit job"), QObject::tr("explicit jobs"))
                   : QObject::tr("explicit jobs");
    });
    setting<std::vector<TraceDef>>(a.traces, b.traces, out,
                                   [](const auto&, const auto&) { return QObject::tr("traces"); });
    setting<std::vector<TeamDef>>(a.teams, b.teams, out, [](const auto& before, const auto& now) {
        QStringList added, removed;
        for (const TeamDef& t : now)
            if (std::none_of(before.begin(), before.end(),
                             [&](const TeamDef& o) { return o.name == t.name; }))
                added << QString::fromStdString(t.name);
        for (const TeamDef& t : before)
            if (std::none_of(now.begin(), now.end(),
                             [&](const TeamDef& o) { return o.name == t.name; }))
                removed << QString::fromStdString(t.name);
        QStringList parts;
        if (!added.isEmpty()) parts << QObject::tr("+team %1").arg(joinList(added));
        if (!removed.isEmpty()) parts << QObject::tr("−team %1").arg(joinList(removed));
        return parts.join(QStringLiteral("; "));  // colours alone go unsaid
    });
}

template <typename T>
std::function<QString(const std::optional<T>&, const std::optional<T>&)> onOff(const char* what) {
    return [what](const std::optional<T>& before, const std::optional<T>& now) {
        if (!before) return QObject::tr("%1 on (off in the baseline)").arg(QObject::tr(what));
        if (!now) return QObject::tr("%1 off (on in the baseline)").arg(QObject::tr(what));
        return QObject::tr("%1 settings").arg(QObject::tr(what));
    };
}

void capacityChanges(const Scenario& a, Scenario& b, QStringList& out) {
    setting<std::optional<BuyingMixDef>>(
        a.buyingMix, b.buyingMix, out,
        [](const std::optional<BuyingMixDef>& before, const std::optional<BuyingMixDef>& now) {
            auto mix = [](const std::optional<BuyingMixDef>& m) {
                return m ? QObject::tr("%1 reserved, %2 spot, the rest on demand")
                               .arg(nodes(m->reservedNodes))
                               .arg(m->spotNodes)
                         : QObject::tr("each node group's own class");
            };
            return was(QObject::tr("buying mix %1").arg(mix(now)), mix(before));
        });
    setting<std::optional<FailureDef>>(a.failures, b.failures, out,
                                       onOff<FailureDef>("random failures"));
    setting<std::optional<SpotDef>>(a.spot, b.spot, out, onOff<SpotDef>("spot reclaims"));
    setting<std::optional<OnDemandDef>>(a.onDemand, b.onDemand, out,
                                        onOff<OnDemandDef>("on-demand scaling"));
    setting<std::vector<NodeEventDef>>(
        a.nodeEvents, b.nodeEvents, out,
        [](const auto&, const auto&) { return QObject::tr("scheduled node events"); });
    setting<FabricDef>(a.fabric, b.fabric, out, [](const auto&, const auto&) {
        return QObject::tr("fabric oversubscription");
    });
}

}  // namespace

BaselineChanges compareWithBaseline(const Fleet& baselineFleet, const Scenario* baselineScenario,
                                    const Fleet& fleet, const Scenario& scenario,
                                    const NodeTypeNames& names) {
    BaselineChanges result;
    result.settingsCompared = baselineScenario != nullptr;
    QStringList& out = result.changes;
    podChanges(baselineFleet, fleet, names, out);
    const bool pricesCompared = baselineScenario != nullptr;
    // Node by node: with the scenarios, a price book's change is said once, as such.
    nodeChanges(baselineFleet, fleet,
                !pricesCompared || baselineScenario->pricing == scenario.pricing, out);
    if (!baselineScenario) return result;
    const Scenario& a = *baselineScenario;
    Scenario b = scenario;
    // The fleet is compared above, built; a definition that builds the same counts is no change
    // a meeting needs to hear of, unless nothing else was found.
    const bool fleetSaid = !out.isEmpty();
    if (!fleetSaid &&
        (a.pods != b.pods || a.nodeList != b.nodeList || a.definedNodeTypes != b.definedNodeTypes))
        out << QObject::tr("the fleet's definitions (its counts are the same)");
    b.pods = a.pods;
    b.nodeList = a.nodeList;
    b.gpuModels = a.gpuModels;
    b.nodeTypes = a.nodeTypes;
    b.definedNodeTypes = a.definedNodeTypes;
    b.name = a.name;
    b.description = a.description;
    demandAndTime(a, b, out);
    workChanges(a, b, out);
    quotaChanges(a, b, out);
    schedulerChanges(a, b, out);
    priceChanges(a, b, out);
    capacityChanges(a, b, out);
    if (!(a == b)) out << QObject::tr("other settings");
    return result;
}

QString changesSentence(const BaselineChanges& changes) {
    if (changes.changes.isEmpty())
        return changes.settingsCompared ? QObject::tr("nothing: the same scenario")
                                        : QObject::tr("nothing in the fleet");
    return changes.changes.join(QStringLiteral("; "));
}

}  // namespace gpuplan::report
