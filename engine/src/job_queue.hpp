// The pending queue, kept as one sorted list per job shape (GPU model, GPUs per pod, pods).
// A pass merges the shape lists in queue order and can drop a whole shape at once when a
// smaller shape of the same model has already failed to fit: that keeps a pass over a
// queue of thousands of jobs proportional to the number of shapes, not jobs.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "gpuplan/results.hpp"

namespace gpuplan::detail {

struct ShapeKey {
    int model = -1;  ///< −1 = any model
    int gpusPerPod = 1;
    int pods = 1;
    bool constrained = false;  ///< pinned jobs: one group, never compared by shape

    bool operator==(const ShapeKey&) const = default;
    /// Every job of `other`'s shape fits only if one of this shape fits (same model).
    bool coveredBy(const ShapeKey& failed) const {
        return !constrained && !failed.constrained && model == failed.model &&
               gpusPerPod >= failed.gpusPerPod && pods >= failed.pods;
    }
};

class JobQueue {
public:
    struct Group {
        ShapeKey key;
        std::vector<std::uint32_t> jobs;  ///< queue order; may hold removed jobs until compaction
        std::multiset<double> minRunS;    ///< startup + ideal duration of the live jobs
        std::uint32_t live = 0;
        std::uint32_t dead = 0;  ///< removed jobs still in `jobs`
        bool compactionDue = false;
        long long liveGpus = 0;
    };

    JobQueue(const std::vector<JobRecord>* jobs, QueueOrder order)
        : m_jobs(jobs), m_order(order), m_groupOf(jobs->size(), -1), m_staleIn(jobs->size(), -1) {}

    /// Queue order: priority (high first), then fewer GPUs (smallest-first), then submit order.
    bool before(std::uint32_t a, std::uint32_t b) const;
    static ShapeKey shapeOf(const JobSpec& job);

    void insert(std::uint32_t job);
    /// The job left the queue (bound); its slot is reclaimed at the next compaction.
    void remove(std::uint32_t job);
    bool contains(std::uint32_t job) const { return m_groupOf[job] >= 0; }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    std::vector<Group>& groups() { return m_groups; }
    const std::vector<Group>& groups() const { return m_groups; }
    /// Live jobs in queue order (for samples and diagnosis).
    std::vector<std::uint32_t> ordered() const;
    /// The first `n` live jobs in queue order, merged from the shape lists: O(n log shapes).
    std::vector<std::uint32_t> firstInOrder(std::size_t n) const;
    /// Smallest GPUs-per-pod among live jobs, 0 when empty.
    int smallestPod() const;
    /// Drops removed jobs from the group lists that hold more removed jobs than live ones
    /// (so scans skip at most as many as they visit, and each compaction is paid for by the
    /// removals before it).
    void compact();

private:
    const JobSpec& spec(std::uint32_t job) const;
    void compactGroup(int group);

    const std::vector<JobRecord>* m_jobs;
    QueueOrder m_order;
    std::vector<Group> m_groups;
    std::unordered_map<std::uint64_t, int> m_groupByKey;
    std::vector<int> m_groupOf;  ///< live job → group, −1 when not queued
    std::vector<int> m_staleIn;  ///< removed job → group still listing it, −1 when none
    std::vector<int> m_toCompact;
    std::size_t m_size = 0;
};

}  // namespace gpuplan::detail
