#include "job_templates.hpp"

#include <QObject>
#include <QRegularExpression>
#include <cmath>

#include "format/ui_palette.hpp"

namespace gpuplan::app {

namespace {

QString gpuLabel(const Scenario& s) {
    if (s.gpuModels.empty()) return QStringLiteral("GPU");
    QString id = QString::fromStdString(s.gpuModels.front().id).toUpper();
    return id.section(QLatin1Char('-'), 0, 0);  // "H100-SXM" → "H100"
}

int gpusPerNode(const Scenario& s) {
    return s.nodeTypes.empty() ? 8 : s.nodeTypes.front().gpusPerNode;
}

/// A typical value: the median where the distribution has one, else the mean.
double typical(const DistributionDef& d) {
    switch (d.kind) {
        case DistKind::Fixed:
            return d.value;
        case DistKind::Exponential:
            return d.mean * std::log(2.0);
        case DistKind::Lognormal:
            return d.median;
        case DistKind::Uniform:
            return (d.low + d.high) / 2;
        case DistKind::Empirical: {
            double best = 0, bestW = -1;
            for (std::size_t i = 0; i < d.values.size(); ++i)
                if (d.weights[i] > bestW) {
                    best = d.values[i];
                    bestW = d.weights[i];
                }
            return best;
        }
    }
    return 1;
}

ui::JobTemplate ready(const QString& id, const QString& label, const QString& description,
                      const std::string& team, int gpus, int gpusPerPod, double durationS,
                      double sm, double mfu, double memoryGb, double sensitivity, double startupS) {
    ui::JobTemplate t;
    t.id = id;
    t.label = label;
    t.description = description;
    t.job.traits.team = team;
    t.job.traits.gpusPerPod = gpusPerPod;
    t.job.traits.smActivity = sm;
    t.job.traits.mfu = mfu;
    t.job.traits.memoryGbPerGpu = memoryGb;
    t.job.traits.topologySensitivity = sensitivity;
    t.job.traits.startupS = startupS;
    t.job.gpus = gpus;
    t.job.durationS = durationS;
    return t;
}

/// How the fleet's GPUs can be shared: whether some node shares GPUs by MPS or
/// time-slicing (a node list's nodes share by MPS, Scenario::nodeList), and the smallest
/// MIG instance some MIG node group's layout cuts ("1g.10gb"), empty when none does.
struct FleetSharing {
    bool fractional = false;
    QString smallestMigProfile;
};

FleetSharing fleetSharing(const Scenario& s) {
    FleetSharing f;
    f.fractional = s.nodeList.has_value();
    int fewestSlices = 8;
    for (const PodDef& pod : s.pods)
        for (const RackDef& rack : pod.racks)
            for (const NodeGroupDef& g : rack.nodes) {
                const SharingMode mode = g.sharing.mode;
                f.fractional |= mode == SharingMode::Mps || mode == SharingMode::TimeSlicing;
                if (mode != SharingMode::Mig) continue;
                // The layout lists profiles ("3g.40gb, 1g.10gb@6"); the validator has checked
                // it, so each entry starts with its compute slices ("1g").
                for (const std::string& layout : g.sharing.migLayoutTexts())
                    for (QString entry : QString::fromStdString(layout).split(
                             QRegularExpression(QStringLiteral("[,+]")), Qt::SkipEmptyParts)) {
                        entry = entry.section(QLatin1Char('@'), 0, 0).trimmed();
                        const int slices = entry.section(QLatin1Char('g'), 0, 0).toInt();
                        if (slices > 0 && slices < fewestSlices) {
                            fewestSlices = slices;
                            f.smallestMigProfile = entry;
                        }
                    }
            }
    return f;
}

}  // namespace

std::vector<ui::JobTemplate> jobTemplates(const Scenario& s) {
    std::vector<ui::JobTemplate> out;
    // The scenario's own classes first: a drop of one runs for its team at its priority.
    for (const JobClassDef& c : s.jobClasses) {
        ui::JobTemplate t;
        t.id = QStringLiteral("class:") + QString::fromStdString(c.name);
        t.group = QObject::tr("This scenario's job classes");
        const int gpus = std::max(1, static_cast<int>(std::lround(typical(c.gpus))));
        const double durationS = std::max(60.0, typical(c.durationS));
        t.label = QObject::tr("%1 (%2 GPU%3, %4) · %5")
                      .arg(QString::fromStdString(c.name))
                      .arg(gpus)
                      .arg(gpus > 1 ? "s" : "")
                      .arg(ui::formatDuration(durationS), QString::fromStdString(c.traits.team));
        t.description =
            QObject::tr("A job like the scenario's \"%1\" class (team %2, priority %3).")
                .arg(QString::fromStdString(c.name), QString::fromStdString(c.traits.team))
                .arg(c.traits.priority);
        t.job.traits = c.traits;
        t.job.traits.pin = PinDef{};
        t.job.gpus = gpus;
        if (t.job.traits.gpusPerPod > 0 && gpus % t.job.traits.gpusPerPod != 0)
            t.job.gpus = (gpus / t.job.traits.gpusPerPod + 1) * t.job.traits.gpusPerPod;
        // An elastic class's job of its maximum or more is fixed-size; a dropped (explicit)
        // job must then not say elastic, or the file's rule (maxGpus above gpus) refuses it.
        if (t.job.traits.elasticMaxGpus <= t.job.gpus) t.job.traits.elasticMaxGpus = 0;
        t.job.durationS = durationS;
        out.push_back(t);
    }
    const QString gpu = gpuLabel(s);
    const std::string team = s.teams.empty() ? std::string() : s.teams.front().name;
    const int perNode = gpusPerNode(s);
    const double hbm = s.gpuModels.empty() ? 80 : s.gpuModels.front().hbmGb;
    const std::size_t firstReady = out.size();
    out.push_back(ready(QStringLiteral("ready:fine-tune"),
                        QObject::tr("%1×%2 fine-tune, 1 node, 6 h").arg(perNode).arg(gpu),
                        QObject::tr("One node's GPUs for a six-hour fine-tune (MFU 35 %)."), team,
                        perNode, perNode, 6 * 3600, 0.8, 0.35, 0.7 * hbm, 0.1, 300));
    out.push_back(ready(
        QStringLiteral("ready:pretrain"),
        QObject::tr("%1×%2 pre-train gang, %3 nodes, 3 days").arg(8 * perNode).arg(gpu).arg(8),
        QObject::tr("An all-or-nothing gang of 8 nodes for three days (MFU 42 %)."), team,
        8 * perNode, perNode, 3 * 86400, 0.9, 0.42, 0.9 * hbm, 0.15, 600));
    out.push_back(ready(QStringLiteral("ready:inference"),
                        QObject::tr("1-%1 inference replica, 4 h").arg(gpu),
                        QObject::tr("One serving replica on one GPU for four hours."), team, 1, 1,
                        4 * 3600, 0.45, 0.12, 0.5 * hbm, 0, 180));
    out.push_back(ready(QStringLiteral("ready:notebook"),
                        QObject::tr("notebook, 1 %1, 2 h").arg(gpu),
                        QObject::tr("An interactive notebook: one GPU, mostly idle."), team, 1, 1,
                        2 * 3600, 0.15, 0.03, 0.25 * hbm, 0, 60));
    // Shares and MIG instances only where the fleet serves them: a template no node could
    // ever take would only be refused on every drop. Switch a node group to MPS,
    // time-slicing or MIG and they appear.
    const FleetSharing sharing = fleetSharing(s);
    if (sharing.fractional) {
        ui::JobTemplate t = ready(QStringLiteral("ready:inference-share"),
                                  QObject::tr("inference 0.3 %1, 4 h").arg(gpu),
                                  QObject::tr("A small serving replica on 300 milli-GPU of one "
                                              "GPU (MPS or time-slicing) for four hours."),
                                  team, 1, 1, 4 * 3600, 0.25, 0.08, 0.2 * hbm, 0, 120);
        t.job.traits.gpuMilli = 300;
        out.push_back(t);
        t = ready(QStringLiteral("ready:notebook-share"),
                  QObject::tr("notebook 0.1 %1, 2 h").arg(gpu),
                  QObject::tr("An interactive notebook on 100 milli-GPU of one GPU (MPS or "
                              "time-slicing), mostly idle."),
                  team, 1, 1, 2 * 3600, 0.05, 0.01, 0.1 * hbm, 0, 60);
        t.job.traits.gpuMilli = 100;
        out.push_back(t);
    }
    if (!sharing.smallestMigProfile.isEmpty()) {
        ui::JobTemplate t =
            ready(QStringLiteral("ready:notebook-mig"),
                  QObject::tr("notebook %1, 2 h").arg(sharing.smallestMigProfile),
                  QObject::tr("An interactive notebook on a %1 MIG instance, the smallest this "
                              "fleet's MIG GPUs are cut into.")
                      .arg(sharing.smallestMigProfile),
                  team, 1, 1, 2 * 3600, 0.15, 0.03, 0, 0, 60);
        t.job.traits.migProfile = sharing.smallestMigProfile.toStdString();
        out.push_back(t);
    }
    // Built-in jobs run at priority 0 unless the palette says otherwise; say where that
    // puts them, since below every class they wait behind all of the scenario's demand.
    const std::optional<PriorityRange> classes = classPriorityRange(s);
    const QString rank =
        classes && classes->low > 0
            ? QObject::tr(", below every job class of this scenario (lowest %1)").arg(classes->low)
            : QString();
    // A scenario with no team (an import of nodes alone) names none: a drop is refused until
    // one is added, and the heading says so rather than "team ,".
    const QString group =
        team.empty()
            ? QObject::tr("Built-in (priority 0; no team yet: add one in Workload ▸ Teams)")
            : QObject::tr("Built-in (team %1, priority 0, unless chosen above)")
                  .arg(QString::fromStdString(team));
    for (std::size_t i = firstReady; i < out.size(); ++i) {
        out[i].group = group;
        out[i].description += QObject::tr("\nPriority 0%1; choose another above.").arg(rank);
        if (team.empty())
            out[i].description += QObject::tr(
                "\nThe scenario has no team to run it for; add one in Workload ▸ "
                "Teams first.");
    }
    return out;
}

std::optional<PriorityRange> classPriorityRange(const Scenario& s) {
    if (s.jobClasses.empty()) return std::nullopt;
    PriorityRange r{s.jobClasses.front().traits.priority, s.jobClasses.front().traits.priority};
    for (const JobClassDef& c : s.jobClasses) {
        r.low = std::min(r.low, c.traits.priority);
        r.high = std::max(r.high, c.traits.priority);
    }
    return r;
}

const ui::JobTemplate* findTemplate(const std::vector<ui::JobTemplate>& templates,
                                    const QString& id) {
    for (const ui::JobTemplate& t : templates)
        if (t.id == id) return &t;
    return nullptr;
}

}  // namespace gpuplan::app
