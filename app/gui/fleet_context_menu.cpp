#include "fleet_context_menu.hpp"

#include <QMenu>

#include "fleet_edits.hpp"
#include "fleet_panel.hpp"
#include "ui_palette.hpp"

namespace gpuplan::app {

FleetContextMenu::FleetContextMenu(ScenarioDocument* doc, QObject* parent)
    : QObject(parent), m_doc(doc) {}

void FleetContextMenu::fill(QMenu* menu, const FleetTarget& target, double timeS) {
    auto add = [&](const char* name, const QString& text, auto makeEdit) {
        QAction* a = menu->addAction(text);
        a->setObjectName(QLatin1String(name));
        connect(a, &QAction::triggered, this, [this, makeEdit] {
            const FleetEdit edit = makeEdit(m_doc->scenario());
            const QString reason = applyFleetEdit(*m_doc, edit);
            emit message(reason.isEmpty() ? QString::fromStdString(edit.label)
                                          : tr("Refused: %1").arg(reason));
        });
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
        event("repairNode", tr("Repair from %1").arg(at), NodeState::Ready);
        add("removeNode", tr("Remove node"),
            [node](const Scenario& s) { return removeNode(s, node); });
    }
    if (!target.rack.isEmpty()) {
        menu->addSection(tr("Rack %1").arg(target.rack));
        add("duplicateRack", tr("Duplicate rack"),
            [rack](const Scenario& s) { return duplicateRack(s, rack, 1); });
        add("duplicateRack2", tr("Duplicate rack ×2"),
            [rack](const Scenario& s) { return duplicateRack(s, rack, 2); });
        add("removeRack", tr("Remove rack"),
            [rack](const Scenario& s) { return removeRack(s, rack); });
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
