// The fleet at time t: pods ⊃ racks ⊃ nodes ⊃ GPU cells coloured by the team whose job holds
// them, nodes outlined by buying class and marked when not Ready. Fitted, the fleet is laid out
// to the view's shape (racks wrapped into rows) beside the legend and under the header, with
// every name that has room. Wheel zooms at the pointer, dragging the background pans, F fits.
// Zoomed out, racks turn into heat blocks of their allocation. Job templates and pinned jobs
// can be dropped on nodes, racks and pods. The middle button, or Space held with the left
// button, pans from anywhere, over GPUs too. (Painting: topology_view_paint.cpp.)
#pragma once

#include <QHash>
#include <QLineF>
#include <QWidget>

class QMimeData;
#include <array>
#include <memory>

#include "gpu_sub_cells.hpp"
#include "gpuplan/results/results.hpp"
#include "topology_chrome.hpp"
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
    /// once per time change, shared with the inspector and the pending list). A snapshot of
    /// another fleet than the results' (sizes differ) is not used: the view looks its own
    /// cluster up at that time instead.
    void setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot);
    double time() const { return m_timeS; }
    const Results* results() const { return m_results.get(); }
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

    /// F: lays the fleet out to the view's shape and fits it, and keeps doing so as the widget
    /// resizes or the fleet changes until the user zooms or pans.
    void fitAll();
    /// Whether the view still follows the fit (no zoom or pan since the last one).
    bool followsFit() const { return m_autoFit; }
    /// Pixels per world unit, and the world point at the widget's centre.
    double zoom() const { return m_zoom; }
    void setView(double zoom, QPointF worldCenter);
    QPointF toWorld(QPointF widgetPos) const;
    QPointF toWidget(QPointF worldPos) const;
    QRectF toWidget(const QRectF& world) const;
    /// Node, rack or pod a drop at this widget position would target.
    TopologyHit dropTargetAt(QPointF widgetPos) const;

    /// Where things are drawn now, in widget pixels: a rack's or pod's name (empty when it
    /// has no room to show), the legend, the header's box, and the area the fit fills.
    QRectF rackNameRect(int rack) const;
    QRectF podNameRect(int pod) const;
    /// A not-Ready node's state ("PROVISIONING", "ON DEMAND · OFF"), whole or not at all.
    QRectF nodeStateLabelRect(int node) const;
    QRectF legendRect() const { return m_chrome.legend; }
    QRectF headerRect() const;
    QRectF fitArea() const { return m_chrome.fleetArea; }

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
    void changeEvent(QEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dragMoveEvent(QDragMoveEvent*) override;
    void dragLeaveEvent(QDragLeaveEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    /// A name drawn in a strip (a rack's or pod's top): its font, its (elided) text and where.
    struct StripLabel {
        QFont font;
        QString text;
        QRectF rect;  ///< empty: no room
    };
    /// `shortName`, when given, is shown instead of an elided `name`.
    StripLabel stripLabel(const QRectF& stripPx, const QString& name, const QFont& font,
                          const QString& shortName = {}) const;
    QString rackName(int rack) const;
    QString rackShortName(int rack) const;  ///< without its pod's name in front, or empty
    QFont rackNameFont() const;
    QFont podNameFont() const;
    QString statusTextFor(double timeS, std::size_t running, std::size_t pending,
                          long long pendingGpus) const;
    void applyFit();
    void placeChromeForSize();  ///< the legend and header for the size, the layout kept
    void rebuildLegendItems();
    void updateHeaderRoom();  ///< the widest header these results can have (walks the jobs)
    void rebuildSnapshot();
    void countRackBusyGpus();  ///< from m_snapshot
    void paintPods(QPainter& p, const QRectF& visible);
    void paintRackHeat(QPainter& p, int rack);
    /// What the visible nodes draw, collected while walking them and then drawn with one call per
    /// colour or pen: tens of thousands of cells cost a handful of state changes, not one each.
    struct NodeBatch {
        /// Cells in whole pixels (the raster engine fills those fastest); per team, the last
        /// free capacity.
        std::vector<std::vector<QRect>> fills;
        std::array<std::vector<QRectF>, kBuyingClassCount> outlines;
        std::array<std::vector<QRect>, kBuyingClassCount> thinOutlines;  ///< 1 px, whole pixels
        std::vector<QRectF> uncut, highlight, migMarks, mpsDots;
        std::vector<QLineF> hairlines;
        std::vector<int> decorated;  ///< nodes with more to draw: not Ready, slow or selected

        void clear(std::size_t teams) {
            fills.resize(teams + 1);
            for (auto& f : fills)
                f.clear();
            for (auto& o : outlines)
                o.clear();
            for (auto& o : thinOutlines)
                o.clear();
            for (auto* v : {&uncut, &highlight, &migMarks, &mpsDots})
                v->clear();
            hairlines.clear();
            decorated.clear();
        }
    };
    void collectNode(int node, bool detailed, NodeBatch& batch);
    void flushNodes(QPainter& p, bool detailed, const NodeBatch& batch);
    void paintNodeState(QPainter& p, int node, bool detailed);  ///< not Ready, slow, selected
    void paintOverlay(QPainter& p);
    struct NodeLabel {
        QFont font;
        QRectF rect;  ///< empty: no room
    };
    NodeLabel nodeLabel(const QRectF& nodePx, const QString& text, Qt::Alignment align) const;
    QString stateLabel(int node) const;
    /// Cells large enough for node labels, hairlines and marks.
    bool detailedAtZoom() const { return TopologyLayout::kCell * m_zoom >= 7; }
    void paintNodeLabel(QPainter& p, const QRectF& nodePx, const QString& label,
                        const QColor& color, const QColor& background, Qt::Alignment align);
    /// The legend's last line: what a cell is, or at the current zoom (`atZoom`) what the
    /// heat blocks are when racks are drawn as such.
    QString cellsNote(bool atZoom = true) const;
    QString heatNote() const;
    QString tooltipAt(QPointF widgetPos) const;
    static QString mimeFormat(const QMimeData* mime);

    static constexpr double kMinZoom = 0.02, kMaxZoom = 12;
    static constexpr double kHeatBelowCellPx = 3.5;  // smaller cells: racks become heat blocks

    std::shared_ptr<const Results> m_results;
    TopologyLayout m_layout;
    std::shared_ptr<const ClusterSnapshot> m_snapshot = std::make_shared<ClusterSnapshot>();
    std::vector<double> m_rackBusyGpus;  ///< GPU-equivalents held, per rack
    std::vector<GpuSubCell> m_subCells;  ///< scratch for collectNode
    NodeBatch m_nodeBatch;               ///< scratch for paintPods
    bool m_hasSharedGpus = false;        ///< some node is MIG, MPS or time-sliced
    std::vector<LegendItem> m_legendItems;
    QSizeF m_headerRoom;  ///< room kept for the header (updateHeaderRoom)
    mutable QHash<QString, double> m_labelAdvance100;  ///< node labels' width at 100 px, bold
    ViewChrome m_chrome;
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
