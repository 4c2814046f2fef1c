// The fleet at time t: pods ⊃ racks ⊃ nodes ⊃ GPU cells coloured by the team whose job holds
// them, nodes outlined by buying class and marked when not Ready. Wheel zooms at the pointer,
// dragging the background pans, F fits. Zoomed out, racks turn into heat blocks of their
// allocation. Job templates and pinned jobs can be dropped on nodes, racks and pods. The middle
// button, or Space held with the left button, pans from anywhere, over GPUs too.
#pragma once

#include <QWidget>

class QMimeData;
#include <memory>

#include "gpu_sub_cells.hpp"
#include "gpuplan/results.hpp"
#include "topology_layout.hpp"

namespace gpuplan::ui {

inline constexpr const char* kTemplateMime = "application/x-gpuplan-job-template";
inline constexpr const char* kMoveJobMime = "application/x-gpuplan-move-job";

class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    /// `snapshot`: the cluster at the view's time, when the caller has it already (the main
    /// window computes one per change and shares it); otherwise the view computes it.
    void setResults(std::shared_ptr<const Results> results,
                    std::shared_ptr<const ClusterSnapshot> snapshot = {});
    void setTime(double timeS);
    /// As setTime(snapshot->timeS), with the cluster the caller computed (Results::stateAt
    /// once per time change, shared with the inspector and the pending list).
    void setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot);
    double time() const { return m_timeS; }
    const ClusterSnapshot& snapshot() const { return *m_snapshot; }
    /// The header at the top right: "t · N running · M pending (G GPUs)".
    QString statusText() const;
    const TopologyLayout& layout() const { return m_layout; }

    void setSelection(const TopologyHit& hit);
    /// The job drawn where `hit` points (a GPU hit: the holder of the share under the
    /// pointer), −1 when free or not a GPU.
    int jobAt(const TopologyHit& hit) const;
    const TopologyHit& selection() const { return m_selection; }
    /// Outlines the GPUs of one job (−1: none).
    void setHighlightedJob(int job);

    /// While a drag hovers a target: whether the job fits there and what would happen.
    void setDropFeedback(const TopologyHit& target, bool fits, const QString& text);
    void clearDropFeedback();

    void fitAll();
    /// Fits, and keeps fitting as the widget resizes until the user zooms or pans.
    void fitAndFollow();
    /// Pixels per world unit, and the world point at the widget's centre.
    double zoom() const { return m_zoom; }
    void setView(double zoom, QPointF worldCenter);
    QPointF toWorld(QPointF widgetPos) const;
    QPointF toWidget(QPointF worldPos) const;
    /// Node, rack or pod a drop at this widget position would target.
    TopologyHit dropTargetAt(QPointF widgetPos) const;

signals:
    void selectionChanged(const gpuplan::ui::TopologyHit& hit);
    void dragHovered(const gpuplan::ui::TopologyHit& target, const QString& format,
                     const QByteArray& payload);
    void dragLeft();
    void dropRequested(const gpuplan::ui::TopologyHit& target, const QString& format,
                       const QByteArray& payload);
    /// Right-click: what is under the pointer (a GPU reads as its node), where the menu opens.
    void contextMenuRequested(const gpuplan::ui::TopologyHit& hit, const QPoint& globalPos);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    void keyReleaseEvent(QKeyEvent*) override;
    bool event(QEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dragMoveEvent(QDragMoveEvent*) override;
    void dragLeaveEvent(QDragLeaveEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    void rebuildSnapshot();
    void countRackBusyGpus();  ///< from m_snapshot
    void paintPods(QPainter& p, const QRectF& visible);
    void paintRackHeat(QPainter& p, int rack);
    void paintNode(QPainter& p, int node, bool detailed);
    void paintOverlay(QPainter& p);
    void paintLegend(QPainter& p);
    QString sharedCellsNote() const;
    QRectF toWidget(const QRectF& world) const;
    QString tooltipAt(QPointF widgetPos) const;
    int legendWidth() const;
    static QString mimeFormat(const QMimeData* mime);

    std::shared_ptr<const Results> m_results;
    TopologyLayout m_layout;
    std::shared_ptr<const ClusterSnapshot> m_snapshot = std::make_shared<ClusterSnapshot>();
    std::vector<double> m_rackBusyGpus;  ///< GPU-equivalents held, per rack
    std::vector<GpuSubCell> m_subCells;  ///< scratch for paintNode
    bool m_hasSharedGpus = false;        ///< some node is MIG, MPS or time-sliced
    std::vector<QColor> m_teamColors;
    double m_timeS = 0;
    double m_zoom = 1;
    QPointF m_center;
    bool m_fitted = false;
    bool m_autoFit = true;  // follow resizes until the user zooms or pans
    TopologyHit m_selection;
    int m_highlightedJob = -1;
    TopologyHit m_dropTarget;
    bool m_dropFits = false;
    QString m_dropText;
    // Panning and dragging a pinned job.
    QPoint m_pressPos;
    QPointF m_pressCenter;
    bool m_panning = false;
    int m_pressJob = -1;
    bool m_spaceHeld = false;    // Space down: the left button pans anywhere
    bool m_spacePanned = false;  // …and did, so releasing Space is no tap
};

}  // namespace gpuplan::ui
