#include "report_export.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <stdexcept>

#include "report_writer.hpp"
#include "shell/file_controller.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

ReportExport::ReportExport(Session& session, QWidget* dialogParent)
    : QObject(dialogParent), m_session(&session), m_dialogParent(dialogParent) {}

report::ReportInput ReportExport::inputFromWindow() const {
    report::ReportInput input;
    input.scenario = m_session->document()->scenario();
    // The scenario's own name reads better than its file's; a scenario without one has the
    // window's title.
    if (input.scenario.name.empty()) input.scenarioName = m_session->document()->title();
    input.results = m_session->results();
    input.replications = m_session->replications();
    input.baseline = m_session->baseline();
    input.baselineReplications = m_session->baselineReplications();
    input.baselineName = m_session->baselineName();
    input.baselineScenario = m_session->baselineScenario();
    input.presetsDir = m_session->files().presetsDir().toStdString();
    if (m_session->plan()) input.plan = *m_session->plan();
    return input;
}

void ReportExport::exportWithDialog() {
    if (!m_session->results() || m_session->results()->partial) {
        write(QString());  // says why there is nothing to write yet
        return;
    }
    QString stem = safeScenarioFileName(m_session->document()->title());
    stem.chop(5);  // ".json"
    const QString suggested = FileController::lastFolder(FolderPurpose::Exports) +
                              QLatin1Char('/') + stem + QStringLiteral("-report.pdf");
    const QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Export report (PDF)"),
                                                      suggested, tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    FileController::rememberFolder(FolderPurpose::Exports, QFileInfo(path).absolutePath());
    if (!write(path))
        QMessageBox::critical(m_dialogParent, tr("Export failed"),
                              tr("The report was not written to %1.").arg(path));
}

bool ReportExport::write(const QString& path) {
    const report::ReportInput input = inputFromWindow();
    if (!input.results || input.results->partial) {
        // A long run's results so far are not what the scenario gives: wait for the end.
        emit message(input.results ? tr("The run is still going: export the report once it ends")
                                   : tr("No results to report yet"));
        emit finished(false);
        return false;
    }
    // The charts are widgets: the report is drawn here, on the GUI thread. A large run's
    // takes a while, so a bar shows past half a second.
    QProgressDialog progress(tr("Writing the report to %1…").arg(path), QString(), 0, 100,
                             m_dialogParent);
    progress.setWindowTitle(tr("Export report"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    progress.setValue(0);
    try {
        const int pages = report::writeReportPdf(input, path, [&](double fraction) {
            progress.setValue(static_cast<int>(100 * fraction));
        });
        emit message(tr("Report written to %1: %2 pages").arg(path).arg(pages));
        emit finished(true);
        return true;
    } catch (const std::exception& e) {
        emit message(tr("Report not written: %1").arg(QString::fromUtf8(e.what())));
        emit finished(false);
        return false;
    }
}

}  // namespace gpuplan::app
