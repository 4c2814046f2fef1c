// The time scrubber under the fleet: a slider over the simulated horizon (a click on the track
// jumps there), a play button that animates, and the time as text ("d2 04:30 / 7.0 d").
#pragma once

#include <QTimer>
#include <QWidget>

class QSlider;
class QLabel;
class QToolButton;

namespace gpuplan::ui {

class TimeScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimeScrubber(QWidget* parent = nullptr);
    /// Sets the horizon and clamps the time into it WITHOUT announcing the clamp: the time
    /// belongs to results the views do not hold yet. The caller hands the new results to every
    /// view, then calls announceTime() when this returned true (the time moved).
    bool setHorizon(double horizonS);
    /// Emits timeChanged with the current time.
    void announceTime();
    double time() const { return m_timeS; }
    void setTime(double timeS);
    bool playing() const { return m_timer.isActive(); }
    /// The time as the label shows it.
    QString text() const;
    QSlider* slider() const { return m_slider; }

public slots:
    void togglePlay();

signals:
    void timeChanged(double timeS);

private:
    void showTime();

    QSlider* m_slider;
    QLabel* m_label;
    QToolButton* m_play;
    QTimer m_timer;
    double m_horizonS = 1;
    double m_timeS = 0;
};

}  // namespace gpuplan::ui
