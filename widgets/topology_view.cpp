#include "topology_view.hpp"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDrag>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gpuplan/workload.hpp"
#include "ui_palette.hpp"

namespace gpuplan::ui {

namespace {
constexpr double kMinZoom = 0.02, kMaxZoom = 12;
constexpr double kHeatBelowCellPx = 3.5;  // cells smaller than this: racks become heat blocks
}  // namespace

TopologyView::TopologyView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void TopologyView::setResults(std::shared_ptr<const Results> results,
                              std::shared_ptr<const ClusterSnapshot> snapshot) {
    const bool keepView = m_results && results && m_results->fleet.sameNodes(results->fleet);
    m_results = std::move(results);
    m_highlightedJob = -1;  // job numbers change between runs
    if (!m_results) {
        m_layout = TopologyLayout();
        update();
        return;
    }
    m_layout = TopologyLayout(m_results->fleet);
    m_teamColors = teamColors(*m_results);
    m_hasSharedGpus =
        std::any_of(m_results->fleet.nodes.begin(), m_results->fleet.nodes.end(),
                    [](const FleetNode& n) { return n.sharing.mode != SharingMode::Whole; });
    if (!keepView) {
        m_fitted = false;
        m_autoFit = true;
        m_selection = TopologyHit();
        m_dropTarget = TopologyHit();
    }
    if (snapshot) {
        m_timeS = snapshot->timeS;
        m_snapshot = std::move(snapshot);
        countRackBusyGpus();
    } else {
        m_timeS = std::clamp(m_timeS, 0.0, m_results->horizonS);
        rebuildSnapshot();
    }
    if (!m_fitted) fitAll();
    update();
}

void TopologyView::setTime(double timeS) {
    m_timeS = timeS;
    rebuildSnapshot();
    update();
}

void TopologyView::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot) {
    m_timeS = snapshot->timeS;
    m_snapshot = std::move(snapshot);
    countRackBusyGpus();
    update();
}

void TopologyView::rebuildSnapshot() {
    if (!m_results) return;
    m_snapshot = std::make_shared<const ClusterSnapshot>(m_results->stateAt(m_timeS));
    countRackBusyGpus();
}

void TopologyView::countRackBusyGpus() {
    if (!m_results) return;
    m_rackBusyGpus.assign(m_results->fleet.racks.size(), 0);
    for (std::size_t n = 0; n < m_results->fleet.nodes.size(); ++n) {
        const int first = m_results->firstGpuOfNode[n];
        double busy = 0;  // shares count by their share
        for (int g = 0; g < m_results->fleet.nodes[n].gpus; ++g)
            busy += heldGpuEquivalents(*m_snapshot, first + g);
        m_rackBusyGpus[m_results->fleet.nodes[n].rack] += busy;
    }
}

int TopologyView::jobAt(const TopologyHit& hit) const {
    if (!m_results || hit.kind != TopologyHit::Kind::Gpu) return -1;
    const int gpu = m_results->firstGpuOfNode[hit.node] + hit.slot;
    // A hit made without a pointer (a test, a selection restored) means the main holder.
    return hit.cellX < 0 ? m_snapshot->gpuJob[gpu] : jobAtCellX(*m_snapshot, gpu, hit.cellX);
}

void TopologyView::setSelection(const TopologyHit& hit) {
    m_selection = hit;
    update();
}

void TopologyView::setHighlightedJob(int job) {
    m_highlightedJob = job;
    update();
}

void TopologyView::setDropFeedback(const TopologyHit& target, bool fits, const QString& text) {
    m_dropTarget = target;
    m_dropFits = fits;
    m_dropText = text;
    update();
}

void TopologyView::clearDropFeedback() {
    m_dropTarget = TopologyHit();
    m_dropText.clear();
    update();
}

void TopologyView::fitAll() {
    if (!m_results || width() <= 0 || height() <= 0) return;
    // Fit into the area right of the legend and below the status line.
    const QRectF area(legendWidth() + 16, 40, std::max(40, width() - legendWidth() - 28),
                      std::max(40, height() - 52));
    const QRectF b = m_layout.bounds();
    m_zoom = std::clamp(std::min(area.width() / b.width(), area.height() / b.height()), kMinZoom,
                        kMaxZoom);
    // Centre of the widget maps to the world point that puts b's centre at area's centre.
    m_center = b.center() - (area.center() - QPointF(width() / 2.0, height() / 2.0)) / m_zoom;
    m_fitted = true;
    update();
}

int TopologyView::legendWidth() const {
    if (!m_results) return 0;
    const QFontMetrics fm(font());
    int w =
        fm.horizontalAdvance(m_hasSharedGpus ? sharedCellsNote() : tr("racks: allocation heat")) +
        20;
    for (const std::string& t : m_results->teams)
        w = std::max(w, fm.horizontalAdvance(QString::fromStdString(t)) + fm.height() + 16);
    return std::min(w, 260);
}

QString TopologyView::sharedCellsNote() const {
    return tr("cell: GPU; stripe: share; ● MPS/TS; □ MIG");
}

void TopologyView::fitAndFollow() {
    m_autoFit = true;
    fitAll();
}

void TopologyView::setView(double zoom, QPointF worldCenter) {
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_center = worldCenter;
    m_fitted = true;
    update();
}

QPointF TopologyView::toWorld(QPointF w) const {
    return m_center + (w - QPointF(width() / 2.0, height() / 2.0)) / m_zoom;
}

QPointF TopologyView::toWidget(QPointF world) const {
    return (world - m_center) * m_zoom + QPointF(width() / 2.0, height() / 2.0);
}

QRectF TopologyView::toWidget(const QRectF& world) const {
    return QRectF(toWidget(world.topLeft()), world.size() * m_zoom);
}

TopologyHit TopologyView::dropTargetAt(QPointF widgetPos) const {
    TopologyHit hit = m_layout.hitTest(toWorld(widgetPos));
    if (hit.kind == TopologyHit::Kind::Gpu) hit.kind = TopologyHit::Kind::Node;
    hit.slot = -1;
    return hit;
}

// ---- painting ------------------------------------------------------------------------------

void TopologyView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    if (!m_results) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Waiting for the first results…"));
        return;
    }
    const QRectF visible(toWorld(QPointF(0, 0)), toWorld(QPointF(width(), height())));
    paintPods(p, visible);
    paintOverlay(p);
    paintLegend(p);
}

void TopologyView::paintPods(QPainter& p, const QRectF& visible) {
    const Fleet& fleet = m_results->fleet;
    const double cellPx = TopologyLayout::kCell * m_zoom;
    const bool heat = cellPx < kHeatBelowCellPx;
    const QColor frame = palette().color(QPalette::Mid);
    const QColor text = palette().color(QPalette::WindowText);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    for (std::size_t pod = 0; pod < fleet.pods.size(); ++pod) {
        const QRectF podWorld = m_layout.podRect(static_cast<int>(pod));
        if (!podWorld.intersects(visible)) continue;
        const QRectF podRect = toWidget(podWorld);
        p.setPen(QPen(frame, 1));
        p.setBrush(palette().color(QPalette::AlternateBase));
        p.drawRoundedRect(podRect, 4, 4);
        if (TopologyLayout::kPodHeader * m_zoom >= 9) {
            p.setPen(text);
            p.setFont(font());
            p.drawText(podRect.adjusted(6, 2, -6, 0), Qt::AlignLeft | Qt::AlignTop,
                       QString::fromStdString(fleet.pods[pod].name));
        }
        const FleetPod& fp = fleet.pods[pod];
        for (int r = fp.firstRack; r < fp.firstRack + fp.rackCount; ++r) {
            if (!m_layout.rackRect(r).intersects(visible)) continue;
            if (heat) {
                paintRackHeat(p, r);
                continue;
            }
            const QRectF rackRect = toWidget(m_layout.rackRect(r));
            p.setPen(QPen(frame, 1));
            p.setBrush(palette().color(QPalette::Base));
            p.drawRect(rackRect);
            if (TopologyLayout::kRackHeader * m_zoom >= 8) {
                p.setFont(small);
                p.setPen(text);
                p.drawText(rackRect.adjusted(4, 1, -4, 0), Qt::AlignLeft | Qt::AlignTop,
                           QString::fromStdString(fleet.racks[r].name));
            }
            const FleetRack& rack = fleet.racks[r];
            for (int n = rack.firstNode; n < rack.firstNode + rack.nodeCount; ++n)
                if (m_layout.nodeRect(n).intersects(visible)) paintNode(p, n, cellPx >= 7);
        }
    }
}

void TopologyView::paintRackHeat(QPainter& p, int rack) {
    const Fleet& fleet = m_results->fleet;
    const FleetRack& r = fleet.racks[rack];
    int gpus = 0, notReady = 0;
    for (int n = r.firstNode; n < r.firstNode + r.nodeCount; ++n) {
        gpus += fleet.nodes[n].gpus;
        const NodeState s = m_snapshot->nodeStates[n];
        if (s != NodeState::Ready && s != NodeState::Cordoned && s != NodeState::Draining)
            notReady += fleet.nodes[n].gpus;
    }
    const double busy = gpus ? static_cast<double>(m_rackBusyGpus[rack]) / gpus : 0;
    // Light (idle) to deep blue (full): allocation at a glance.
    const QColor idle = freeGpuColor(palette()), full("#1f4e79");
    const QColor c = QColor::fromRgbF(idle.redF() + (full.redF() - idle.redF()) * busy,
                                      idle.greenF() + (full.greenF() - idle.greenF()) * busy,
                                      idle.blueF() + (full.blueF() - idle.blueF()) * busy);
    const QRectF rr = toWidget(m_layout.rackRect(rack));
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawRect(rr);
    if (notReady > 0) {
        p.setBrush(QBrush(notReadyColor(), Qt::BDiagPattern));
        p.drawRect(QRectF(rr.left(), rr.bottom() - rr.height() * notReady / gpus, rr.width(),
                          rr.height() * notReady / gpus));
    }
}

void TopologyView::paintNode(QPainter& p, int node, bool detailed) {
    const Fleet& fleet = m_results->fleet;
    const FleetNode& info = fleet.nodes[node];
    const QRectF nr = toWidget(m_layout.nodeRect(node));
    const NodeState state = m_snapshot->nodeStates[node];
    const bool ready = state == NodeState::Ready;
    // Outline by buying class; a dashed outline for spot capacity.
    QPen outline(buyingClassColor(info.buyingClass), detailed ? 1.5 : 1);
    if (info.buyingClass == BuyingClass::Spot) outline.setStyle(Qt::DashLine);
    p.setPen(outline);
    p.setBrush(Qt::NoBrush);
    p.drawRect(nr);
    const QColor freeColor = freeGpuColor(palette());
    const int first = m_results->firstGpuOfNode[node];
    p.setPen(Qt::NoPen);
    const bool sharedMode =
        info.sharing.mode == SharingMode::Mps || info.sharing.mode == SharingMode::TimeSlicing;
    for (int g = 0; g < info.gpus; ++g) {
        const QRectF cell = toWidget(m_layout.gpuRect(node, g));
        // A shared GPU or MIG instances: a stripe per holder, as wide as its share.
        gpuSubCells(*m_snapshot, first + g, m_subCells);
        const bool split = m_subCells.size() > 1;
        for (const GpuSubCell& sc : m_subCells) {
            const QRectF r(cell.left() + sc.x0 * cell.width(), cell.top(),
                           (sc.x1 - sc.x0) * cell.width(), cell.height());
            p.setBrush(sc.job >= 0 ? m_teamColors[m_results->jobs[sc.job].spec.team] : freeColor);
            p.drawRect(r);
            if (sc.uncut) {
                // MIG memory in no instance: no pod can use it until the GPU is re-cut.
                p.setBrush(QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
                p.drawRect(r);
            }
            if (split && sc.x1 < 1 && cell.width() >= 14) {
                // A hairline between holders, once each stripe is a few pixels wide.
                p.setPen(QPen(palette().color(QPalette::Base), 1));
                p.drawLine(QPointF(r.right(), r.top()), QPointF(r.right(), r.bottom()));
                p.setPen(Qt::NoPen);
            }
            if (sc.job >= 0 && sc.job == m_highlightedJob) {
                p.setPen(QPen(palette().color(QPalette::Highlight), 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(split ? r : r.adjusted(-1, -1, 1, 1));
                p.setPen(Qt::NoPen);
            }
        }
        if ((sharedMode || info.sharing.mode == SharingMode::Mig) && cell.height() >= 8) {
            // A dot marks an MPS / time-sliced GPU, a hollow square a MIG GPU, used or not.
            const double d = std::max(2.0, cell.height() * 0.12);
            const QPointF c(cell.right() - d * 1.2, cell.top() + d * 1.2);
            if (sharedMode) {
                p.setBrush(palette().color(QPalette::WindowText));
                p.drawEllipse(c, d / 2, d / 2);
            } else {
                p.setPen(QPen(palette().color(QPalette::WindowText), 1));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(c.x() - d / 2, c.y() - d / 2, d, d));
                p.setPen(Qt::NoPen);
            }
        }
    }
    if (!ready) {
        // Not Ready: hatched over, with the state spelled out when there is room.
        // Single hatch: still holds its pods (cordoned, draining); cross: holds nothing.
        const bool holdsPods = state == NodeState::Cordoned || state == NodeState::Draining;
        p.setBrush(QBrush(notReadyColor(), holdsPods ? Qt::FDiagPattern : Qt::DiagCrossPattern));
        p.drawRect(nr);
        if (detailed && nr.height() >= 10) {
            QFont f = font();
            f.setPointSizeF(std::max(6.0, nr.height() * 0.45));
            f.setBold(true);
            p.setFont(f);
            p.setPen(palette().color(QPalette::WindowText));
            // An elastic on-demand node not provisioned is not bought yet, not being delivered.
            const QString label = info.elastic && state == NodeState::Provisioning
                                      ? tr("ON DEMAND · OFF")
                                      : QString::fromLatin1(toString(state)).toUpper();
            p.drawText(nr, Qt::AlignCenter, label);
        }
    }
    if (info.speed < 1) {
        // Fail-slow: a dashed red frame, and its pace where there is room. It runs, so it
        // looks like any other node but for this: what an operator has to find.
        const QColor slow(0xd6, 0x27, 0x28);
        p.setPen(QPen(slow, 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(nr.adjusted(-1.5, -1.5, 1.5, 1.5));
        if (detailed && ready && nr.height() >= 10) {
            QFont f = font();
            f.setPointSizeF(std::max(6.0, nr.height() * 0.4));
            f.setBold(true);
            p.setFont(f);
            const QString label = tr("SLOW ×%1").arg(info.speed, 0, 'g', 2);
            const QRectF tag(nr.right() - QFontMetricsF(f).horizontalAdvance(label) - 6, nr.top(),
                             QFontMetricsF(f).horizontalAdvance(label) + 6, nr.height());
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 255, 255, 200));
            p.drawRect(tag);
            p.setPen(slow);
            p.drawText(tag, Qt::AlignCenter, label);
        }
        p.setPen(Qt::NoPen);
    }
    const bool selected = (m_selection.kind == TopologyHit::Kind::Node ||
                           m_selection.kind == TopologyHit::Kind::Gpu) &&
                          m_selection.node == node;
    if (selected) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(nr.adjusted(-2, -2, 2, 2));
        if (m_selection.kind == TopologyHit::Kind::Gpu)
            p.drawRect(
                toWidget(m_layout.gpuRect(node, m_selection.slot)).adjusted(-1.5, -1.5, 1.5, 1.5));
    }
}

void TopologyView::paintOverlay(QPainter& p) {
    // Pinned jobs still pending: their target outlined in the colour of the blamed layer.
    for (const PendingJob& e : m_snapshot->pending) {
        const JobSpec& s = m_results->jobs[e.job].spec;
        if (s.pinLevel == PinLevel::None) continue;
        QRectF target;
        if (s.pinLevel == PinLevel::Node) target = m_layout.nodeRect(s.pinIndex);
        if (s.pinLevel == PinLevel::Rack) target = m_layout.rackRect(s.pinIndex);
        if (s.pinLevel == PinLevel::Pod) target = m_layout.podRect(s.pinIndex);
        p.setPen(QPen(layerColor(e.layer), 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(toWidget(target).adjusted(-3, -3, 3, 3));
    }
    // The drop target while a job is dragged over the fleet.
    if (m_dropTarget.kind != TopologyHit::Kind::None) {
        QRectF target;
        if (m_dropTarget.kind == TopologyHit::Kind::Node)
            target = m_layout.nodeRect(m_dropTarget.node);
        if (m_dropTarget.kind == TopologyHit::Kind::Rack)
            target = m_layout.rackRect(m_dropTarget.rack);
        if (m_dropTarget.kind == TopologyHit::Kind::Pod)
            target = m_layout.podRect(m_dropTarget.pod);
        const QColor c = m_dropFits ? QColor("#27ae60") : QColor("#c0392b");
        const QRectF r = toWidget(target).adjusted(-3, -3, 3, 3);
        p.setPen(QPen(c, 3));
        QColor fill = c;
        fill.setAlpha(40);
        p.setBrush(fill);
        p.drawRect(r);
        if (!m_dropText.isEmpty()) {
            p.setFont(font());  // painting nodes may have left a large bold font set
            const QFontMetrics fm(font());
            const QRect textRect =
                fm.boundingRect(QRect(0, 0, 420, 200), Qt::TextWordWrap, m_dropText)
                    .adjusted(-6, -4, 6, 4);
            QRectF box(r.left(), r.top() - textRect.height() - 4, textRect.width(),
                       textRect.height());
            if (box.top() < 0) box.moveTop(r.bottom() + 4);
            box.moveLeft(std::clamp(box.left(), 2.0, std::max(2.0, width() - box.width() - 2)));
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(20, 20, 20, 220));
            p.drawRoundedRect(box, 4, 4);
            p.setPen(Qt::white);
            p.drawText(box.adjusted(6, 4, -6, -4), Qt::TextWordWrap, m_dropText);
        }
    }
    const QString status = statusText();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const QRect box =
        QFontMetrics(bold).boundingRect(status).adjusted(-8, -4, 8, 4).translated(width() - 12, 10);
    QRect placed(width() - box.width() - 10, 8, box.width(), box.height());
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(225);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(placed, 4, 4);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(placed, Qt::AlignCenter, status);
}

QString TopologyView::statusText() const {
    if (!m_results) return {};
    // "pending" counts the rows of the pending list (Results::pendingAt), bound-but-stuck
    // jobs of the workload layer included.
    int pendingGpus = 0;
    for (const PendingJob& e : m_snapshot->pending)
        pendingGpus += m_results->jobs[e.job].spec.gpus;
    return tr("%1 · %2 running · %3 pending (%4 GPUs)")
        .arg(formatSimTime(m_timeS))
        .arg(m_snapshot->runningJobs.size())
        .arg(m_snapshot->pending.size())
        .arg(pendingGpus);
}

void TopologyView::paintLegend(QPainter& p) {
    const QFontMetrics fm(font());
    const int row = fm.height() + 2, sw = fm.height() - 4;
    std::vector<std::pair<QColor, QString>> items;
    for (std::size_t t = 0; t < m_results->teams.size() && t < 12; ++t)
        items.push_back({m_teamColors[t], QString::fromStdString(m_results->teams[t])});
    items.push_back({freeGpuColor(palette()), tr("free GPU")});
    int w = 0;
    for (const auto& [c, label] : items)
        w = std::max(w, fm.horizontalAdvance(label));
    w += sw + 20;
    const int extra = 3;  // not-ready, spot, heat note
    QRect box(10, 8, std::max(w, legendWidth()), row * static_cast<int>(items.size() + extra) + 8);
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(225);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(box, 4, 4);
    int y = box.top() + 4;
    p.setFont(font());
    for (const auto& [c, label] : items) {
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRect(box.left() + 6, y + 2, sw, sw);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(box.left() + sw + 12, y, box.width(), row, Qt::AlignVCenter, label);
        y += row;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QBrush(notReadyColor(), Qt::DiagCrossPattern));
    p.drawRect(box.left() + 6, y + 2, sw, sw);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(box.left() + sw + 12, y, box.width(), row, Qt::AlignVCenter, tr("not Ready"));
    y += row;
    p.setPen(QPen(buyingClassColor(BuyingClass::Spot), 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box.left() + 6, y + 2, sw, sw);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(box.left() + sw + 12, y, box.width(), row, Qt::AlignVCenter, tr("spot node"));
    y += row;
    p.drawText(box.left() + 6, y, box.width(), row, Qt::AlignVCenter,
               TopologyLayout::kCell * m_zoom < kHeatBelowCellPx ? tr("racks: allocation heat")
               : m_hasSharedGpus                                 ? sharedCellsNote()
                                                                 : tr("cells: one GPU"));
}

// ---- interaction ---------------------------------------------------------------------------

void TopologyView::resizeEvent(QResizeEvent*) {
    if (!m_fitted || m_autoFit) fitAll();
}

void TopologyView::wheelEvent(QWheelEvent* e) {
    const QPointF anchor = e->position();
    const QPointF before = toWorld(anchor);
    const double steps = e->angleDelta().y() / 120.0;
    m_zoom = std::clamp(m_zoom * std::pow(1.2, steps), kMinZoom, kMaxZoom);
    m_autoFit = false;
    // Keep the world point under the pointer where it was.
    m_center += before - toWorld(anchor);
    m_fitted = true;
    update();
    e->accept();
}

void TopologyView::contextMenuEvent(QContextMenuEvent* e) {
    if (!m_results) return;
    emit contextMenuRequested(dropTargetAt(e->pos()), e->globalPos());
    e->accept();
}

void TopologyView::mousePressEvent(QMouseEvent* e) {
    if (!m_results) return;
    // The middle button, or the left one while Space is held, pans from anywhere (over GPUs
    // and nodes too, where the left button alone selects and moves jobs).
    if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && m_spaceHeld)) {
        m_pressPos = e->pos();
        m_pressCenter = m_center;
        m_pressJob = -1;
        m_panning = true;
        m_spacePanned = m_spaceHeld;
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    if (e->button() != Qt::LeftButton) return;
    m_pressPos = e->pos();
    m_pressCenter = m_center;
    const TopologyHit hit = m_layout.hitTest(toWorld(e->position()));
    m_pressJob = -1;
    if (hit.kind == TopologyHit::Kind::Gpu) {
        const int job = jobAt(hit);
        if (job >= 0 && m_results->jobs[job].spec.source == JobSource::Explicit &&
            m_results->jobs[job].spec.pinLevel != PinLevel::None)
            m_pressJob = job;  // a pinned job: dragging it moves it
    }
    m_panning = hit.kind == TopologyHit::Kind::None || hit.kind == TopologyHit::Kind::Pod ||
                hit.kind == TopologyHit::Kind::Rack;
    m_selection = hit;
    emit selectionChanged(hit);
    update();
}

void TopologyView::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & (Qt::LeftButton | Qt::MiddleButton))) return;
    if (m_pressJob >= 0 && (e->buttons() & Qt::LeftButton) &&
        (e->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
        auto* mime = new QMimeData;
        mime->setData(
            kMoveJobMime,
            QByteArray::fromStdString(m_results->jobName(static_cast<std::uint32_t>(m_pressJob))));
        auto* drag = new QDrag(this);
        drag->setMimeData(mime);
        m_pressJob = -1;
        drag->exec(Qt::MoveAction);
        return;
    }
    if (m_panning) {
        m_center = m_pressCenter - QPointF(e->pos() - m_pressPos) / m_zoom;
        m_autoFit = false;
        m_fitted = true;
        update();
    }
}

void TopologyView::mouseReleaseEvent(QMouseEvent*) {
    m_panning = false;
    m_pressJob = -1;
    if (m_spaceHeld)
        setCursor(Qt::OpenHandCursor);
    else
        unsetCursor();
}

void TopologyView::keyReleaseEvent(QKeyEvent* e) {
    if (e->key() != Qt::Key_Space || e->isAutoRepeat()) {
        QWidget::keyReleaseEvent(e);
        return;
    }
    m_spaceHeld = false;
    if (!m_panning) unsetCursor();
    // Space tapped without panning: it does what Space does elsewhere (Run ▸ Play / pause).
    if (!m_spacePanned)
        for (QAction* action : window()->findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(Qt::Key_Space) && action->isEnabled()) {
                action->trigger();
                break;
            }
}

void TopologyView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Space:  // held: the left button pans (see keyReleaseEvent for a tap)
            if (!e->isAutoRepeat()) {
                m_spaceHeld = true;
                m_spacePanned = false;
                if (!m_panning) setCursor(Qt::OpenHandCursor);
            }
            return;
        case Qt::Key_F:
            m_autoFit = true;
            fitAll();
            return;
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            setView(m_zoom * 1.25, m_center);
            return;
        case Qt::Key_Minus:
            setView(m_zoom / 1.25, m_center);
            return;
        default:
            QWidget::keyPressEvent(e);
    }
}

bool TopologyView::event(QEvent* e) {
    // Space reaches keyPressEvent (held for panning) before the window's Space shortcut.
    if (e->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(e);
        if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier) {
            e->accept();
            return true;
        }
    }
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

QString TopologyView::tooltipAt(QPointF pos) const {
    if (!m_results) return {};
    const TopologyHit hit = m_layout.hitTest(toWorld(pos));
    const Fleet& fleet = m_results->fleet;
    if (hit.kind == TopologyHit::Kind::Rack || hit.kind == TopologyHit::Kind::Pod) {
        if (hit.kind == TopologyHit::Kind::Rack) {
            int gpus = 0;
            const FleetRack& r = fleet.racks[hit.rack];
            for (int n = r.firstNode; n < r.firstNode + r.nodeCount; ++n)
                gpus += fleet.nodes[n].gpus;
            return tr("<b>%1</b><br>%2 nodes, %3 GPUs, %4 busy")
                .arg(QString::fromStdString(r.name))
                .arg(r.nodeCount)
                .arg(gpus)
                .arg(m_rackBusyGpus[hit.rack]);
        }
        return tr("<b>pod %1</b><br>%2 racks, %3 nodes")
            .arg(QString::fromStdString(fleet.pods[hit.pod].name))
            .arg(fleet.pods[hit.pod].rackCount)
            .arg(fleet.pods[hit.pod].nodeCount);
    }
    if (hit.kind != TopologyHit::Kind::Node && hit.kind != TopologyHit::Kind::Gpu) return {};
    const FleetNode& node = fleet.nodes[hit.node];
    QString text = tr("<b>%1</b><br>%2 × %3 (%4), %5, %6")
                       .arg(QString::fromStdString(node.name))
                       .arg(node.gpus)
                       .arg(QString::fromStdString(fleet.gpuModels[node.gpuModel].id))
                       .arg(QString::fromStdString(fleet.nodeTypes[node.nodeType].id))
                       .arg(QString::fromLatin1(toString(m_snapshot->nodeStates[hit.node])))
                       .arg(QString::fromLatin1(toString(node.buyingClass)));
    if (hit.kind == TopologyHit::Kind::Gpu) {
        const int gpu = m_results->firstGpuOfNode[hit.node] + hit.slot;
        const int job = jobAt(hit);
        text += tr("<br>GPU %1: ").arg(hit.slot);
        if (node.sharing.mode != SharingMode::Whole)
            text += tr("%1, %2 of 1000 milli-GPU held<br>")
                        .arg(QString::fromLatin1(toString(node.sharing.mode)))
                        .arg(std::min(1000, m_snapshot->usedMilli(gpu)));
        if (m_snapshot->occupantsOf(gpu).size() > 1)
            text += tr("%1 jobs share it; under the pointer: ")
                        .arg(m_snapshot->occupantsOf(gpu).size());
        if (job < 0) {
            text += tr("free");
        } else {
            const JobRecord& j = m_results->jobs[job];
            text +=
                tr("<b>%1</b> (team %2, %3)<br>since %4")
                    .arg(
                        QString::fromStdString(m_results->jobName(static_cast<std::uint32_t>(job))))
                    .arg(QString::fromStdString(m_results->teams[j.spec.team]))
                    .arg(j.spec.sharesGpu() || j.spec.asksMig()
                             ? QString::fromStdString(describePodRequest(j.spec, m_results->fleet))
                             : tr("%1 GPUs").arg(j.spec.gpus))
                    .arg(formatSimTime(j.firstStartS));
        }
    }
    return text;
}

// ---- drag and drop -------------------------------------------------------------------------

QString TopologyView::mimeFormat(const QMimeData* mime) {
    if (mime->hasFormat(kTemplateMime)) return kTemplateMime;
    if (mime->hasFormat(kMoveJobMime)) return kMoveJobMime;
    return {};
}

void TopologyView::dragEnterEvent(QDragEnterEvent* e) {
    if (m_results && !mimeFormat(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void TopologyView::dragMoveEvent(QDragMoveEvent* e) {
    const QString format = mimeFormat(e->mimeData());
    if (!m_results || format.isEmpty()) return;
    const TopologyHit target = dropTargetAt(e->position());
    if (target.kind == TopologyHit::Kind::None) {
        if (m_dropTarget.kind != TopologyHit::Kind::None) emit dragLeft();  // no late what-if
        clearDropFeedback();
        e->ignore();
        return;
    }
    e->acceptProposedAction();
    const bool sameTarget = target.kind == m_dropTarget.kind && target.node == m_dropTarget.node &&
                            target.rack == m_dropTarget.rack && target.pod == m_dropTarget.pod;
    if (!sameTarget) {
        m_dropTarget = target;
        m_dropText = tr("checking…");
        update();
        emit dragHovered(target, format, e->mimeData()->data(format));
    }
}

void TopologyView::dragLeaveEvent(QDragLeaveEvent*) {
    clearDropFeedback();
    emit dragLeft();
}

void TopologyView::dropEvent(QDropEvent* e) {
    const QString format = mimeFormat(e->mimeData());
    const TopologyHit target = dropTargetAt(e->position());
    clearDropFeedback();
    if (format.isEmpty() || target.kind == TopologyHit::Kind::None) {
        e->ignore();
        return;
    }
    e->acceptProposedAction();
    emit dropRequested(target, format, e->mimeData()->data(format));
}

}  // namespace gpuplan::ui
