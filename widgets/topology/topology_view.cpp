#include "topology_view.hpp"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDrag>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "format/snapshot_guard.hpp"
#include "format/ui_palette.hpp"
#include "gpuplan/model/workload.hpp"

namespace gpuplan::ui {

namespace {
// Cells at most this many pixels per world unit when fitted: a lone rack need not fill a wall.
constexpr double kMostFitZoom = 4.8;
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
    const bool sameFleet = m_results && results && m_results->fleet.sameNodes(results->fleet);
    m_results = std::move(results);
    m_highlightedJob = -1;  // job numbers change between runs
    if (!m_results) {
        m_layout = TopologyLayout();
        m_legendItems.clear();
        update();
        return;
    }
    m_teamColors = teamColors(*m_results);
    m_hasSharedGpus =
        std::any_of(m_results->fleet.nodes.begin(), m_results->fleet.nodes.end(),
                    [](const FleetNode& n) { return n.sharing.mode != SharingMode::Whole; });
    if (!sameFleet) {
        m_selection = TopologyHit();
        m_dropTarget = TopologyHit();
    }
    if (snapshot && snapshotFitsResults(*snapshot, *m_results)) {
        m_timeS = snapshot->timeS;
        m_snapshot = std::move(snapshot);
        countRackBusyGpus();
    } else {
        // No snapshot, or one of other results (a caller's order slip): look ours up.
        m_timeS = std::clamp(snapshot ? snapshot->timeS : m_timeS, 0.0, m_results->horizonS);
        rebuildSnapshot();
    }
    rebuildLegendItems();
    updateHeaderRoom();
    if (!m_fitted || m_autoFit) {
        applyFit();
    } else {
        // The user's zoom and pan stay, on the same arrangement (an added rack appears where
        // the rows continue) — unless the new fleet is nowhere in sight (another scenario).
        m_layout = TopologyLayout(m_results->fleet, m_layout.shape());
        placeChromeForSize();
        const QRectF visible(toWorld(QPointF(0, 0)), toWorld(QPointF(width(), height())));
        if (!sameFleet && !visible.intersects(m_layout.bounds())) fitAll();
    }
    update();
}

void TopologyView::setTime(double timeS) {
    m_timeS = timeS;
    rebuildSnapshot();
    update();
}

void TopologyView::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot) {
    if (!snapshot) return;
    if (m_results && !snapshotFitsResults(*snapshot, *m_results)) {
        // Another run's cluster (its fleet or jobs differ from ours): never index ours with
        // it; show our own results at that time instead.
        m_timeS = std::clamp(snapshot->timeS, 0.0, m_results->horizonS);
        rebuildSnapshot();
        update();
        return;
    }
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
    if (!m_results || hit.kind != TopologyHit::Kind::Gpu || hit.node < 0 ||
        static_cast<std::size_t>(hit.node) >= m_results->fleet.nodes.size() || hit.slot < 0 ||
        hit.slot >= m_results->fleet.nodes[hit.node].gpus)
        return -1;
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
    m_autoFit = true;
    applyFit();
}

void TopologyView::applyFit() {
    if (!m_results) return;
    if (width() <= 0 || height() <= 0) {
        // Nothing to fit into yet; the layout must still be of these results' fleet.
        m_layout = TopologyLayout(m_results->fleet, m_layout.shape());
        return;
    }
    // Names are as tall on screen at the fitted zoom as their font's line, plus a margin.
    FitRequest request;
    request.rackNamePx = QFontMetricsF(rackNameFont()).height() + 4;
    request.podNamePx = QFontMetricsF(podNameFont()).height() + 6;
    request.maxZoom = kMostFitZoom;
    // The legend where it leaves the fleet the most room: a column on the left, a band
    // beside the header or along the bottom.
    const QSizeF header = m_headerRoom;
    FittedShape best{LayoutShape(), -1};
    double bestRoom = 0;
    ViewChrome chosen;
    for (ViewChrome::Place place :
         {ViewChrome::Place::Column, ViewChrome::Place::BesideHeader, ViewChrome::Place::Bottom}) {
        const ViewChrome chrome = placeChrome(place, size(), header, m_legendItems, font());
        if (!chrome.valid) continue;
        request.areaPx = chrome.fleetArea.size();
        const FittedShape fitted = fitShape(m_results->fleet, request);
        // Equal zooms (a small fleet at the largest fit zoom): the roomier area.
        const double room = request.areaPx.width() * request.areaPx.height();
        if (fitted.zoom > best.zoom * (1 + 1e-6) ||
            (fitted.zoom > best.zoom * (1 - 1e-6) && room > bestRoom)) {
            bestRoom = room;
            best = fitted;
            chosen = chrome;
        }
    }
    if (best.zoom <= 0) {
        // Too small a widget for the legend beside the fleet: the fleet gets it all.
        chosen = placeChrome(ViewChrome::Place::Column, size(), header, m_legendItems, font());
        chosen.fleetArea = QRectF(rect()).adjusted(4, 4, -4, -4);
        request.areaPx = chosen.fleetArea.size();
        best = fitShape(m_results->fleet, request);
    }
    m_chrome = chosen;
    m_layout = TopologyLayout(m_results->fleet, best.shape);
    m_zoom = std::clamp(best.zoom, kMinZoom, kMaxZoom);
    // The widget's centre maps to the world point that puts the fleet's centre at the area's.
    m_center = m_layout.bounds().center() -
               (m_chrome.fleetArea.center() - QPointF(width() / 2.0, height() / 2.0)) / m_zoom;
    m_fitted = true;
    update();
}

void TopologyView::placeChromeForSize() {
    m_chrome = placeChrome(m_chrome.place, size(), m_headerRoom, m_legendItems, font());
}

void TopologyView::setView(double zoom, QPointF worldCenter) {
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_center = worldCenter;
    m_fitted = true;
    m_autoFit = false;
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

// ---- interaction ---------------------------------------------------------------------------

void TopologyView::resizeEvent(QResizeEvent*) {
    if (!m_fitted || m_autoFit)
        applyFit();
    else
        placeChromeForSize();
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

void TopologyView::changeEvent(QEvent* e) {
    // Larger type (a presentation) or another palette: the legend, the header and the names
    // take other room.
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) {
        m_labelAdvance100.clear();
        rebuildLegendItems();
        updateHeaderRoom();
        if (!m_fitted || m_autoFit)
            applyFit();
        else
            placeChromeForSize();
    }
    QWidget::changeEvent(e);
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
                    .arg(j.spec.holdsWholeGpus()
                             ? tr("%1 GPUs").arg(j.spec.gpus)
                             : QString::fromStdString(describePodRequest(j.spec, m_results->fleet)))
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
