// The timeline panel where OpenGL works, and a plain placeholder where it cannot: the
// offscreen platform crashes on any window holding a QOpenGLWidget, and a display without a
// GL 3.0 context cannot run ImGui's OpenGL3 backend. The application runs on either way.
#pragma once

#include <QString>

class QWidget;

namespace gpuplan::ui {

/// Whether the GL timeline can run here: not the offscreen platform, and a test context of
/// OpenGL 3.0 or later can be made. Otherwise `why` (when given) says what is missing.
bool timelineGlAvailable(QString* why = nullptr);

/// A TimelineView (qobject_cast tells) where timelineGlAvailable(), else a label naming what
/// is missing (object name "timelinePlaceholder").
QWidget* makeTimelinePanel(QWidget* parent);

}  // namespace gpuplan::ui
