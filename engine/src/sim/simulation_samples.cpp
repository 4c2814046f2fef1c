// The kernel's samples (gauges, the pending list, the fragmentation and placeable measures),
// the end of a run (or of a partial snapshot of it) and, in test builds, the invariant checks
// after every event.
#include "results/pending_index.hpp"
#include "scheduling/preemption_health.hpp"
#include "simulation.hpp"

namespace gpuplan::detail {

void Simulation::closeRecord(RunRecord& record, double endS, MetricsRecorder& metrics,
                             CostMeter& cost) const {
    // Bindings still open end at endS.
    for (std::uint32_t job = 0; job < m_sim.runtime.size(); ++job) {
        const JobRuntime& rt = m_sim.runtime[job];
        if (rt.segment == 0xFFFFFFFFu || rt.phase == Phase::Done || rt.phase == Phase::Queued)
            continue;
        RunSegment& seg = record.segments[rt.segment];
        seg.endS = endS;
        // Still in its grace period: preempted, its mean slowdown kept at the notice.
        if (rt.phase == Phase::Terminating) {
            seg.end = SegmentEnd::Preempted;
            continue;
        }
        seg.end = SegmentEnd::Horizon;
        if (m_sim.savedWork.anyCost())
            if (const double overheadS = checkpointWriteOffS(job, false); overheadS > 0)
                metrics.discardCheckpointing(workGpus(job) * overheadS, rt.progressStartS);
        if (record.jobs[job].spec.sharesGpu() && !seg.crashLoop)
            seg.slowdown = record.jobs[job].slowdown = meanSlowdown(job);
    }
    cost.advanceTo(endS);
    metrics.finish(endS, m_rates);
}

void Simulation::buildResults(Results& out, double endS, const MetricsRecorder& metrics,
                              const CostMeter& cost) const {
    metrics.writeKpis(out, endS);
    indexPending(out, endS);
    m_quotaSeries.writeKpis(out, m_sim.quota);
    cost.writeKpis(out);
    writeRunKpis(out);
    writePreemptionHealthKpis(out);
    out.fingerprint = m_fingerprint;
    out.eventCount = m_eventCount;
    out.endS = endS;
    out.segmentIndex =
        StabbingIndex(out.segments.size(), [&](std::size_t s) { return out.segments[s].endS; });
    out.gpuTimeline = GpuTimeline(out.segments, out.placements, out.firstGpuOfNode,
                                  out.firstGpuOfNode.empty() ? 0 : out.firstGpuOfNode.back());
}

std::shared_ptr<const Results> Simulation::partialResults() const {
    // A copy of everything recorded so far, closed by copies of the meters that write into
    // it and then built on: the run's own state is not touched.
    RunRecord record = m_record;
    MetricsRecorder metrics = m_metrics;
    metrics.retarget(record);
    CostMeter cost = m_cost;
    cost.retarget(record);
    closeRecord(record, m_nowS, metrics, cost);
    auto out = std::make_shared<Results>(std::move(record));
    buildResults(*out, m_nowS, metrics, cost);
    out->partial = true;
    return out;
}

void Simulation::takeSample(std::size_t k) {
    Gauges g;
    g.provisionedGpus = m_sim.cluster.provisionedGpus();
    g.allocatedGpus = m_sim.cluster.allocatedGpus();
    g.runningJobs = m_running;
    const JobQueue& queue = m_scheduler.queue();
    // Jobs waiting on their victims wait too, out of the queue on a held room.
    const auto& nominations = m_scheduler.nominations();
    g.queueLength = static_cast<double>(queue.size() + nominations.size());
    std::uint32_t listed = 0;
    if (m_options.diagnosePending) {
        m_diagnoser.beginSample();
        // The list: the first jobs in queue order, each with its layer and reason.
        for (std::uint32_t job : queue.firstInOrder(m_pendingEntriesPerSample)) {
            m_record.pending.push_back(m_diagnoser.diagnoseQueued(job, m_nowS));
            ++listed;
        }
        // The totals: every queued job. A job's layer depends only on its shape and
        // target, so each shape group is diagnosed once.
        for (const JobQueue::Group& group : queue.groups()) {
            if (group.live == 0) continue;
            const std::uint32_t first = group.jobs[queue.firstLive(group)];
            g.pendingGpuUnits[static_cast<int>(m_diagnoser.layerOf(first))] += group.liveGpuUnits;
        }
        // Jobs waiting on their victims: the scheduling layer, listed ahead of the stuck.
        for (const Scheduler::Nomination& n : nominations) {
            g.pendingGpuUnits[static_cast<int>(Layer::Scheduling)] += m_sim.spec(n.job).gpuUnits();
            if (listed < m_pendingEntriesPerSample) {
                m_record.pending.push_back(
                    m_diagnoser.diagnoseAwaiting(n.job, m_sim.victimsOf(n.job)));
                ++listed;
            }
        }
        // Bound but stuck jobs (starting, crash-looping) are the workload layer. Each has
        // its diagnosis from when it was bound; the sample lists them in what is left of
        // its cap after the queued jobs.
        g.pendingGpuUnits[static_cast<int>(Layer::Workload)] += m_stuckGpuUnits;
        std::size_t listedEntries = listed;
        for (std::uint32_t job = m_stuck.first();
             job != IndexSet::npos && listedEntries < m_pendingEntriesPerSample;
             job = m_stuck.next(job + 1), ++listedEntries)
            m_record.pending.push_back(m_diagnoser.diagnoseStuck(job, m_nowS));
    }
    m_record.pendingBegin.push_back(static_cast<std::uint32_t>(m_record.pending.size()));
    m_record.pendingOmitted.push_back(
        m_options.diagnosePending
            ? static_cast<std::uint32_t>(queue.size() + nominations.size() - listed)
            : 0);
    g.strandedGpus = strandedGpus(queue.smallestPod());
    const ClusterFragmentation f = m_fragmentation.measure(m_sim.cluster);
    g.fragmentationRatio = f.ratioPercent() / 100;
    g.fragmentationAmount = f.amountPercent() / 100;
    g.fragmentedGpus = f.fragmentMilli / 1000;
    placeableGauges(g);
    m_metrics.sample(k, g);
    m_cost.sample(k);
    if (m_quotaSeries.active()) m_quotaSeries.sample(m_record, k, m_sim.quota, queue);
}

void Simulation::placeableGauges(Gauges& g) const {
    // Only the racks and pods that could change an answer are visited (not every one of a
    // fleet of one-node racks at every sample).
    const FreeHistograms free(m_record.fleet, m_sim.cluster, &m_unitsByGpus);
    for (int l = 0; l < kSlotLevelCount; ++l)
        g.largestGangGpus[l] = largestGang(free, static_cast<SlotLevel>(l), m_gangSizes);
    g.slots8GpuNode = static_cast<double>(countSlots(free, SlotLevel::Node, kSampledNodeSlotGpus));
    g.slots64GpuRack = static_cast<double>(countSlots(free, SlotLevel::Rack, kSampledRackSlotGpus));
}

double Simulation::strandedGpus(const JobQueue::SmallestPod& smallest) const {
    // Free GPUs on Ready nodes that no waiting pod can use: fewer free GPUs than any waiting
    // pod asks (counted from the histogram), or, where every waiting pod asks CPU or host
    // memory, enough GPUs but less free CPU or memory than any of them asks ("Insufficient
    // cpu" with GPUs idle; visited node by node, only then).
    if (smallest.gpus <= 0) return 0;
    const ClusterState& c = m_sim.cluster;
    double stranded = 0;
    for (int m = 0; m < static_cast<int>(m_record.fleet.gpuModels.size()); ++m) {
        const int* hist = c.freeHist(Scope::Fleet, 0, m);
        for (int f = 1; f < std::min(smallest.gpus, c.histWidth()); ++f)
            stranded += f * hist[f];
        if (smallest.host.none()) continue;
        for (int f = std::max(smallest.gpus, 1); f < c.histWidth(); ++f) {
            const IndexSet& nodes = c.bucket(m, f);
            for (std::uint32_t n = nodes.first(); n != IndexSet::npos; n = nodes.next(n + 1))
                if (!c.hostFits(static_cast<int>(n), smallest.host)) stranded += f;
        }
    }
    return stranded;
}

void Simulation::checkBooks() {
    std::vector<ClusterState::HeldPod> held;
    double allocated = 0;
    for (const EndOrderedJobs::Entry& e : m_sim.boundByEnd) {
        const HostDemand host = m_sim.hostOf(e.job);
        const RunSegment& seg = m_record.segments[m_sim.runtime[e.job].segment];
        if (e.placementBegin != seg.placementBegin || e.placementCount != seg.placementCount)
            throw std::logic_error("invariant: a bound job's end entry names other pods");
        for (const PodPlacement& pod : m_sim.placementOf(e.job))
            held.push_back({pod, host});
        allocated += heldGpus(e.job);
    }
    // Rooms held for jobs waiting on their victims; the victims, in their grace period, are
    // off the books but still allocated.
    for (const Scheduler::Nomination& n : m_scheduler.nominations()) {
        for (const PodPlacement& pod : n.pods)
            held.push_back({pod, m_sim.hostOf(n.job)});
        if (static_cast<std::size_t>(n.victimsLeft) != m_sim.victimsOf(n.job).size())
            throw std::logic_error("invariant: a job waits for other victims than it has");
    }
    for (const SimState::TerminatingJob& t : m_sim.terminating) {
        if (m_sim.runtime[t.job].phase != Phase::Terminating)
            throw std::logic_error("invariant: a job in its grace period is not terminating");
        allocated += heldGpus(t.job);
    }
    // The hold is on only inside a pass; between passes the cluster is what jobs hold.
    m_sim.cluster.checkAgainst(held);
    checkQuota();
    checkShares();
    if (std::abs(allocated - m_rates.allocatedGpus) > 1e-6 * (1 + allocated))
        throw std::logic_error("invariant: allocated GPU counter drifted");
    if (m_scheduler.reservationViolations() != 0 || m_scheduler.reservationShortfall() != 0)
        throw std::logic_error("invariant: a backfill took GPUs reserved for the queue head");
}

void Simulation::checkQuota() {
    const QuotaLedger& quota = m_sim.quota;
    if (!quota.enabled()) return;
    quota.checkInvariants();
    // Admitted usage is placed usage: per team and model, what its bound jobs hold.
    const int models = static_cast<int>(m_record.fleet.gpuModels.size());
    std::vector<std::int64_t> placed(m_record.teams.size() * models, 0);
    auto add = [&](std::uint32_t job, std::span<const PodPlacement> pods) {
        const int model = m_record.fleet.nodes[pods.front().node].gpuModel;
        for (const PodPlacement& pod : pods)
            placed[m_sim.spec(job).team * models + model] += QuotaLedger::podUnits(pod);
    };
    for (const EndOrderedJobs::Entry& e : m_sim.boundByEnd)
        add(e.job, m_sim.placementOf(e.job));
    for (const Scheduler::Nomination& n : m_scheduler.nominations())
        add(n.job, n.pods);  // held for it, charged at the notice
    for (int team = 0; team < static_cast<int>(m_record.teams.size()); ++team)
        for (int m = 0; m < models; ++m)
            if (quota.manages(team) && quota.usage(team, m) != placed[team * models + m])
                throw std::logic_error("invariant: team " + m_record.teams[team] +
                                       "'s admitted quota is not what its jobs hold");
}

void Simulation::checkShares() {
    if (m_rates.occupiedGpus > m_rates.allocatedGpus + 1e-6 * (1 + m_rates.allocatedGpus))
        throw std::logic_error("invariant: occupancy above allocation");
    if (m_share.empty()) return;
    SharedGpus fresh(m_record.fleet, m_record.sourceTraits, m_record.firstGpuOfNode);
    std::vector<std::uint32_t> running;
    for (const EndOrderedJobs::Entry& e : m_sim.boundByEnd) {
        const std::uint32_t job = e.job;
        if (!m_sim.spec(job).sharesGpu() || m_sim.runtime[job].phase != Phase::Running) continue;
        running.push_back(job);
        fresh.add(job, m_sim.spec(job), m_sim.placementOf(job));
        fresh.setRunning(job, m_sim.placementOf(job), true);
    }
    for (std::uint32_t job : running) {
        const ShareProgress& pr = m_share[job];
        const double expected =
            pr.topology * fresh.interference(m_sim.spec(job), m_sim.placementOf(job), false);
        if (std::abs(expected - pr.slowdown) > 1e-9 * pr.slowdown)
            throw std::logic_error("invariant: share " + std::to_string(job) +
                                   " runs at a stale slowdown");
    }
}

void Simulation::checkHeadOnTime() const {
    if (!m_options.checkInvariants) return;
    const Reservation& r = m_scheduler.reservation();
    if (r.active && r.job == m_scheduler.blockedHead() && r.startS <= m_nowS)
        throw std::logic_error("invariant: the queue head did not start at its reserved time");
}

}  // namespace gpuplan::detail
