// The GPU timeline: every GPU's holds over time, Tracy-style rows grouped by pod,
// rack and node, drawn by Dear ImGui in one QOpenGLWidget. The widget owns its ImGuiContext
// (made current before every use, destroyed with the widget) and feeds it Qt's input each
// frame. Wheel zooms time around the pointer (over the header tree it scrolls rows), dragging
// pans time and rows, hovering shows a tooltip, a click on a bar selects its job and a click
// on the axis or the queue lane moves the time cursor. It repaints only when the results, the
// selection, the time, its size or the input change: no timer runs.
//
// Where OpenGL cannot work (the offscreen platform crashes on any QOpenGLWidget), create the
// panel with makeTimelinePanel (timeline_panel.hpp) instead.
#pragma once

#include <QElapsedTimer>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPointF>
#include <QRectF>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "gpuplan/results/results.hpp"
#include "timeline_draw.hpp"
#include "timeline_index.hpp"
#include "timeline_rows.hpp"

struct ImGuiContext;

namespace gpuplan::ui {

class TimelineView : public QOpenGLWidget, protected QOpenGLFunctions {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    std::shared_ptr<const Results> results() const { return m_results; }
    double time() const { return m_timeS; }
    int selectedJob() const { return m_selectedJob; }
    const TimelineRows& rows() const { return m_rows; }
    TimelineRows& rows() { return m_rows; }
    const TimelineGeometry& geometry() const { return m_geometry; }

    /// The time window shown, [fromS, toS].
    double viewFromS() const { return m_fromS; }
    double viewToS() const { return m_toS; }
    void setTimeWindow(double fromS, double toS);
    float scrollPx() const { return m_scrollPx; }
    void setScrollPx(float scrollPx);
    /// Visible rows [first, last) at the current scroll.
    std::pair<std::size_t, std::size_t> visibleRows() const;
    /// Whether a GPU's row (lane 0) lies wholly within the rows area now.
    bool isGpuRowVisible(int node, int slot) const;
    /// Where the bar of a binding on a GPU is drawn now (widget coordinates, cut to the bars
    /// area); nullopt when it is off screen.
    std::optional<QRectF> barRect(std::uint32_t segment, int gpu) const;

    /// Frames drawn so far, and what the last one drew (tests, the benchmark).
    quint64 framesDrawn() const { return m_frames; }
    const TimelineFrameStats& lastFrameStats() const { return m_stats; }
    /// Milliseconds the last paintGL took, all of it, and the part spent building its draw
    /// lists (input, rows, bars, text: the CPU side, before any GL call of ImGui's).
    double lastFrameMs() const { return m_lastFrameMs; }
    double lastBuildMs() const { return m_lastBuildMs; }
    /// Ends every frame with glFinish, so lastFrameMs includes the rasteriser (benchmark).
    void setFinishFrames(bool finish) { m_finishFrames = finish; }
    bool glReady() const { return m_backendReady; }

public slots:
    void setResults(std::shared_ptr<const Results> results);
    void setTime(double timeS);
    /// Highlights the job's bars (−1: none); a newly selected job is revealed (revealJob).
    void setSelectedJob(int job);
    /// Scrolls and, when needed, pans so a binding of the job shows: the one holding the
    /// cursor's time, else its latest that started before the view's middle, else its first.
    void revealJob(int job);
    /// Expands the GPU's pod, rack and node and scrolls its row into view.
    void revealGpu(int node, int slot);

signals:
    void jobClicked(int job);
    void timeClicked(double timeS);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    /// Gives the backend's GL objects back while their context is current (before the context
    /// goes: the widget moved to another window, or is being destroyed).
    void releaseGl();
    void setUpFonts();
    void applyStyle();  ///< ImGui's colours for the palette (current context: ours)
    /// Qt's input of the last events → ImGuiIO, for the frame about to start.
    void feedInput();
    void queueButton(int button, bool down, QPointF pos);
    /// Zoom, pan, clicks: the view's reaction to this frame's input.
    void handleInput();
    void click(TimelineRegion region, QPointF pos);
    TimelineScene scene() const;
    TimelineHover hoverAt(QPointF pos) const;
    TimeMapping mapping() const;
    void clampView();
    /// The header tree as wide as its labels, at most a third of the widget.
    void fitHeaderTree();
    void ensureRowVisible(std::size_t row);
    /// Emits after the frame, through the event loop (a slot must not re-enter paintGL).
    void emitLater(std::function<void()> emitter);

    ImGuiContext* m_imgui = nullptr;
    bool m_backendReady = false;
    std::shared_ptr<const Results> m_results;
    TimelineIndex m_index;
    TimelineRows m_rows;
    TimelineColors m_colors;
    TimelineGeometry m_geometry;
    TimelineRowHeights m_rowHeights;  ///< from the font's size
    float m_treeWidthPx = 190;        ///< the header tree's labels' width (headerTreeWidthPx)
    bool m_treeWidthDirty = true;     ///< new results: measured in the next frame (needs fonts)
    TimelineFrameStats m_stats;
    double m_timeS = 0;
    int m_selectedJob = -1;
    double m_fromS = 0, m_toS = 1;  ///< the time window shown
    float m_scrollPx = 0;

    // Input between frames. ImGui 1.86 has no input queue: it sees each button's state once a
    // frame. Presses and releases wait here and each frame takes at most one change per
    // button, so a click whose press and release arrive before the next frame (or a double
    // click's four) is seen whole, a frame per change.
    struct ButtonChange {
        int button = 0;
        bool down = false;
        QPointF pos;
    };
    QPointF m_mousePos{-1e6, -1e6};
    std::array<bool, 3> m_down{};  ///< as ImGui sees the buttons
    std::deque<ButtonChange> m_buttonChanges;
    float m_wheelSteps = 0, m_wheelStepsH = 0;
    Qt::KeyboardModifiers m_modifiers;
    QElapsedTimer m_clock;
    /// The drag under way: where it started and the view then.
    struct Press {
        TimelineRegion region = TimelineRegion::None;
        double fromS = 0, toS = 0;
        float scrollPx = 0;
        bool dragging = false;
    };
    std::optional<Press> m_press;
    QString m_lastTooltip;
    quint64 m_frames = 0;
    double m_lastFrameMs = 0, m_lastBuildMs = 0;
    bool m_finishFrames = false;
};

}  // namespace gpuplan::ui
