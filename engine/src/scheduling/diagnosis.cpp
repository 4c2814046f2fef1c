#include "diagnosis.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "gpuplan/core/time_format.hpp"
#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::detail {

namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

Scope scopeOf(PinLevel level) {
    switch (level) {
        case PinLevel::Pod:
            return Scope::Pod;
        case PinLevel::Rack:
            return Scope::Rack;
        default:
            return Scope::Fleet;
    }
}

}  // namespace

long long Diagnoser::capacity(const JobSpec& job, Basis basis) const {
    return bestPodCapacity(requestOf(job), m_sim.cluster, basis);
}

Diagnoser::NodeCounts Diagnoser::countNodes(const JobSpec& job) const {
    const ClusterState& c = m_sim.cluster;
    const Fleet& f = m_sim.fleet;
    NodeCounts n;
    n.total = static_cast<int>(f.nodes.size());
    auto eligible = [&](int model) { return job.allowsModel(model); };
    // An on-demand node not provisioned is no Node to kube-scheduler: not counted at all.
    const auto absent = [&](int i) {
        return f.nodes[i].elastic && c.state(i) == NodeState::Provisioning;
    };
    const std::vector<int>& absentOfModel = unprovisionedOnDemand();
    for (int a : absentOfModel)
        n.total -= a;
    const PlacementRequest req = requestOf(job);
    if (!req.wholeGpusOnly()) {
        // Shares, instances and host resources: node by node, each failing resource counted
        // once per node, as kube-scheduler's histogram does.
        const NodeRange range = nodeRangeOf(f, job.pinLevel, job.pinIndex);
        n.mismatch = n.total - (range.end - range.begin);
        PlacementRequest gpuOnly = req;
        gpuOnly.host = {};
        for (int i = range.begin; i < range.end; ++i) {
            if (absent(i)) {
                ++n.mismatch;  // counted in the range, not in the total: evens it
                continue;
            }
            if (!eligible(f.nodes[i].gpuModel)) {
                ++n.mismatch;
                continue;
            }
            if (c.state(i) != NodeState::Ready) {
                ++(c.state(i) == NodeState::Provisioning ? n.notReady
                   : c.state(i) == NodeState::Failed || c.state(i) == NodeState::Repairing
                       ? n.unreachable
                       : n.cordoned);
                continue;
            }
            const bool gpuFits =
                req.gpusPerPod == 0 || podsOnNode(gpuOnly, c, i, Basis::FreeNow) > 0;
            const bool cpuFits = c.hostFits(i, HostDemand{req.host.cpuMilli, 0});
            const bool memoryFits = c.hostFits(i, HostDemand{0, req.host.memoryMiB});
            n.insufficient += !gpuFits;
            n.insufficientCpu += !cpuFits;
            n.insufficientMemory += !memoryFits;
            n.available += gpuFits && cpuFits && memoryFits;
        }
        return n;
    }
    if (job.pinLevel == PinLevel::None) {
        int matching = 0;
        for (int m = 0; m < static_cast<int>(f.gpuModels.size()); ++m) {
            if (!eligible(m)) continue;
            n.notReady += c.nodesInState(m, NodeState::Provisioning) - absentOfModel[m];
            n.unreachable +=
                c.nodesInState(m, NodeState::Failed) + c.nodesInState(m, NodeState::Repairing);
            n.cordoned +=
                c.nodesInState(m, NodeState::Cordoned) + c.nodesInState(m, NodeState::Draining);
            const int* hist = c.freeHist(Scope::Fleet, 0, m);
            for (int free = 0; free < c.histWidth(); ++free)
                (free >= job.gpusPerPod ? n.available : n.insufficient) += hist[free];
            for (int s = 0; s < kNodeStateCount; ++s)
                matching += c.nodesInState(m, static_cast<NodeState>(s));
            matching -= absentOfModel[m];
        }
        n.mismatch = n.total - matching;
        return n;
    }
    const NodeRange range = nodeRangeOf(f, job.pinLevel, job.pinIndex);
    n.mismatch = n.total - (range.end - range.begin);
    for (int i = range.begin; i < range.end; ++i) {
        if (absent(i)) {
            ++n.mismatch;  // counted in the range, not in the total: evens it
            continue;
        }
        if (!eligible(f.nodes[i].gpuModel)) {
            ++n.mismatch;
            continue;
        }
        switch (c.state(i)) {
            case NodeState::Provisioning:
                ++n.notReady;
                break;
            case NodeState::Failed:
            case NodeState::Repairing:
                ++n.unreachable;
                break;
            case NodeState::Cordoned:
            case NodeState::Draining:
                ++n.cordoned;
                break;
            case NodeState::Ready:
                (c.freeGpus(i) >= job.gpusPerPod ? n.available : n.insufficient) += 1;
                break;
        }
    }
    return n;
}

std::string Diagnoser::fitError(const JobSpec& job, const NodeCounts& n) const {
    std::vector<std::string> items;
    const std::string resource = job.asksMig()
                                     ? "nvidia.com/mig-" + migProfileName(job, m_sim.fleet)
                                     : std::string("nvidia.com/gpu");
    if (n.insufficient)
        items.push_back(format("%d Insufficient %s", n.insufficient, resource.c_str()));
    if (n.insufficientCpu) items.push_back(format("%d Insufficient cpu", n.insufficientCpu));
    if (n.insufficientMemory)
        items.push_back(format("%d Insufficient memory", n.insufficientMemory));
    if (n.mismatch)
        items.push_back(format("%d node(s) didn't match Pod's node affinity/selector", n.mismatch));
    if (n.notReady)
        items.push_back(format("%d node(s) had untolerated taint {node.kubernetes.io/not-ready: }",
                               n.notReady));
    if (n.unreachable)
        items.push_back(format(
            "%d node(s) had untolerated taint {node.kubernetes.io/unreachable: }", n.unreachable));
    if (n.cordoned) items.push_back(format("%d node(s) were unschedulable", n.cordoned));
    std::sort(items.begin(), items.end());  // kube-scheduler sorts its histogram the same way
    std::string text = format("%d/%d nodes are available", n.available, n.total);
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i ? ", " : ": ") + items[i];
    text += ".";
    // Each available node takes one pod; a gang needs that many at once.
    if (job.pods() > 1)
        text += format(" The gang needs %d pods of %s.", job.pods(),
                       describePodRequest(job, m_sim.fleet).c_str());
    return text;
}

std::string Diagnoser::layerSentence(std::uint32_t jobIndex, Layer layer, const NodeCounts& n,
                                     double nowS) const {
    const JobSpec& job = m_sim.spec(jobIndex);
    const Fleet& f = m_sim.fleet;
    const ClusterState& c = m_sim.cluster;
    if (layer == Layer::Provisioning && job.asksMig()) {
        // Dynamic MIG: GPUs are being re-cut for it (see layerOf).
        const MigRecuts::Coming coming = m_sim.migRecuts.coming(job);
        if (coming.instances > 0)
            return format(
                "Provisioning (MIG reconfiguration): %u GPU%s being re-cut to offer %d %s "
                "instance%s (it needs %d); the first is ready in %s.",
                coming.gpus, coming.gpus == 1 ? " is" : "s are", coming.instances,
                migProfileName(job, f).c_str(), coming.instances == 1 ? "" : "s", job.pods(),
                formatDuration(coming.readyS - nowS).c_str());
    }
    if (layer == Layer::Provisioning && m_sim.autoscaler.active())
        if (const auto readyS = m_sim.autoscaler.comingFor(jobIndex))
            return format(
                "Provisioning (scaling up): on-demand nodes were requested for it (%d coming in "
                "all); they are Ready in %s.",
                m_sim.autoscaler.comingNodes(), formatDuration(*readyS - nowS).c_str());
    const int k = job.pods();
    const int p = job.gpusPerPod;
    std::string where = "the fleet";
    if (job.pinLevel == PinLevel::Node) where = "node " + f.nodes[job.pinIndex].name;
    if (job.pinLevel == PinLevel::Rack) where = "rack " + f.racks[job.pinIndex].name;
    if (job.pinLevel == PinLevel::Pod) where = "pod " + f.pods[job.pinIndex].name;
    const std::string model = job.gpuModel >= 0 ? f.gpuModels[job.gpuModel].id + " " : "";
    const std::string asks = k > 1 ? format("%d GPUs (a gang of %d pods × %d)", k * p, k, p)
                                   : format("%d GPU%s", p, p > 1 ? "s" : "");

    // GPUs of the eligible models in the job's scope: bought, Ready, free.
    int bought = 0, ready = 0, free = 0;
    const NodeRange range = nodeRangeOf(f, job.pinLevel, job.pinIndex);
    const Scope scope = scopeOf(job.pinLevel);
    const int unit = job.pinLevel == PinLevel::None ? 0 : job.pinIndex;
    for (int m = 0; m < static_cast<int>(f.gpuModels.size()); ++m) {
        if (!job.allowsModel(m)) continue;
        if (job.pinLevel == PinLevel::Node) {
            if (f.nodes[job.pinIndex].gpuModel != m) continue;
            bought += f.nodes[job.pinIndex].gpus;
            if (c.schedulable(job.pinIndex)) {
                ready += f.nodes[job.pinIndex].gpus;
                free += c.freeGpus(job.pinIndex);
            }
            continue;
        }
        const int* all = c.hist(Basis::FleetEmpty, scope, unit, m);
        const int* rdy = c.hist(Basis::ReadyEmpty, scope, unit, m);
        const int* fr = c.freeHist(scope, unit, m);
        for (int g = 1; g < c.histWidth(); ++g) {
            bought += g * all[g];
            ready += g * rdy[g];
            free += g * fr[g];
        }
    }
    (void)range;

    if (!requestOf(job).wholeGpusOnly()) {
        // GPU counts do not describe shares, instances or host resources: say what a pod asks.
        const std::string each = describePodRequest(job, f);
        switch (layer) {
            case Layer::Reservation:
                return format(
                    "Reservation: even empty and healthy, %s holds %lld of the %d pods this job "
                    "needs (each %s).",
                    where.c_str(), capacity(job, Basis::FleetEmpty), k, each.c_str());
            case Layer::Provisioning:
                return format(
                    "Provisioning: empty Ready nodes of %s would hold %lld of the %d pods it "
                    "needs (each %s); the rest of what was bought is not Ready.",
                    where.c_str(), capacity(job, Basis::ReadyEmpty), k, each.c_str());
            case Layer::Scheduling:
                if (capacity(job, Basis::FreeNow) >= k)
                    return "Scheduling: fits now; it binds at the next scheduling pass.";
                return format(
                    "Scheduling: %lld of the %d pods it needs (each %s) fit on what is free in "
                    "%s now; running jobs hold the rest.",
                    capacity(job, Basis::FreeNow), k, each.c_str(), where.c_str());
            case Layer::Workload:
                break;
        }
        return {};
    }
    switch (layer) {
        case Layer::Reservation:
            if (job.gpuModel >= 0 && f.extents[job.gpuModel].totalGpus == 0)
                return format("Reservation: no node in the fleet has %sGPUs; none were bought.",
                              model.c_str());
            return format(
                "Reservation: even empty and healthy, %s holds %lld of the %d pods of %d %sGPUs "
                "this job needs (%d GPUs asked, %d bought there).",
                where.c_str(), capacity(job, Basis::FleetEmpty), k, p, model.c_str(), k * p,
                bought);
        case Layer::Provisioning:
            if (capacity(job, Basis::ReadyEmpty) >= k)
                return format(
                    "Provisioning (capacity down): %d of %d bought %sGPUs in %s are Ready; free "
                    "ones hold %lld of the %d pods it needs, and nodes that failed, were "
                    "reclaimed or are in repair would hold the rest: it starts when they are "
                    "back, or when running jobs end.",
                    ready, bought, model.c_str(), where.c_str(), capacity(job, Basis::FreeNow), k);
            return format(
                "Provisioning: %d of %d bought %sGPUs in %s are Ready; empty Ready nodes would "
                "hold %lld of the %d pods it needs.",
                ready, bought, model.c_str(), where.c_str(), capacity(job, Basis::ReadyEmpty), k);
        case Layer::Scheduling: {
            if (capacity(job, Basis::FreeNow) >= k) {
                const std::uint32_t head = m_scheduler.blockedHead();
                if (head != Scheduler::npos && head != jobIndex) {
                    const std::string headName = m_sim.record.jobName(head);
                    // Only a job that would need GPUs the head holds can delay it; one
                    // that fits beside the hold is not kept out by the head.
                    using Refusal = Scheduler::BackfillRefusal;
                    if (const Refusal rule = m_scheduler.backfillRefusal(jobIndex, nowS);
                        rule != Refusal::None)
                        return format(
                            "Scheduling (queue order): fits now, but starting it would delay %s "
                            "(priority %d), which holds a backfill reservation to start in %s: "
                            "it fits only on GPUs held for it, and %s.",
                            headName.c_str(), m_sim.spec(head).priority,
                            formatDuration(m_scheduler.reservation().startS - nowS).c_str(),
                            rule == Refusal::RunsPastStart
                                ? "even at full speed it would run past that start"
                            : rule == Refusal::SlowedPastStart
                                ? "placed now — where its policy puts it, then as tightly as "
                                  "it fits — it would run slowed past that start"
                                : "a GPU share may not use held GPUs (a GPU comes back whole "
                                  "only when its last share ends)");
                    if (m_scheduler.mode() == BackfillMode::None)
                        return format(
                            "Scheduling (queue order): fits now, but waits behind %s at the "
                            "head of the queue (strict FIFO).",
                            headName.c_str());
                }
                return "Scheduling: fits now; it binds at the next scheduling pass.";
            }
            if (free >= k * p && k == 1)
                return format(
                    "Scheduling (fragmentation): %d %sGPUs are free in %s, enough in total, but "
                    "no node has %d of them free for the pod.",
                    free, model.c_str(), where.c_str(), p);
            if (free >= k * p)
                return format(
                    "Scheduling (fragmentation): %d %sGPUs are free in %s, enough in total, but "
                    "only %lld of the gang's %d pods of %d GPUs fit on them.",
                    free, model.c_str(), where.c_str(), capacity(job, Basis::FreeNow), k, p);
            return format(
                "Scheduling: %d of %d Ready %sGPUs in %s are free and the job asks %s; running "
                "jobs hold the rest.",
                free, ready, model.c_str(), where.c_str(), asks.c_str());
        }
        case Layer::Workload:
            break;
    }
    (void)n;
    return {};
}

Layer Diagnoser::layerOf(std::uint32_t jobIndex) const {
    const JobSpec& job = m_sim.spec(jobIndex);
    const Phase phase = m_sim.runtime[jobIndex].phase;
    if (phase == Phase::Starting || phase == Phase::CrashLoop) return Layer::Workload;
    // Dynamic MIG: capacity for it is being made (re-cut GPUs are not usable yet).
    if (job.asksMig() && m_sim.migRecuts.coming(job).instances > 0) return Layer::Provisioning;
    // On-demand nodes are being provisioned for it (autoscaler.hpp).
    if (m_sim.autoscaler.active() && m_sim.autoscaler.comingFor(jobIndex))
        return Layer::Provisioning;
    if (m_queuedLayerAt != m_sim.cluster.stateChanges()) {
        m_queuedLayer.clear();
        m_queuedLayerAt = m_sim.cluster.stateChanges();
    }
    const auto [it, added] = m_queuedLayer.try_emplace(shapeKey(job), Layer::Scheduling);
    if (added) {
        if (capacity(job, Basis::FleetEmpty) < job.pods())
            it->second = Layer::Reservation;
        else if (capacity(job, Basis::ReadyEmpty) < job.pods())
            it->second = Layer::Provisioning;
    }
    // Room that would be free now but for nodes that went down: the provisioning layer (not
    // kept per shape: what is free changes with every binding). Quota keeps it out first.
    if (it->second == Layer::Scheduling && waitsOnDownCapacity(job) &&
        quotaBlock(job, false).token == ReasonToken::None)
        return Layer::Provisioning;
    return it->second;
}

const std::vector<int>& Diagnoser::unprovisionedOnDemand() const {
    const ClusterState& c = m_sim.cluster;
    if (m_absentAt == c.stateChanges()) return m_absentOfModel;
    m_absentAt = c.stateChanges();
    m_absentOfModel.assign(m_sim.fleet.gpuModels.size(), 0);
    if (m_sim.autoscaler.active())
        for (int i = 0; i < c.nodeCount(); ++i)
            if (m_sim.fleet.nodes[i].elastic && c.state(i) == NodeState::Provisioning)
                ++m_absentOfModel[m_sim.fleet.nodes[i].gpuModel];
    return m_absentOfModel;
}

const std::vector<std::uint32_t>& Diagnoser::downNodes() const {
    const ClusterState& c = m_sim.cluster;
    if (m_downNodesAt == c.stateChanges()) return m_downNodes;
    m_downNodesAt = c.stateChanges();
    m_downNodes.clear();
    int down = 0;
    for (std::size_t m = 0; m < m_sim.fleet.gpuModels.size(); ++m)
        down += c.nodesInState(static_cast<int>(m), NodeState::Failed) +
                c.nodesInState(static_cast<int>(m), NodeState::Repairing);
    for (int n = 0; down > 0 && n < c.nodeCount(); ++n)
        if (c.state(n) == NodeState::Failed || c.state(n) == NodeState::Repairing) {
            m_downNodes.push_back(static_cast<std::uint32_t>(n));
            --down;
        }
    return m_downNodes;
}

bool Diagnoser::waitsOnDownCapacity(const JobSpec& job) const {
    const std::vector<std::uint32_t>& down = downNodes();
    if (down.empty()) return false;
    const PlacementRequest req = requestOf(job);
    const NodeRange range = nodeRangeOf(m_sim.fleet, req.pinLevel, req.pinIndex);
    std::vector<long long> downPods(m_sim.fleet.gpuModels.size(), 0);
    for (std::uint32_t node : down) {
        const int model = m_sim.fleet.nodes[node].gpuModel;
        if (static_cast<int>(node) < range.begin || static_cast<int>(node) >= range.end ||
            (!req.allowsModel(model)))
            continue;
        downPods[model] +=
            podsOnNode(req, m_sim.cluster, static_cast<int>(node), Basis::FleetEmpty);
    }
    for (std::size_t m = 0; m < downPods.size(); ++m) {
        if (downPods[m] == 0) continue;
        const long long freeNow =
            podCapacityForModel(req, m_sim.cluster, static_cast<int>(m), Basis::FreeNow);
        if (freeNow < req.pods && freeNow + downPods[m] >= req.pods) return true;
    }
    return false;
}

Diagnoser::QuotaBlock Diagnoser::quotaBlock(const JobSpec& job, bool withText) const {
    QuotaBlock block;
    const QuotaLedger& quota = m_sim.quota;
    if (!quota.manages(job.team)) return block;
    auto gpus = [](std::int64_t units) { return format("%g", gpusOfUnits(units)); };
    // The most hopeful verdict over the flavors it may use names the wait.
    auto rank = [](ReasonToken t) {
        return t == ReasonToken::WaitingForQuota         ? 3
               : t == ReasonToken::BorrowingLimitReached ? 2
                                                         : 1;
    };
    const std::string& team = m_sim.record.teams[job.team];
    for (int model : quota.flavorsOf(job.team)) {
        if (!job.allowsModel(model)) continue;
        const std::int64_t units = QuotaLedger::requestUnits(job, m_sim.fleet, model);
        const QuotaCheck c = quota.check(job.team, model, units);
        if (c.admits()) return {};
        if (block.token == ReasonToken::None || rank(c.verdict) > rank(block.token))
            block.token = c.verdict;
        if (!withText) continue;
        const std::string& flavor = m_sim.fleet.gpuModels[model].id;
        if (!block.text.empty()) block.text += "; ";
        if (units == 0)
            block.text += "flavor " + flavor + " has no MIG instance of its profile";
        else if (c.verdict == ReasonToken::ExceedsMaxQuota)
            block.text += "insufficient quota for nvidia.com/gpu in flavor " + flavor +
                          ", request > maximum capacity (" + gpus(units) + " > " +
                          gpus(quota.potential(job.team, model)) + ")";
        else
            block.text += "insufficient unused quota for nvidia.com/gpu in flavor " + flavor +
                          ", " + gpus(c.missingUnits) + " more needed" +
                          (c.verdict == ReasonToken::BorrowingLimitReached
                               ? " (team " + team + " reached its borrowing limit)"
                               : "");
    }
    if (block.token == ReasonToken::None) {  // no flavor of its quota offers its GPU model
        block.token = ReasonToken::ExceedsMaxQuota;
        if (withText)
            block.text = "no flavor of team " + team + "'s quota is GPU model " +
                         (job.gpuModel >= 0 ? m_sim.fleet.gpuModels[job.gpuModel].id : "any");
    }
    return block;
}

PendingEntry Diagnoser::diagnoseQueued(std::uint32_t jobIndex, double nowS) {
    if (!m_scheduler.nominations().empty() && m_scheduler.nominated(jobIndex))
        return diagnoseAwaiting(jobIndex, m_sim.victimsOf(jobIndex));
    const JobSpec& job = m_sim.spec(jobIndex);
    // Jobs of one shape and constraint share a diagnosis within a sample; the blocked head
    // is described on its own.
    const bool isHead = jobIndex == m_scheduler.blockedHead();
    ShapeKey key = memoKey(job);  // the head is neither read from nor kept in the memo
    key.memoVariant = m_scheduler.mayEndBeforeReservation(jobIndex, nowS);  // EASY's rule differs
    if (auto it = m_memo.find(key); it != m_memo.end() && !isHead)
        return PendingEntry{.job = jobIndex,
                            .layer = it->second.layer,
                            .token = it->second.token,
                            .reason = it->second.reason};

    const Layer layer = layerOf(jobIndex);
    if (layer == Layer::Scheduling) {
        // Kueue admits before kube-scheduler places: a quota that keeps the job out is the
        // reason, whatever the GPUs would say.
        if (QuotaBlock q = quotaBlock(job, true); q.token != ReasonToken::None) {
            const std::string& team = m_sim.record.teams[job.team];
            const std::string text =
                "couldn't assign flavors to pod set main: " + q.text +
                ". Scheduling (quota): " + std::string(toString(q.token)) + ": team " + team +
                (q.token == ReasonToken::ExceedsMaxQuota
                     ? "'s quota can never admit it as it is."
                     : "'s quota, and what its cohort lends, are in use; it starts when quota "
                       "frees up.");
            const PendingEntry entry{
                .job = jobIndex, .layer = layer, .token = q.token, .reason = intern(text)};
            if (!isHead) m_memo.emplace(key, entry);
            return entry;
        }
    }
    const NodeCounts counts = countNodes(job);
    std::string text = fitError(job, counts);
    const std::string sentence = layerSentence(jobIndex, layer, counts, nowS);
    text += " " + sentence;
    const PendingEntry entry{.job = jobIndex, .layer = layer, .reason = intern(text)};
    if (!isHead) m_memo.emplace(key, entry);
    return entry;
}

PendingEntry Diagnoser::diagnoseJustQueued(std::uint32_t jobIndex) {
    if (!m_scheduler.nominations().empty() && m_scheduler.nominated(jobIndex))
        return diagnoseAwaiting(jobIndex, m_sim.victimsOf(jobIndex));
    const Layer layer = layerOf(jobIndex);
    std::uint32_t& reason = m_justQueuedReason[static_cast<int>(layer)];
    if (reason == ~0u) {
        std::string text = toString(layer);
        text[0] = static_cast<char>(text[0] - 'a' + 'A');
        // True whatever happens later: a sample may give a detailed reason, or say the job
        // was beyond its list (Results::omittedReason), or the job may start first.
        reason = intern(text +
                        ": could not start when it was queued (detailed reasons are taken at "
                        "samples).");
    }
    const ReasonToken token = layer == Layer::Scheduling
                                  ? quotaBlock(m_sim.spec(jobIndex), false).token
                                  : ReasonToken::None;
    return PendingEntry{.job = jobIndex, .layer = layer, .token = token, .reason = reason};
}

PendingEntry Diagnoser::diagnoseStuck(std::uint32_t jobIndex, double nowS) {
    const JobSpec& job = m_sim.spec(jobIndex);
    const JobRuntime& rt = m_sim.runtime[jobIndex];
    std::string text;
    const auto fault = m_sim.memoryFaults.find(jobIndex);
    if (rt.phase == Phase::CrashLoop && fault != m_sim.memoryFaults.end()) {
        const MemoryFault& f = fault->second;
        const std::string gpu = gpuName(m_sim.fleet, f.node, f.slot);
        const std::string why =
            f.kind == MemoryFault::ClientLimit
                ? format("needs %.0f GB, past its MPS client memory limit of %.0f GB on %s",
                         f.needGb, f.haveGb, gpu.c_str())
            : m_sim.fleet.nodes[f.node].sharing.mode == SharingMode::Mps
                ? format("%d MPS clients on %s need %.0f GB of %.0f GB", f.pods, gpu.c_str(),
                         f.needGb, f.haveGb)
                : format(
                      "%d pods on time-sliced GPU %s need %.0f GB of %.0f GB (time-slicing "
                      "has no memory isolation)",
                      f.pods, gpu.c_str(), f.needGb, f.haveGb);
        text = "Workload: CrashLoopBackOff: OOMKilled: " + why +
               ". Its CUDA allocation fails at every restart; it holds its share and makes no "
               "progress.";
    } else if (rt.phase == Phase::CrashLoop) {
        const auto pods = m_sim.placementOf(jobIndex);
        const FleetNode& node = m_sim.fleet.nodes[pods.empty() ? 0 : pods[0].node];
        const GpuModel& gpu = m_sim.fleet.gpuModels[node.gpuModel];
        text = format(
            "Workload: CrashLoopBackOff: back-off restarting failed container: CUDA out of "
            "memory: needs %.0f GB per GPU, %s has %.0f GB. It holds %d GPUs and makes no "
            "progress.",
            static_cast<double>(job.memoryGbPerGpu), gpu.id.c_str(), gpu.hbmGb, job.gpus);
    } else {
        const auto [it, fresh] = m_startingReason.try_emplace(job.startupS, 0);
        if (fresh)
            it->second = intern(
                format("Workload: ContainerCreating: bound, starting up (image pull, model load), "
                       "which takes %s in all; no useful progress yet.",
                       formatDuration(job.startupS).c_str()));
        return PendingEntry{.job = jobIndex, .layer = Layer::Workload, .reason = it->second};
    }
    (void)nowS;
    return PendingEntry{.job = jobIndex, .layer = Layer::Workload, .reason = intern(text)};
}

PendingEntry Diagnoser::diagnoseMpsFault(std::uint32_t jobIndex, std::uint32_t faulting,
                                         std::uint32_t node, int slot) {
    const std::string text =
        "Workload: MPS fault on " + gpuName(m_sim.fleet, node, slot) + " from job " +
        m_sim.record.jobName(faulting) +
        " (crash-looping): MPS has no fault isolation, so every client on the GPU exited; "
        "queued again from scratch, its work lost.";
    return PendingEntry{.job = jobIndex, .layer = Layer::Workload, .reason = intern(text)};
}

PendingEntry Diagnoser::diagnosePreempted(std::uint32_t jobIndex, std::uint32_t by) {
    const JobSpec& job = m_sim.spec(jobIndex);
    const JobSpec& taker = m_sim.spec(by);
    const std::vector<std::string>& teams = m_sim.record.teams;
    // Why it could be taken: the priority gap, or the quota its team borrowed.
    std::string why;
    if (taker.priority > job.priority)
        why = format("its priority %d is below %d", job.priority, taker.priority);
    if (taker.team != job.team && m_sim.quota.shareTree(taker.team, job.team))
        why += std::string(why.empty() ? "" : ", and ") + "team " + teams[job.team] +
               " was borrowing quota team " + teams[taker.team] + " reclaimed";
    const std::string text = "Preempted: evicted so that " + m_sim.record.jobName(by) + " (team " +
                             teams[taker.team] + ") could start: " + why +
                             ". It queues again and restarts from its last checkpoint.";
    return PendingEntry{.job = jobIndex,
                        .layer = Layer::Scheduling,
                        .token = ReasonToken::Preempted,
                        .reason = intern(text)};
}

PendingEntry Diagnoser::diagnoseAwaiting(std::uint32_t jobIndex,
                                         const std::vector<std::uint32_t>& victims) {
    constexpr std::size_t kNamed = 3;
    std::string names;
    double untilS = 0;
    for (std::size_t i = 0; i < victims.size(); ++i) {
        untilS = std::max(untilS, m_sim.runtime[victims[i]].plannedEndS);
        if (i < kNamed) names += std::string(i ? ", " : "") + m_sim.record.jobName(victims[i]);
    }
    if (victims.size() > kNamed) names += format(" and %zu more", victims.size() - kNamed);
    // An absolute time: the text stays true at every t it is shown for.
    const std::string text = format(
        "Pending the preemption of %zu workload(s): %s, given notice, hold their GPUs for "
        "their termination grace period of %s (scheduler.preemptionGraceS), until %s. "
        "Scheduling: WaitingForPreemptedWorkloads: its room and quota are held for it, and it "
        "starts there then.",
        victims.size(), names.c_str(),
        formatDuration(m_sim.scenario.scheduler.preemptionGraceS).c_str(),
        formatSimTime(untilS).c_str());
    return PendingEntry{.job = jobIndex,
                        .layer = Layer::Scheduling,
                        .token = ReasonToken::WaitingForPreemptedWorkloads,
                        .reason = intern(text)};
}

std::uint32_t Diagnoser::intern(const std::string& text) {
    auto [it, inserted] =
        m_reasonIds.emplace(text, static_cast<std::uint32_t>(m_sim.record.reasons.size()));
    if (inserted) m_sim.record.reasons.push_back(text);
    return it->second;
}

}  // namespace gpuplan::detail
