#include "timeline_view.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QFile>
#include <QFontInfo>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>

namespace gpuplan::ui {

namespace {

/// The shortest time window a zoom reaches, seconds.
constexpr double kMinSpanS = 10;
/// Each wheel step zooms by this factor.
constexpr double kZoomPerStep = 0.8;

int buttonIndex(Qt::MouseButton b) {
    return b == Qt::LeftButton ? 0 : b == Qt::RightButton ? 1 : b == Qt::MiddleButton ? 2 : -1;
}

/// Makes `context` current for the scope and puts back whichever was current before.
class CurrentImGui {
public:
    explicit CurrentImGui(ImGuiContext* context) : m_previous(ImGui::GetCurrentContext()) {
        ImGui::SetCurrentContext(context);
    }
    ~CurrentImGui() { ImGui::SetCurrentContext(m_previous); }
    CurrentImGui(const CurrentImGui&) = delete;
    CurrentImGui& operator=(const CurrentImGui&) = delete;

private:
    ImGuiContext* m_previous;
};

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QOpenGLWidget(parent) {
    setMouseTracking(true);  // hover tooltips
    setMinimumHeight(160);
    m_geometry.widthPx = static_cast<float>(width());
    m_geometry.heightPx = static_cast<float>(height());
    m_imgui = ImGui::CreateContext();
    CurrentImGui current(m_imgui);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini in the user's working directory
    io.LogFilename = nullptr;
    io.BackendPlatformName = "gpuplan-qt";
    io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;
    io.MouseDragThreshold = 4;
    setUpFonts();
    applyStyle();
    m_clock.start();
}

void TimelineView::applyStyle() {
    // The tooltip's colours follow the application's palette, light or dark.
    ImGuiStyle& style = ImGui::GetStyle();
    if (palette().color(QPalette::Base).lightness() < 128)
        ImGui::StyleColorsDark(&style);
    else
        ImGui::StyleColorsLight(&style);
    style.WindowRounding = 3;
    style.WindowPadding = ImVec2(8, 6);
}

TimelineView::~TimelineView() {
    // The base class destroys the GL context after this body: its aboutToBeDestroyed must not
    // reach a half-destroyed view.
    if (QOpenGLContext* ctx = context()) disconnect(ctx, nullptr, this, nullptr);
    releaseGl();
    ImGui::SetCurrentContext(m_imgui);
    ImGui::DestroyContext(m_imgui);  // also leaves no current context behind
    m_imgui = nullptr;
}

void TimelineView::setUpFonts() {
    // The application's text size in DejaVu Sans (Debian's fonts-dejavu-core) where present,
    // else ImGui's own bitmap font. Glyphs beyond Latin-1: dashes, dots, ellipsis, arrows.
    static constexpr ImWchar kRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2193,
                                          0x2212, 0x2212, 0x25B2, 0x25BC, 0};
    ImGuiIO& io = ImGui::GetIO();
    const float px = static_cast<float>(std::clamp(QFontInfo(font()).pixelSize(), 11, 24));
    ImFont* loaded = nullptr;
    for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                             "/usr/share/fonts/TTF/DejaVuSans.ttf"}) {
        if (!QFile::exists(QString::fromLatin1(path))) continue;
        ImFontConfig config;
        config.OversampleH = 2;
        loaded = io.Fonts->AddFontFromFileTTF(path, px, &config, kRanges);
        if (loaded) break;
    }
    if (!loaded) io.Fonts->AddFontDefault();
    const float fontPx = loaded ? px : 13;
    m_rowHeights = {fontPx + 9, fontPx + 7, fontPx + 5, fontPx + 4};
    m_geometry.axisPx = fontPx + 11;
}

void TimelineView::initializeGL() {
    initializeOpenGLFunctions();
    // Docking the panel elsewhere (floating it) gives it a new context: the backend's textures
    // and buffers go with the old one and are made again in the next initializeGL.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &TimelineView::releaseGl,
            Qt::DirectConnection);
    CurrentImGui current(m_imgui);
    const QSurfaceFormat format = context()->format();
    const char* glsl = format.majorVersion() >= 3 ? "#version 130" : "#version 120";
    m_backendReady = ImGui_ImplOpenGL3_Init(glsl);
    if (!m_backendReady)
        qWarning("timeline: the ImGui OpenGL3 backend did not start (GL %d.%d)",
                 format.majorVersion(), format.minorVersion());
}

void TimelineView::releaseGl() {
    if (!m_backendReady || !m_imgui) return;
    makeCurrent();
    {
        CurrentImGui current(m_imgui);
        ImGui_ImplOpenGL3_Shutdown();
    }
    m_backendReady = false;
    doneCurrent();
}

void TimelineView::resizeEvent(QResizeEvent* e) {
    m_geometry.widthPx = static_cast<float>(width());
    m_geometry.heightPx = static_cast<float>(height());
    fitHeaderTree();
    clampView();
    QOpenGLWidget::resizeEvent(e);
}

void TimelineView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) {
        {
            CurrentImGui current(m_imgui);
            applyStyle();
        }
        if (m_results) m_colors = timelineColors(palette(), *m_results);
        update();
    }
    QOpenGLWidget::changeEvent(e);
}

void TimelineView::paintGL() {
    QElapsedTimer frameClock;
    frameClock.start();
    const QColor base = palette().color(QPalette::Base);
    glClearColor(base.redF(), base.greenF(), base.blueF(), 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!m_backendReady) return;
    CurrentImGui current(m_imgui);
    feedInput();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    // Button changes this frame could not take wait for the next one.
    const bool changesLeft = !m_buttonChanges.empty();
    m_stats = {};
    QString tip;
    if (m_results) {
        if (m_treeWidthDirty) {
            m_treeWidthPx = headerTreeWidthPx(*m_results);
            m_treeWidthDirty = false;
            fitHeaderTree();
        }
        handleInput();
        const TimelineScene s = scene();
        drawTimeline(ImGui::GetBackgroundDrawList(), s, &m_stats);
        tip = timelineTooltip(s);
    } else {
        ImGui::GetBackgroundDrawList()->AddText(ImVec2(12, 12), IM_COL32(128, 128, 128, 255),
                                                "The timeline shows the run once it is in.");
    }
    if (!tip.isEmpty()) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(tip.toUtf8().constData());
        ImGui::EndTooltip();
    }
    ImGui::Render();
    m_lastBuildMs = frameClock.nsecsElapsed() / 1e6;
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (m_finishFrames) glFinish();
    ++m_frames;
    m_lastFrameMs = frameClock.nsecsElapsed() / 1e6;
    // ImGui sizes a tooltip from the frame before: a new text takes one more frame to fit.
    // Then nothing more is drawn until something changes.
    const bool newTip = tip != m_lastTooltip;
    m_lastTooltip = tip;
    if (changesLeft || (newTip && !tip.isEmpty())) update();
}

void TimelineView::feedInput() {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width()), static_cast<float>(height()));
    const float dpr = static_cast<float>(devicePixelRatioF());
    io.DisplayFramebufferScale = ImVec2(dpr, dpr);
    io.DeltaTime = static_cast<float>(std::clamp(m_clock.nsecsElapsed() / 1e9, 1e-4, 1.0));
    m_clock.restart();
    // At most one change per button this frame, in the order they came; the pointer is where
    // the last one taken happened (a click lands where it was made).
    QPointF pos = m_mousePos;
    std::array<bool, 3> changed{};
    while (!m_buttonChanges.empty() && !changed[m_buttonChanges.front().button]) {
        const ButtonChange c = m_buttonChanges.front();
        m_buttonChanges.pop_front();
        changed[c.button] = true;
        m_down[c.button] = c.down;
        pos = c.pos;
    }
    const bool held = m_down[0] || m_down[1] || m_down[2];
    // Outside while a button is held (a drag leaving the widget): Qt still sends us the moves.
    io.MousePos = rect().contains(pos.toPoint()) || held
                      ? ImVec2(static_cast<float>(pos.x()), static_cast<float>(pos.y()))
                      : ImVec2(-FLT_MAX, -FLT_MAX);
    for (int b = 0; b < 3; ++b)
        io.MouseDown[b] = m_down[b];
    io.MouseWheel = m_wheelSteps;
    io.MouseWheelH = m_wheelStepsH;
    m_wheelSteps = m_wheelStepsH = 0;
    io.KeyCtrl = m_modifiers.testFlag(Qt::ControlModifier);
    io.KeyShift = m_modifiers.testFlag(Qt::ShiftModifier);
    io.KeyAlt = m_modifiers.testFlag(Qt::AltModifier);
}

TimeMapping TimelineView::mapping() const {
    const double widthPx = std::max(1.0f, m_geometry.barsWidthPx());
    return {m_fromS, widthPx / std::max(1e-9, m_toS - m_fromS), m_geometry.gutterPx};
}

void TimelineView::handleInput() {
    const ImGuiIO& io = ImGui::GetIO();
    const QPointF mouse(io.MousePos.x, io.MousePos.y);
    const TimelineRegion region =
        regionAt(m_geometry, static_cast<float>(mouse.x()), static_cast<float>(mouse.y()));
    if (ImGui::IsMouseClicked(0)) {
        const QPointF at(io.MouseClickedPos[0].x, io.MouseClickedPos[0].y);
        m_press =
            Press{regionAt(m_geometry, static_cast<float>(at.x()), static_cast<float>(at.y())),
                  m_fromS, m_toS, m_scrollPx, false};
    }
    if (m_press && io.MouseDown[0]) {
        if (ImGui::IsMouseDragging(0)) m_press->dragging = true;
        if (m_press->dragging) {
            const double dxPx = mouse.x() - io.MouseClickedPos[0].x;
            const double dyPx = mouse.y() - io.MouseClickedPos[0].y;
            if (m_press->region == TimelineRegion::Scrollbar) {
                // The thumb follows the pointer: a pixel of track is content ÷ view pixels.
                const float viewPx = std::max(1.0f, m_geometry.rowsHeightPx());
                m_scrollPx = m_press->scrollPx +
                             static_cast<float>(dyPx) * m_rows.contentHeightPx() / viewPx;
            } else if (m_press->region != TimelineRegion::Gutter) {
                const double sPerPx =
                    (m_press->toS - m_press->fromS) / std::max(1.0f, m_geometry.barsWidthPx());
                m_fromS = m_press->fromS - dxPx * sPerPx;
                m_toS = m_press->toS - dxPx * sPerPx;
            }
            if (m_press->region == TimelineRegion::Bars ||
                m_press->region == TimelineRegion::Gutter)
                m_scrollPx = m_press->scrollPx - static_cast<float>(dyPx);
            clampView();
        }
    }
    // A double click on the axis or the queue lane shows the whole run again.
    if (ImGui::IsMouseDoubleClicked(0) &&
        (region == TimelineRegion::Axis || region == TimelineRegion::Queue))
        setTimeWindow(0, std::max(1.0, m_results->horizonS));
    if (ImGui::IsMouseReleased(0) && m_press) {
        if (!m_press->dragging)
            click(m_press->region, QPointF(io.MouseClickedPos[0].x, io.MouseClickedPos[0].y));
        m_press.reset();
    }
    if (io.MouseWheel != 0 && region != TimelineRegion::None) {
        if (region == TimelineRegion::Gutter || region == TimelineRegion::Scrollbar ||
            io.KeyShift) {
            m_scrollPx -= io.MouseWheel * 3 * m_rowHeights.gpuPx;
        } else {
            // Zoom around the time under the pointer: it stays where it is on screen.
            const double spanS = m_toS - m_fromS;
            const double anchorS =
                mapping().timeAt(std::max<double>(mouse.x(), m_geometry.gutterPx));
            const double newSpanS = spanS * std::pow(kZoomPerStep, io.MouseWheel);
            const double maxSpanS = std::max(1.0, m_results->horizonS) * 1.1;
            const double clampedS = std::clamp(newSpanS, kMinSpanS, maxSpanS);
            m_fromS = anchorS - (anchorS - m_fromS) * clampedS / spanS;
            m_toS = m_fromS + clampedS;
        }
        clampView();
    }
    if (io.MouseWheelH != 0) {
        const double shiftS = -io.MouseWheelH * 0.1 * (m_toS - m_fromS);
        m_fromS += shiftS;
        m_toS += shiftS;
        clampView();
    }
}

void TimelineView::click(TimelineRegion region, QPointF pos) {
    switch (region) {
        case TimelineRegion::Axis:
        case TimelineRegion::Queue: {
            const double t = std::clamp(mapping().timeAt(pos.x()), 0.0, m_results->horizonS);
            m_timeS = t;
            emitLater([this, t] { emit timeClicked(t); });
            return;
        }
        case TimelineRegion::Gutter: {
            const TimelineHover h = hoverAt(pos);
            if (!h.row || m_rows.row(*h.row).kind == TimelineRow::Kind::Gpu) return;
            // Ctrl: every header of the kind follows this one (all nodes collapsed: one
            // summary row per node). The clicked header stays where it was on screen.
            const TimelineRow header = m_rows.row(*h.row);
            const float onScreenPx = m_rows.topPx(*h.row) - m_scrollPx;
            if (ImGui::GetIO().KeyCtrl)
                m_rows.setAllCollapsed(header.kind, !m_rows.isCollapsed(*h.row));
            else
                m_rows.toggle(*h.row);
            if (const auto row = m_rows.findHeaderRow(header.kind, header.unit))
                m_scrollPx = m_rows.topPx(*row) - onScreenPx;
            clampView();
            return;
        }
        case TimelineRegion::Bars: {
            const TimelineHover h = hoverAt(pos);
            if (!h.bar) return;
            if (h.bar->merged()) {
                // A merged run: zoom in until its holds can be told apart.
                const TimeMapping map = mapping();
                const double a = map.timeAt(h.bar->x0Px), b = map.timeAt(h.bar->x1Px);
                const double pad = std::max(kMinSpanS, (b - a) * 0.1);
                setTimeWindow(a - pad, b + pad);
                return;
            }
            const int job = static_cast<int>(m_results->segments[h.bar->segment].job);
            m_selectedJob = job;
            emitLater([this, job] { emit jobClicked(job); });
            return;
        }
        case TimelineRegion::Scrollbar: {
            // A click on the track: the thumb centres there.
            const float viewPx = m_geometry.rowsHeightPx();
            const float share =
                (static_cast<float>(pos.y()) - m_geometry.rowsTopPx()) / std::max(1.0f, viewPx);
            m_scrollPx = share * m_rows.contentHeightPx() - viewPx / 2;
            clampView();
            return;
        }
        case TimelineRegion::None:
            return;
    }
}

void TimelineView::emitLater(std::function<void()> emitter) {
    QMetaObject::invokeMethod(this, std::move(emitter), Qt::QueuedConnection);
}

TimelineHover TimelineView::hoverAt(QPointF pos) const {
    TimelineHover h;
    if (!m_results) return h;
    h.region = regionAt(m_geometry, static_cast<float>(pos.x()), static_cast<float>(pos.y()));
    h.xPx = static_cast<float>(pos.x());
    h.timeS = mapping().timeAt(pos.x());
    if (h.region != TimelineRegion::Gutter && h.region != TimelineRegion::Bars) return h;
    h.row = m_rows.rowAtPx(static_cast<float>(pos.y()) - m_geometry.rowsTopPx() + m_scrollPx);
    if (h.region != TimelineRegion::Bars || !h.row) return h;
    std::vector<TimelineBar> bars;
    std::vector<TimelineMark> marks;
    const TimelineScene bare{*m_results, m_index,    m_rows,  m_colors, m_geometry,
                             mapping(),  m_scrollPx, m_timeS, -1,       {}};
    rowBars(bare, *h.row, bars, marks);
    h.bar = barAt(bars, pos.x(), 2);
    return h;
}

TimelineScene TimelineView::scene() const {
    TimelineScene s{*m_results, m_index,    m_rows,  m_colors,      m_geometry,
                    mapping(),  m_scrollPx, m_timeS, m_selectedJob, {}};
    s.hover = hoverAt(rect().contains(m_mousePos.toPoint()) ? m_mousePos : QPointF(-1, -1));
    return s;
}

void TimelineView::fitHeaderTree() {
    m_geometry.gutterPx =
        std::clamp(m_treeWidthPx, 120.0f, std::max(120.0f, m_geometry.widthPx / 3));
}

void TimelineView::clampView() {
    if (!m_results) return;
    const double horizonS = std::max(1.0, m_results->horizonS);
    const double loS = -0.05 * horizonS, hiS = 1.05 * horizonS;
    const double spanS = std::clamp(m_toS - m_fromS, std::min(kMinSpanS, horizonS), hiS - loS);
    m_fromS = std::clamp(m_fromS, loS, hiS - spanS);
    m_toS = m_fromS + spanS;
    const float maxScroll = std::max(0.0f, m_rows.contentHeightPx() - m_geometry.rowsHeightPx());
    m_scrollPx = std::clamp(m_scrollPx, 0.0f, maxScroll);
}

void TimelineView::setTimeWindow(double fromS, double toS) {
    m_fromS = fromS;
    m_toS = std::max(toS, fromS + 1e-3);
    clampView();
    update();
}

void TimelineView::setScrollPx(float scrollPx) {
    m_scrollPx = scrollPx;
    clampView();
    update();
}

std::pair<std::size_t, std::size_t> TimelineView::visibleRows() const {
    return m_rows.visibleRange(m_scrollPx, m_geometry.rowsHeightPx());
}

void TimelineView::ensureRowVisible(std::size_t row) {
    const float top = m_rows.topPx(row), height = m_rows.heightPx(row);
    const float viewPx = m_geometry.rowsHeightPx();
    if (top < m_scrollPx || top + height > m_scrollPx + viewPx)
        m_scrollPx = top - (viewPx - height) / 2;  // centred: its neighbours show too
    clampView();
}

bool TimelineView::isGpuRowVisible(int node, int slot) const {
    if (!m_results || node < 0 || node >= static_cast<int>(m_results->fleet.nodes.size()))
        return false;
    const auto row = m_rows.findGpuRow(m_results->firstGpuOfNode[node] + slot);
    if (!row) return false;
    const float top = m_rows.topPx(*row);
    return top >= m_scrollPx &&
           top + m_rows.heightPx(*row) <= m_scrollPx + m_geometry.rowsHeightPx() + 0.5f;
}

std::optional<QRectF> TimelineView::barRect(std::uint32_t segment, int gpu) const {
    if (!m_results || gpu < 0 || gpu >= static_cast<int>(m_results->gpuTimeline.gpuCount()) ||
        segment >= m_results->segments.size())
        return std::nullopt;
    const RunSegment& seg = m_results->segments[segment];
    for (const GpuInterval& i : m_results->gpuTimeline.candidatesIn(gpu, seg.startS, seg.startS)) {
        if (i.segment != segment) continue;
        const auto row = m_rows.findGpuRow(gpu, i.lane);
        if (!row) return std::nullopt;
        const TimeMapping map = mapping();
        const double y0 = m_geometry.rowsTopPx() + m_rows.topPx(*row) - m_scrollPx;
        const QRectF bar(QPointF(map.xOf(i.startS), y0 + 2),
                         QPointF(map.xOf(i.endS), y0 + m_rows.heightPx(*row) - 1));
        const QRectF area(QPointF(m_geometry.gutterPx, m_geometry.rowsTopPx()),
                          QPointF(m_geometry.widthPx, m_geometry.heightPx));
        const QRectF shown = bar.intersected(area);
        if (shown.isEmpty()) return std::nullopt;
        return shown;
    }
    return std::nullopt;
}

void TimelineView::setResults(std::shared_ptr<const Results> results) {
    const bool sameFleet = m_results && results && m_results->fleet.sameNodes(results->fleet);
    const double oldHorizonS = m_results ? m_results->horizonS : -1;
    m_results = std::move(results);
    if (!m_results) {
        m_index = {};
        update();
        return;
    }
    m_index = TimelineIndex(*m_results);
    m_rows.build(m_results->fleet, m_results->firstGpuOfNode, m_results->gpuTimeline, m_rowHeights,
                 sameFleet);
    m_colors = timelineColors(palette(), *m_results);
    if (!sameFleet) m_scrollPx = 0, m_treeWidthDirty = true;
    if (m_results->horizonS != oldHorizonS) m_fromS = 0, m_toS = std::max(1.0, m_results->horizonS);
    if (m_selectedJob >= static_cast<int>(m_results->jobs.size())) m_selectedJob = -1;
    clampView();
    update();
}

void TimelineView::setTime(double timeS) {
    if (timeS == m_timeS) return;
    m_timeS = timeS;
    update();
}

void TimelineView::setSelectedJob(int job) {
    if (job == m_selectedJob) return;
    m_selectedJob = job;
    if (job >= 0) revealJob(job);
    update();
}

void TimelineView::revealJob(int job) {
    if (!m_results || job < 0 || job >= static_cast<int>(m_results->jobs.size())) return;
    const auto segments = m_index.segmentsOf(static_cast<std::uint32_t>(job));
    if (segments.empty()) return;  // never bound: nothing on the timeline
    const double middleS = (m_fromS + m_toS) / 2;
    std::uint32_t pick = segments.front();
    for (std::uint32_t s : segments) {
        const RunSegment& seg = m_results->segments[s];
        if (seg.startS <= m_timeS && m_timeS < seg.endS) {
            pick = s;
            break;
        }
        if (seg.startS <= middleS) pick = s;
    }
    const RunSegment& seg = m_results->segments[pick];
    for (const PodPlacement& pod : m_results->placementOf(seg)) {
        if (pod.gpuMask == 0) continue;
        const int gpu = m_results->firstGpuOfNode[pod.node] + std::countr_zero(pod.gpuMask);
        int lane = 0;
        for (const GpuInterval& i :
             m_results->gpuTimeline.candidatesIn(gpu, seg.startS, seg.startS))
            if (i.segment == pick) lane = i.lane;
        ensureRowVisible(m_rows.revealGpuRow(gpu, lane));
        break;
    }
    if (seg.endS < m_fromS || seg.startS > m_toS) {
        // Off screen in time: centre it at the same zoom (a long one from its start).
        const double spanS = m_toS - m_fromS;
        const double centreS =
            seg.endS - seg.startS < spanS ? (seg.startS + seg.endS) / 2 : seg.startS + 0.4 * spanS;
        m_fromS = centreS - spanS / 2;
        m_toS = m_fromS + spanS;
    }
    clampView();
    update();
}

void TimelineView::revealGpu(int node, int slot) {
    if (!m_results || node < 0 || node >= static_cast<int>(m_results->fleet.nodes.size()) ||
        slot < 0 || slot >= m_results->fleet.nodes[node].gpus)
        return;
    ensureRowVisible(m_rows.revealGpuRow(m_results->firstGpuOfNode[node] + slot));
    update();
}

void TimelineView::queueButton(int button, bool down, QPointF pos) {
    // Far more changes than frames (the widget not drawing): the oldest go, never the state.
    if (m_buttonChanges.size() >= 32) m_buttonChanges.pop_front();
    m_buttonChanges.push_back({button, down, pos});
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    m_mousePos = e->position();
    m_modifiers = e->modifiers();
    if (const int b = buttonIndex(e->button()); b >= 0) queueButton(b, true, e->position());
    e->accept();
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    m_mousePos = e->position();
    m_modifiers = e->modifiers();
    if (const int b = buttonIndex(e->button()); b >= 0) queueButton(b, false, e->position());
    e->accept();
    update();
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    m_mousePos = e->position();
    m_modifiers = e->modifiers();
    update();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    m_mousePos = e->position();
    m_modifiers = e->modifiers();
    m_wheelSteps += e->angleDelta().y() / 120.0f;
    m_wheelStepsH += e->angleDelta().x() / 120.0f;
    e->accept();
    update();
}

void TimelineView::leaveEvent(QEvent* e) {
    m_mousePos = QPointF(-1e6, -1e6);
    update();
    QOpenGLWidget::leaveEvent(e);
}

}  // namespace gpuplan::ui
