#include "gpuplan/results/results.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "gpuplan/model/roofline.hpp"

namespace gpuplan {

const Kpi* Results::findKpi(std::string_view name) const {
    for (const Kpi& k : kpis)
        if (k.name == name) return &k;
    return nullptr;
}

double Results::kpi(std::string_view name) const {
    const Kpi* k = findKpi(name);
    return k ? k->value : std::numeric_limits<double>::quiet_NaN();
}

std::string fingerprintHex(std::uint64_t fingerprint) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fingerprint));
    return buf;
}

std::vector<double> Results::checkpointTimesS(std::uint32_t segment, double fromS, double toS,
                                              std::size_t maxCount) const {
    std::vector<double> out;
    const RunSegment& seg = segments[segment];
    const JobSpec& spec = jobs[seg.job].spec;
    const CheckpointPolicy policy = checkpointOf(seg.job);
    if (!policy.saves() || seg.crashLoop || !(seg.slowdown > 0)) return out;
    // In progress time (work and checkpoint writes), checkpoint m ends at m × (interval +
    // cost); the binding resumed at the position of the work it had saved.
    const double cycleS = policy.intervalS + policy.costS;
    const double resumedAtS = policy.wallToSavedS(seg.savedWorkS);
    const double progressStartS = seg.startS + spec.startupS;
    const double untilS = std::min(toS, seg.endS);
    const auto wallOf = [&](double m) {
        return progressStartS + (m * cycleS - resumedAtS) * seg.slowdown;
    };
    double m = std::max(policy.checkpointsIn(seg.savedWorkS) + 1,
                        std::ceil(((fromS - progressStartS) / seg.slowdown + resumedAtS) / cycleS));
    for (; out.size() < maxCount && m * policy.intervalS < spec.durationS; ++m) {
        const double atS = wallOf(m);
        if (atS > untilS) break;
        if (atS >= fromS && atS > progressStartS) out.push_back(atS);
    }
    return out;
}

std::string Results::fingerprintHex() const {
    return gpuplan::fingerprintHex(fingerprint);
}

namespace {
/// The one rule both scans count by: a binding that ended other than by completing, failing
/// or reaching the end of the run took the job off its GPUs to queue again (an eviction; a
/// preemption): a restart, which lost the segment's lostWorkS.
void addInterruption(JobInterruptions& j, const RunSegment& seg, const Results& r) {
    if (seg.end == SegmentEnd::Completed || seg.end == SegmentEnd::Failed ||
        seg.end == SegmentEnd::Horizon || seg.end == SegmentEnd::Resized)
        return;
    ++j.restarts;
    j.lostWorkS += seg.lostWorkS;
    j.lostGpuS += seg.lostWorkS * r.workGpusOf(seg);
}
}  // namespace

JobInterruptions Results::interruptionsOf(std::uint32_t job) const {
    JobInterruptions j;
    for (const RunSegment& seg : segments)
        if (seg.job == job) addInterruption(j, seg, *this);
    return j;
}

std::vector<JobInterruptions> Results::interruptionsByJob() const {
    std::vector<JobInterruptions> all(jobs.size());
    for (const RunSegment& seg : segments)
        addInterruption(all[seg.job], seg, *this);
    return all;
}

namespace {
// The one rule both health scans follow. A job is queued from its submission, and again
// from each eviction or preemption, until its next start; +inf: bound, or ended.
constexpr double kNotQueued = std::numeric_limits<double>::infinity();

void addHealth(JobHealth& h, double& queuedSinceS, const RunSegment& seg) {
    if (queuedSinceS < kNotQueued)
        h.longestQueuedS = std::max(h.longestQueuedS, seg.startS - queuedSinceS);
    if (seg.end == SegmentEnd::Preempted) ++h.preemptions;
    const bool requeued = seg.end == SegmentEnd::Preempted || seg.end == SegmentEnd::Evicted;
    queuedSinceS = requeued ? seg.endS : kNotQueued;
}

void finishHealth(JobHealth& h, double queuedSinceS, const JobRecord& job, const Results& r) {
    // Still queued when the run ends (never started, or evicted and not restarted).
    if (queuedSinceS < kNotQueued && job.endS < 0 && queuedSinceS <= r.horizonS)
        h.longestQueuedS = std::max(h.longestQueuedS, r.horizonS - queuedSinceS);
    h.thrashing = h.preemptions >= r.thrashingPreemptions;
    h.starved = h.longestQueuedS > r.starvationWaitS;
}
}  // namespace

std::vector<JobHealth> Results::healthByJob() const {
    std::vector<JobHealth> all(jobs.size());
    std::vector<double> queuedSinceS(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j)
        queuedSinceS[j] = jobs[j].spec.submitS;
    // Segments are in binding order: a job's come in time order.
    for (const RunSegment& seg : segments)
        addHealth(all[seg.job], queuedSinceS[seg.job], seg);
    for (std::size_t j = 0; j < jobs.size(); ++j)
        finishHealth(all[j], queuedSinceS[j], jobs[j], *this);
    return all;
}

JobHealth Results::healthOf(std::uint32_t job) const {
    JobHealth h;
    const JobRecord& rec = jobs[job];
    double queuedSinceS = rec.spec.submitS;
    if (rec.segmentCount == 1) {
        addHealth(h, queuedSinceS, segments[rec.lastSegment]);  // its only binding
    } else if (rec.segmentCount > 1) {
        for (const RunSegment& seg : segments)
            if (seg.job == job) addHealth(h, queuedSinceS, seg);
    }
    finishHealth(h, queuedSinceS, rec, *this);
    return h;
}

std::vector<std::optional<MigLayout>> Results::migLayoutsAt(double timeS) const {
    std::vector<std::optional<MigLayout>> layouts;
    for (std::size_t n = 0; n < fleet.nodes.size(); ++n) {
        const FleetNode& node = fleet.nodes[n];
        if (node.sharing.mode != SharingMode::Mig) continue;
        if (layouts.empty()) layouts.resize(firstGpuOfNode.back());
        // The scenario reader checked the layout: it parses.
        const GpuModel& gpu = fleet.gpuModels[node.gpuModel];
        const std::string* text = nullptr;  // parsed once per run of GPUs sharing a layout
        MigLayout layout(*migFamilyFor(gpu));
        for (int slot = 0; slot < node.gpus; ++slot) {
            if (const std::string& t = node.sharing.migLayoutOfGpu(slot); &t != text) {
                text = &t;
                layout = parseMigLayout(t, layout.family(), gpu.migMaxInstances);
            }
            layouts[firstGpuOfNode[n] + slot] = layout;
        }
    }
    // Dynamic re-cuts up to timeS, in the order they started: no instances while being re-cut.
    for (const MigRecutRecord& r : migRecuts) {
        if (r.startS > timeS) break;
        std::optional<MigLayout>& layout = layouts[firstGpuOfNode[r.node] + r.slot];
        layout = r.readyS <= timeS
                     ? parseMigLayout(r.layout, layout->family(), layout->maxInstances())
                     : MigLayout(layout->family(), layout->maxInstances());
    }
    return layouts;
}

ClusterSnapshot Results::stateAt(double timeS) const {
    ClusterSnapshot snap;
    snap.timeS = timeS;
    snap.nodeStates.reserve(fleet.nodes.size());
    for (const FleetNode& n : fleet.nodes)
        snap.nodeStates.push_back(n.initialState);
    for (const NodeStateChange& c : nodeChanges) {
        if (c.timeS > timeS) break;
        snap.nodeStates[c.node] = c.state;
    }
    const std::size_t gpus = firstGpuOfNode.empty() ? 0 : firstGpuOfNode.back();
    // The bindings holding t, by the segment index (bindings are in start order); their holds
    // as (GPU, occupant), then grouped by GPU with a counting sort.
    const auto started = static_cast<std::size_t>(
        std::upper_bound(segments.begin(), segments.end(), timeS,
                         [](double t, const RunSegment& s) { return t < s.startS; }) -
        segments.begin());
    std::vector<std::pair<std::uint32_t, GpuOccupant>> holds;
    segmentIndex.forEachCandidate(started, timeS, [&](std::size_t s) {
        const RunSegment& seg = segments[s];
        if (seg.endS <= timeS) return;
        snap.runningJobs.push_back(seg.job);
        for (const PodPlacement& pod : placementOf(seg))
            for (std::uint64_t m = pod.gpuMask; m != 0; m &= m - 1)
                holds.push_back(
                    {static_cast<std::uint32_t>(firstGpuOfNode[pod.node] + std::countr_zero(m)),
                     GpuOccupant{seg.job, pod.milliGpu, pod.migInstance}});
    });
    std::sort(snap.runningJobs.begin(), snap.runningJobs.end());
    // Counting sort by GPU (most GPUs hold one job), then by job within a shared GPU.
    snap.occupantBegin.assign(gpus + 1, 0);
    for (const auto& [gpu, occupant] : holds)
        ++snap.occupantBegin[gpu + 1];
    for (std::size_t g = 0; g < gpus; ++g)
        snap.occupantBegin[g + 1] += snap.occupantBegin[g];
    snap.occupants.resize(holds.size());
    std::vector<std::uint32_t> next(snap.occupantBegin.begin(), snap.occupantBegin.end() - 1);
    for (const auto& [gpu, occupant] : holds)
        snap.occupants[next[gpu]++] = occupant;
    snap.gpuJob.assign(gpus, -1);
    for (std::size_t g = 0; g < gpus; ++g) {
        const auto begin = snap.occupants.begin() + snap.occupantBegin[g];
        const auto end = snap.occupants.begin() + snap.occupantBegin[g + 1];
        if (begin == end) continue;
        if (end - begin > 1)
            std::sort(begin, end,
                      [](const GpuOccupant& a, const GpuOccupant& b) { return a.job < b.job; });
        // The largest hold; a tie keeps the lower job index (first in job order).
        snap.gpuJob[g] = static_cast<std::int32_t>(
            std::max_element(begin, end, [](const GpuOccupant& a, const GpuOccupant& b) {
                return a.milliGpu < b.milliGpu;
            })->job);
    }
    snap.pending = pendingAt(timeS);
    snap.migLayouts = migLayoutsAt(timeS);
    return snap;
}

}  // namespace gpuplan
