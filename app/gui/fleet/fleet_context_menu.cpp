#include "fleet_context_menu.hpp"

#include <QMenu>

#include "fleet_edits.hpp"
#include "fleet_panel.hpp"
#include "format/sharing_format.hpp"
#include "format/ui_palette.hpp"
#include "sharing_edits.hpp"

namespace gpuplan::app {

FleetContextMenu::FleetContextMenu(ScenarioDocument* doc, QObject* parent)
    : QObject(parent), m_doc(doc) {}

void FleetContextMenu::fill(QMenu* menu, const FleetTarget& target, double timeS) {
    auto addTo = [&](QMenu* to, const char* name, const QString& text, auto makeEdit) {
        QAction* a = to->addAction(text);
        a->setObjectName(QLatin1String(name));
        connect(a, &QAction::triggered, this, [this, makeEdit] {
            const FleetEdit edit = makeEdit(m_doc->scenario());
            const QString reason = applyFleetEdit(*m_doc, edit);
            emit message(reason.isEmpty() ? QString::fromStdString(edit.label)
                                          : tr("Refused: %1").arg(reason));
        });
    };
    auto add = [&](const char* name, const QString& text, auto makeEdit) {
        addTo(menu, name, text, makeEdit);
    };
    // Quick switches of one node's or rack's GPUs; MIG needs a layout, so it opens the editor.
    auto sharing = [&](const std::string& prefix, const QString& kind, const QString& name) {
        QMenu* sub = menu->addMenu(tr("GPU sharing of this %1").arg(kind.toLower()));
        sub->setObjectName(QString::fromStdString(prefix + "Sharing"));
        const std::string target = name.toStdString();
        const std::pair<SharingMode, const char*> modes[] = {
            {SharingMode::Whole, "Whole"},
            {SharingMode::Mps, "Mps"},
            {SharingMode::TimeSlicing, "TimeSlicing"}};
        for (const auto& [mode, modeName] : modes) {
            GpuSharingDef d;  // the default clients and replicas
            d.mode = mode;
            const std::string id = prefix + "Sharing" + modeName;
            QString text = QString::fromStdString(ui::sharingSummary(d, nullptr));
            text[0] = text[0].toUpper();
            addTo(sub, id.c_str(), text,
                  [target, d](const Scenario& s) { return setSharingOf(s, target, d); });
        }
        QAction* mig = sub->addAction(tr("MIG layout… (in the Inspector)"));
        mig->setObjectName(QString::fromStdString(prefix + "SharingEditor"));
        connect(mig, &QAction::triggered, this,
                [this, kind, name] { emit sharingEditorRequested(kind, name); });
    };
    const std::string rack = target.rack.toStdString(), node = target.node.toStdString();
    const QString at = ui::formatSimTime(timeS);  // as the scrubber reads it
    if (!target.node.isEmpty()) {
        menu->addSection(tr("Node %1").arg(target.node));
        auto event = [&](const char* name, const QString& text, NodeState state) {
            add(name, text, [node, timeS, state](const Scenario& s) {
                return addNodeEvent(s, node, timeS, state);
            });
        };
        event("cordonNode", tr("Cordon from %1").arg(at), NodeState::Cordoned);
        event("failNode", tr("Mark failed from %1").arg(at), NodeState::Failed);
        // Its jobs finish; no new ones; then it is down for maintenance until repaired.
        event("drainNode", tr("Drain from %1 (then repair)").arg(at), NodeState::Draining);
        event("repairNode", tr("Repair from %1").arg(at), NodeState::Ready);
        add("removeNode", tr("Remove node"),
            [node](const Scenario& s) { return removeNode(s, node); });
        sharing("node", tr("Node"), target.node);
    }
    if (!target.rack.isEmpty()) {
        menu->addSection(tr("Rack %1").arg(target.rack));
        add("duplicateRack", tr("Duplicate rack"),
            [rack](const Scenario& s) { return duplicateRack(s, rack, 1); });
        add("duplicateRack2", tr("Duplicate rack ×2"),
            [rack](const Scenario& s) { return duplicateRack(s, rack, 2); });
        add("removeRack", tr("Remove rack"),
            [rack](const Scenario& s) { return removeRack(s, rack); });
        sharing("rack", tr("Rack"), target.rack);
    }
    menu->addSection(tr("Fleet"));
    const std::string pod = target.pod.toStdString();
    add("addDelivery",
        target.pod.isEmpty() ? tr("Add a delivery ready at %1").arg(at)
                             : tr("Add a delivery to %1 ready at %2").arg(target.pod, at),
        [pod, timeS](const Scenario& s) { return addDelivery(s, pod, timeS); });
    if (timeS <= 0) {  // a delivery arrives later: say how to pick its time
        QAction* delivery = menu->actions().back();
        delivery->setEnabled(false);
        delivery->setText(tr("Add a delivery (move the time scrubber to its date first)"));
    }
}

}  // namespace gpuplan::app
