#include "timeline_export.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QProgressDialog>

#include "shell/file_controller.hpp"

namespace gpuplan::app {

TimelineExport::TimelineExport(QWidget* window) : QObject(window), m_window(window) {
    m_export.onProgress([this](double f) {
        if (m_dialog) m_dialog->setValue(static_cast<int>(1000 * f));
    });
    // A cancelled export says so in its counts (stopped): the flag is not needed.
    m_export.onFinished([this](Outcome out, bool) { done(out); });
}

TimelineExport::~TimelineExport() = default;  // the export stops within a few thousand slices

void TimelineExport::cancel() {
    m_export.cancel();
}

void TimelineExport::exportWithDialog(std::shared_ptr<const Results> results,
                                      const QString& scenarioTitle) {
    if (!results) return;
    QString stem = safeScenarioFileName(scenarioTitle);
    stem.chop(5);  // ".json"
    const QString suggested = FileController::lastFolder(FolderPurpose::Exports) +
                              QLatin1Char('/') + stem + QStringLiteral("-timeline.json");
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export timeline (Chrome trace JSON)"), suggested,
                                     tr("Chrome trace JSON (*.json)"));
    if (path.isEmpty()) return;
    FileController::rememberFolder(FolderPurpose::Exports, QFileInfo(path).absolutePath());
    start(std::move(results), path);
}

bool TimelineExport::start(std::shared_ptr<const Results> results, const QString& path) {
    if (!results) return false;
    if (m_export.isRunning()) {
        emit message(tr("A timeline export is already running"));
        return false;
    }
    m_path = path;
    m_dialog = new QProgressDialog(tr("Writing the timeline to %1…").arg(path), tr("Cancel"), 0,
                                   1000, m_window);
    m_dialog->setWindowTitle(tr("Export timeline"));
    m_dialog->setMinimumDuration(500);  // a small fleet's export is done before it shows
    m_dialog->setAutoClose(false);
    m_dialog->setAutoReset(false);
    connect(m_dialog, &QProgressDialog::canceled, this, &TimelineExport::cancel);
    m_dialog->setValue(0);
    // The results are immutable and shared: the worker reads them without a lock.
    const std::filesystem::path file = path.toStdString();
    m_export.start([results, file](const JobControl& job) {
        Outcome out;
        try {
            out.counts = saveChromeTrace(*results, file, job.progressCallback(), job.stopToken());
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
    return true;
}

void TimelineExport::done(const Outcome& out) {
    if (m_dialog) {
        m_dialog->deleteLater();
        m_dialog = nullptr;
    }
    if (!out.error.isEmpty()) {
        emit message(tr("Timeline not exported: %1").arg(out.error));
        emit finished(false);
    } else if (out.counts.stopped) {
        emit message(tr("Timeline export cancelled; %1 left as it was").arg(m_path));
        emit finished(false);
    } else {
        emit message(tr("Timeline written to %1: %L2 slices (job × GPU), %L3 events, %L4 counter "
                        "samples. Open it in ui.perfetto.dev or chrome://tracing.")
                         .arg(m_path)
                         .arg(out.counts.completeEvents)
                         .arg(out.counts.instantEvents)
                         .arg(out.counts.counterEvents));
        emit finished(true);
    }
}

}  // namespace gpuplan::app
