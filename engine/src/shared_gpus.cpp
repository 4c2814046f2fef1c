#include "shared_gpus.hpp"

#include <algorithm>
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

void SharedGpus::add(std::size_t gpu, const Occupant& o) {
    if (m_byGpu.empty()) m_byGpu.resize(m_gpus);
    m_byGpu[gpu].push_back(o);
}

void SharedGpus::remove(std::size_t gpu, std::uint32_t job) {
    auto& list = m_byGpu[gpu];
    const auto it =
        std::find_if(list.begin(), list.end(), [job](const Occupant& o) { return o.job == job; });
    if (it == list.end()) throw std::logic_error("shared GPU: removing a pod it does not hold");
    list.erase(it);
}

void SharedGpus::setRunning(std::size_t gpu, std::uint32_t job, bool running) {
    for (Occupant& o : m_byGpu[gpu])
        if (o.job == job) o.running = running;
}

double SharedGpus::servedSum(std::size_t gpu) const {
    double sum = 0;
    for (const Occupant& o : on(gpu))
        if (o.running) sum += o.served;
    return sum;
}

double SharedGpus::memoryGb(std::size_t gpu) const {
    double sum = 0;
    for (const Occupant& o : on(gpu))
        sum += o.memoryGb;
    return sum;
}

std::string gpuName(const Fleet& fleet, std::uint32_t node, int slot) {
    return fleet.nodes[node].name + " GPU " + std::to_string(slot);
}

}  // namespace gpuplan::detail
