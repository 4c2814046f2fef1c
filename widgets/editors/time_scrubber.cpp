#include "time_scrubber.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QProxyStyle>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <algorithm>

#include "format/ui_palette.hpp"

namespace gpuplan::ui {

namespace {
/// A click on the track jumps there (a plain QSlider pages towards the click instead).
class JumpToClickStyle : public QProxyStyle {
public:
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                  QStyleHintReturn* returnData) const override {
        if (hint == SH_Slider_AbsoluteSetButtons) return Qt::LeftButton | Qt::MiddleButton;
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }
};

constexpr int kSteps = 10000;
constexpr int kFrameMs = 40;         // 25 frames a second
constexpr double kPlayFrames = 600;  // the whole horizon plays in 24 s
}  // namespace

TimeScrubber::TimeScrubber(QWidget* parent) : QWidget(parent) {
    m_play = new QToolButton(this);
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(tr("Play / pause (Space)"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, kSteps);
    auto* jump = new JumpToClickStyle;  // follows the application style
    jump->setParent(m_slider);
    m_slider->setStyle(jump);
    m_slider->setToolTip(
        tr("Simulated time: the fleet, the pending list and the chart cursors follow"));
    m_label = new QLabel(this);
    m_label->setMinimumWidth(m_label->fontMetrics().horizontalAdvance(
                                 formatSimTime(99 * 86400 + 86340) + QStringLiteral(" / 99.0 d")) +
                             8);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_play);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_label);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        const double t = m_horizonS * v / kSteps;
        if (t == m_timeS) return;
        m_timeS = t;
        showTime();
        emit timeChanged(m_timeS);
    });
    connect(m_play, &QToolButton::clicked, this, &TimeScrubber::togglePlay);
    m_timer.setInterval(kFrameMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        double next = m_timeS + m_horizonS / kPlayFrames;
        if (next >= m_horizonS) {
            next = m_horizonS;
            togglePlay();
        }
        setTime(next);
    });
    showTime();
}

bool TimeScrubber::setHorizon(double horizonS) {
    m_horizonS = std::max(1.0, horizonS);
    const double clamped = std::min(m_timeS, m_horizonS);
    const bool moved = clamped != m_timeS;
    m_timeS = clamped;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(static_cast<int>(m_timeS / m_horizonS * kSteps + 0.5));
    }
    showTime();
    return moved;
}

void TimeScrubber::announceTime() {
    emit timeChanged(m_timeS);
}

void TimeScrubber::setTime(double timeS) {
    // Keep the exact time; the slider only shows where it is.
    timeS = std::clamp(timeS, 0.0, m_horizonS);
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(static_cast<int>(timeS / m_horizonS * kSteps + 0.5));
    }
    if (timeS == m_timeS) return;
    m_timeS = timeS;
    showTime();
    emit timeChanged(m_timeS);
}

void TimeScrubber::togglePlay() {
    if (m_timer.isActive()) {
        m_timer.stop();
        m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    } else {
        if (m_timeS >= m_horizonS) setTime(0);
        m_timer.start();
        m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    }
}

QString TimeScrubber::text() const {
    return m_label->text();
}

void TimeScrubber::showTime() {
    m_label->setText(
        QStringLiteral("%1 / %2").arg(formatSimTime(m_timeS), formatDuration(m_horizonS)));
}

}  // namespace gpuplan::ui
