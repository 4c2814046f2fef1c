#include "session.hpp"

#include <QScopedValueRollback>

#include "file_controller.hpp"
#include "scenario_document.hpp"
#include "simulation_controller.hpp"

namespace gpuplan::app {

Session::Session(ScenarioDocument* document, SimulationController* simulation,
                 FileController* files, QObject* parent)
    : QObject(parent), m_doc(document), m_sim(simulation), m_files(files) {
    connect(m_doc, &ScenarioDocument::replaced, this, &Session::documentReplaced);
    connect(m_sim, &SimulationController::runStarted, this, [this](quint64 generation) {
        if (!m_awaitingDocumentRun) return;
        m_awaitingDocumentRun = false;
        m_documentFirstGeneration = generation;
    });
}

void Session::setResults(std::shared_ptr<const Results> results, quint64 generation) {
    m_results = std::move(results);
    if (generation > 0) m_appliedGeneration = generation;
}

void Session::setReplications(std::shared_ptr<const Replications> replications) {
    m_replications = std::move(replications);
}

void Session::setShownTime(double timeS) {
    m_timeS = timeS;
    emit timeChanged(timeS);
}

void Session::announceResults(bool finished) {
    emit resultsShown();
    if (finished) emit resultsApplied();
}

void Session::selectJob(int job) {
    if (!m_results || job < 0 || job >= static_cast<int>(m_results->jobs.size()) || m_selectingJob)
        return;
    const QScopedValueRollback<bool> guard(m_selectingJob, true);
    m_selectedJob = job;
    emit jobSelected(job);
}

void Session::pinBaseline() {
    if (!m_results) return;
    if (m_results->partial) {
        showStatus(tr("The run is still going; pin once its results are in."));
        return;
    }
    if (m_appliedGeneration < m_documentFirstGeneration) {
        showStatus(
            tr("The results on screen are of the previous scenario; pin once this "
               "scenario's results are in."));
        return;
    }
    m_baseline = m_results;
    m_baselineName = m_doc->title();
    m_baselineFromOther = false;  // named on the charts only once it is another scenario's
    // The scenario these results answer: an edit made since has not been run yet.
    const auto ran = m_sim->latest() == m_results ? m_sim->latestScenario() : nullptr;
    m_baselineScenario = ran ? *ran : m_doc->scenario();
    m_baselineReplications = m_replications;
    emit baselineChanged();
    showStatus(tr("Pinned the results of %1 as the baseline; edits now show deltas against them.")
                   .arg(m_baselineName));
}

void Session::clearBaseline() {
    m_baseline.reset();
    m_baselineName.clear();
    m_baselineScenario.reset();
    m_baselineReplications.reset();
    m_baselineFromOther = false;
    emit baselineChanged();
}

void Session::documentReplaced() {
    m_awaitingDocumentRun = true;  // the next run started is the first of this scenario
    m_plan.reset();                // it answered another scenario's question
    if (!m_baseline) return;
    if (m_keepBaseline) {
        m_baselineFromOther = true;
        emit baselineChanged();
        showStatus(tr("Kept the baseline of %1 for comparison with %2.")
                       .arg(m_baselineName, m_doc->title()));
        return;
    }
    const QString name = m_baselineName;
    clearBaseline();
    showStatus(tr("Baseline of %1 cleared: it belonged to that scenario (Run ▸ Keep baseline "
                  "to compare across files).")
                   .arg(name));
}

}  // namespace gpuplan::app
