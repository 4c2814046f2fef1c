// The kernel on shared GPUs (MPS, time-slicing): interference from summed demand (SMs under
// MPS, time under time-slicing: podDemand), memory faults and the MPS fault domain, on the
// per-GPU book of shared_gpus.hpp.
#include "simulation.hpp"

namespace gpuplan::detail {

void Simulation::planShare(const JobSpec& s, const std::vector<PodPlacement>& pods,
                           BindingPlan& p) const {
    p.memoryFault = MemoryFault{};
    if (p.crashLoop) return;  // past the whole GPU's memory already
    p.topology = p.slowdown;
    p.interference = m_sharedGpus.interference(s, pods, true);
    p.slowdown *= p.interference;
    p.memoryFault = m_sharedGpus.memoryFault(s, pods);
    p.crashLoop = p.memoryFault.kind != MemoryFault::None;
}

void Simulation::addShareProgress(std::uint32_t job, int sign, double mfu, double peak) {
    const JobSpec& s = m_sim.spec(job);
    const RunSegment& seg = m_record.segments[m_sim.runtime[job].segment];
    const double rate = heldGpus(job) / m_share[job].slowdown;
    double occupied = 0, occupiedUsdPerHour = 0;
    for (const PodPlacement& pod : m_record.placementOf(seg)) {
        const double busy = std::min(smDemand(s), pod.milliGpu / 1000.0);
        occupied += busy;
        occupiedUsdPerHour += busy * m_record.fleet.nodes[pod.node].usdPerGpuHour;
    }
    m_rates.usefulGpus += sign * rate;
    m_rates.occupiedGpus += sign * occupied / m_share[job].slowdown;
    m_cost.occupied(sign * occupiedUsdPerHour / m_share[job].slowdown);
    m_rates.achievedTflops += sign * rate * mfu * peak;
}

void Simulation::bindShare(std::uint32_t job, const std::vector<PodPlacement>& pods,
                           const BindingPlan& p) {
    const JobSpec& s = m_sim.spec(job);
    if (p.crashLoop) {
        if (p.memoryFault.kind != MemoryFault::None) m_sim.memoryFaults[job] = p.memoryFault;
        // Every crash of a client ends every client on its MPS GPUs; the last crash is the
        // release, which handles it.
        if (onMps(pods))
            for (int k = 1; k < kCrashLoopAttempts; ++k)
                push(m_nowS + crashLoopCrashS(s.startupS, k), EventType::MpsFault, job,
                     m_sim.runtime[job].segment);
        return;
    }
    if (m_share.empty()) m_share.resize(m_record.jobs.size());
    m_share[job] = ShareProgress{.sinceS = m_sim.runtime[job].progressStartS,
                                 .slowdown = p.slowdown,
                                 .topology = p.topology};
    m_sharedGpus.add(job, s, pods);
}

bool Simulation::onMps(std::span<const PodPlacement> pods) const {
    return std::any_of(pods.begin(), pods.end(), [this](const PodPlacement& pod) {
        return m_record.fleet.nodes[pod.node].sharing.mode == SharingMode::Mps;
    });
}

void Simulation::shareRuns(std::uint32_t job) {
    m_sharedGpus.setRunning(job, m_sim.placementOf(job), true);
    reviseSpeeds(m_sim.placementOf(job));
}

double Simulation::workDoneS(std::uint32_t job) const {
    const JobRuntime& rt = m_sim.runtime[job];
    if (rt.phase != Phase::Running) return 0;
    if (!m_sim.spec(job).sharesGpu())
        return (m_nowS - rt.progressStartS) / m_record.segments[rt.segment].slowdown;
    const ShareProgress& pr = m_share[job];
    return pr.workDoneS + (m_nowS - pr.sinceS) / pr.slowdown;
}

void Simulation::reviseSpeeds(std::span<const PodPlacement> changed) {
    for (std::uint32_t job : m_sharedGpus.runningOn(changed)) {
        ShareProgress& pr = m_share[job];
        const double slowdown =
            pr.topology * m_sharedGpus.interference(m_sim.spec(job), m_sim.placementOf(job), false);
        if (slowdown == pr.slowdown) continue;
        addProgress(job, -1);
        pr.workDoneS = workDoneS(job);
        pr.sinceS = m_nowS;
        pr.slowdown = slowdown;
        addProgress(job, +1);
        const double leftS =
            std::max(0.0, m_sim.savedWork.leftS(job, m_sim.spec(job)) - pr.workDoneS);
        moveRelease(job, m_nowS + leftS * slowdown);
    }
}

void Simulation::moveRelease(std::uint32_t job, double endS) {
    JobRuntime& rt = m_sim.runtime[job];
    m_sim.releaseMoved(m_sim.bindingOf(job), endS, false);
    rt.plannedEndS = endS;
    m_record.segments[rt.segment].endS = endS;
    push(endS, EventType::Release, job, rt.segment);
}

float Simulation::meanSlowdown(std::uint32_t job) const {
    const JobRuntime& rt = m_sim.runtime[job];
    const double doneS = workDoneS(job);
    if (doneS <= 0) return static_cast<float>(m_share[job].slowdown);
    return static_cast<float>((m_nowS - rt.progressStartS) / doneS);
}

void Simulation::keepMeanSlowdown(std::uint32_t job) {
    const float mean = meanSlowdown(job);
    m_record.segments[m_sim.runtime[job].segment].slowdown = mean;
    m_record.jobs[job].slowdown = mean;
}

void Simulation::shareStops(std::uint32_t job) {
    keepMeanSlowdown(job);
    const auto pods = m_sim.placementOf(job);
    m_sharedGpus.setRunning(job, pods, false);
    reviseSpeeds(pods);
}

void Simulation::unbindShare(std::uint32_t job) {
    const RunSegment& seg = m_record.segments[m_sim.runtime[job].segment];
    if (seg.crashLoop) {
        m_sim.memoryFaults.erase(job);
        return;
    }
    // A terminating share's progress ended at its notice (shareStops kept its mean).
    if (m_sim.runtime[job].phase != Phase::Terminating) keepMeanSlowdown(job);
    const auto pods = m_record.placementOf(seg);
    m_sharedGpus.remove(job, pods);
    reviseSpeeds(pods);
}

void Simulation::mpsFault(std::uint32_t job) {
    if (!onMps(m_sim.placementOf(job))) return;
    count(FingerprintTag::MpsFault, job);
    for (const PodPlacement& pod : m_sim.placementOf(job)) {
        if (m_record.fleet.nodes[pod.node].sharing.mode != SharingMode::Mps) continue;
        for (std::uint32_t client : m_sharedGpus.clientsOn(pod)) {
            if (m_sim.runtime[client].phase == Phase::Queued) continue;  // a gang on two
            evict(client, false);
            if (m_options.diagnosePending)
                m_record.jobDiagnoses.push_back(
                    {m_nowS, m_diagnoser.diagnoseMpsFault(client, job, pod.node,
                                                          std::countr_zero(pod.gpuMask))});
        }
    }
}

}  // namespace gpuplan::detail
