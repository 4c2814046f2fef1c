#include "mig_recuts.hpp"

#include <algorithm>
#include <stdexcept>

#include "resources/placement.hpp"

namespace gpuplan::detail {

namespace {

int profileIdOn(const JobSpec& job, const MigLayout& layout) {
    const std::uint8_t id = job.migProfileId[static_cast<int>(layout.family())];
    return id == JobSpec::kNoMig ? -1 : id;
}

}  // namespace

int MigRecuts::nodeOfGpu(std::uint32_t gpu) const {
    // The last node whose first GPU is at or before `gpu` (nodes without GPUs share it).
    int lo = 0, hi = m_cluster.nodeCount() - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (static_cast<std::uint32_t>(m_cluster.firstGpu(mid)) <= gpu)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

bool MigRecuts::allowedOn(const JobSpec& job, int node) const {
    if (!job.allowsModel(m_fleet.nodes[node].gpuModel)) return false;
    if (job.pinLevel == PinLevel::None) return true;
    const NodeRange range = nodeRangeOf(m_fleet, job.pinLevel, job.pinIndex);
    return node >= range.begin && node < range.end;
}

bool MigRecuts::canServe(const JobSpec& job, int node, int slot) const {
    if (!m_cluster.schedulable(node) || !allowedOn(job, node) ||
        !m_cluster.hostFits(node, {job.cpuMilliPerPod, job.memoryMiBPerPod}))
        return false;
    const MigLayout& layout = m_cluster.migLayout(node, slot);
    const int profile = profileIdOn(job, layout);
    if (profile < 0) return false;
    // An idle GPU that already has the profile did not fit the job for another reason (its
    // gang, CPU or memory): cutting it again would not help.
    for (const MigInstance& instance : layout.instances())
        if (instance.profileId == profile) return false;
    return true;
}

MigLayout MigRecuts::recutLayout(const MigLayout& old, const MigProfile& profile, int count) const {
    MigLayout layout(old.family(), old.maxInstances());
    for (int i = 0; i < count && layout.place(profile).placed(); ++i) {
    }
    // The old instances again, largest first, where they still fit.
    std::vector<MigProfile> before;
    for (const MigInstance& instance : old.instances())
        before.push_back(old.profileOf(instance));
    std::stable_sort(before.begin(), before.end(), [](const MigProfile& a, const MigProfile& b) {
        return a.computeSlices > b.computeSlices;
    });
    for (const MigProfile& p : before)
        if (layout.autoStart(p) >= 0) layout.place(p);
    return layout;
}

std::vector<std::uint32_t> MigRecuts::afterPass(const JobQueue& queue,
                                                const std::vector<JobRecord>& jobs, double nowS) {
    std::vector<std::uint32_t> started;
    const IndexSet& idle = m_cluster.idleDynamicMigGpus();
    if (idle.empty()) return started;
    for (const JobQueue::Group& group : queue.groups()) {
        if (group.live == 0) continue;
        const std::size_t first = queue.firstLive(group);
        if (first >= group.jobs.size()) continue;
        const std::uint32_t jobIndex = group.jobs[first];
        const JobSpec& job = jobs[jobIndex].spec;
        if (!job.asksMig()) continue;
        // The group's first job in queue order decides: the others of its shape follow it.
        int need = job.pods() - coming(job).instances;
        for (std::uint32_t gpu = idle.first(); need > 0 && gpu != IndexSet::npos;
             gpu = idle.next(gpu + 1)) {
            const int node = nodeOfGpu(gpu);
            const int slot = static_cast<int>(gpu) - m_cluster.firstGpu(node);
            if (canServe(job, node, slot)) {
                const MigLayout& old = m_cluster.migLayout(node, slot);
                const MigProfile profile = *migProfileById(old.family(), profileIdOn(job, old));
                const int count =
                    std::min({need, static_cast<int>(profile.maxCount), old.maxInstances()});
                const MigLayout next = recutLayout(old, profile, count);
                const double readyS = nowS + m_fleet.nodes[node].sharing.migReconfigureS;
                m_cluster.setMigLayout(node, slot, MigLayout(old.family(), old.maxInstances()),
                                       false);
                m_records.push_back({.startS = nowS,
                                     .readyS = readyS,
                                     .node = static_cast<std::uint32_t>(node),
                                     .slot = slot,
                                     .layout = next.describe(),
                                     .forJob = jobIndex});
                m_pendingLayouts.push_back(next);
                const auto record = static_cast<std::uint32_t>(m_records.size() - 1);
                m_inFlight.push_back(record);
                started.push_back(record);
                need -= next.countOf(profile);
            }
        }
    }
    return started;
}

void MigRecuts::finish(std::uint32_t record) {
    const auto it = std::find(m_inFlight.begin(), m_inFlight.end(), record);
    if (it == m_inFlight.end()) throw std::logic_error("a MIG re-cut finished twice");
    m_inFlight.erase(it);
    const MigRecutRecord& r = m_records[record];
    m_cluster.setMigLayout(static_cast<int>(r.node), r.slot, m_pendingLayouts[record], true);
}

MigRecuts::Coming MigRecuts::coming(const JobSpec& job) const {
    Coming c;
    for (std::uint32_t record : m_inFlight) {
        const MigRecutRecord& r = m_records[record];
        const MigLayout& next = m_pendingLayouts[record];
        if (!allowedOn(job, static_cast<int>(r.node))) continue;
        const int profile = profileIdOn(job, next);
        if (profile < 0) continue;
        const auto p = migProfileById(next.family(), profile);
        const int instances = p ? next.countOf(*p) : 0;
        if (instances == 0) continue;
        c.instances += instances;
        c.readyS = std::min(c.readyS, r.readyS);
        ++c.gpus;
    }
    return c;
}

}  // namespace gpuplan::detail
