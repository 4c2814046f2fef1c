// Single events of a run marked on a chart's time axis: node failures, spot
// reclaims and elastic on-demand scale events. Each kind is one row of a table in event_markers.cpp
// (its name, colour and how to read its events from the results), so another kind is one more line
// there.
//
// A mark is a small triangle standing on the bottom of the plot. Events closer than
// kMergePx on screen share one mark (a thousand failures in a week draw a few hundred marks,
// not a thousand), and hovering there lists what the mark stands for. The chart owns the
// drawn items; this keeps them in step with the plot's size.
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"

class QAbstractSeries;
class QChart;
class QGraphicsPathItem;

namespace gpuplan::ui {

/// One event of a kind: when, and what it hit (a node index for the node kinds).
struct TimedEvent {
    double timeS = 0;
    std::uint32_t subject = 0;
};

/// A kind of event the charts mark (one row of the table in event_markers.cpp).
struct EventKind {
    const char* id;        ///< "node_failure": what tests and code name it by
    const char* singular;  ///< "node failure"
    const char* plural;    ///< "node failures"
    QColor color;
    /// Its events in the run, in time order.
    std::vector<TimedEvent> (*eventsOf)(const Results& results);
    /// What an event hit, in words ("pod-a-rack0-node1").
    QString (*subjectName)(const Results& results, std::uint32_t subject);
};

/// The kinds the charts mark, in drawing order.
const std::vector<EventKind>& eventKinds();

/// One drawn mark: `count` events of one kind from firstS to lastS.
struct EventMark {
    int kind = 0;  ///< index into eventKinds()
    double firstS = 0, lastS = 0;
    int count = 0;
    std::uint32_t firstSubject = 0;
    double xPx = 0;  ///< in the chart's coordinates, where the mark stands
};

class EventMarkers {
public:
    /// Events closer than this on screen share a mark.
    static constexpr double kMergePx = 4;

    explicit EventMarkers(QChart* chart) : m_chart(chart) {}
    ~EventMarkers();
    EventMarkers(const EventMarkers&) = delete;
    EventMarkers& operator=(const EventMarkers&) = delete;

    /// The run whose events are marked (read once per run, not on every redraw).
    void setResults(std::shared_ptr<const Results> results);
    /// Redraws the marks on the plot as it is now, positions mapped through a series attached
    /// to the chart's axes whose x counts `secondsPerX` seconds.
    void update(const QAbstractSeries* axisSeries, double secondsPerX);
    /// The marks drawn now, by kind then time.
    const std::vector<EventMark>& marks() const { return m_marks; }
    /// Events of every kind in the run (drawn or not).
    std::size_t eventCount() const;

    /// What hovering at `timeS` says of the nearest mark of each kind within kMergePx, e.g.
    /// "node failure at d1 04:30:\n  pod-a-rack0-node1" or "5 node failures, d1 04:00 –
    /// d1 05:10:\n  node1 and 4 more". Empty where there is none.
    QStringList hoverLines(double timeS) const;

private:
    void clear();
    QString describe(const EventMark& mark) const;

    QChart* m_chart;
    std::shared_ptr<const Results> m_results;
    std::vector<std::vector<TimedEvent>> m_events;  ///< per kind, from m_results
    std::vector<EventMark> m_marks;
    std::vector<QGraphicsPathItem*> m_items;  ///< one path per kind
    double m_pxPerS = 0;                      ///< as drawn last
};

}  // namespace gpuplan::ui
