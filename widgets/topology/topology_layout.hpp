// Where every pod, rack, node and GPU cell of a fleet sits, in world units: pods in rows, the
// racks of a pod in rows inside it (wrapped so the whole fits the view's shape), nodes stacked
// inside a rack, GPU cells in a row per node. Pods and racks carry a name strip at their top,
// sized so the names are legible at the zoom the fleet is fitted at.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <optional>
#include <vector>

#include "gpuplan/model/topology.hpp"

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

/// How a fleet is arranged: racks per row inside a pod, pods per row, and the height of the
/// name strips at the top of racks and pods (world units).
struct LayoutShape {
    static constexpr double kRackStrip = 14, kPodStrip = 20;  ///< when no fit chose them
    int racksPerRow = 0;  ///< 0: all of a pod's racks in one row
    int podsPerRow = 0;   ///< 0: all pods in one row
    double rackStrip = kRackStrip;
    double podStrip = kPodStrip;
};

class TopologyLayout {
public:
    static constexpr double kCell = 10, kGap = 2, kNodePad = 3, kNodeGap = 3;
    static constexpr double kRackPad = 6, kRackGap = 10;
    static constexpr double kPodPad = 10, kPodGap = 24;
    static constexpr double kNodeH = kCell + 2 * kNodePad;

    TopologyLayout() = default;
    explicit TopologyLayout(const Fleet& fleet, const LayoutShape& shape = {});

    const LayoutShape& shape() const { return m_shape; }
    const QRectF& bounds() const { return m_bounds; }
    const QRectF& podRect(int pod) const { return m_pods[pod]; }
    const QRectF& rackRect(int rack) const { return m_racks[rack]; }
    const QRectF& nodeRect(int node) const { return m_nodes[node]; }
    /// The strip at the top of a rack or pod where its name goes.
    QRectF rackNameStrip(int rack) const;
    QRectF podNameStrip(int pod) const;
    QRectF gpuRect(int node, int slot) const;
    std::size_t podCount() const { return m_pods.size(); }
    std::size_t rackCount() const { return m_racks.size(); }
    std::size_t nodeCount() const { return m_nodes.size(); }
    /// Laid out for a fleet of exactly these pods, racks, nodes and GPUs per node.
    bool matches(const Fleet& fleet) const;

    TopologyHit hitTest(QPointF world) const;

    /// The size of the layout `shape` gives `fleet`, without placing every node.
    static QSizeF boundsOf(const Fleet& fleet, const LayoutShape& shape);

private:
    const Fleet* m_fleet = nullptr;
    LayoutShape m_shape;
    std::vector<QRectF> m_pods, m_racks, m_nodes;
    std::vector<int> m_nodeGpus;  ///< what matches() compares
    QRectF m_bounds;
};

/// A shape and the zoom (pixels per world unit) that fits its layout into an area.
struct FittedShape {
    LayoutShape shape;
    double zoom = 1;
};

/// What a fit asks of the layout: the area in pixels, how tall a rack's and a pod's name is
/// on screen (pixels), and the largest zoom worth fitting at (a lone rack need not fill a wall).
struct FitRequest {
    QSizeF areaPx;
    double rackNamePx = 14;
    double podNamePx = 16;
    double maxZoom = 5;
};

/// The racks per row and pods per row whose layout fits the area at the largest zoom (ties:
/// the fewest rows), with name strips as tall as the names at that zoom when that costs at
/// most a couple of node heights (else the default strips: names show when zoomed in).
FittedShape fitShape(const Fleet& fleet, const FitRequest& request);

}  // namespace gpuplan::ui
