#include "report_export.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <stdexcept>

#include "report_writer.hpp"
#include "shell/file_controller.hpp"
#include "shell/main_window.hpp"

namespace gpuplan::app {

ReportExport::ReportExport(MainWindow* window) : QObject(window), m_window(window) {}

report::ReportInput ReportExport::inputFromWindow() const {
    report::ReportInput input;
    input.scenario = m_window->document()->scenario();
    // The scenario's own name reads better than its file's; a scenario without one has the
    // window's title.
    if (input.scenario.name.empty()) input.scenarioName = m_window->document()->title();
    input.results = m_window->results();
    input.replications = m_window->replications();
    input.baseline = m_window->baseline();
    input.baselineReplications = m_window->baselineReplications();
    input.baselineName = m_window->baselineName();
    input.baselineScenario = m_window->baselineScenario();
    input.presetsDir = m_window->files().presetsDir().toStdString();
    return input;
}

void ReportExport::exportWithDialog() {
    if (!m_window->results() || m_window->results()->partial) {
        write(QString());  // says why there is nothing to write yet
        return;
    }
    QString stem = safeScenarioFileName(m_window->document()->title());
    stem.chop(5);  // ".json"
    const QString suggested = FileController::lastFolder(FolderPurpose::Exports) +
                              QLatin1Char('/') + stem + QStringLiteral("-report.pdf");
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export report (PDF)"),
                                                      suggested, tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    FileController::rememberFolder(FolderPurpose::Exports, QFileInfo(path).absolutePath());
    if (!write(path))
        QMessageBox::critical(m_window, tr("Export failed"),
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
                             m_window);
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
