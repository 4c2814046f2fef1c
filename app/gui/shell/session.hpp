// What the window's features share: the scenario being edited and its runs, the results on
// screen with the baseline pinned beside them, the time looked at, the selection and the
// status line. Docks receive the session (and a DockHost to sit in), never the window; the
// window draws its own views from it.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"
#include "plan_finding.hpp"
#include "topology/topology_layout.hpp"

namespace gpuplan::app {

class FileController;
class ScenarioDocument;
class SimulationController;

class Session : public QObject {
    Q_OBJECT
public:
    Session(ScenarioDocument* document, SimulationController* simulation, FileController* files,
            QObject* parent = nullptr);

    ScenarioDocument* document() const { return m_doc; }
    SimulationController& simulation() const { return *m_sim; }
    FileController& files() const { return *m_files; }

    /// The results on screen: a finished run's, or a long run's so far (Results::partial).
    std::shared_ptr<const Results> results() const { return m_results; }
    /// The runs behind the last finished results (null: one run each).
    std::shared_ptr<const Replications> replications() const { return m_replications; }
    std::shared_ptr<const Results> baseline() const { return m_baseline; }
    std::shared_ptr<const Replications> baselineReplications() const {
        return m_baselineReplications;
    }
    /// The name the baseline is labelled with (the scenario it was pinned from).
    QString baselineName() const { return m_baselineName; }
    /// The scenario the baseline was pinned from (the report says what changed since).
    const std::optional<Scenario>& baselineScenario() const { return m_baselineScenario; }
    /// Whether the baseline came from another scenario than the one on screen (kept across
    /// an open): views then name it.
    bool baselineFromOtherScenario() const { return m_baselineFromOther; }
    /// Simulated time looked at, seconds (the scrubber's).
    double timeS() const { return m_timeS; }
    /// The job selected everywhere, or -1.
    int selectedJob() const { return m_selectedJob; }
    /// The plan the Plan tab last found for this scenario (the report opens with it); null
    /// until one is found, and again when another scenario is opened.
    std::shared_ptr<const report::PlanFinding> plan() const { return m_plan; }
    void setPlan(std::shared_ptr<const report::PlanFinding> plan) { m_plan = std::move(plan); }
    /// The generation of the finished results shown (for tests: stale results never arrive).
    quint64 appliedGeneration() const { return m_appliedGeneration; }

    // Called by the window as it shows things.
    /// Results are on screen; `generation` of a finished run, 0 for a run's results so far.
    void setResults(std::shared_ptr<const Results> results, quint64 generation);
    void setReplications(std::shared_ptr<const Replications> replications);
    /// The time the scrubber shows now; says timeChanged.
    void setShownTime(double timeS);
    /// The finished run's results shown are announced (resultsShown, then resultsApplied
    /// when `finished`).
    void announceResults(bool finished);

    /// Keeps the baseline when another scenario is opened (Run ▸ Keep baseline…).
    void setKeepBaselineAcrossScenarios(bool keep) { m_keepBaseline = keep; }
    bool keepsBaselineAcrossScenarios() const { return m_keepBaseline; }

public slots:
    /// Moves the time looked at (clamped by the scrubber); timeChanged follows.
    void requestTime(double timeS) { emit timeRequested(timeS); }
    /// Selects a job everywhere; ignored for a job the results do not hold.
    void selectJob(int job);
    /// The fleet's selection changed on screen; `jobOnGpu` is the job on a selected GPU, or -1.
    void fleetSelected(const ui::TopologyHit& hit, int jobOnGpu) {
        emit fleetSelectionChanged(hit, jobOnGpu);
    }
    /// Pins the results on screen as the baseline (refused, with a status message, while
    /// a run is going or when they answer the previous scenario).
    void pinBaseline();
    void clearBaseline();
    void showStatus(const QString& text) { emit statusMessage(text); }

signals:
    /// Results are on screen: finished ones (then resultsApplied follows) or a long run's
    /// results so far. Views that follow the results listen to this.
    void resultsShown();
    /// Finished results reached every view.
    void resultsApplied();
    void timeChanged(double timeS);
    void timeRequested(double timeS);
    void jobSelected(int job);
    void fleetSelectionChanged(const ui::TopologyHit& hit, int jobOnGpu);
    /// The baseline was pinned, kept across an open, or cleared.
    void baselineChanged();
    void statusMessage(const QString& text);

private:
    /// Another scenario was opened: its baseline goes unless the user keeps it.
    void documentReplaced();

    ScenarioDocument* m_doc;
    SimulationController* m_sim;
    FileController* m_files;
    std::shared_ptr<const Results> m_results, m_baseline;
    std::shared_ptr<const report::PlanFinding> m_plan;
    std::shared_ptr<const Replications> m_replications, m_baselineReplications;
    QString m_baselineName;
    std::optional<Scenario> m_baselineScenario;
    bool m_baselineFromOther = false;
    bool m_keepBaseline = false;
    double m_timeS = 0;
    int m_selectedJob = -1;
    bool m_selectingJob = false;  ///< selectJob under way (a view it updates calls back)
    quint64 m_appliedGeneration = 0;
    // Results older than this generation answer a scenario that was replaced: never pinned.
    quint64 m_documentFirstGeneration = 0;
    bool m_awaitingDocumentRun = false;
};

}  // namespace gpuplan::app
