#include "sharing_controller.hpp"

#include <QStringList>

#include "editors/gpu_sharing_editor.hpp"
#include "fleet_panel.hpp"
#include "format/sharing_format.hpp"
#include "sharing_edits.hpp"

namespace gpuplan::app {

SharingController::SharingController(ScenarioDocument* doc, ui::GpuSharingEditor* editor,
                                     QObject* parent)
    : QObject(parent), m_doc(doc), m_editor(editor) {
    connect(m_editor, &ui::GpuSharingEditor::sharingRequested, this,
            [this](const GpuSharingDef& sharing) { request(sharing); });
    connect(m_doc, &ScenarioDocument::changed, this, &SharingController::refresh);
    // Another scenario: definition paths and names of the old one mean nothing there.
    connect(m_doc, &ScenarioDocument::replaced, this, [this] {
        m_name.clear();
        selectDefinitions({});
    });
}

void SharingController::selectGenerated(const QString& kind, const QString& name) {
    m_kind = kind;
    m_name = name;
    m_defs.clear();
    refresh();
}

void SharingController::selectDefinitions(const std::vector<FleetDefPath>& defs) {
    // The Fleet panel losing its selection does not take away a node picked in the topology.
    if (defs.empty() && !m_name.isEmpty()) return;
    m_kind.clear();
    m_name.clear();
    m_defs = defs;
    refresh();
}

std::vector<FleetDefPath> SharingController::targetGroups() const {
    const Scenario& s = m_doc->scenario();
    return m_name.isEmpty() ? groupsUnder(s, m_defs) : groupsOf(s, m_name.toStdString());
}

void SharingController::refresh() {
    const Scenario& s = m_doc->scenario();
    const std::vector<FleetDefPath> groups = targetGroups();
    if (groups.empty()) {
        m_editor->clearTarget(
            tr("Select a node, rack or pod (or node groups in the Fleet panel) "
               "to set how its GPUs are shared."));
        return;
    }
    // One GPU model for all targets, or none (MIG layouts are per model).
    const GpuModel* gpu = nullptr;
    bool oneModel = true;
    QStringList differing;
    const NodeGroupDef& first = s.pods[groups[0].pod].racks[groups[0].rack].nodes[groups[0].group];
    for (const FleetDefPath& p : groups) {
        const NodeGroupDef& g = s.pods[p.pod].racks[p.rack].nodes[p.group];
        const NodeType* type = s.findNodeType(g.nodeType);
        const GpuModel* model = type ? s.findGpu(type->gpuModel) : nullptr;
        if (p == groups[0]) gpu = model;
        oneModel = oneModel && model == gpu;
        const QString summary = QString::fromStdString(ui::sharingSummary(g.sharing, model));
        if (!differing.contains(summary)) differing << summary;
    }
    QString title =
        m_name.isEmpty()
            ? tr("Fleet panel: %1").arg(QString::fromStdString(definitionsName(s, m_defs)))
            : QStringLiteral("%1 %2").arg(m_kind, m_name);
    if (gpu && oneModel) title += QStringLiteral(" · %1").arg(QString::fromStdString(gpu->name));
    QString note;
    if (differing.size() > 1)
        note = tr("Its %1 node groups differ (%2); a change applies to all.")
                   .arg(groups.size())
                   .arg(differing.join(QStringLiteral("; ")));
    // The editor draws one GPU's layout. A group with a layout per GPU shows its first GPU's
    // and says so; a new layout goes on every GPU, other changes keep each GPU's own.
    GpuSharingDef shown = first.sharing;
    m_perGpu.reset();
    if (shown.mode == SharingMode::Mig && !shown.migLayouts.empty()) {
        m_perGpu = shown;
        shown.migLayout = shown.migLayouts.front().layout;
        shown.migLayouts.clear();
        if (!note.isEmpty()) note += QLatin1Char(' ');
        note += tr("Its GPUs have layouts of their own (%1); shown: the first GPU's. A layout "
                   "set here goes on every GPU.")
                    .arg(QString::fromStdString(ui::sharingSummary(first.sharing, gpu)));
    }
    m_editor->setTarget(title, shown, oneModel ? gpu : nullptr, note);
}

QString SharingController::request(const GpuSharingDef& requested) {
    GpuSharingDef sharing = requested;
    if (m_perGpu && sharing.mode == SharingMode::Mig &&
        sharing.migLayout == m_perGpu->migLayouts.front().layout) {
        // The shown layout unchanged (dynamic, re-cut time): each GPU keeps its own.
        sharing.migLayouts = m_perGpu->migLayouts;
        sharing.migLayout.clear();
    }
    const Scenario& s = m_doc->scenario();
    const FleetEdit edit = m_name.isEmpty() ? setSharing(s, m_defs, sharing)
                                            : setSharingOf(s, m_name.toStdString(), sharing);
    const QString reason = applyFleetEdit(*m_doc, edit);
    if (reason.isEmpty()) {
        emit message(QString::fromStdString(edit.label));
        return {};
    }
    refresh();  // back to what the document holds
    m_editor->showRefusal(reason);
    emit message(tr("Refused: %1").arg(reason));
    return reason;
}

}  // namespace gpuplan::app
