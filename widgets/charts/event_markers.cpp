#include "event_markers.hpp"

#include <QChart>
#include <QCoreApplication>
#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {

constexpr double kMarkHalfWidthPx = 3.5;
constexpr double kMarkHeightPx = 7;

QString tr(const char* text) {
    return QCoreApplication::translate("EventMarkers", text);
}

/// The node changes of the given causes to the given state, in time order.
std::vector<TimedEvent> changesOf(const Results& r, std::initializer_list<NodeChangeCause> causes) {
    std::vector<TimedEvent> out;
    for (const NodeStateChange& c : r.nodeChanges)
        if (std::find(causes.begin(), causes.end(), c.cause) != causes.end())
            out.push_back({c.timeS, c.node});
    return out;
}

/// Random failures and the scenario's "failed from t"; a spot reclaim (also a Failed change)
/// is its own kind.
std::vector<TimedEvent> nodeFailures(const Results& r) {
    std::vector<TimedEvent> out;
    for (const NodeStateChange& c : r.nodeChanges)
        if (c.state == NodeState::Failed &&
            (c.cause == NodeChangeCause::Failure || c.cause == NodeChangeCause::Scheduled))
            out.push_back({c.timeS, c.node});
    return out;
}

std::vector<TimedEvent> spotReclaims(const Results& r) {
    return changesOf(r, {NodeChangeCause::SpotReclaim});
}

/// Elastic on-demand nodes coming up and given back (OnDemandDef).
std::vector<TimedEvent> scaleEvents(const Results& r) {
    return changesOf(r, {NodeChangeCause::ScaleUp, NodeChangeCause::ScaleDown});
}

QString nodeName(const Results& r, std::uint32_t node) {
    return node < r.fleet.nodes.size() ? QString::fromStdString(r.fleet.nodes[node].name)
                                       : QString::number(node);
}

}  // namespace

const std::vector<EventKind>& eventKinds() {
    // One line per kind of event the charts mark; later kinds are drawn over earlier ones.
    static const std::vector<EventKind> kinds{
        // Subtle and first (under the others): an elastic fleet scales often, and these are
        // routine, not trouble.
        {"scale_event", QT_TRANSLATE_NOOP("EventMarkers", "on-demand scale event"),
         QT_TRANSLATE_NOOP("EventMarkers", "on-demand scale events"), QColor(0xa0, 0xa0, 0xa0),
         scaleEvents, nodeName},
        {"node_failure", QT_TRANSLATE_NOOP("EventMarkers", "node failure"),
         QT_TRANSLATE_NOOP("EventMarkers", "node failures"), QColor(0xd6, 0x27, 0x28), nodeFailures,
         nodeName},
        {"spot_reclaim", QT_TRANSLATE_NOOP("EventMarkers", "spot reclaim"),
         QT_TRANSLATE_NOOP("EventMarkers", "spot reclaims"), QColor(0x94, 0x67, 0xbd), spotReclaims,
         nodeName},
    };
    return kinds;
}

EventMarkers::~EventMarkers() {
    clear();
}

void EventMarkers::clear() {
    // The items are the chart's children: the owner destroys this before its chart.
    for (QGraphicsPathItem* item : m_items)
        delete item;
    m_items.clear();
    m_marks.clear();
}

void EventMarkers::setResults(std::shared_ptr<const Results> results) {
    if (results == m_results) return;
    m_results = std::move(results);
    m_events.clear();
    if (m_results)
        for (const EventKind& kind : eventKinds())
            m_events.push_back(kind.eventsOf(*m_results));
}

std::size_t EventMarkers::eventCount() const {
    std::size_t n = 0;
    for (const std::vector<TimedEvent>& events : m_events)
        n += events.size();
    return n;
}

void EventMarkers::update(const QAbstractSeries* axisSeries, double secondsPerX) {
    clear();
    m_pxPerS = 0;
    auto* series = const_cast<QAbstractSeries*>(axisSeries);  // mapToPosition is not const
    const QRectF plot = m_chart->plotArea();
    // While the owner rebuilds, the series is off the chart: nothing to map through yet.
    if (!m_results || !series || !m_chart->series().contains(series) || plot.width() < 2) return;
    const double x0 = m_chart->mapToPosition(QPointF(0, 0), series).x();
    const double x1 = m_chart->mapToPosition(QPointF(1, 0), series).x();
    m_pxPerS = (x1 - x0) / secondsPerX;
    if (!(m_pxPerS > 0)) return;
    const std::vector<EventKind>& kinds = eventKinds();
    for (std::size_t k = 0; k < m_events.size(); ++k) {
        const auto first = m_marks.size();
        // Events in time order: a mark takes every event less than kMergePx past its first.
        for (const TimedEvent& e : m_events[k]) {
            const double x = x0 + e.timeS * m_pxPerS;
            if (x < plot.left() - 0.5 || x > plot.right() + 0.5) continue;
            if (m_marks.size() > first && x - m_marks.back().xPx < kMergePx) {
                EventMark& m = m_marks.back();
                m.lastS = e.timeS;
                ++m.count;
                continue;
            }
            m_marks.push_back({static_cast<int>(k), e.timeS, e.timeS, 1, e.subject, x});
        }
        if (m_marks.size() == first) continue;
        // One path per kind: a few hundred triangles are one item, not a few hundred.
        QPainterPath path;
        path.setFillRule(Qt::WindingFill);  // overlapping triangles stay filled (not odd-even)
        for (auto i = first; i < m_marks.size(); ++i) {
            const double x = m_marks[i].xPx, bottom = plot.bottom();
            path.moveTo(x - kMarkHalfWidthPx, bottom);
            path.lineTo(x + kMarkHalfWidthPx, bottom);
            path.lineTo(x, bottom - kMarkHeightPx);
            path.closeSubpath();
        }
        auto* item = new QGraphicsPathItem(path, m_chart);
        item->setBrush(kinds[k].color);
        // A thin light edge parts neighbouring marks and lifts them off the preemption bars.
        item->setPen(QPen(QColor(255, 255, 255, 200), 0.8));
        item->setZValue(101);  // above the preemption bars (100)
        m_items.push_back(item);
    }
}

QString EventMarkers::describe(const EventMark& m) const {
    // Two short lines: the readout must fit a small chart's plot, beside the series' values.
    const EventKind& kind = eventKinds()[m.kind];
    const QString first = kind.subjectName(*m_results, m.firstSubject);
    if (m.count == 1)
        return QStringLiteral("%1 at %2:\n  %3")
            .arg(tr(kind.singular), formatSimTime(m.firstS), first);
    return QStringLiteral("%1 %2, %3 – %4:\n  %5")
        .arg(QString::number(m.count), tr(kind.plural), formatSimTime(m.firstS),
             formatSimTime(m.lastS), tr("%1 and %2 more").arg(first).arg(m.count - 1));
}

QStringList EventMarkers::hoverLines(double timeS) const {
    QStringList lines;
    if (!m_results || !(m_pxPerS > 0)) return lines;
    // Per kind, the nearest mark within kMergePx (its span's distance: a merged mark answers
    // along all of it).
    for (std::size_t k = 0; k < eventKinds().size(); ++k) {
        const EventMark* nearest = nullptr;
        double nearestPx = kMergePx;
        for (const EventMark& m : m_marks) {
            if (m.kind != static_cast<int>(k)) continue;
            const double px =
                std::max({(m.firstS - timeS) * m_pxPerS, (timeS - m.lastS) * m_pxPerS, 0.0});
            if (px <= nearestPx) {
                nearest = &m;
                nearestPx = px;
            }
        }
        if (nearest) lines << describe(*nearest);
    }
    return lines;
}

}  // namespace gpuplan::ui
