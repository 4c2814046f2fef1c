// File ▸ Export timeline: the results on screen as Chrome trace-event JSON (Perfetto,
// chrome://tracing), written off the GUI thread. A 100k-GPU run writes millions of slices and
// takes seconds: a progress dialog with Cancel shows after half a second, and a cancelled or
// failed export leaves any earlier file as it was (gpuplan/export/chrome_trace.hpp).
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "gpuplan/export/chrome_trace.hpp"
#include "gpuplan/results/results.hpp"
#include "shell/background_job.hpp"

class QProgressDialog;
class QWidget;

namespace gpuplan::app {

class TimelineExport : public QObject {
    Q_OBJECT
public:
    explicit TimelineExport(QWidget* window);
    ~TimelineExport() override;

    /// Asks where to write (beside the last export, named after `scenarioTitle`), then starts.
    void exportWithDialog(std::shared_ptr<const Results> results, const QString& scenarioTitle);
    /// Writes `results` to `path` in the background; false (and a message) when an export is
    /// already running.
    bool start(std::shared_ptr<const Results> results, const QString& path);
    bool isRunning() const { return m_export.isRunning(); }
    /// Stops the running export; the file is left as it was.
    void cancel();

signals:
    /// The outcome in words, for the status bar ("Timeline written to …: 1,234 slices").
    void message(const QString& text);
    void finished(bool written);

private:
    struct Outcome {
        ChromeTraceCounts counts;
        QString error;
    };
    void done(const Outcome& out);

    QWidget* m_window;
    BackgroundJob<Outcome> m_export;
    QString m_path;
    QProgressDialog* m_dialog = nullptr;
};

}  // namespace gpuplan::app
