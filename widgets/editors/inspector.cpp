#include "inspector.hpp"

#include <QUrl>
#include <algorithm>
#include <cmath>
#include <map>

#include "format/kpi_format.hpp"
#include "format/sharing_format.hpp"
#include "format/snapshot_guard.hpp"
#include "format/ui_palette.hpp"
#include "gpuplan/economics/checkpoint_advice.hpp"
#include "gpuplan/model/roofline.hpp"
#include "topology/gpu_sub_cells.hpp"

namespace gpuplan::ui {

namespace {
QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:gray;padding-right:10px'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}
/// GPU counts that may hold shares: "3", "2.4".
QString gpuCount(double gpus) {
    const double rounded = std::round(gpus * 10) / 10;
    return rounded == std::floor(rounded) ? QString::number(static_cast<long long>(rounded))
                                          : QString::number(rounded, 'f', 1);
}
}  // namespace

Inspector::Inspector(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    // A GPU's job is a link to the job: how a running job (an elastic one's size at t, its
    // restarts) is reached; the pending list reaches only waiting ones.
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("job")) showJob(url.path());
    });
    showNothing();
}

void Inspector::setResults(std::shared_ptr<const Results> results,
                           std::shared_ptr<const ClusterSnapshot> snapshot) {
    // Indices of nodes, racks, pods and teams mean something else in another fleet.
    const bool sameFleet = m_results && results && m_results->fleet.sameNodes(results->fleet) &&
                           m_results->teams == results->teams;
    if (!sameFleet && m_kind != Kind::Job) m_kind = Kind::Nothing;
    m_results = std::move(results);
    m_interruptionsOf.reset();
    if (snapshot && m_results && snapshotFitsResults(*snapshot, *m_results)) {
        m_timeS = snapshot->timeS;
        m_snapshot = std::move(snapshot);
    } else if (m_results) {
        if (snapshot) m_timeS = snapshot->timeS;
        m_snapshot = std::make_shared<const ClusterSnapshot>(m_results->stateAt(m_timeS));
    }
    refresh();
}

void Inspector::setTime(double timeS) {
    m_timeS = timeS;
    if (m_results)
        m_snapshot = std::make_shared<const ClusterSnapshot>(m_results->stateAt(m_timeS));
    refresh();
}

void Inspector::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot) {
    m_timeS = snapshot->timeS;
    // A snapshot of other results than ours is never indexed by our fleet: take our own.
    if (m_results && !snapshotFitsResults(*snapshot, *m_results))
        snapshot = std::make_shared<const ClusterSnapshot>(m_results->stateAt(m_timeS));
    m_snapshot = std::move(snapshot);
    refresh();
}

void Inspector::showNothing() {
    m_kind = Kind::Nothing;
    refresh();
}
void Inspector::showNode(int node) {
    m_kind = Kind::Node;
    m_a = node;
    refresh();
}
void Inspector::showGpu(int node, int slot) {
    m_kind = Kind::Gpu;
    m_a = node;
    m_b = slot;
    refresh();
}
void Inspector::showRack(int rack) {
    m_kind = Kind::Rack;
    m_a = rack;
    refresh();
}
void Inspector::showPod(int pod) {
    m_kind = Kind::Pod;
    m_a = pod;
    refresh();
}
void Inspector::showJob(const QString& jobName) {
    m_kind = Kind::Job;
    m_jobName = jobName;
    refresh();
}
void Inspector::showTeam(int team) {
    m_kind = Kind::Team;
    m_a = team;
    refresh();
}

const PendingJob* Inspector::pendingEntry(std::uint32_t job) const {
    for (const PendingJob& e : m_snapshot->pending)
        if (e.job == job) return &e;
    return nullptr;
}

void Inspector::refresh() {
    if (!m_results || m_kind == Kind::Nothing) {
        setHtml(
            tr("<p style='color:gray'>Click a GPU, node, rack or pod, or a job in the pending "
               "list, to see it here.</p>"));
        return;
    }
    const Fleet& f = m_results->fleet;
    QString html;
    switch (m_kind) {
        case Kind::Node:
            if (m_a >= 0 && m_a < static_cast<int>(f.nodes.size())) html = nodeHtml(m_a, -1);
            break;
        case Kind::Gpu:
            if (m_a >= 0 && m_a < static_cast<int>(f.nodes.size()) && m_b >= 0 &&
                m_b < f.nodes[m_a].gpus)
                html = nodeHtml(m_a, m_b);
            break;
        case Kind::Rack:
            if (m_a >= 0 && m_a < static_cast<int>(f.racks.size()))
                html = unitHtml(tr("Rack %1").arg(esc(f.racks[m_a].name)), f.racks[m_a].firstNode,
                                f.racks[m_a].nodeCount);
            break;
        case Kind::Pod:
            if (m_a >= 0 && m_a < static_cast<int>(f.pods.size()))
                html = unitHtml(tr("Pod %1").arg(esc(f.pods[m_a].name)), f.pods[m_a].firstNode,
                                f.pods[m_a].nodeCount);
            break;
        case Kind::Job:
            for (std::uint32_t j = 0; j < m_results->jobs.size() && html.isEmpty(); ++j)
                if (QString::fromStdString(m_results->jobName(j)) == m_jobName) html = jobHtml(j);
            if (html.isEmpty())
                html =
                    tr("<p>Job %1 is not in the current run.</p>").arg(m_jobName.toHtmlEscaped());
            break;
        case Kind::Team:
            if (m_a >= 0 && m_a < static_cast<int>(m_results->teams.size())) html = teamHtml(m_a);
            break;
        case Kind::Nothing:
            break;
    }
    setHtml(html);
}

QString Inspector::nodeHtml(int node, int slot) const {
    const Fleet& f = m_results->fleet;
    const FleetNode& n = f.nodes[node];
    const GpuModel& gpu = f.gpuModels[n.gpuModel];
    const int first = m_results->firstGpuOfNode[node];
    std::map<std::uint32_t, int> jobs;  // job → milli-GPU it holds on this node
    double busy = 0;                    // GPU-equivalents: shares count by their share
    for (int g = 0; g < n.gpus; ++g) {
        busy += heldGpuEquivalents(*m_snapshot, first + g);
        for (const GpuOccupant& o : m_snapshot->occupantsOf(first + g))
            jobs[o.job] += o.milliGpu;
    }
    QString html =
        QStringLiteral("<h3>%1</h3><table>")
            .arg(slot >= 0 ? tr("GPU %1 of %2").arg(slot).arg(esc(n.name)) : esc(n.name));
    html += row(tr("GPU sharing"), esc(sharingSummary(n.sharing, &gpu)));
    if (slot >= 0) {
        const auto occupants = m_snapshot->occupantsOf(first + slot);
        QString list;
        for (const GpuOccupant& o : occupants)
            list +=
                QStringLiteral("<a href=\"job:%1\"><b>%2</b></a>%3<br>")
                    .arg(QString::fromLatin1(QUrl::toPercentEncoding(
                             QString::fromStdString(m_results->jobName(o.job)))),
                         esc(m_results->jobName(o.job)))
                    .arg(o.milliGpu >= 1000 ? QString() : tr(" (%1 milli-GPU)").arg(o.milliGpu));
        html +=
            row(occupants.size() > 1 ? tr("jobs") : tr("job"), list.isEmpty() ? tr("free") : list);
    }
    html += row(tr("state at t"), QString::fromLatin1(toString(m_snapshot->nodeStates[node])));
    html += row(tr("node type"), esc(f.nodeTypes[n.nodeType].name));
    if (n.speed < 1)  // fail-slow: a gang on it goes at this pace
        html += row(tr("speed"),
                    tr("<b>%1 % of normal</b> (fail-slow: every job on it, and every gang it is "
                       "part of, goes at this pace)")
                        .arg(n.speed * 100, 0, 'f', 0));
    html += row(tr("GPU"), tr("%1 × %2 (%3 GB, %4 TFLOP/s BF16)")
                               .arg(n.gpus)
                               .arg(esc(gpu.name))
                               .arg(gpu.hbmGb)
                               .arg(gpu.bf16DenseTflops));
    html += row(tr("rack / pod"),
                QStringLiteral("%1 / %2").arg(esc(f.racks[n.rack].name), esc(f.pods[n.pod].name)));
    // Its price when the fleet is priced: "reserved · $1.85/GPU-h".
    const QString buying = QString::fromLatin1(toString(n.buyingClass));
    html += row(tr("buying class"), f.priced ? QStringLiteral("%1 · %2").arg(
                                                   buying, formatUsdPerGpuHour(n.usdPerGpuHour))
                                             : buying);
    html += row(tr("GPUs busy"), QStringLiteral("%1 of %2").arg(gpuCount(busy)).arg(n.gpus));
    QString list;
    for (const auto& [j, milli] : jobs)
        list += QStringLiteral("%1 (%2 GPU%3, %4)<br>")
                    .arg(esc(m_results->jobName(j)))
                    .arg(gpuCount(milli / 1000.0))
                    .arg(milli == 1000 ? "" : "s")
                    .arg(esc(m_results->teams[m_results->jobs[j].spec.team]));
    html += row(tr("jobs at t"), list.isEmpty() ? tr("none") : list);
    return html + QStringLiteral("</table>");
}

QString Inspector::unitHtml(const QString& title, int firstNode, int nodeCount) const {
    const Fleet& f = m_results->fleet;
    int gpus = 0, ready = 0;
    double busy = 0;  // GPU-equivalents
    std::map<std::string, int> nodesBySharing;
    for (int n = firstNode; n < firstNode + nodeCount; ++n) {
        gpus += f.nodes[n].gpus;
        ready += m_snapshot->nodeStates[n] == NodeState::Ready;
        for (int g = 0; g < f.nodes[n].gpus; ++g)
            busy += heldGpuEquivalents(*m_snapshot, m_results->firstGpuOfNode[n] + g);
        ++nodesBySharing[sharingSummary(f.nodes[n].sharing, &f.gpuModels[f.nodes[n].gpuModel])];
    }
    QString sharing;
    for (const auto& [summary, count] : nodesBySharing)
        sharing +=
            nodesBySharing.size() == 1
                ? esc(summary)
                : tr("%1: %2 node%3<br>").arg(esc(summary)).arg(count).arg(count > 1 ? "s" : "");
    return QStringLiteral("<h3>%1</h3><table>%2%3%4%5</table>")
        .arg(title, row(tr("nodes"), tr("%1 (%2 Ready at t)").arg(nodeCount).arg(ready)),
             row(tr("GPUs"), QString::number(gpus)), row(tr("GPU sharing"), sharing),
             row(tr("allocation at t"), QStringLiteral("%1 % (%2 busy)")
                                            .arg(gpus ? 100.0 * busy / gpus : 0, 0, 'f', 1)
                                            .arg(gpuCount(busy))));
}

QString Inspector::jobHtml(std::uint32_t job) const {
    const JobRecord& j = m_results->jobs[job];
    const JobSpec& s = j.spec;
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(esc(m_results->jobName(job)));
    html += row(tr("team"), esc(m_results->teams[s.team]));
    const bool elastic = m_results->maxPodsOf(job) > s.pods();
    html +=
        row(tr("size"),
            elastic ? elasticSize(job)
            : s.pods() > 1
                ? tr("%1 GPUs: a gang of %2 pods × %3").arg(s.gpus).arg(s.pods()).arg(s.gpusPerPod)
                : tr("%1 GPU%2").arg(s.gpus).arg(s.gpus > 1 ? "s" : ""));
    if (elastic) html += row(tr("resizes"), QString::number(historyOf(job).resizes));
    html += row(tr("priority"), QString::number(s.priority));
    if (s.pinLevel != PinLevel::None) {
        const Fleet& f = m_results->fleet;
        const std::string target = s.pinLevel == PinLevel::Node   ? f.nodes[s.pinIndex].name
                                   : s.pinLevel == PinLevel::Rack ? f.racks[s.pinIndex].name
                                                                  : f.pods[s.pinIndex].name;
        html +=
            row(s.pinLevel == PinLevel::Node ? tr("pinned to") : tr("affinity to"), esc(target));
    }
    html += row(tr("submitted"), formatSimTime(s.submitS));
    if (j.firstStartS >= 0) {
        html +=
            row(tr("started"),
                tr("%1 (waited %2)").arg(formatSimTime(j.firstStartS), formatDuration(j.waitS())));
        if (j.segmentCount > 0) {
            // Its last binding; an elastic job's size changes, so its binding at t when it
            // has one (the size row says what that holds).
            const RunSegment* atT = elastic ? boundAt(job) : nullptr;
            const RunSegment& seg = atT ? *atT : m_results->segments[j.lastSegment];
            QString nodes;
            for (const PodPlacement& p : m_results->placementOf(seg))
                nodes += esc(m_results->fleet.nodes[p.node].name) + QStringLiteral(" ");
            html += row(atT ? tr("placement at t") : tr("placement"), nodes);
            html += row(tr("fabric tier"), QString::fromLatin1(toString(seg.tier)));
            // The placement's slowdown: a binding's own is wall seconds per second of work,
            // below 1 for an elastic job grown past its size (× pods held ÷ pods asked undoes
            // that), which is no slowdown of its placement.
            const double slowdown =
                atT ? atT->slowdown * static_cast<double>(atT->placementCount) / s.pods()
                    : j.slowdown;
            html += row(tr("slowdown"), QStringLiteral("%1×").arg(slowdown, 0, 'f', 2));
        }
    }
    if (j.endS >= 0)
        html +=
            row(j.status == JobStatus::Failed ? tr("failed") : tr("ended"), formatSimTime(j.endS));
    html += row(tr("status at horizon"), QString::fromLatin1(toString(j.status)));
    html += row(tr("run time (ideal)"), formatDuration(s.durationS));
    html += interruptionRows(job);
    html += arithmeticRows(job);
    // What a time-sliced GPU divides: the share of time its kernels run (unset: its SM demand).
    if (s.sharesGpu()) {
        const float engineActive = m_results->engineActiveOf(s);
        html += row(tr("engine active"), engineActive > 0 ? QString::number(engineActive, 'f', 2)
                                                          : tr("as SM activity"));
    }
    if (s.memoryGbPerGpu > 0)
        html += row(tr("memory"), tr("%1 GB per GPU").arg(s.memoryGbPerGpu, 0, 'f', 0));
    if (const PendingJob* e = pendingEntry(job))
        html +=
            row(tr("why pending at t"), QStringLiteral("<b style='color:%1'>%2</b>: %3")
                                            .arg(layerColor(e->layer).name(), layerName(e->layer),
                                                 esc(m_results->reasonText(e->reason))));
    return html + QStringLiteral("</table>");
}

QString Inspector::arithmeticRows(std::uint32_t job) const {
    const JobRecord& j = m_results->jobs[job];
    const JobSpec& s = j.spec;
    // The GPU it ran on last, else the one it is restricted to: where its roofline is drawn.
    const GpuModel* gpu = j.segmentCount > 0
                              ? &m_results->gpuModelOf(m_results->segments[j.lastSegment])
                          : s.gpuModel >= 0 ? &m_results->fleet.gpuModels[s.gpuModel]
                                            : nullptr;
    const double mfu = gpu ? m_results->mfuOn(s, *gpu) : s.mfu;
    // MFU as the Pod request editor writes it, in %, and against which peak (FP8 may pass 100).
    QString html = row(tr("SM activity / MFU"), tr("%1 % / %2 % of the BF16 peak")
                                                    .arg(100.0 * s.smActivity, 0, 'g', 3)
                                                    .arg(100.0 * mfu, 0, 'g', 3));
    const JobSourceTraits::Arithmetic a = m_results->sourceTraits.arithmeticOf(s);
    if (a.precision == Precision::Fp8)
        html +=
            row(tr("precision"), tr("FP8: %1× BF16's pace (matmuls %2 % of its BF16 step)")
                                     .arg(precisionSpeedup(a.precision, a.matmulShare), 0, 'f', 2)
                                     .arg(100.0 * a.matmulShare, 0, 'f', 0));
    if (a.flopsPerByte > 0 && gpu && gpu->hbmTbps > 0 && gpu->bf16DenseTflops > 0)
        html += row(tr("MFU ceiling"), tr("%1 % (%2 FLOP/B × %3 TB/s of %4 TFLOP/s)")
                                           .arg(100.0 * mfuCeiling(a.flopsPerByte, *gpu), 0, 'f', 1)
                                           .arg(a.flopsPerByte, 0, 'g', 4)
                                           .arg(gpu->hbmTbps, 0, 'g', 4)
                                           .arg(gpu->bf16DenseTflops, 0, 'f', 0));
    return html;
}

QString Inspector::interruptionRows(std::uint32_t job) const {
    const CheckpointPolicy policy = m_results->checkpointOf(job);
    QString every = tr("every %1 of work").arg(formatDuration(policy.intervalS));
    if (policy.costS > 0) every += tr(", %1 each").arg(formatDuration(policy.costS));
    QString html = row(tr("checkpoints"),
                       policy.saves() ? every : tr("none: an eviction loses all work done"));
    // What the run's failure rate calls for, beside what the job does.
    if (const auto advice = checkpointAdviceOf(*m_results, job))
        html += row(tr("Young / Daly"),
                    tr("%1 / %2 (its nodes fail every %3)")
                        .arg(formatDuration(advice->youngS), formatDuration(advice->dalyS),
                             formatDuration(advice->mtbfS)));
    const JobInterruptions& ji = historyOf(job).interruptions;
    const JobHealth& health = historyOf(job).health;
    if (ji.restarts > 0) {
        html += row(tr("restarts"), tr("%1 (evicted and queued again)").arg(ji.restarts));
        html += row(tr("work lost"), tr("%1 (%2 GPU-h)")
                                         .arg(formatDuration(ji.lostWorkS))
                                         .arg(ji.lostGpuS / 3600, 0, 'f', 1));
    }
    if (health.preemptions > 0)
        html += row(tr("preempted"),
                    health.thrashing ? tr("%1 times: <b>thrashing</b> (%2 or more)")
                                           .arg(health.preemptions)
                                           .arg(m_results->thrashingPreemptions)
                    : health.preemptions == 1 ? tr("once")
                                              : tr("%1 times").arg(health.preemptions));
    if (health.longestQueuedS > 0)
        html += row(
            tr("longest wait"),
            health.starved
                ? tr("%1 in the queue at a stretch: <b>starved</b> (over %2)")
                      .arg(formatDuration(health.longestQueuedS),
                           formatDuration(m_results->starvationWaitS))
                : tr("%1 in the queue at a stretch").arg(formatDuration(health.longestQueuedS)));
    return html;
}

const Inspector::JobHistory& Inspector::historyOf(std::uint32_t job) const {
    // A scan of every segment: once per job and run, not on every move of the time scrubber.
    if (!m_interruptionsOf || m_interruptionsOf->first != job) {
        JobHistory h{m_results->interruptionsOf(job), m_results->healthOf(job), {}, 0};
        if (m_results->maxPodsOf(job) > m_results->jobs[job].spec.pods()) {
            for (std::uint32_t i = 0; i < m_results->segments.size(); ++i) {
                const RunSegment& seg = m_results->segments[i];
                if (seg.job != job) continue;
                h.segments.push_back(i);
                h.resizes += seg.end == SegmentEnd::Resized;
            }
            std::stable_sort(
                h.segments.begin(), h.segments.end(), [this](std::uint32_t a, std::uint32_t b) {
                    return m_results->segments[a].startS < m_results->segments[b].startS;
                });
        }
        m_interruptionsOf.emplace(job, std::move(h));
    }
    return m_interruptionsOf->second;
}

const RunSegment* Inspector::boundAt(std::uint32_t job) const {
    // At a resize's instant, the binding that starts there.
    const RunSegment* bound = nullptr;
    for (std::uint32_t i : historyOf(job).segments) {
        const RunSegment& seg = m_results->segments[i];
        if (seg.startS <= m_timeS && m_timeS < seg.endS) bound = &seg;
    }
    return bound;
}

QString Inspector::elasticSize(std::uint32_t job) const {
    const JobSpec& s = m_results->jobs[job].spec;
    const int most = m_results->maxPodsOf(job) * s.gpusPerPod;
    QString size =
        s.gpusPerPod > 1
            ? tr("%1–%2 GPUs (elastic, pods of %3)").arg(s.gpus).arg(most).arg(s.gpusPerPod)
            : tr("%1–%2 GPUs (elastic)").arg(s.gpus).arg(most);
    if (const RunSegment* bound = boundAt(job))
        size += tr("; holds %1 at t").arg(static_cast<int>(bound->placementCount) * s.gpusPerPod);
    else
        size += tr("; none held at t");
    return size;
}

QString Inspector::teamHtml(int team) const {
    int running = 0, gpus = 0, pending = 0, pendingGpus = 0;
    for (std::uint32_t j : m_snapshot->runningJobs)
        if (m_results->jobs[j].spec.team == team) {
            ++running;
            gpus += m_results->jobs[j].spec.gpus;
        }
    for (const PendingJob& e : m_snapshot->pending)  // the list's rows, stuck jobs included
        if (m_results->jobs[e.job].spec.team == team) {
            ++pending;
            pendingGpus += m_results->jobs[e.job].spec.gpus;
        }
    return QStringLiteral("<h3>Team %1</h3><table>%2%3</table>")
        .arg(esc(m_results->teams[team]),
             row(tr("running at t"), tr("%1 jobs on %2 GPUs").arg(running).arg(gpus)),
             row(tr("pending at t"), tr("%1 jobs asking %2 GPUs").arg(pending).arg(pendingGpus)));
}

}  // namespace gpuplan::ui
