// What the timeline needs from one run beyond Results::gpuTimeline, built once per run (never
// per frame): which bindings are restarts, every job's bindings, every node's events (the
// charts' kinds: failures, spot reclaims, scale events) and, for collapsed nodes, how many of
// a node's GPUs are held over time (built the first time the node is drawn collapsed).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

/// A node's event: when, and its kind (an index into eventKinds()).
struct TimelineNodeEvent {
    double timeS = 0;
    int kind = 0;
};

/// A stretch when a node is not Ready (provisioning, cordoned, draining, failed, repairing).
struct TimelineNodeSpan {
    double startS = 0;
    double endS = 0;  ///< the horizon when it lasts past it
    NodeState state = NodeState::Provisioning;
};

/// A step function: from timesS[i] on (to timesS[i + 1], or forever), values[i].
struct TimelineSteps {
    std::vector<double> timesS;
    std::vector<double> values;
};

class TimelineIndex {
public:
    TimelineIndex() = default;
    explicit TimelineIndex(const Results& results);

    /// A binding that follows an Evicted or Preempted one of the same job: the job restarts.
    bool isRestart(std::uint32_t segment) const { return m_restart[segment] != 0; }
    /// The job's bindings, by start.
    std::span<const std::uint32_t> segmentsOf(std::uint32_t job) const {
        return {m_jobSegments.data() + m_jobBegin[job], m_jobBegin[job + 1] - m_jobBegin[job]};
    }
    /// The node's events by time.
    std::span<const TimelineNodeEvent> eventsOf(int node) const {
        return {m_events.data() + m_eventBegin[node], m_eventBegin[node + 1] - m_eventBegin[node]};
    }
    /// When the node was not Ready, by start (from its initial state and Results::nodeChanges).
    std::span<const TimelineNodeSpan> notReadyOf(int node) const {
        return {m_down.data() + m_downBegin[node], m_downBegin[node + 1] - m_downBegin[node]};
    }
    /// GPUs held on the node over time, by GpuInterval::milliGpu ÷ 1000 (a MIG instance by its
    /// slices ÷ 7, rounded to milli). Built the first time it is asked for.
    const TimelineSteps& heldGpusOf(const Results& results, int node) const;
    /// The longest queue of the run (series queue_length; 0 without it): the queue lane's scale.
    double queueMax() const { return m_queueMax; }

private:
    std::vector<std::uint8_t> m_restart;  ///< per segment
    std::vector<std::uint32_t> m_jobBegin, m_jobSegments;
    std::vector<std::uint32_t> m_eventBegin;
    std::vector<TimelineNodeEvent> m_events;
    std::vector<std::uint32_t> m_downBegin;
    std::vector<TimelineNodeSpan> m_down;
    double m_queueMax = 0;
    mutable std::vector<TimelineSteps> m_held;      ///< per node, filled lazily
    mutable std::vector<std::uint8_t> m_heldBuilt;  ///< per node
};

}  // namespace gpuplan::ui
