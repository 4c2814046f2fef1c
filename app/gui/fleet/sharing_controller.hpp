// The GPU sharing editor (under the Inspector) follows the last selection — a pod, rack or node
// in the topology, or definitions in the Fleet panel — and what it asks becomes one sharing
// edit of the document (sharing_edits.hpp): one undo step, validated like a file, re-simulated.
#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "fleet_edits.hpp"
#include "shell/scenario_document.hpp"

namespace gpuplan::ui {
class GpuSharingEditor;
}

namespace gpuplan::app {

class SharingController : public QObject {
    Q_OBJECT
public:
    SharingController(ScenarioDocument* doc, ui::GpuSharingEditor* editor,
                      QObject* parent = nullptr);

    ui::GpuSharingEditor* editor() const { return m_editor; }
    /// The generated pod, rack or node `name` ("Node", "Rack" or "Pod" in `kind`); an empty
    /// name selects nothing.
    void selectGenerated(const QString& kind, const QString& name);
    /// Node-group, rack or pod definitions (the Fleet panel's selection); an empty selection
    /// leaves a topology target as it is.
    void selectDefinitions(const std::vector<FleetDefPath>& defs);
    /// Gives the target `sharing` as one edit: the refusal, or "" when applied.
    QString request(const GpuSharingDef& sharing);

signals:
    /// What an edit did or why it was refused, for the status bar.
    void message(const QString& text);

private:
    /// The editor from the document's current scenario.
    void refresh();
    std::vector<FleetDefPath> targetGroups() const;

    ScenarioDocument* m_doc;
    ui::GpuSharingEditor* m_editor;
    QString m_kind, m_name;            ///< a generated target, or
    std::vector<FleetDefPath> m_defs;  ///< definitions
    /// The first target's sharing when it has a layout per GPU (the editor shows one).
    std::optional<GpuSharingDef> m_perGpu;
};

}  // namespace gpuplan::app
