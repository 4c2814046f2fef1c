// File ▸ Export timeline: the results on screen as Chrome trace-event JSON (Perfetto,
// chrome://tracing), written off the GUI thread. A 100k-GPU run writes millions of slices and
// takes seconds: a progress dialog with Cancel shows after half a second, and a cancelled or
// failed export leaves any earlier file as it was (gpuplan/export/chrome_trace.hpp).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <stop_token>

#include "gpuplan/export/chrome_trace.hpp"
#include "gpuplan/results/results.hpp"

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
    bool isRunning() const { return m_watcher.isRunning(); }
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
    struct Progress {
        std::atomic<double> fraction{0};
        std::stop_source stop;
    };
    void done();

    QWidget* m_window;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<Progress> m_progress;
    QString m_path;
    QProgressDialog* m_dialog = nullptr;
    QTimer m_poll;  // runs only while an export does: moves the dialog's bar
};

}  // namespace gpuplan::app
