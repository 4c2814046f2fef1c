#include "shared_gpus.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace gpuplan::detail {

double servedDemand(double demand, const GpuSharingDef& sharing) {
    if (sharing.mode != SharingMode::Mps) return demand;
    return std::min(demand, sharing.mpsComputeCapPct / 100);
}

double clientMemoryLimitGb(const GpuSharingDef& sharing, double hbmGb, int heldMilli) {
    if (sharing.mode != SharingMode::Mps) return hbmGb;
    if (sharing.mpsMemoryLimitGb > 0) return sharing.mpsMemoryLimitGb;
    return hbmGb * heldMilli / 1000;
}

double SharedGpus::demandOn(const JobSpec& spec, const PodPlacement& pod) const {
    return podDemand(spec, m_sources->engineActiveOf(spec), m_fleet->nodes[pod.node].sharing.mode);
}

std::size_t SharedGpus::gpuOf(const PodPlacement& pod) const {
    return static_cast<std::size_t>(m_firstGpu[pod.node] + std::countr_zero(pod.gpuMask));
}

void SharedGpus::add(std::uint32_t job, const JobSpec& spec, std::span<const PodPlacement> pods) {
    if (m_byGpu.empty()) m_byGpu.resize(static_cast<std::size_t>(m_firstGpu.back()));
    for (const PodPlacement& pod : pods)
        m_byGpu[gpuOf(pod)].push_back(
            {job, spec.memoryGbPerGpu,
             servedDemand(demandOn(spec, pod), m_fleet->nodes[pod.node].sharing), false});
}

void SharedGpus::remove(std::uint32_t job, std::span<const PodPlacement> pods) {
    for (const PodPlacement& pod : pods) {
        auto& list = m_byGpu[gpuOf(pod)];
        const auto it = std::find_if(list.begin(), list.end(),
                                     [job](const Occupant& o) { return o.job == job; });
        if (it == list.end()) throw std::logic_error("shared GPU: removing a pod it does not hold");
        list.erase(it);
    }
}

void SharedGpus::setRunning(std::uint32_t job, std::span<const PodPlacement> pods, bool running) {
    for (const PodPlacement& pod : pods)
        for (Occupant& o : m_byGpu[gpuOf(pod)])
            if (o.job == job) o.running = running;
}

double SharedGpus::servedSum(std::size_t gpu) const {
    double sum = 0;
    for (const Occupant& o : on(gpu))
        if (o.running) sum += o.served;
    return sum;
}

double SharedGpus::interference(const JobSpec& spec, std::span<const PodPlacement> pods,
                                bool joining) const {
    double slowest = 1;
    for (const PodPlacement& pod : pods) {
        const double demand = demandOn(spec, pod);
        const double served = servedDemand(demand, m_fleet->nodes[pod.node].sharing);
        const double sum = servedSum(gpuOf(pod)) + (joining ? served : 0);
        slowest = std::max(slowest, podSlowdown(demand, served, sum));
    }
    return slowest;
}

MemoryFault SharedGpus::memoryFault(const JobSpec& spec, std::span<const PodPlacement> pods) const {
    MemoryFault f;
    if (spec.memoryGbPerGpu <= 0) return f;
    for (const PodPlacement& pod : pods) {
        const Fleet& fleet = *m_fleet;
        const FleetNode& node = fleet.nodes[pod.node];
        const double hbmGb = fleet.gpuModels[node.gpuModel].hbmGb;
        const double limitGb = clientMemoryLimitGb(node.sharing, hbmGb, pod.milliGpu);
        double needGb = spec.memoryGbPerGpu;
        for (const Occupant& o : on(gpuOf(pod)))
            needGb += o.memoryGb;
        f.node = pod.node;
        f.slot = std::countr_zero(pod.gpuMask);
        if (spec.memoryGbPerGpu > limitGb) {
            f.kind = MemoryFault::ClientLimit;
            f.needGb = spec.memoryGbPerGpu;
            f.haveGb = limitGb;
            return f;
        }
        if (needGb > hbmGb) {
            f.kind = MemoryFault::GpuMemory;
            f.pods = static_cast<int>(on(gpuOf(pod)).size()) + 1;
            f.needGb = needGb;
            f.haveGb = hbmGb;
            return f;
        }
    }
    return MemoryFault{};
}

std::vector<std::uint32_t> SharedGpus::runningOn(std::span<const PodPlacement> pods) const {
    std::vector<std::uint32_t> jobs;
    for (const PodPlacement& pod : pods)
        for (const Occupant& o : on(gpuOf(pod)))
            if (o.running) jobs.push_back(o.job);
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    return jobs;
}

std::vector<std::uint32_t> SharedGpus::clientsOn(const PodPlacement& pod) const {
    std::vector<std::uint32_t> jobs;
    for (const Occupant& o : on(gpuOf(pod)))
        jobs.push_back(o.job);
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    return jobs;
}

std::string gpuName(const Fleet& fleet, std::uint32_t node, int slot) {
    return fleet.nodes[node].name + " GPU " + std::to_string(slot);
}

}  // namespace gpuplan::detail
