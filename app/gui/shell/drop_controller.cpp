#include "drop_controller.hpp"

#include "format/ui_palette.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scheduling/fit_check.hpp"
#include "topology/topology_view.hpp"
#include "workload/job_templates.hpp"

namespace gpuplan::app {

namespace {

/// "drop-notebook-1": the prefix keeps dropped jobs apart from generated "<class>-<n>" ones.
std::string uniqueJobName(const Scenario& s, const std::string& base) {
    for (int i = 1;; ++i) {
        const std::string name = "drop-" + base + "-" + std::to_string(i);
        bool taken = false;
        for (const JobDef& j : s.jobs)
            taken = taken || j.name == name;
        if (!taken) return name;
    }
}

/// "ready:fine-tune" → "fine-tune"; "class:serving" → "serving".
std::string baseName(const QString& templateId) {
    return templateId.section(QLatin1Char(':'), 1).toStdString();
}

/// "Priority 0 is below every job class (20 to 1000) …", or "" when it is not.
QString belowEveryClass(const Scenario& s, int priority) {
    const std::optional<PriorityRange> classes = classPriorityRange(s);
    if (!classes || priority >= classes->low) return {};
    return DropController::tr(
               "Priority %1 is below every job class (%2 to %3): choose a priority in the "
               "palette.")
        .arg(priority)
        .arg(classes->low)
        .arg(classes->high);
}

}  // namespace

DropController::DropController(ScenarioDocument* document, QObject* parent)
    : QObject(parent), m_doc(document) {
    m_whatIf.setDebounceMs(100);
    connect(&m_whatIf, &SimulationController::resultsReady, this,
            [this](std::shared_ptr<const Results> r, quint64) { whatIfDone(std::move(r)); });
}

DropController::Plan DropController::plan(const DropRequest& r) const {
    Plan p;
    p.after = m_doc->scenario();
    const Fleet fleet = Fleet::build(p.after);
    const QString target = r.targetName.isEmpty() ? ui::targetName(fleet, r.target) : r.targetName;
    const bool known =
        (r.target.kind == ui::TopologyHit::Kind::Rack && fleet.findRack(target.toStdString())) ||
        (r.target.kind == ui::TopologyHit::Kind::Pod && fleet.findPod(target.toStdString())) ||
        ((r.target.kind == ui::TopologyHit::Kind::Node ||
          r.target.kind == ui::TopologyHit::Kind::Gpu) &&
         fleet.findNode(target.toStdString()));
    if (target.isEmpty() || !known) {
        p.refusal =
            tr("The fleet on screen is not the open scenario's yet; drop again once its run has "
               "finished.");
        return p;
    }
    PinDef pin;
    pin.target = target.toStdString();
    pin.level = r.target.kind == ui::TopologyHit::Kind::Rack  ? PinLevel::Rack
                : r.target.kind == ui::TopologyHit::Kind::Pod ? PinLevel::Pod
                                                              : PinLevel::Node;
    const QString where = QString::fromLatin1(toString(pin.level)) + QLatin1Char(' ') + target;
    if (r.format == QLatin1String(ui::kTemplateMime)) {
        const ui::JobTemplate* t = findTemplate(m_templates, QString::fromUtf8(r.payload));
        if (!t) {
            p.refusal = tr("Unknown job template %1").arg(QString::fromUtf8(r.payload));
            return p;
        }
        p.job = t->job;
        if (!m_teamOverride.empty()) {
            const bool known =
                std::any_of(p.after.teams.begin(), p.after.teams.end(),
                            [&](const TeamDef& team) { return team.name == m_teamOverride; });
            if (!known) {
                p.refusal = tr("Refused: the scenario has no team %1 any more.")
                                .arg(QString::fromStdString(m_teamOverride));
                return p;
            }
            p.job.traits.team = m_teamOverride;
        }
        if (m_priorityOverride) p.job.traits.priority = *m_priorityOverride;
        if (p.job.traits.team.empty() && !p.after.teams.empty())
            p.job.traits.team = p.after.teams.front().name;
        if (p.job.traits.team.empty()) {
            p.refusal =
                tr("Refused: the scenario has no team to run the job for; add a team first.");
            return p;
        }
        p.job.name = uniqueJobName(p.after, baseName(t->id));
        p.job.submitS = r.timeS;
        p.job.traits.pin = pin;
        p.after.jobs.push_back(p.job);
        // The label's " · team" part names the template's team, not necessarily this one.
        p.undoText = tr("Drop %1 on %2 for team %3 at priority %4")
                         .arg(t->label.section(QStringLiteral(" · "), 0, 0), where,
                              QString::fromStdString(p.job.traits.team))
                         .arg(p.job.traits.priority);
    } else if (r.format == QLatin1String(ui::kMoveJobMime)) {
        const std::string name = r.payload.toStdString();
        auto it = std::find_if(p.after.jobs.begin(), p.after.jobs.end(),
                               [&](const JobDef& j) { return j.name == name; });
        if (it == p.after.jobs.end()) {
            p.refusal =
                tr("Only jobs placed by hand can be moved; %1 comes from a job class or trace.")
                    .arg(QString::fromStdString(name));
            return p;
        }
        if (it->traits.pin == pin) {
            p.refusal = tr("%1 is already on %2; nothing to move.")
                            .arg(QString::fromStdString(name), where);
            return p;
        }
        it->traits.pin = pin;
        p.job = *it;
        p.undoText = tr("Move %1 to %2").arg(QString::fromStdString(name), where);
    } else {
        p.refusal = tr("Cannot drop that here.");
        return p;
    }
    const FitVerdict verdict = checkFit(p.after, p.job, r.timeS);
    if (!verdict.canEverFit)
        p.refusal = tr("Refused (%1 layer): %2")
                        .arg(ui::layerName(verdict.layer), QString::fromStdString(verdict.reason));
    return p;
}

DropOutcome DropController::drop(const DropRequest& request) {
    hoverEnded();
    Plan p;
    try {
        p = plan(request);
    } catch (const std::exception& e) {
        return {false, tr("Refused: %1").arg(QString::fromUtf8(e.what()))};
    }
    if (!p.refusal.isEmpty()) return {false, p.refusal};
    if (const QString error = m_doc->edit(p.after, p.undoText); !error.isEmpty())
        return {false, tr("Refused: %1").arg(error)};
    return {true, p.undoText};
}

void DropController::hover(const DropRequest& request) {
    Plan p;
    try {
        p = plan(request);
    } catch (const std::exception& e) {
        emit feedback(request.target, false, QString::fromUtf8(e.what()));
        return;
    }
    if (!p.refusal.isEmpty()) {
        m_hover.reset();
        m_whatIf.cancel();
        emit feedback(request.target, false, p.refusal);
        return;
    }
    m_hover = request;
    m_hoverJob = p.job.name;
    emit feedback(request.target, true,
                  tr("%1\nfits here · working out when it would start…").arg(p.undoText));
    m_whatIf.request(p.after);
}

void DropController::hoverEnded() {
    m_hover.reset();
    m_whatIf.cancel();
    m_whatIf.clearLatest();  // a what-if run of a big scenario is large; do not keep it
}

void DropController::whatIfDone(std::shared_ptr<const Results> results) {
    if (!m_hover) return;
    for (std::uint32_t j = 0; j < results->jobs.size(); ++j) {
        const JobRecord& rec = results->jobs[j];
        if (rec.spec.source != JobSource::Explicit || results->jobName(j) != m_hoverJob) continue;
        const int priority = rec.spec.priority;
        QString text;
        if (rec.firstStartS >= 0) {
            text = tr("fits · at priority %1 would start %2 (waits %3)")
                       .arg(priority)
                       .arg(ui::formatSimTime(rec.firstStartS), ui::formatDuration(rec.waitS()));
        } else {
            text = tr("fits the fleet, but at priority %1 would not start before the horizon "
                      "(%2)")
                       .arg(priority)
                       .arg(ui::formatSimTime(results->horizonS));
            // The same query as the pending list, at the end of the run: said so, or it reads
            // as the fleet at the drop's time.
            for (const PendingJob& e : results->pendingAt(results->horizonS))
                if (e.job == j)
                    text += tr(".\nWhy, at the end of the run: %1: %2")
                                .arg(ui::layerName(e.layer),
                                     QString::fromStdString(results->reasonText(e.reason)));
            if (const QString below = belowEveryClass(m_doc->scenario(), priority);
                !below.isEmpty())
                text += QStringLiteral("\n") + below;
        }
        emit feedback(m_hover->target, true, text);
        return;
    }
}

}  // namespace gpuplan::app
