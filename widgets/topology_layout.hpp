// Where every pod, rack, node and GPU cell of a fleet sits, in world units: pods in a grid,
// racks side by side inside a pod, nodes stacked inside a rack, GPU cells in a row per node.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QString>
#include <optional>
#include <vector>

#include "gpuplan/topology.hpp"

namespace gpuplan::ui {

/// What the pointer is over.
struct TopologyHit {
    enum class Kind { None, Pod, Rack, Node, Gpu };
    Kind kind = Kind::None;
    int pod = -1, rack = -1, node = -1, slot = -1;
    double cellX = -1;  ///< Gpu: where across the GPU's cell, 0..1 (which share, see gpu_sub_cells)
};

/// The name of the node, rack or pod a hit points at in `fleet`; empty when out of range.
QString targetName(const Fleet& fleet, const TopologyHit& hit);

class TopologyLayout {
public:
    static constexpr double kCell = 10, kGap = 2, kNodePad = 3, kNodeGap = 3;
    static constexpr double kRackPad = 6, kRackHeader = 14, kRackGap = 10;
    static constexpr double kPodPad = 10, kPodHeader = 20, kPodGap = 24;

    TopologyLayout() = default;
    explicit TopologyLayout(const Fleet& fleet);

    const QRectF& bounds() const { return m_bounds; }
    const QRectF& podRect(int pod) const { return m_pods[pod]; }
    const QRectF& rackRect(int rack) const { return m_racks[rack]; }
    const QRectF& nodeRect(int node) const { return m_nodes[node]; }
    QRectF gpuRect(int node, int slot) const;
    std::size_t podCount() const { return m_pods.size(); }

    TopologyHit hitTest(QPointF world) const;

private:
    const Fleet* m_fleet = nullptr;
    std::vector<QRectF> m_pods, m_racks, m_nodes;
    QRectF m_bounds;
};

}  // namespace gpuplan::ui
