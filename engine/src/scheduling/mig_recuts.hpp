// Dynamic MIG: after a scheduling pass, idle GPUs of dynamic MIG node groups are re-cut to fit
// MIG requests still pending, as NVIDIA's MIG manager re-cuts a node's GPUs when its
// mig.config label changes. A GPU being re-cut holds no instances for its group's
// migReconfigureS (the provisioning layer: capacity bought but not yet usable), then holds its
// new layout and the queue is tried again.
//
// What a re-cut holds: as many instances of the pending request's profile as the request
// still needs (at most what one GPU holds), placed as nvidia-smi would, then the GPU's old
// instances again, largest first, where they still fit, so that other requests the old
// layout served keep some room.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "job_queue.hpp"
#include "resources/cluster_state.hpp"

namespace gpuplan::detail {

class MigRecuts {
public:
    MigRecuts(const Fleet& fleet, ClusterState& cluster, std::vector<MigRecutRecord>& records)
        : m_fleet(fleet), m_cluster(cluster), m_records(records) {}

    /// Starts re-cuts for the MIG shapes left in `queue` that re-cuts in flight do not cover.
    /// Returns the new re-cuts (indexes into the records) for the caller to schedule their
    /// ends. Nothing happens without idle GPUs on dynamic MIG nodes.
    std::vector<std::uint32_t> afterPass(const JobQueue& queue, const std::vector<JobRecord>& jobs,
                                         double nowS);
    /// Re-cut `record` is done: its GPU holds the new layout and can be placed on.
    void finish(std::uint32_t record);

    /// Instances the re-cuts in flight will offer a pod of `job`, and when the first is ready.
    struct Coming {
        int instances = 0;
        double readyS = std::numeric_limits<double>::infinity();
        std::uint32_t gpus = 0;  ///< GPUs being re-cut for it
    };
    Coming coming(const JobSpec& job) const;

private:
    /// The job may run on the node at all (its GPU model and pin).
    bool allowedOn(const JobSpec& job, int node) const;
    /// A GPU of a dynamic node where a re-cut could serve `job` now.
    bool canServe(const JobSpec& job, int node, int slot) const;
    /// The layout a re-cut gives the GPU: `count` of `profile`, then the old instances.
    MigLayout recutLayout(const MigLayout& old, const MigProfile& profile, int count) const;
    int nodeOfGpu(std::uint32_t gpu) const;

    const Fleet& m_fleet;
    ClusterState& m_cluster;
    std::vector<MigRecutRecord>& m_records;
    std::vector<std::uint32_t> m_inFlight;    ///< records not yet finished
    std::vector<MigLayout> m_pendingLayouts;  ///< per record: the layout it will hold
};

}  // namespace gpuplan::detail
