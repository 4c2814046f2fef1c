// File ▸ Export report: the planning-meeting PDF (app/report) of the results on screen, with
// the pinned baseline and the replications as the window shows them. Drawing needs the GUI
// thread (the charts are widgets), so it runs there; a progress dialog shows after half a
// second, and a failed write leaves no half file (the PDF is written atomically).
#pragma once

#include <QObject>
#include <QString>

#include "report_input.hpp"

class QWidget;

namespace gpuplan::app {

class Session;

class ReportExport : public QObject {
    Q_OBJECT
public:
    /// Reports what `session` shows; dialogs open over `dialogParent` (which owns this).
    ReportExport(Session& session, QWidget* dialogParent);

    /// What the window shows now, as a report's input (no results: none).
    report::ReportInput inputFromWindow() const;
    /// Asks where to write (in the folder of the last export, named after the scenario), then
    /// writes.
    void exportWithDialog();
    /// Writes the window's report to `path`; false (and a message) when it could not.
    bool write(const QString& path);

signals:
    /// The outcome in words, for the status bar.
    void message(const QString& text);
    void finished(bool written);

private:
    Session* m_session;
    QWidget* m_dialogParent;
};

}  // namespace gpuplan::app
