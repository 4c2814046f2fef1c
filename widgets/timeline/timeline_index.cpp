#include "timeline_index.hpp"

#include <algorithm>
#include <utility>

#include "charts/event_markers.hpp"

namespace gpuplan::ui {

TimelineIndex::TimelineIndex(const Results& r) {
    const std::size_t jobs = r.jobs.size();
    const std::size_t segments = r.segments.size();
    // Segments are in bind order, so each job's come by start: one counting pass, one fill.
    m_restart.assign(segments, 0);
    m_jobBegin.assign(jobs + 1, 0);
    std::vector<SegmentEnd> lastEnd(jobs, SegmentEnd::Completed);
    std::vector<std::uint8_t> seen(jobs, 0);
    for (std::uint32_t s = 0; s < segments; ++s) {
        const RunSegment& seg = r.segments[s];
        if (seg.job >= jobs) continue;
        ++m_jobBegin[seg.job + 1];
        if (seen[seg.job] &&
            (lastEnd[seg.job] == SegmentEnd::Evicted || lastEnd[seg.job] == SegmentEnd::Preempted))
            m_restart[s] = 1;
        seen[seg.job] = 1;
        lastEnd[seg.job] = seg.end;
    }
    for (std::size_t j = 0; j < jobs; ++j)
        m_jobBegin[j + 1] += m_jobBegin[j];
    m_jobSegments.resize(m_jobBegin[jobs]);
    std::vector<std::uint32_t> next(m_jobBegin.begin(), m_jobBegin.end() - 1);
    for (std::uint32_t s = 0; s < segments; ++s)
        if (r.segments[s].job < jobs) m_jobSegments[next[r.segments[s].job]++] = s;

    // Node events of every kind the charts mark, grouped by node, by time.
    const std::size_t nodes = r.fleet.nodes.size();
    std::vector<std::pair<std::uint32_t, TimelineNodeEvent>> all;
    const std::vector<EventKind>& kinds = eventKinds();
    for (int k = 0; k < static_cast<int>(kinds.size()); ++k)
        for (const TimedEvent& e : kinds[k].eventsOf(r))
            if (e.subject < nodes) all.push_back({e.subject, {e.timeS, k}});
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.timeS < b.second.timeS;
    });
    m_eventBegin.assign(nodes + 1, 0);
    for (const auto& [node, e] : all) {
        ++m_eventBegin[node + 1];
        m_events.push_back(e);
    }
    for (std::size_t n = 0; n < nodes; ++n)
        m_eventBegin[n + 1] += m_eventBegin[n];
    // Not-Ready stretches: each node from its initial state through its changes (in time
    // order), then grouped by node keeping that order.
    std::vector<std::pair<std::uint32_t, TimelineNodeSpan>> down;
    std::vector<NodeState> state;
    for (const FleetNode& n : r.fleet.nodes)
        state.push_back(n.initialState);
    std::vector<double> sinceS(state.size(), 0.0);
    auto close = [&](std::uint32_t n, double atS) {
        if (state[n] != NodeState::Ready && atS > sinceS[n])
            down.push_back({n, {sinceS[n], atS, state[n]}});
    };
    for (const NodeStateChange& c : r.nodeChanges) {
        if (c.node >= nodes || c.state == state[c.node]) continue;
        close(c.node, c.timeS);
        state[c.node] = c.state;
        sinceS[c.node] = c.timeS;
    }
    for (std::uint32_t n = 0; n < nodes; ++n)
        close(n, std::max(r.horizonS, sinceS[n]));
    std::stable_sort(down.begin(), down.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    m_downBegin.assign(nodes + 1, 0);
    for (const auto& [node, span] : down) {
        ++m_downBegin[node + 1];
        m_down.push_back(span);
    }
    for (std::size_t n = 0; n < nodes; ++n)
        m_downBegin[n + 1] += m_downBegin[n];
    if (const Series* queue = r.findSeries("queue_length"))
        for (double v : queue->values)
            m_queueMax = std::max(m_queueMax, v);
    m_held.resize(nodes);
    m_heldBuilt.assign(nodes, 0);
}

const TimelineSteps& TimelineIndex::heldGpusOf(const Results& r, int node) const {
    TimelineSteps& steps = m_held[node];
    if (m_heldBuilt[node]) return steps;
    m_heldBuilt[node] = 1;
    // Every hold on the node's GPUs as +milli at its start and −milli at its end, swept in time
    // order; all changes at one instant make one step (a GPU handed over is not held twice).
    std::vector<std::pair<double, int>> deltas;
    const int first = r.firstGpuOfNode[node];
    for (int slot = 0; slot < r.fleet.nodes[node].gpus; ++slot) {
        if (first + slot >= static_cast<int>(r.gpuTimeline.gpuCount())) break;
        for (const GpuInterval& i : r.gpuTimeline.intervalsOf(first + slot)) {
            deltas.push_back({i.startS, i.milliGpu});
            deltas.push_back({i.endS, -static_cast<int>(i.milliGpu)});
        }
    }
    std::sort(deltas.begin(), deltas.end());
    long long milli = 0;
    for (std::size_t i = 0; i < deltas.size();) {
        const double t = deltas[i].first;
        for (; i < deltas.size() && deltas[i].first == t; ++i)
            milli += deltas[i].second;
        steps.timesS.push_back(t);
        steps.values.push_back(milli / 1000.0);
    }
    return steps;
}

}  // namespace gpuplan::ui
