// The pending queue, kept as one sorted list per job shape (GPU model, GPUs per pod, pods,
// and for pinned jobs their target node, rack or pod).
// A pass merges the shape lists in queue order and can drop a whole shape at once when a
// smaller shape of the same model has already failed to fit: that keeps a pass over a
// queue of thousands of jobs proportional to the number of shapes, not jobs.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <functional>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "checkpoints.hpp"
#include "gpuplan/results/run_record.hpp"
#include "resources/cluster_state.hpp"

namespace gpuplan::detail {

/// What makes jobs interchangeable for "does it fit": same target (GPU model and pin), same
/// kind of GPU hold, and how much per pod. Target and kind are packed into one word each, as
/// covers() compares them on every try.
struct ShapeKey {
    /// Whole GPUs: milli 1000, no MIG profile.
    static constexpr std::uint64_t kWholeKind = 1000 | std::uint64_t{0xFFFFFFFFu} << 16;

    ShapeKey() = default;
    /// model −1 = any; pinIndex −1 when not pinned.
    ShapeKey(int model, int gpusPerPod, int pods, PinLevel pinLevel = PinLevel::None,
             int pinIndex = -1, std::uint64_t kind = kWholeKind, std::uint32_t cpuMilliPerPod = 0,
             std::uint32_t memoryMiBPerPod = 0)
        : target(static_cast<std::uint64_t>(model + 1) << 40 |
                 static_cast<std::uint64_t>(pinLevel) << 32 |
                 static_cast<std::uint32_t>(pinIndex + 1)),
          kind(kind),
          gpusPerPod(gpusPerPod),
          pods(pods),
          cpuMilliPerPod(cpuMilliPerPod),
          memoryMiBPerPod(memoryMiBPerPod) {}

    std::uint64_t target = 0;  ///< (model + 1) << 40 | pin level << 32 | (pin + 1); 0 = any
    /// The kind of GPU hold each pod asks: gpuMilli | MIG profile ids per family << 16 (all
    /// 0xFF = none). Kinds never cover one another.
    std::uint64_t kind = kWholeKind;
    int gpusPerPod = 1;
    int pods = 1;
    std::uint32_t cpuMilliPerPod = 0;
    std::uint32_t memoryMiBPerPod = 0;
    /// The team, where its quota decides admission (the diagnosis tells such teams apart);
    /// −1 elsewhere. Never compared by coveredBy: whether a shape fits is no team's business.
    std::int32_t team = -1;
    /// Diagnosis memo keys only: what else tells jobs of one shape apart there (whether one
    /// could end before the head's reserved start). Never compared by coveredBy.
    std::uint8_t memoVariant = 0;

    bool operator==(const ShapeKey&) const = default;
    /// Every job of this shape fits only if one of `failed`'s fits (same target and kind:
    /// capacity for identical pods only shrinks as the GPUs per pod, the pod count, or the CPU
    /// and memory per pod grow — each node holds min(GPUs, CPU, memory) of them).
    bool coveredBy(const ShapeKey& failed) const {
        return sameTarget(failed) && gpusPerPod >= failed.gpusPerPod && pods >= failed.pods &&
               cpuMilliPerPod >= failed.cpuMilliPerPod && memoryMiBPerPod >= failed.memoryMiBPerPod;
    }
    /// Same model, pin target and kind of hold.
    bool sameTarget(const ShapeKey& o) const { return target == o.target && kind == o.kind; }
    /// The model, target and kind, as one number (for hashing).
    std::uint64_t targetCode() const {
        return target ^ (kind - kWholeKind) * 0x9E3779B97F4A7C15ull;
    }
};

/// Shapes that failed in a pass. "Is this shape covered by one that failed?" looks at the
/// few failed shapes directly; past kFlat of them, at the failed shapes of its model and
/// target only (a backlog pinned to thousands of targets has thousands of shapes).
class FailedShapes {
public:
    void add(const ShapeKey& key);
    bool covers(const ShapeKey& key) const;
    void clear();
    std::size_t size() const { return m_all.size(); }

    static constexpr std::size_t kFlat = 16;

private:
    void index(const ShapeKey& key);

    std::vector<ShapeKey> m_all;  ///< every failed shape, in the order they failed
    /// Built once m_all outgrows kFlat.
    std::unordered_map<std::uint64_t, std::vector<ShapeKey>> m_byTarget;
    std::vector<std::uint64_t> m_used;  ///< targets with entries (clear() empties only these)
};

/// The smallest of a bag of numbers, where only the smallest is ever asked for: a binary
/// heap, with removed values kept in a second heap and cancelled when both tops meet. No
/// allocation per value, unlike a std::multiset node (two allocator calls per queued job).
class MinTracker {
public:
    void insert(double v) {
        m_values.push_back(v);
        std::push_heap(m_values.begin(), m_values.end(), std::greater<>());
        settle();
    }
    /// Removes one copy of a value that was inserted and not yet removed.
    void erase(double v) {
        m_removed.push_back(v);
        std::push_heap(m_removed.begin(), m_removed.end(), std::greater<>());
        settle();
        // A value that stays smallest keeps every later removal waiting behind it: drop the
        // removed values for real once they are twice the live ones (memory stays O(live),
        // and each pruning's sort is paid for by the removals before it).
        if (m_removed.size() > 64 && m_removed.size() > 2 * (m_values.size() - m_removed.size()))
            prune();
    }
    bool empty() const { return m_values.size() == m_removed.size(); }
    double min() const { return m_values.front(); }  ///< only when not empty
    std::size_t storedValues() const { return m_values.size() + m_removed.size(); }

private:
    void prune() {
        std::sort(m_values.begin(), m_values.end());
        std::sort(m_removed.begin(), m_removed.end());
        std::vector<double> live;
        live.reserve(m_values.size() - m_removed.size());
        std::set_difference(m_values.begin(), m_values.end(), m_removed.begin(), m_removed.end(),
                            std::back_inserter(live));  // one copy per removal
        m_values = std::move(live);
        m_removed.clear();
        std::make_heap(m_values.begin(), m_values.end(), std::greater<>());
    }
    void settle() {
        while (!m_removed.empty() && m_removed.front() == m_values.front()) {
            std::pop_heap(m_values.begin(), m_values.end(), std::greater<>());
            m_values.pop_back();
            std::pop_heap(m_removed.begin(), m_removed.end(), std::greater<>());
            m_removed.pop_back();
        }
    }
    std::vector<double> m_values;   ///< min-heap of every value inserted and not cancelled
    std::vector<double> m_removed;  ///< min-heap of removed values not yet cancelled
};

class JobQueue {
public:
    /// Hash of a shape, for maps keyed by it (the queue's groups, the diagnosis memos).
    struct KeyHash {
        std::size_t operator()(const ShapeKey& k) const;
    };
    struct Group {
        ShapeKey key;
        std::vector<std::uint32_t> jobs;  ///< queue order; may hold removed jobs until compaction
        MinTracker minRunS;  ///< startup + ideal work left (checkpoints) of the live jobs
        std::uint32_t live = 0;
        std::uint32_t dead = 0;  ///< removed jobs still in `jobs`
        /// Every job before this position was removed (jobs leave mostly from the front, in
        /// queue order): scans start here instead of skipping them again.
        mutable std::size_t front = 0;
        bool compactionDue = false;
        std::int64_t liveGpuUnits = 0;  ///< GPU-equivalents the live jobs ask (JobSpec::gpuUnits)
        /// Live jobs by position in `jobs`, as a Fenwick tree (1-based: entry i sums positions
        /// (i − lowbit(i), i]): how many of a group's first positions are live, and where its
        /// m-th live job is, in O(log n) (liveBefore, positionOfLive).
        std::vector<std::uint32_t> liveTree;
        /// Every job ever queued in the group has the first one's priority and source (so the
        /// same preemption rights: a failed preemption search answers for all of them).
        bool oneOrigin = true;
        std::int32_t priority = 0;
        JobSource source = JobSource::Class;
        std::uint32_t sourceIndex = 0;
    };

    /// `saved`: work the jobs kept at checkpoints (none when null), for their shortest runs.
    JobQueue(const std::vector<JobRecord>* jobs, QueueOrder order, const SavedWork* saved = nullptr)
        : m_jobs(jobs),
          m_saved(saved),
          m_order(order),
          m_groupOf(jobs->size(), -1),
          m_staleIn(jobs->size(), -1) {}

    /// A job's place in queue order as a value: merges compare these without reading the
    /// jobs again. Priority (high first), then fewer GPUs (smallest-first), then submit order.
    struct OrderKey {
        std::int64_t negPriority;
        int gpus;  ///< 0 unless smallest-first
        std::uint32_t job;
        auto operator<=>(const OrderKey&) const = default;
    };
    OrderKey orderKey(std::uint32_t job) const;
    /// Queue order (orderKey(a) < orderKey(b)).
    bool before(std::uint32_t a, std::uint32_t b) const { return orderKey(a) < orderKey(b); }
    static ShapeKey shapeOf(const JobSpec& job);
    /// Jobs of these teams are grouped by team too (fair sharing orders teams apart).
    void groupByTeam(std::vector<bool> teams) { m_groupByTeam = std::move(teams); }

    void insert(std::uint32_t job);
    /// The job left the queue (bound); its slot is reclaimed at the next compaction.
    void remove(std::uint32_t job);
    bool contains(std::uint32_t job) const { return m_groupOf[job] >= 0; }
    /// The group a queued job is listed in (−1 when not queued).
    int groupOf(std::uint32_t job) const { return m_groupOf[job]; }
    /// Position in the group's list of its first live job (jobs.size() when none).
    std::size_t firstLive(const Group& group) const {
        while (group.front < group.jobs.size() && !contains(group.jobs[group.front]))
            ++group.front;
        return group.front;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    std::vector<Group>& groups() { return m_groups; }
    const std::vector<Group>& groups() const { return m_groups; }
    /// Live jobs in queue order (for samples and diagnosis).
    std::vector<std::uint32_t> ordered() const;
    /// The first `n` live jobs in queue order, merged from the shape lists: O(n log shapes).
    std::vector<std::uint32_t> firstInOrder(std::size_t n) const;
    /// The least any live job asks per pod, in each resource on its own: GPUs (0 when the
    /// queue is empty), CPU and host memory (0 when some job asks none). A node short of any
    /// of these can take no waiting pod.
    struct SmallestPod {
        int gpus = 0;
        HostDemand host;
    };
    SmallestPod smallestPod() const;
    /// Live jobs listed before position `pos` of a group's list.
    std::size_t liveBefore(const Group& group, std::size_t pos) const;
    /// Position in a group's list of its live job number `m` (0-based, in queue order; m must
    /// be below group.live).
    std::size_t positionOfLive(const Group& group, std::size_t m) const;
    /// Live jobs of a group that come before `key` in queue order.
    std::size_t liveBeforeKey(const Group& group, const OrderKey& key) const {
        const auto it = std::partition_point(group.jobs.begin(), group.jobs.end(),
                                             [&](std::uint32_t j) { return orderKey(j) < key; });
        return liveBefore(group, static_cast<std::size_t>(it - group.jobs.begin()));
    }
    /// Drops removed jobs from the group lists that hold more removed jobs than live ones
    /// (so scans skip at most as many as they visit, and each compaction is paid for by the
    /// removals before it).
    void compact();

private:
    const JobSpec& spec(std::uint32_t job) const;
    /// Startup + the ideal work left: the shortest the job's next binding can run.
    double minRunS(std::uint32_t job) const {
        const JobSpec& s = spec(job);
        return static_cast<double>(s.startupS) + (m_saved ? m_saved->leftS(job, s) : s.durationS);
    }
    void compactGroup(int group);
    /// The live-position tree of a group rebuilt from its list (after a compaction or an
    /// insertion before its end).
    void rebuildLiveTree(Group& g) const;

    const std::vector<JobRecord>* m_jobs;
    const SavedWork* m_saved;
    QueueOrder m_order;
    std::vector<Group> m_groups;
    std::unordered_map<ShapeKey, int, KeyHash> m_groupByKey;
    int m_lastGroup = -1;
    std::vector<bool> m_groupByTeam;  ///< per team        ///< the last arrival's group: runs of
                                      ///< one shape skip the hash
    std::vector<int> m_groupOf;       ///< live job → group, −1 when not queued
    std::vector<int> m_staleIn;       ///< removed job → group still listing it, −1 when none
    std::vector<int> m_toCompact;
    std::size_t m_size = 0;
};

}  // namespace gpuplan::detail
