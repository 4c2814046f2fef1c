#include "topology_layout.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::ui {

TopologyLayout::TopologyLayout(const Fleet& fleet) : m_fleet(&fleet) {
    m_nodes.resize(fleet.nodes.size());
    m_racks.resize(fleet.racks.size());
    m_pods.resize(fleet.pods.size());
    double maxNodeW = 0;
    for (const FleetNode& n : fleet.nodes)
        maxNodeW = std::max(maxNodeW, n.gpus * (kCell + kGap) - kGap + 2 * kNodePad);
    const double nodeH = kCell + 2 * kNodePad;
    const double rackW = maxNodeW + 2 * kRackPad;

    // Pod sizes first, so pods can go into a grid of roughly 16:10.
    std::vector<QSizeF> podSize(fleet.pods.size());
    for (std::size_t p = 0; p < fleet.pods.size(); ++p) {
        const FleetPod& pod = fleet.pods[p];
        double tallest = 0;
        for (int r = pod.firstRack; r < pod.firstRack + pod.rackCount; ++r)
            tallest = std::max(tallest, fleet.racks[r].nodeCount * (nodeH + kNodeGap) - kNodeGap);
        const double racksW = pod.rackCount * (rackW + kRackGap) - kRackGap;
        podSize[p] = QSizeF(racksW + 2 * kPodPad,
                            kPodHeader + kRackHeader + tallest + 2 * kRackPad + kPodPad);
    }
    double meanW = 0, meanH = 0;
    for (const QSizeF& s : podSize) {
        meanW += s.width();
        meanH += s.height();
    }
    const double n = std::max<double>(1, podSize.size());
    const int columns =
        std::max(1, static_cast<int>(std::ceil(std::sqrt(n * 1.6 * meanH / std::max(1.0, meanW)))));

    double x = 0, y = 0, rowH = 0;
    for (std::size_t p = 0; p < fleet.pods.size(); ++p) {
        if (p > 0 && p % columns == 0) {
            x = 0;
            y += rowH + kPodGap;
            rowH = 0;
        }
        m_pods[p] = QRectF(QPointF(x, y), podSize[p]);
        const FleetPod& pod = fleet.pods[p];
        double rx = x + kPodPad;
        for (int r = pod.firstRack; r < pod.firstRack + pod.rackCount; ++r) {
            const FleetRack& rack = fleet.racks[r];
            const double ry = y + kPodHeader;
            const double rackH =
                kRackHeader + rack.nodeCount * (nodeH + kNodeGap) - kNodeGap + 2 * kRackPad;
            m_racks[r] = QRectF(rx, ry, rackW, rackH);
            for (int i = 0; i < rack.nodeCount; ++i) {
                const int node = rack.firstNode + i;
                const double w = fleet.nodes[node].gpus * (kCell + kGap) - kGap + 2 * kNodePad;
                m_nodes[node] = QRectF(
                    rx + kRackPad, ry + kRackHeader + kRackPad + i * (nodeH + kNodeGap), w, nodeH);
            }
            rx += rackW + kRackGap;
        }
        x += podSize[p].width() + kPodGap;
        rowH = std::max(rowH, podSize[p].height());
        m_bounds = m_bounds.united(m_pods[p]);
    }
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
            const double nodeStep = kCell + 2 * kNodePad + kNodeGap;
            const double top = m_racks[r].top() + kRackHeader + kRackPad;
            const int i2 = static_cast<int>(std::floor((p.y() - top) / nodeStep));
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
