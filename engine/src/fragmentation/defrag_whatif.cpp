// The defragmentation what-if (gpuplan/resources/placeable.hpp): drain the fleet at t, place every
// job running then again with a chosen policy, and compare the placeable slots before and after.
//
// Order: largest first (GPU-equivalents), then the earlier segment start, then the job index —
// a drain-and-repack places the hardest gangs while the fleet is emptiest, as a bin packer's
// first-fit-decreasing does. Pack, spread and topology are the scheduler's own tryPlace; FGD
// and BestFit score every Ready node for each pod with the fill study's node scores
// (fill_policies.hpp), the target workload for FGD being the run's job mix as the
// fragmentation gauge builds it. A MIG pod under FGD or BestFit is packed (the scores are
// defined on milli-GPU). Then the repack is renumbered to move as few jobs as it can
// (defrag_keep_in_place.hpp: identical pods, racks and nodes swap contents, GPUs of a node
// are renumbered; no slot count changes), and the jobs the first pass could not place try the
// renumbered fleet once more. Cost: FGD and BestFit walk the nodes of the pin's range per
// pod, O(pods × nodes × GPUs per node), which the GUI runs off its thread.
#include <algorithm>
#include <limits>
#include <tuple>

#include "defrag_keep_in_place.hpp"
#include "fill_fragment_memo.hpp"
#include "fill_policies.hpp"
#include "gpuplan/resources/placeable.hpp"
#include "resources/placeable_slots.hpp"
#include "resources/placement.hpp"
#include "sim/fragmentation_gauge.hpp"

namespace gpuplan {

const char* toString(DefragPolicy policy) {
    switch (policy) {
        case DefragPolicy::Pack:
            return "pack";
        case DefragPolicy::Spread:
            return "spread";
        case DefragPolicy::Topology:
            return "topology";
        case DefragPolicy::Fgd:
            return "fgd";
        case DefragPolicy::BestFit:
            return "bestfit";
    }
    return "?";
}

namespace {

using detail::ClusterState;
using detail::FillNodeView;
using detail::FillShape;
using detail::PlacementRequest;

constexpr std::int64_t kNoCpuLimit = std::numeric_limits<std::int64_t>::max() / 4;

/// Places a job pod by pod on the node the fill study's score likes best (ties: lowest node).
class ScoredPlacer {
public:
    ScoredPlacer(FillPolicy policy, ClusterState& state, detail::FragmentMemo& memo)
        : m_policy(policy), m_state(state), m_fleet(state.fleet()), m_memo(memo) {}

    bool place(const PlacementRequest& req, std::vector<PodPlacement>& out) {
        out.clear();
        if (req.asksMig()) return detail::tryPlace(req, PlacementPolicy::Pack, m_state, out);
        const detail::NodeRange range = detail::nodeRangeOf(m_fleet, req.pinLevel, req.pinIndex);
        // A gang keeps to one model: only models that can hold all of it now.
        const std::vector<bool> modelOk = detail::modelsHoldingGang(req, m_state);
        int model = req.gpuModel;
        for (int pod = 0; pod < req.pods; ++pod) {
            int bestNode = -1, bestScore = -1, bestSlot = -1;
            for (int node = range.begin; node < range.end; ++node) {
                const FleetNode& info = m_fleet.nodes[node];
                if (!modelOk[info.gpuModel] || (model >= 0 && info.gpuModel != model) ||
                    !m_state.schedulable(node) || !m_state.hostFits(node, req.host))
                    continue;
                int buf[64];
                FillShape shape;
                if (!view(req, node, buf, shape)) continue;
                const FillNodeView v = nodeView(node, buf, shape);
                if (!detail::fillFits(v, shape)) continue;
                const double before =
                    m_policy == FillPolicy::Fgd
                        ? m_memo.fragment(v.gpuModel, v.freeCpuMilli, v.freeMilliPerGpu)
                        : 0.0;
                const detail::FillScore s = detail::fillScore(m_policy, v, shape, before, m_memo);
                if (s.score > bestScore) {
                    bestNode = node;
                    bestScore = s.score;
                    bestSlot = s.slot;
                }
            }
            if (bestNode < 0) {
                detail::unplace(m_state, out, req.host);
                out.clear();
                return false;
            }
            model = m_fleet.nodes[bestNode].gpuModel;
            bind(req, bestNode, bestSlot, out);
        }
        return true;
    }

private:
    /// Free milli-GPU per GPU as the pod can use it (0 where it cannot go) and its shape on
    /// this node; false when the node cannot hold its kind of hold at all.
    bool view(const PlacementRequest& req, int node, int* buf, FillShape& shape) const {
        const FleetNode& info = m_fleet.nodes[node];
        shape.cpuMilli = req.host.cpuMilli;
        if (req.sharesGpu()) {
            if (info.sharing.mode == SharingMode::Whole || info.sharing.mode == SharingMode::Mig)
                return false;
            const int milli = detail::shareMilliOn(info, req.milliGpu);
            for (int g = 0; g < info.gpus; ++g)
                buf[g] = m_state.shareFits(node, g, milli) ? 1000 - m_state.usedMilli(node, g) : 0;
            shape.gpuMilli = milli;
            shape.numGpu = 1;
        } else {
            if (info.wholeGpus() == 0) return false;
            for (int g = 0; g < info.gpus; ++g)
                buf[g] = 1000 - m_state.usedMilli(node, g);
            shape.gpuMilli = 1000;
            shape.numGpu = req.gpusPerPod;
        }
        shape.affinity = shape.partial() ? 0 : shape.numGpu;
        return true;
    }

    FillNodeView nodeView(int node, const int* buf, const FillShape& shape) const {
        const FleetNode& info = m_fleet.nodes[node];
        FillNodeView v;
        v.gpuModel = info.gpuModel;
        // A node that declares no CPU never limits it: FGD reads it as plenty (as the gauge),
        // BestFit as exactly what the pod asks (no CPU term, not an overflowing one).
        if (info.cpuMilli > 0)
            v.freeCpuMilli = m_state.freeCpuMilli(node);
        else
            v.freeCpuMilli = m_policy == FillPolicy::Fgd ? kNoCpuLimit : shape.cpuMilli;
        v.freeMilliPerGpu = std::span<const int>(buf, static_cast<std::size_t>(info.gpus));
        return v;
    }

    void bind(const PlacementRequest& req, int node, int fgdSlot, std::vector<PodPlacement>& out) {
        int buf[64];
        FillShape shape;
        view(req, node, buf, shape);
        const FillNodeView v = nodeView(node, buf, shape);
        PodPlacement pod{.node = static_cast<std::uint32_t>(node)};
        if (shape.partial()) {
            const int slot = fgdSlot >= 0 ? fgdSlot : detail::bestFitSlot(v, shape);
            pod.milliGpu = static_cast<std::uint16_t>(shape.gpuMilli);
            pod.gpuMask = std::uint64_t{1} << slot;
        } else {
            pod.gpuMask = detail::exclusiveGpus(v, shape.numGpu);
        }
        m_state.occupy(pod, req.host);
        out.push_back(pod);
    }

    FillPolicy m_policy;
    ClusterState& m_state;
    const Fleet& m_fleet;
    detail::FragmentMemo& m_memo;
};

/// A job's pods in a canonical order, to tell whether it kept its exact GPUs.
std::vector<PodPlacement> sortedPods(std::span<const PodPlacement> pods) {
    std::vector<PodPlacement> sorted(pods.begin(), pods.end());
    std::sort(sorted.begin(), sorted.end(), [](const PodPlacement& a, const PodPlacement& b) {
        return std::tie(a.node, a.gpuMask, a.migInstance, a.milliGpu) <
               std::tie(b.node, b.gpuMask, b.migInstance, b.milliGpu);
    });
    return sorted;
}

/// The fleet with the node states of t and nothing held.
ClusterState drainedFleet(const Fleet& fleet, std::span<const NodeState> states) {
    ClusterState state(fleet);
    for (std::size_t n = 0; n < fleet.nodes.size(); ++n)
        if (state.state(static_cast<int>(n)) != states[n])
            state.setState(static_cast<int>(n), states[n]);
    return state;
}

bool samePods(const std::vector<PodPlacement>& a, const std::vector<PodPlacement>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const PodPlacement& x, const PodPlacement& y) {
                          return x.node == y.node && x.gpuMask == y.gpuMask &&
                                 x.migInstance == y.migInstance && x.milliGpu == y.milliGpu;
                      });
}

}  // namespace

DefragWhatIf defragWhatIf(const Results& results, double timeS, DefragPolicy policy,
                          const DefragProgressFn& progress, std::stop_token stop) {
    const Fleet& fleet = results.fleet;
    const ClusterSnapshot snapshot = results.stateAt(timeS);
    DefragWhatIf out;
    out.timeS = timeS;
    out.policy = policy;
    out.before = placeableSlotsAt(fleet, snapshot);

    // The segments running at t (Results::stateAt's rule), largest first.
    std::vector<const RunSegment*> running;
    for (const RunSegment& seg : results.segments)
        if (seg.startS <= timeS && seg.endS > timeS) running.push_back(&seg);
    std::vector<double> gpusOf(results.jobs.size(), 0.0);
    for (const RunSegment* seg : running)
        gpusOf[seg->job] = results.gpuEquivalentsOf(*seg);
    std::sort(running.begin(), running.end(), [&](const RunSegment* a, const RunSegment* b) {
        return std::make_tuple(-gpusOf[a->job], a->startS, a->job) <
               std::make_tuple(-gpusOf[b->job], b->startS, b->job);
    });
    out.runningJobs = static_cast<int>(running.size());

    std::optional<detail::FragmentMemo> memo;
    if (policy == DefragPolicy::Fgd || policy == DefragPolicy::BestFit)
        memo.emplace(detail::FragmentationGauge(results.jobs, fleet).workload());
    const PlacementPolicy scheduler = policy == DefragPolicy::Spread ? PlacementPolicy::Spread
                                      : policy == DefragPolicy::Topology
                                          ? PlacementPolicy::TopologyAware
                                          : PlacementPolicy::Pack;
    auto place = [&](const JobSpec& spec, ClusterState& state, std::vector<PodPlacement>& pods) {
        const PlacementRequest req = detail::requestOf(spec);
        if (!memo) return detail::tryPlace(req, scheduler, state, pods);
        const FillPolicy fill = policy == DefragPolicy::Fgd ? FillPolicy::Fgd : FillPolicy::BestFit;
        return ScoredPlacer(fill, state, *memo).place(req, pods);
    };

    // The repack into the drained fleet (node states as at t, nothing held).
    ClusterState drained = drainedFleet(fleet, snapshot.nodeStates);
    std::vector<detail::RepackedJob> repacked(running.size());
    for (std::size_t i = 0; i < running.size(); ++i) {
        if (i % 32 == 0) {
            if (stop.stop_requested()) {
                out.stopped = true;
                return out;
            }
            if (progress) progress(static_cast<double>(i) / static_cast<double>(running.size()));
        }
        const JobSpec& spec = results.jobs[running[i]->job].spec;
        repacked[i].before = results.placementOf(*running[i]);
        repacked[i].pinLevel = spec.pinLevel;
        repacked[i].secondsAtStake = timeS - running[i]->startS + spec.startupS;
        if (!place(spec, drained, repacked[i].after)) repacked[i].after.clear();
    }
    // Where each job ends, what it costs, and the table after: the jobs the first pass could
    // not place try the final fleet once more.
    auto settle = [&](std::vector<detail::RepackedJob>& jobs, DefragWhatIf& w) {
        ClusterState state = drainedFleet(fleet, snapshot.nodeStates);
        for (std::size_t i = 0; i < running.size(); ++i) {
            const JobSpec& spec = results.jobs[running[i]->job].spec;
            const detail::HostDemand host{spec.cpuMilliPerPod, spec.memoryMiBPerPod};
            for (const PodPlacement& pod : jobs[i].after)
                state.occupy(pod, host);
        }
        for (std::size_t i = 0; i < running.size(); ++i)
            if (jobs[i].after.empty() &&
                !place(results.jobs[running[i]->job].spec, state, jobs[i].after))
                jobs[i].after.clear();
        for (std::size_t i = 0; i < running.size(); ++i) {
            const RunSegment* seg = running[i];
            if (jobs[i].after.empty()) {
                w.unplaced.push_back(seg->job);
            } else if (samePods(sortedPods(jobs[i].after), sortedPods(jobs[i].before))) {
                ++w.keptJobs;
            } else {
                DefragMove move;
                move.job = seg->job;
                move.gpus = gpusOf[seg->job];
                move.doneS = timeS - seg->startS;
                move.startupS = results.jobs[seg->job].spec.startupS;
                w.restartedGpuHours += move.restartedGpuHours();
                w.moved.push_back(move);
            }
        }
        w.after =
            detail::placeableSlots(detail::FreeHistograms(fleet, state), state.readyFreeGpus());
    };
    // The repack as placed, and renumbered among the placements it cannot tell apart to move
    // fewer jobs, swapping from pods, racks or nodes down (greedy matchings: none is always
    // best): the one with the fewest jobs left out, then the least restarted work.
    const DefragWhatIf start = out;
    settle(repacked, out);
    for (detail::SwapFrom from :
         {detail::SwapFrom::Pods, detail::SwapFrom::Racks, detail::SwapFrom::Nodes}) {
        std::vector<detail::RepackedJob> renumbered = repacked;
        detail::keepInPlace(fleet, snapshot.nodeStates, renumbered, from);
        DefragWhatIf candidate = start;
        settle(renumbered, candidate);
        if (std::make_pair(candidate.unplaced.size(), candidate.restartedGpuHours) <
            std::make_pair(out.unplaced.size(), out.restartedGpuHours))
            out = std::move(candidate);
    }
    if (progress) progress(1.0);
    return out;
}

}  // namespace gpuplan
