// What a right-click on the fleet offers at the scrubber's time t: duplicate or remove a rack,
// remove a node or change its state from t (cordon, failure, repair), switch a node's or a
// rack's GPU sharing, and add a delivery (a Provisioning rack ready at t). Each action is one fleet
// edit through the document.
#pragma once

#include <QObject>
#include <QString>

#include "shell/scenario_document.hpp"

class QMenu;

namespace gpuplan::app {

/// Generated names of what was clicked; empty above the clicked level (a rack has no node).
struct FleetTarget {
    QString pod, rack, node;
};

class FleetContextMenu : public QObject {
    Q_OBJECT
public:
    explicit FleetContextMenu(ScenarioDocument* doc, QObject* parent = nullptr);

    /// Adds the actions for `target` at `timeS` to `menu` (each with an objectName, e.g.
    /// "duplicateRack", so tests can trigger them without opening the menu).
    void fill(QMenu* menu, const FleetTarget& target, double timeS);

signals:
    /// What an action did or why it was refused, for the status bar.
    void message(const QString& text);
    /// "MIG layout…" on the node or rack `name` ("Node" or "Rack" in `kind`): the Inspector's
    /// GPU sharing editor should show it.
    void sharingEditorRequested(const QString& kind, const QString& name);

private:
    ScenarioDocument* m_doc;
};

}  // namespace gpuplan::app
