#include "bound_job_index.hpp"

#include <stdexcept>

namespace gpuplan::detail {

void BoundJobIndex::enable(std::size_t jobCount, std::size_t classCount) {
    m_slot.assign(jobCount, Slot{});
    m_boundInClass.assign(classCount, 0);
}

void BoundJobIndex::add(std::uint32_t job, int team, int gpuModel, std::int32_t priority,
                        std::uint32_t segment, int jobClass) {
    const auto key = std::tuple(team, gpuModel, priority);
    auto found = m_groupOf.find(key);
    if (found == m_groupOf.end()) {
        found = m_groupOf.emplace(key, static_cast<std::uint32_t>(m_groups.size())).first;
        m_groups.push_back(Group{team, gpuModel, priority, {}, 0});
    }
    Group& group = m_groups[found->second];
    Slot& slot = m_slot[job];
    if (slot.group != kGone) throw std::logic_error("BoundJobIndex: job bound twice");
    // Bindings are numbered in the order they happen: appending keeps the group in order.
    slot = {found->second, static_cast<std::uint32_t>(group.entries.size()), jobClass};
    group.entries.push_back({job, segment});
    ++group.live;
    if (jobClass >= 0) ++m_boundInClass[jobClass];
}

void BoundJobIndex::remove(std::uint32_t job) {
    Slot& slot = m_slot[job];
    if (slot.group == kGone) throw std::logic_error("BoundJobIndex: job not bound");
    Group& group = m_groups[slot.group];
    group.entries[slot.position].job = kGone;
    --group.live;
    if (slot.jobClass >= 0) --m_boundInClass[slot.jobClass];
    slot.group = kGone;
    // Holes are skipped when read; squeezing them out once they outnumber the live entries
    // keeps reading and memory linear in what is bound.
    if (group.entries.size() > 2 * std::size_t{group.live} + 64) compact(group);
}

void BoundJobIndex::compact(Group& group) {
    std::size_t kept = 0;
    for (const Entry& e : group.entries) {
        if (e.job == kGone) continue;
        m_slot[e.job].position = static_cast<std::uint32_t>(kept);
        group.entries[kept++] = e;
    }
    group.entries.resize(kept);
}

}  // namespace gpuplan::detail
