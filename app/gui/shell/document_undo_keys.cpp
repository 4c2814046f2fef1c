#include "document_undo_keys.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QKeySequence>

namespace gpuplan::app {

namespace {

bool inSpinBox(const QObject* o) {
    for (; o; o = o->parent())
        if (qobject_cast<const QAbstractSpinBox*>(o)) return true;
    return false;
}

}  // namespace

bool DocumentUndoKeys::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride && inSpinBox(watched)) {
        auto* key = static_cast<QKeyEvent*>(event);
        // Kept from the box (not accepted): the window's Undo and Redo actions take the keys.
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) return true;
    }
    return QObject::eventFilter(watched, event);
}

void routeSpinBoxUndoToDocument(QObject* parent) {
    qApp->installEventFilter(new DocumentUndoKeys(parent));
}

}  // namespace gpuplan::app
