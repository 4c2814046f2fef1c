#include "topology_layout.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::ui {

namespace {

using L = TopologyLayout;

double nodeWidth(int gpus) {
    return std::max(0, gpus) * (L::kCell + L::kGap) - L::kGap + 2 * L::kNodePad;
}

double rackWidth(const Fleet& fleet) {
    double widest = nodeWidth(1);
    for (const FleetNode& n : fleet.nodes)
        widest = std::max(widest, nodeWidth(n.gpus));
    return widest + 2 * L::kRackPad;
}

double rackHeight(const FleetRack& rack, double strip) {
    return strip + 2 * L::kRackPad +
           std::max(0.0, rack.nodeCount * (L::kNodeH + L::kNodeGap) - L::kNodeGap);
}

/// THE arrangement: pods left to right, `podsPerRow` a row, rows top to bottom; inside a pod
/// its name strip, then its racks (each `rackW` wide) left to right, `racksPerRow` a row. Calls
/// onPod / onRack with each rect and returns the size of the whole.
template <class OnPod, class OnRack>
QSizeF arrange(const Fleet& fleet, const LayoutShape& shape, double rackW, OnPod onPod,
               OnRack onRack) {
    const int podCount = static_cast<int>(fleet.pods.size());
    const int podsPerRow = shape.podsPerRow > 0 ? shape.podsPerRow : std::max(1, podCount);
    double x = 0, y = 0, rowH = 0, width = 0;
    for (int p = 0; p < podCount; ++p) {
        if (p > 0 && p % podsPerRow == 0) {
            x = 0;
            y += rowH + L::kPodGap;
            rowH = 0;
        }
        const FleetPod& pod = fleet.pods[p];
        const int perRow = std::max(
            1, shape.racksPerRow > 0 ? std::min(shape.racksPerRow, pod.rackCount) : pod.rackCount);
        const double racksTop = y + shape.podStrip;
        double rowTop = racksTop, rackRowH = 0;
        for (int i = 0; i < pod.rackCount; ++i) {
            if (i > 0 && i % perRow == 0) {
                rowTop += rackRowH + L::kRackGap;
                rackRowH = 0;
            }
            const int r = pod.firstRack + i;
            const double h = rackHeight(fleet.racks[r], shape.rackStrip);
            onRack(r,
                   QRectF(x + L::kPodPad + (i % perRow) * (rackW + L::kRackGap), rowTop, rackW, h));
            rackRowH = std::max(rackRowH, h);
        }
        const double podW = 2 * L::kPodPad + perRow * (rackW + L::kRackGap) - L::kRackGap;
        const double podH = shape.podStrip + (rowTop + rackRowH - racksTop) + L::kPodPad;
        onPod(p, QRectF(x, y, podW, podH));
        x += podW + L::kPodGap;
        width = std::max(width, x - L::kPodGap);
        rowH = std::max(rowH, podH);
    }
    return podCount > 0 ? QSizeF(width, y + rowH) : QSizeF();
}

/// Row lengths worth trying for `count` items: the length that gives 1, 2, 3, … rows, every
/// row count up to 16, then about 20 % more rows a step (a few dozen candidates even for
/// 100,000 racks).
std::vector<int> rowLengths(int count) {
    std::vector<int> lengths;
    count = std::max(1, count);
    for (int rows = 1; rows <= count; rows = rows < 16 ? rows + 1 : rows + (rows + 4) / 5) {
        const int length = (count + rows - 1) / rows;
        if (lengths.empty() || lengths.back() != length) lengths.push_back(length);
    }
    return lengths;
}

double zoomToFit(QSizeF size, QSizeF area, double maxZoom) {
    if (size.isEmpty()) return maxZoom;
    return std::min({area.width() / size.width(), area.height() / size.height(), maxZoom});
}

/// The racks and pods per row that fit the area at the largest zoom for `strips`' strips.
FittedShape bestArrangement(const Fleet& fleet, const FitRequest& request, double rackW,
                            LayoutShape shape) {
    int mostRacks = 1;
    for (const FleetPod& pod : fleet.pods)
        mostRacks = std::max(mostRacks, pod.rackCount);
    FittedShape best{shape, -1};
    auto noop = [](int, const QRectF&) {};
    // Fewer rows first, so a tie (two shapes both at maxZoom) keeps the longer rows.
    for (int racksPerRow : rowLengths(mostRacks)) {
        for (int podsPerRow : rowLengths(static_cast<int>(fleet.pods.size()))) {
            shape.racksPerRow = racksPerRow;
            shape.podsPerRow = podsPerRow;
            const double zoom = zoomToFit(arrange(fleet, shape, rackW, noop, noop), request.areaPx,
                                          request.maxZoom);
            if (zoom > best.zoom * (1 + 1e-9)) best = {shape, zoom};
        }
    }
    return best;
}

}  // namespace

TopologyLayout::TopologyLayout(const Fleet& fleet, const LayoutShape& shape)
    : m_fleet(&fleet), m_shape(shape) {
    m_nodes.resize(fleet.nodes.size());
    m_racks.resize(fleet.racks.size());
    m_pods.resize(fleet.pods.size());
    m_nodeGpus.reserve(fleet.nodes.size());
    for (const FleetNode& n : fleet.nodes)
        m_nodeGpus.push_back(n.gpus);
    const QSizeF size = arrange(
        fleet, shape, rackWidth(fleet), [this](int p, const QRectF& r) { m_pods[p] = r; },
        [&](int r, const QRectF& rect) {
            m_racks[r] = rect;
            const FleetRack& rack = fleet.racks[r];
            for (int i = 0; i < rack.nodeCount; ++i) {
                const int node = rack.firstNode + i;
                m_nodes[node] =
                    QRectF(rect.left() + kRackPad,
                           rect.top() + shape.rackStrip + kRackPad + i * (kNodeH + kNodeGap),
                           nodeWidth(fleet.nodes[node].gpus), kNodeH);
            }
        });
    m_bounds = QRectF(QPointF(0, 0), size);
}

QSizeF TopologyLayout::boundsOf(const Fleet& fleet, const LayoutShape& shape) {
    auto noop = [](int, const QRectF&) {};
    return arrange(fleet, shape, rackWidth(fleet), noop, noop);
}

bool TopologyLayout::matches(const Fleet& fleet) const {
    if (!m_fleet || fleet.pods.size() != m_pods.size() || fleet.racks.size() != m_racks.size() ||
        fleet.nodes.size() != m_nodes.size())
        return false;
    for (std::size_t n = 0; n < fleet.nodes.size(); ++n)
        if (fleet.nodes[n].gpus != m_nodeGpus[n]) return false;
    return true;
}

QRectF TopologyLayout::rackNameStrip(int rack) const {
    const QRectF& r = m_racks[rack];
    return QRectF(r.left(), r.top(), r.width(), m_shape.rackStrip);
}

QRectF TopologyLayout::podNameStrip(int pod) const {
    const QRectF& p = m_pods[pod];
    return QRectF(p.left(), p.top(), p.width(), m_shape.podStrip);
}

FittedShape fitShape(const Fleet& fleet, const FitRequest& request) {
    // What a name may cost: a rack's strip at most a quarter of a rack's nodes (or two node
    // heights), and a rack at least three name heights wide (room for "rack12"); a pod's
    // strips at most 15 % of the picture's height (or three node heights). Beyond that, the
    // default strips: the names show when zoomed in.
    double rackNodesH = 0;
    for (const FleetRack& rack : fleet.racks)
        rackNodesH += rackHeight(rack, 0) - 2 * L::kRackPad;
    rackNodesH /= std::max<std::size_t>(1, fleet.racks.size());
    const double mostRackStrip = std::max(2 * L::kNodeH, rackNodesH / 4);
    const int podCount = static_cast<int>(fleet.pods.size());
    const double rackW = rackWidth(fleet);
    auto noop = [](int, const QRectF&) {};
    LayoutShape strips;
    FittedShape best = bestArrangement(fleet, request, rackW, strips);
    // The strips' height depends on the zoom and the zoom on the strips: a few rounds settle
    // it (each round's change shrinks by the strips' share of the height).
    for (int round = 0; round < 6 && best.zoom > 0; ++round) {
        LayoutShape next = strips;
        const double rackStrip = request.rackNamePx / best.zoom;
        const bool rackNames =
            rackStrip <= mostRackStrip && rackW * best.zoom >= 3 * request.rackNamePx;
        next.rackStrip = rackNames ? rackStrip : LayoutShape::kRackStrip;
        const double podStrip = request.podNamePx / best.zoom;
        const int podsPerRow = best.shape.podsPerRow > 0 ? best.shape.podsPerRow : podCount;
        const int podRows = (podCount + std::max(1, podsPerRow) - 1) / std::max(1, podsPerRow);
        const double height = arrange(fleet, best.shape, rackW, noop, noop).height();
        const bool podNames = podStrip <= 3 * L::kNodeH || podStrip * podRows <= 0.15 * height;
        next.podStrip = podNames ? podStrip : LayoutShape::kPodStrip;
        if (std::abs(next.rackStrip - strips.rackStrip) < 1e-3 * strips.rackStrip &&
            std::abs(next.podStrip - strips.podStrip) < 1e-3 * strips.podStrip)
            break;
        strips = next;
        best = bestArrangement(fleet, request, rackW, strips);
    }
    return best;
}

QString targetName(const Fleet& f, const TopologyHit& hit) {
    auto in = [](int i, std::size_t n) { return i >= 0 && static_cast<std::size_t>(i) < n; };
    switch (hit.kind) {
        case TopologyHit::Kind::Node:
        case TopologyHit::Kind::Gpu:
            return in(hit.node, f.nodes.size()) ? QString::fromStdString(f.nodes[hit.node].name)
                                                : QString();
        case TopologyHit::Kind::Rack:
            return in(hit.rack, f.racks.size()) ? QString::fromStdString(f.racks[hit.rack].name)
                                                : QString();
        case TopologyHit::Kind::Pod:
            return in(hit.pod, f.pods.size()) ? QString::fromStdString(f.pods[hit.pod].name)
                                              : QString();
        case TopologyHit::Kind::None:
            break;
    }
    return {};
}

QRectF TopologyLayout::gpuRect(int node, int slot) const {
    const QRectF& n = m_nodes[node];
    return QRectF(n.left() + kNodePad + slot * (kCell + kGap), n.top() + kNodePad, kCell, kCell);
}

TopologyHit TopologyLayout::hitTest(QPointF p) const {
    TopologyHit hit;
    if (!m_fleet) return hit;
    for (std::size_t i = 0; i < m_pods.size(); ++i) {
        if (!m_pods[i].contains(p)) continue;
        hit.kind = TopologyHit::Kind::Pod;
        hit.pod = static_cast<int>(i);
        const FleetPod& pod = m_fleet->pods[i];
        for (int r = pod.firstRack; r < pod.firstRack + pod.rackCount; ++r) {
            if (!m_racks[r].contains(p)) continue;
            hit.kind = TopologyHit::Kind::Rack;
            hit.rack = r;
            const FleetRack& rack = m_fleet->racks[r];
            const double top = m_racks[r].top() + m_shape.rackStrip + kRackPad;
            const int i2 = static_cast<int>(std::floor((p.y() - top) / (kNodeH + kNodeGap)));
            if (i2 < 0 || i2 >= rack.nodeCount) return hit;
            const int node = rack.firstNode + i2;
            if (!m_nodes[node].contains(p)) return hit;
            hit.kind = TopologyHit::Kind::Node;
            hit.node = node;
            const int slot = static_cast<int>(
                std::floor((p.x() - m_nodes[node].left() - kNodePad) / (kCell + kGap)));
            if (slot >= 0 && slot < m_fleet->nodes[node].gpus && gpuRect(node, slot).contains(p)) {
                hit.kind = TopologyHit::Kind::Gpu;
                hit.slot = slot;
                const QRectF cell = gpuRect(node, slot);
                hit.cellX = std::clamp((p.x() - cell.left()) / cell.width(), 0.0, 1.0);
            }
            return hit;
        }
        return hit;
    }
    return hit;
}

}  // namespace gpuplan::ui
