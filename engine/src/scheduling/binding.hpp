// One binding of a job to its pods, as the binding lifecycle (bind, notice, move, release)
// tells the books that keep bound jobs about it, and the pods bound on each node.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "gpuplan/model/pod_placement.hpp"
#include "gpuplan/model/workload.hpp"

namespace gpuplan::detail {

/// A job's current binding: what every book that keeps bound jobs is told when it starts,
/// moves or ends. The pods are the run record's (RunRecord::placements), which the next
/// binding may grow: make one, tell the books, drop it; never keep one across bind().
struct Binding {
    std::uint32_t job = 0;
    const JobSpec& spec;
    std::span<const PodPlacement> pods;
    std::uint32_t placementBegin = 0;  ///< the pods' index in RunRecord::placements
    double plannedEndS = 0;            ///< when it releases its GPUs
};

/// The pods bound on each node, with what a reservation asks of them kept alongside (a head's
/// hold reads every reserved node's pods on every pass: no job records to fetch).
class NodePods {
public:
    struct BoundPod {
        std::uint32_t job;
        int gpus;  ///< whole GPUs it gives back at plannedEndS (0: a share, or handed over)
        double plannedEndS;  ///< when the job releases it
    };

    explicit NodePods(std::size_t nodes) : m_pods(nodes) {}

    /// A binding starts: one entry per pod on its node (a gang appears on each of its nodes
    /// once per pod). A share gives no whole GPU back when it ends (others may share the
    /// GPU): a head's hold counts it as returning nothing.
    void bindingStarted(const Binding& b) {
        for (const PodPlacement& pod : b.pods)
            m_pods[pod.node].push_back(
                {b.job, pod.isWhole() ? b.spec.gpusPerPod : 0, b.plannedEndS});
    }
    /// It ends: its entries go.
    void bindingEnded(const Binding& b) {
        for (const PodPlacement& pod : b.pods) {
            auto& list = m_pods[pod.node];
            list.erase(std::find_if(list.begin(), list.end(),
                                    [&](const BoundPod& p) { return p.job == b.job; }));
        }
    }
    /// Its release moves to endS (a share's speed changed); `handedOver`: its GPUs went to a
    /// preemptor at a grace period's notice, so it gives nothing back to a reservation.
    void moved(const Binding& b, double endS, bool handedOver) {
        for (const PodPlacement& pod : b.pods)
            for (BoundPod& p : m_pods[pod.node])
                if (p.job == b.job) {
                    p.plannedEndS = endS;
                    if (handedOver) p.gpus = 0;
                }
    }

    std::span<const BoundPod> on(std::uint32_t node) const { return m_pods[node]; }
    bool empty(std::uint32_t node) const { return m_pods[node].empty(); }
    /// The jobs with a pod on the node, each once, by job index.
    std::vector<std::uint32_t> jobsOn(std::uint32_t node) const {
        std::vector<std::uint32_t> jobs;
        for (const BoundPod& p : m_pods[node])
            jobs.push_back(p.job);
        std::sort(jobs.begin(), jobs.end());
        jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
        return jobs;
    }

private:
    std::vector<std::vector<BoundPod>> m_pods;
};

}  // namespace gpuplan::detail
