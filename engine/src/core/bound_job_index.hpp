// Bound jobs grouped by (team, GPU model, priority), in binding order within a group: what
// preemption looks through for victims. Kept only when something can be preempted. A
// preemption attempt visits the groups it may take from, most recently admitted first, and
// stops at the first victims that make room — instead of collecting and sorting every bound
// job of a 100k-GPU fleet on every attempt.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace gpuplan::detail {

class BoundJobIndex {
public:
    static constexpr std::uint32_t kGone = 0xFFFFFFFFu;
    struct Entry {
        std::uint32_t job;      ///< kGone once it was released
        std::uint32_t segment;  ///< its binding (later = admitted more recently)
    };
    struct Group {
        int team;
        int gpuModel;
        std::int32_t priority;
        std::vector<Entry> entries;  ///< in binding order, with holes (kGone)
        std::uint32_t live = 0;
    };

    bool enabled() const { return !m_slot.empty(); }
    /// Starts keeping the index for `jobCount` jobs and `classCount` job classes.
    void enable(std::size_t jobCount, std::size_t classCount);

    /// A job was bound (segment: its binding); `jobClass` −1 when it is not from a class.
    void add(std::uint32_t job, int team, int gpuModel, std::int32_t priority,
             std::uint32_t segment, int jobClass);
    /// A bound job was released (any end).
    void remove(std::uint32_t job);

    const std::vector<Group>& groups() const { return m_groups; }
    /// Bound jobs of a job class (minAvailable counts them).
    int boundInClass(int jobClass) const { return m_boundInClass[jobClass]; }

private:
    struct Slot {
        std::uint32_t group = kGone;
        std::uint32_t position = 0;
        int jobClass = -1;
    };
    void compact(Group& group);

    std::vector<Group> m_groups;
    std::map<std::tuple<int, int, std::int32_t>, std::uint32_t> m_groupOf;
    std::vector<Slot> m_slot;  ///< per job, where it is while bound
    std::vector<int> m_boundInClass;
};

}  // namespace gpuplan::detail
