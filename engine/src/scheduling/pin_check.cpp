#include "pin_check.hpp"

#include <algorithm>
#include <cmath>

#include "model/random.hpp"
#include "resources/placement.hpp"

namespace gpuplan::detail {

PinCheck::PinCheck(const Fleet& fleet) : m_fleet(fleet), m_asBought(fleet) {}

PinCheck::TargetGpus PinCheck::targetGpus(const JobSpec& job) const {
    TargetGpus t;
    const Scope scope = job.pinLevel == PinLevel::Pod ? Scope::Pod : Scope::Rack;
    for (int m = 0; m < static_cast<int>(m_fleet.gpuModels.size()); ++m) {
        if (!job.allowsModel(m)) continue;
        if (job.pinLevel == PinLevel::Node) {
            const FleetNode& node = m_fleet.nodes[job.pinIndex];
            if (node.gpuModel != m) continue;
            t.largestNode = node.wholeGpus();
            t.total = node.wholeGpus();
            continue;
        }
        const int* nodesByGpus = m_asBought.hist(Basis::FleetEmpty, scope, job.pinIndex, m);
        for (int g = 1; g < m_asBought.histWidth(); ++g) {
            if (nodesByGpus[g] == 0) continue;
            t.largestNode = std::max(t.largestNode, g);
            t.total += static_cast<long long>(g) * nodesByGpus[g];
        }
    }
    return t;
}

std::optional<std::string> PinCheck::refusal(const JobSpec& job) {
    const ShapeKey key = JobQueue::shapeOf(job);
    if (auto it = m_memo.find(key); it != m_memo.end()) return it->second;
    std::optional<std::string> why;
    const long long capacity = bestPodCapacity(requestOf(job), m_asBought, Basis::FleetEmpty);
    if (capacity < job.pods()) {
        const bool onNode = job.pinLevel == PinLevel::Node;
        const std::string there =
            onNode ? "the node" : std::string("the ") + toString(job.pinLevel);
        const TargetGpus t = targetGpus(job);
        const std::string model = job.gpuModel >= 0 ? m_fleet.gpuModels[job.gpuModel].id : "";
        const bool wholeOnly = requestOf(job).wholeGpusOnly();
        if (!wholeOnly)
            // Shares, MIG instances and CPU or memory: say what a pod asks, not GPU counts.
            why = "asks " + std::to_string(job.pods()) + " pod" + (job.pods() == 1 ? "" : "s") +
                  " of " + describePodRequest(job, m_fleet) + " and, even empty and healthy, " +
                  there + " holds " + std::to_string(capacity);
        else if (onNode && m_fleet.nodes[job.pinIndex].sharing.mode == SharingMode::Mig)
            why = "asks whole GPUs and the node's GPUs are cut into MIG instances";
        else if (t.total == 0 && onNode)
            why = "asks GPU model " + model + " and the node has " +
                  m_fleet.gpuModels[m_fleet.nodes[job.pinIndex].gpuModel].id;
        else if (t.total == 0)
            why = "asks GPU model " + model + " and no node there has it";
        else if (job.gpusPerPod > t.largestNode)
            why = "asks " + std::to_string(job.gpusPerPod) + " GPUs per pod and " +
                  (onNode ? "the node has " : "the largest node there has ") +
                  std::to_string(t.largestNode);
        else
            why = "asks " + std::to_string(job.gpus) + " GPUs (" + std::to_string(job.pods()) +
                  " pods of " + std::to_string(job.gpusPerPod) + ") and, even empty and healthy, " +
                  there + " holds " + std::to_string(capacity) + " such pod" +
                  (capacity == 1 ? "" : "s") + " (" + std::to_string(capacity * job.gpusPerPod) +
                  " GPUs)";
    }
    m_memo.emplace(key, why);
    return why;
}

std::optional<std::string> PinCheck::jobRefusal(const JobTraitsDef& traits, int gpus) {
    if (traits.pin.level == PinLevel::None) return std::nullopt;
    return refusal(resolveJobShape(m_fleet, traits, gpus));
}

std::optional<std::string> PinCheck::classRefusal(const JobClassDef& jobClass) {
    const JobTraitsDef& traits = jobClass.traits;
    if (traits.pin.level == PinLevel::None) return std::nullopt;
    // The sizes generateWorkload can give: a draw clamped to [1, 100000], then rounded.
    const auto [low, high] = rangeOf(jobClass.gpus);
    const int smallest = static_cast<int>(std::lround(std::clamp(low, 1.0, 100000.0)));
    const int largest = static_cast<int>(std::lround(std::clamp(high, 1.0, 100000.0)));
    const JobSpec first = resolveJobShape(m_fleet, traits, smallest);
    const std::optional<std::string> why = refusal(first);
    if (!why) return std::nullopt;
    if (smallest == largest) return why;
    // A larger size may still fit: with an automatic pod size, 16 GPUs can make 2 pods of 8
    // where 15 make 5 of 3. Sizes beyond the target's GPUs never fit, nor any size when the
    // model is missing or a fixed pod size is too large (pods only grow with the size).
    const TargetGpus t = targetGpus(first);
    const bool noSizeFits = t.total == 0 || traits.gpusPerPod > 0;
    if (!noSizeFits)
        for (long long g = smallest + 1; g <= std::min<long long>(largest, t.total); ++g)
            if (!refusal(resolveJobShape(m_fleet, traits, static_cast<int>(g))))
                return std::nullopt;
    return "draws no size that fits: its smallest job " + *why;
}

}  // namespace gpuplan::detail
