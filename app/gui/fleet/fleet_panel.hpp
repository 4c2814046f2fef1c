// The Fleet dock: the scenario's pods ⊃ racks ⊃ node groups, edited in place (names, counts,
// node types, buying classes, delivery times) and with buttons to add, duplicate and remove.
// Every change is one ScenarioDocument::edit; a refusal leaves the document as it was and its
// reason shows under the tree, in the status bar and as the cell's tooltip.
#pragma once

#include <QWidget>
#include <vector>

#include "fleet_edits.hpp"
#include "shell/scenario_document.hpp"

class QDoubleSpinBox;
class QLabel;
class QTreeView;

namespace gpuplan::ui {
class FleetTreeModel;
struct FleetTreePath;
}  // namespace gpuplan::ui

namespace gpuplan::app {

/// Sends a fleet edit to the document: the refusal reason (the edit's own or the document's
/// validation), or an empty string when it was applied.
QString applyFleetEdit(ScenarioDocument& doc, const FleetEdit& edit);

class FleetPanel : public QWidget {
    Q_OBJECT
public:
    explicit FleetPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    ui::FleetTreeModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    /// The fabric's oversubscription above racks and above pods (N in N:1).
    QDoubleSpinBox* rackUplinksBox() const { return m_rackUplinks; }
    QDoubleSpinBox* podUplinksBox() const { return m_podUplinks; }
    /// The refusal shown under the tree (empty when the last edit went through).
    QString refusal() const;
    /// Every selected pod, rack and node-group definition (Ctrl/Shift-click selects several).
    std::vector<FleetDefPath> selectedPaths() const;

public slots:
    void addPod();
    /// Into the selected pod (or the selected rack's or group's pod).
    void addRack();
    /// Into the selected rack (or the selected group's rack).
    void addNodeGroup();
    void duplicateSelected();
    void removeSelected();

signals:
    /// What an edit did or why it was refused, for the status bar.
    void message(const QString& text);
    /// The selection changed (the GPU sharing editor follows it).
    void definitionsSelected(const std::vector<gpuplan::app::FleetDefPath>& paths);

private:
    QString commitCell(const ui::FleetTreePath& path, int column, const QVariant& value);
    FleetDefPath selectedPath() const;
    /// Makes a definition current, so the next button acts on what was just added.
    void select(const FleetDefPath& path);
    /// The type column offers the catalog's node types and the scenario's own.
    void offerNodeTypes();
    /// Applies, reports and returns the refusal reason (empty when applied).
    QString run(const FleetEdit& edit);
    /// The uplink boxes show the document's fabric.
    void syncFabric();

    ScenarioDocument* m_doc;
    ui::FleetTreeModel* m_model;
    QTreeView* m_view;
    QLabel* m_refusal;
    QDoubleSpinBox *m_rackUplinks, *m_podUplinks;
};

}  // namespace gpuplan::app
