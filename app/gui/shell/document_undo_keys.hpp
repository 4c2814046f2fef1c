// Ctrl+Z and Ctrl+Shift+Z in a spin box undo the document, not the box's text. A spin box
// commits its value as an edit (Enter, or leaving it), after which the planner means "undo
// that edit"; Qt's line edit inside the box would otherwise take the shortcut and undo only
// its text. Plain text fields (names) keep their own undo.
#pragma once

#include <QObject>

namespace gpuplan::app {

class DocumentUndoKeys : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

/// Installs the filter on the application (owned by `parent`).
void routeSpinBoxUndoToDocument(QObject* parent);

}  // namespace gpuplan::app
