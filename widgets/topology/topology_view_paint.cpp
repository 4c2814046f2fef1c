// TopologyView's painting: pods, racks, nodes and GPU cells, the names that have room, the
// overlay (pins, drop target), the header and the legend.
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "format/ui_palette.hpp"
#include "topology_view.hpp"

namespace gpuplan::ui {

namespace {
constexpr double kMinNameLinePx = 9;    // a name's line shorter than this is not drawn
constexpr double kMinNodeLabelPx = 7;   // nor a node's label smaller than this
constexpr double kMostNameScale = 1.6;  // names grow with the zoom up to this much

/// The whole pixels a rect covers (edges rounded; at least one pixel wide and tall): the
/// raster engine fills those fastest.
QRect pixelRect(const QRectF& r) {
    const int left = qRound(r.left()), top = qRound(r.top());
    return QRect(left, top, std::max(1, qRound(r.right()) - left),
                 std::max(1, qRound(r.bottom()) - top));
}
}  // namespace

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
    paintLegend(p, m_chrome, m_legendItems, font(), palette(), cellsNote());
    const QString status = statusText();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const QRectF box = headerBox(m_chrome, status, bold);
    QColor bg = palette().color(QPalette::Base);
    bg.setAlpha(225);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(box, 4, 4);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(box, Qt::AlignCenter, status);
}

QFont TopologyView::rackNameFont() const {
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    return small;
}

QFont TopologyView::podNameFont() const {
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

TopologyView::StripLabel TopologyView::stripLabel(const QRectF& strip, const QString& name,
                                                  const QFont& base,
                                                  const QString& shortName) const {
    StripLabel label;
    if (strip.height() < kMinNameLinePx || strip.width() < 3 * kMinNameLinePx) return label;
    const double baseLine = QFontMetricsF(base).height();
    // As tall as the strip allows (a little margin), growing with the zoom up to a limit.
    double scale = std::min(kMostNameScale, (strip.height() - 3) / baseLine);
    if (scale * baseLine < kMinNameLinePx) return label;
    QFont f = base;
    for (int attempt = 0; attempt < 4; ++attempt) {
        f.setPointSizeF(base.pointSizeF() * scale);
        if (QFontMetricsF(f).height() <= strip.height() - 1) break;
        scale *= 0.9;  // hinting made the line taller than the scale said
    }
    const QFontMetricsF fm(f);
    if (fm.height() > strip.height() - 1 || fm.height() < kMinNameLinePx) return label;
    // Elided to the strip's width; a stub of one or two letters says nothing. A rack named
    // after its pod ("pod-a-rack3" in pod-a's frame) drops the pod's part before eliding.
    QString text = fm.elidedText(name, Qt::ElideRight, strip.width() - 8);
    if (text != name && !shortName.isEmpty())
        text = fm.elidedText(shortName, Qt::ElideRight, strip.width() - 8);
    if (text.isEmpty() || (text != name && text != shortName && text.size() < 4)) return label;
    label.font = f;
    label.text = text;
    label.rect = QRectF(strip.left() + 4, strip.top() + (strip.height() - fm.height()) / 2,
                        fm.horizontalAdvance(text), fm.height());
    return label;
}

QRectF TopologyView::rackNameRect(int rack) const {
    if (!m_results || rack < 0 || static_cast<std::size_t>(rack) >= m_layout.rackCount()) return {};
    return stripLabel(toWidget(m_layout.rackNameStrip(rack)), rackName(rack), rackNameFont(),
                      rackShortName(rack))
        .rect;
}

QString TopologyView::rackName(int rack) const {
    return QString::fromStdString(m_results->fleet.racks[rack].name);
}

QString TopologyView::rackShortName(int rack) const {
    const FleetRack& r = m_results->fleet.racks[rack];
    const std::string& pod = m_results->fleet.pods[r.pod].name;
    if (r.name.size() > pod.size() + 1 && r.name.compare(0, pod.size(), pod) == 0 &&
        r.name[pod.size()] == '-')
        return QString::fromStdString(r.name.substr(pod.size() + 1));
    return {};
}

QRectF TopologyView::podNameRect(int pod) const {
    if (!m_results || pod < 0 || static_cast<std::size_t>(pod) >= m_layout.podCount()) return {};
    return stripLabel(toWidget(m_layout.podNameStrip(pod)),
                      QString::fromStdString(m_results->fleet.pods[pod].name), podNameFont())
        .rect;
}

QRectF TopologyView::headerRect() const {
    QFont bold = font();
    bold.setBold(true);
    return headerBox(m_chrome, statusText(), bold);
}

void TopologyView::paintPods(QPainter& p, const QRectF& visible) {
    const Fleet& fleet = m_results->fleet;
    const double cellPx = TopologyLayout::kCell * m_zoom;
    const bool heat = cellPx < kHeatBelowCellPx;
    const QColor frame = palette().color(QPalette::Mid);
    const QColor text = palette().color(QPalette::WindowText);
    const QFont rackFont = rackNameFont(), podFont = podNameFont();
    const bool detailed = detailedAtZoom();
    NodeBatch& batch = m_nodeBatch;
    batch.clear(m_teamColors.size());
    auto drawName = [&](const QRectF& strip, const QString& name, const QFont& font,
                        const QString& shortName, bool onGround) {
        const StripLabel label = stripLabel(strip, name, font, shortName);
        if (label.rect.isEmpty()) return;
        if (onGround) {
            // A rack drawn as heat: its name on the rack's own ground, not on the heat.
            p.setPen(Qt::NoPen);
            p.setBrush(palette().color(QPalette::Base));
            p.drawRect(strip);
        }
        p.setFont(label.font);
        p.setPen(text);
        p.drawText(label.rect, Qt::AlignLeft | Qt::AlignVCenter, label.text);
    };
    for (std::size_t pod = 0; pod < fleet.pods.size(); ++pod) {
        const QRectF podWorld = m_layout.podRect(static_cast<int>(pod));
        if (!podWorld.intersects(visible)) continue;
        p.setPen(QPen(frame, 1));
        p.setBrush(palette().color(QPalette::AlternateBase));
        p.drawRoundedRect(toWidget(podWorld), 4, 4);
        drawName(toWidget(m_layout.podNameStrip(static_cast<int>(pod))),
                 QString::fromStdString(fleet.pods[pod].name), podFont, {}, false);
        const FleetPod& fp = fleet.pods[pod];
        for (int r = fp.firstRack; r < fp.firstRack + fp.rackCount; ++r) {
            if (!m_layout.rackRect(r).intersects(visible)) continue;
            if (heat) {
                paintRackHeat(p, r);
            } else {
                p.setPen(QPen(frame, 1));
                p.setBrush(palette().color(QPalette::Base));
                p.drawRect(toWidget(m_layout.rackRect(r)));
            }
            drawName(toWidget(m_layout.rackNameStrip(r)), rackName(r), rackFont, rackShortName(r),
                     heat);
            if (heat) continue;
            const FleetRack& rack = fleet.racks[r];
            for (int n = rack.firstNode; n < rack.firstNode + rack.nodeCount; ++n)
                if (m_layout.nodeRect(n).intersects(visible)) collectNode(n, detailed, batch);
        }
    }
    flushNodes(p, detailed, batch);
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

void TopologyView::collectNode(int node, bool detailed, NodeBatch& b) {
    const FleetNode& info = m_results->fleet.nodes[node];
    // Outline by buying class (dashed for spot capacity, see flushNodes); 1 px on whole
    // pixels while cells are small.
    const QRectF nr = toWidget(m_layout.nodeRect(node));
    const auto buying = static_cast<std::size_t>(info.buyingClass);
    if (detailed)
        b.outlines[buying].push_back(nr);
    else
        b.thinOutlines[buying].push_back(pixelRect(nr).adjusted(0, 0, -1, -1));
    const int first = m_results->firstGpuOfNode[node];
    const std::size_t freeKey = b.fills.size() - 1;
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
            b.fills[sc.job >= 0 ? static_cast<std::size_t>(m_results->jobs[sc.job].spec.team)
                                : freeKey]
                .push_back(pixelRect(r));
            // MIG memory in no instance: no pod can use it until the GPU is re-cut.
            if (sc.uncut) b.uncut.push_back(r);
            // A hairline between holders, once each stripe is a few pixels wide.
            if (split && sc.x1 < 1 && cell.width() >= 14)
                b.hairlines.emplace_back(r.topRight(), r.bottomRight());
            if (sc.job >= 0 && sc.job == m_highlightedJob)
                b.highlight.push_back(split ? r : r.adjusted(-1, -1, 1, 1));
        }
        if ((sharedMode || info.sharing.mode == SharingMode::Mig) && cell.height() >= 8) {
            // A dot marks an MPS / time-sliced GPU, a hollow square a MIG GPU, used or not.
            const double d = std::max(2.0, cell.height() * 0.12);
            const QRectF mark(cell.right() - d * 1.7, cell.top() + d * 0.7, d, d);
            (sharedMode ? b.mpsDots : b.migMarks).push_back(mark);
        }
    }
    const bool selected = (m_selection.kind == TopologyHit::Kind::Node ||
                           m_selection.kind == TopologyHit::Kind::Gpu) &&
                          m_selection.node == node;
    if (m_snapshot->nodeStates[node] != NodeState::Ready || info.speed < 1 || selected)
        b.decorated.push_back(node);
}

void TopologyView::flushNodes(QPainter& p, bool detailed, const NodeBatch& b) {
    p.setBrush(Qt::NoBrush);
    for (BuyingClass c : kBuyingClasses) {
        const auto& rects = b.outlines[static_cast<std::size_t>(c)];
        const auto& thin = b.thinOutlines[static_cast<std::size_t>(c)];
        if (rects.empty() && thin.empty()) continue;
        QPen outline(buyingClassColor(c), detailed ? 1.5 : 1);
        if (c == BuyingClass::Spot) outline.setStyle(Qt::DashLine);
        p.setPen(outline);
        p.drawRects(rects.data(), static_cast<int>(rects.size()));
        p.drawRects(thin.data(), static_cast<int>(thin.size()));
    }
    p.setPen(Qt::NoPen);
    for (std::size_t key = 0; key < b.fills.size(); ++key) {
        if (b.fills[key].empty()) continue;
        p.setBrush(key + 1 < b.fills.size() ? m_teamColors[key] : freeGpuColor(palette()));
        p.drawRects(b.fills[key].data(), static_cast<int>(b.fills[key].size()));
    }
    if (!b.uncut.empty()) {
        p.setBrush(QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
        p.drawRects(b.uncut.data(), static_cast<int>(b.uncut.size()));
    }
    if (!b.hairlines.empty()) {
        p.setPen(QPen(palette().color(QPalette::Base), 1));
        p.drawLines(b.hairlines.data(), static_cast<int>(b.hairlines.size()));
    }
    p.setBrush(Qt::NoBrush);
    if (!b.highlight.empty()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRects(b.highlight.data(), static_cast<int>(b.highlight.size()));
    }
    if (!b.migMarks.empty()) {
        p.setPen(QPen(palette().color(QPalette::WindowText), 1));
        p.drawRects(b.migMarks.data(), static_cast<int>(b.migMarks.size()));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::WindowText));
    for (const QRectF& dot : b.mpsDots)
        p.drawEllipse(dot);
    for (int node : b.decorated)
        paintNodeState(p, node, detailed);
}

void TopologyView::paintNodeState(QPainter& p, int node, bool detailed) {
    const FleetNode& info = m_results->fleet.nodes[node];
    const QRectF nr = toWidget(m_layout.nodeRect(node));
    const NodeState state = m_snapshot->nodeStates[node];
    const bool ready = state == NodeState::Ready;
    p.setPen(Qt::NoPen);
    if (!ready) {
        // Not Ready: hatched over, with the state spelled out when there is room.
        // Single hatch: still holds its pods (cordoned, draining); cross: holds nothing.
        const bool holdsPods = state == NodeState::Cordoned || state == NodeState::Draining;
        p.setBrush(QBrush(notReadyColor(), holdsPods ? Qt::FDiagPattern : Qt::DiagCrossPattern));
        p.drawRect(nr);
        if (detailed)
            paintNodeLabel(p, nr, stateLabel(node), palette().color(QPalette::WindowText), QColor(),
                           Qt::AlignCenter);
    }
    if (info.speed < 1) {
        // Fail-slow: a dashed red frame, and its pace where there is room. It runs, so it
        // looks like any other node but for this: what an operator has to find.
        const QColor slow(0xd6, 0x27, 0x28);
        p.setPen(QPen(slow, 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(nr.adjusted(-1.5, -1.5, 1.5, 1.5));
        if (detailed && ready)
            paintNodeLabel(p, nr, tr("SLOW ×%1").arg(info.speed, 0, 'g', 2), slow,
                           QColor(255, 255, 255, 200), Qt::AlignRight);
        p.setPen(Qt::NoPen);
    }
    const bool selected = (m_selection.kind == TopologyHit::Kind::Node ||
                           m_selection.kind == TopologyHit::Kind::Gpu) &&
                          m_selection.node == node;
    if (selected) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(nr.adjusted(-2, -2, 2, 2));
        if (m_selection.kind == TopologyHit::Kind::Gpu && m_selection.slot >= 0 &&
            m_selection.slot < info.gpus)
            p.drawRect(
                toWidget(m_layout.gpuRect(node, m_selection.slot)).adjusted(-1.5, -1.5, 1.5, 1.5));
    }
}

TopologyView::NodeLabel TopologyView::nodeLabel(const QRectF& nodePx, const QString& text,
                                                Qt::Alignment align) const {
    // As tall as 70 % of the node (at most 1.3 times the text's size) and never wider than the
    // node: the whole word or nothing, never a clipped one.
    NodeLabel label;
    QFont f = font();
    f.setBold(true);
    f.setPixelSize(100);
    auto cached = m_labelAdvance100.constFind(text);
    if (cached == m_labelAdvance100.constEnd())
        cached = m_labelAdvance100.insert(text, QFontMetricsF(f).horizontalAdvance(text));
    const double room = nodePx.width() - 8;
    double px = std::min({nodePx.height() * 0.7, 1.3 * QFontInfo(font()).pixelSize(),
                          room * 100 / std::max(1.0, *cached)});
    for (px = std::floor(px); px >= kMinNodeLabelPx; px -= 1) {
        f.setPixelSize(static_cast<int>(px));
        const QFontMetricsF fm(f);
        const double w = fm.horizontalAdvance(text);
        if (w > room || fm.height() > nodePx.height()) continue;
        label.font = f;
        label.rect = QRectF(0, nodePx.top(), w + 6, nodePx.height());
        label.rect.moveLeft(align & Qt::AlignRight ? nodePx.right() - label.rect.width()
                                                   : nodePx.center().x() - label.rect.width() / 2);
        return label;
    }
    return label;
}

void TopologyView::paintNodeLabel(QPainter& p, const QRectF& nodePx, const QString& text,
                                  const QColor& color, const QColor& background,
                                  Qt::Alignment align) {
    const NodeLabel label = nodeLabel(nodePx, text, align);
    if (label.rect.isEmpty()) return;
    if (background.isValid()) {
        p.setPen(Qt::NoPen);
        p.setBrush(background);
        p.drawRect(label.rect);
    }
    p.setFont(label.font);
    p.setPen(color);
    p.drawText(label.rect, Qt::AlignCenter, text);
}

QString TopologyView::stateLabel(int node) const {
    const NodeState state = m_snapshot->nodeStates[node];
    // An elastic on-demand node not provisioned is not bought yet, not being delivered.
    return m_results->fleet.nodes[node].elastic && state == NodeState::Provisioning
               ? tr("ON DEMAND · OFF")
               : QString::fromLatin1(toString(state)).toUpper();
}

QRectF TopologyView::nodeStateLabelRect(int node) const {
    if (!m_results || node < 0 || static_cast<std::size_t>(node) >= m_layout.nodeCount() ||
        m_snapshot->nodeStates[node] == NodeState::Ready || !detailedAtZoom())
        return {};
    return nodeLabel(toWidget(m_layout.nodeRect(node)), stateLabel(node), Qt::AlignCenter).rect;
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
}

QString TopologyView::statusText() const {
    if (!m_results) return {};
    // "pending" counts the rows of the pending list (Results::pendingAt), bound-but-stuck
    // jobs of the workload layer included.
    long long pendingGpus = 0;
    for (const PendingJob& e : m_snapshot->pending)
        pendingGpus += m_results->jobs[e.job].spec.gpus;
    return statusTextFor(m_timeS, m_snapshot->runningJobs.size(), m_snapshot->pending.size(),
                         pendingGpus);
}

QString TopologyView::statusTextFor(double timeS, std::size_t running, std::size_t pending,
                                    long long pendingGpus) const {
    return tr("%1 · %2 running · %3 pending (%4 GPUs)")
        .arg(formatSimTime(timeS))
        .arg(running)
        .arg(pending)
        .arg(pendingGpus);
}

void TopologyView::updateHeaderRoom() {
    m_headerRoom = QSizeF();
    if (!m_results) return;
    // The widest the header can read for these results (every job running, every job
    // pending), so the legend placed beside it stays clear whatever the time.
    long long allGpus = 0;
    for (const JobRecord& j : m_results->jobs)
        allGpus += j.spec.gpus;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    const QString widest =
        statusTextFor(m_results->horizonS, m_results->jobs.size(), m_results->jobs.size(), allGpus);
    m_headerRoom = QSizeF(fm.horizontalAdvance(widest) + 16, fm.height() + 8);
}

QString TopologyView::heatNote() const {
    return tr("racks: allocation heat");
}

QString TopologyView::cellsNote(bool atZoom) const {
    if (atZoom && TopologyLayout::kCell * m_zoom < kHeatBelowCellPx) return heatNote();
    return m_hasSharedGpus ? tr("cell: GPU; stripe: share; ● MPS/TS; □ MIG") : tr("cells: one GPU");
}

void TopologyView::rebuildLegendItems() {
    m_legendItems.clear();
    if (!m_results) return;
    using S = LegendItem::Swatch;
    constexpr std::size_t kMostTeams = 12;
    for (std::size_t t = 0; t < m_results->teams.size() && t < kMostTeams; ++t)
        m_legendItems.push_back(
            {S::Fill, m_teamColors[t], QString::fromStdString(m_results->teams[t])});
    if (m_results->teams.size() > kMostTeams)
        m_legendItems.push_back(
            {S::None, {}, tr("+%1 more teams").arg(m_results->teams.size() - kMostTeams)});
    m_legendItems.push_back({S::Fill, freeGpuColor(palette()), tr("free GPU")});
    m_legendItems.push_back({S::CrossHatch, notReadyColor(), tr("not Ready")});
    // Node outlines: one entry per buying class in the fleet.
    for (BuyingClass c : kBuyingClasses) {
        const bool present =
            std::any_of(m_results->fleet.nodes.begin(), m_results->fleet.nodes.end(),
                        [c](const FleetNode& n) { return n.buyingClass == c; });
        if (present)
            m_legendItems.push_back({c == BuyingClass::Spot ? S::DashedOutline : S::Outline,
                                     buyingClassColor(c),
                                     tr("%1 node").arg(QString::fromLatin1(toString(c)))});
    }
    // The note changes with the zoom: room for its longest wording.
    const QFontMetricsF fm(font());
    QString longest;
    for (const QString& note : {heatNote(), cellsNote(false)})
        if (fm.horizontalAdvance(note) > fm.horizontalAdvance(longest)) longest = note;
    m_legendItems.push_back({S::None, {}, longest});
}

}  // namespace gpuplan::ui
