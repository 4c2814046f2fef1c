// What a drop on the fleet means. A job template dropped on a node pins a new job there; on
// a rack or pod it gets affinity there; it is submitted at the scrubber's time. A pinned job
// dropped elsewhere moves. A drop the target can never hold is refused with the layer and
// reason, and nothing changes. While a drag hovers a target, the verdict shows at once and a
// what-if run tells when the job would start there.
#pragma once

#include <QObject>
#include <optional>
#include <vector>

#include "editors/job_template.hpp"
#include "scenario_document.hpp"
#include "simulation_controller.hpp"
#include "topology/topology_layout.hpp"

namespace gpuplan::app {

struct DropRequest {
    ui::TopologyHit target;
    QString format;  ///< ui::kTemplateMime or ui::kMoveJobMime
    QByteArray payload;
    double timeS = 0;
    /// The target's name in the fleet on screen. The window fills it from the results it
    /// shows, so a drop never lands by index on a different fleet; empty = look it up in the
    /// document's fleet.
    QString targetName;
};

struct DropOutcome {
    bool accepted = false;
    QString message;  ///< for the status bar: what happened, or why it was refused
};

class DropController : public QObject {
    Q_OBJECT
public:
    explicit DropController(ScenarioDocument* document, QObject* parent = nullptr);

    void setTemplates(std::vector<ui::JobTemplate> templates) {
        m_templates = std::move(templates);
    }
    const std::vector<ui::JobTemplate>& templates() const { return m_templates; }
    /// The team a dropped template runs for instead of its own ("" = the template's team).
    void setTeamOverride(const QString& team) { m_teamOverride = team.toStdString(); }
    /// The priority a dropped template runs at instead of its own (none = the template's).
    void setPriorityOverride(std::optional<int> priority) { m_priorityOverride = priority; }

    DropOutcome drop(const DropRequest& request);
    void hover(const DropRequest& request);
    void hoverEnded();
    SimulationController& whatIf() { return m_whatIf; }

signals:
    void feedback(const gpuplan::ui::TopologyHit& target, bool fits, const QString& text);

private:
    struct Plan {
        Scenario after;
        JobDef job;
        QString undoText;
        QString refusal;  ///< non-empty: the drop is refused
    };
    Plan plan(const DropRequest& request) const;
    void whatIfDone(std::shared_ptr<const Results> results);

    ScenarioDocument* m_doc;
    std::vector<ui::JobTemplate> m_templates;
    std::string m_teamOverride;
    std::optional<int> m_priorityOverride;
    SimulationController m_whatIf;
    std::optional<DropRequest> m_hover;
    std::string m_hoverJob;
};

}  // namespace gpuplan::app
