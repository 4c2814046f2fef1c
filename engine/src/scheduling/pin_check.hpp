// Pins that can never be satisfied, refused when a scenario is read: a pinned job asking a GPU
// model no node of its target has, more GPUs per pod than any node there has, or more pods
// than the target holds even with every node bought, empty and healthy. Judged by the
// scheduler's capacity rule (bestPodCapacity on Basis::FleetEmpty), the one the diagnoser
// blames on the reservation layer, so node states (a node still Provisioning) do not matter.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/workload.hpp"
#include "job_queue.hpp"
#include "resources/cluster_state.hpp"

namespace gpuplan::detail {

class PinCheck {
public:
    /// `fleet` must outlive the check.
    explicit PinCheck(const Fleet& fleet);

    /// Why a job of `gpus` GPUs with `traits` can never run where it is pinned, as a phrase
    /// after "it" ("asks 16 GPUs per pod and the node has 8"); nullopt when it can or when it
    /// is not pinned. Throws std::invalid_argument when the pin target does not resolve.
    std::optional<std::string> jobRefusal(const JobTraitsDef& traits, int gpus);

    /// The same for a job class: nullopt when any size the class can draw fits; else the
    /// reason of its smallest size, as a sentence.
    std::optional<std::string> classRefusal(const JobClassDef& jobClass);

private:
    /// GPUs of the job's eligible models in its pin target.
    struct TargetGpus {
        int largestNode = 0;
        long long total = 0;
    };
    TargetGpus targetGpus(const JobSpec& job) const;
    std::optional<std::string> refusal(const JobSpec& job);

    const Fleet& m_fleet;
    ClusterState m_asBought;  // only its Basis::FleetEmpty counts are read
    // Many jobs share a shape: pin level, pin index, GPU model, GPUs per pod, pods.
    std::unordered_map<ShapeKey, std::optional<std::string>, JobQueue::KeyHash> m_memo;
};

}  // namespace gpuplan::detail
