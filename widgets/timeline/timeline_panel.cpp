#include "timeline_panel.hpp"

#include <QGuiApplication>
#include <QLabel>
#include <QOpenGLContext>

#include "timeline_view.hpp"

namespace gpuplan::ui {

bool timelineGlAvailable(QString* why) {
    auto refuse = [why](const QString& reason) {
        if (why) *why = reason;
        return false;
    };
    const QString platform = QGuiApplication::platformName();
    // Checked first: on offscreen even trying can take the process down.
    if (platform == QLatin1String("offscreen"))
        return refuse(QObject::tr("the \"offscreen\" platform has no OpenGL"));
    QOpenGLContext probe;
    if (!probe.create()) return refuse(QObject::tr("no OpenGL context can be made"));
    if (!probe.isOpenGLES() && probe.format().majorVersion() < 3)
        return refuse(QObject::tr("OpenGL %1.%2 is too old (3.0 needed)")
                          .arg(probe.format().majorVersion())
                          .arg(probe.format().minorVersion()));
    return true;
}

QWidget* makeTimelinePanel(QWidget* parent) {
    QString why;
    if (timelineGlAvailable(&why)) return new TimelineView(parent);
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("timelinePlaceholder"));
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setText(QObject::tr("The timeline needs OpenGL, and %1.\nEverything else works; "
                               "gpuplan-cli trace exports the same run for Perfetto.")
                       .arg(why));
    return label;
}

}  // namespace gpuplan::ui
