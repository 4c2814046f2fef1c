// Keeping the user's work safe: new from preset, open, save, save as, recent files, an
// unsaved-changes prompt, and an autosave file offered for recovery after a crash. A file
// that fails to load is reported with its place and reason; the open document stays as is.
#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>

#include "scenario_document.hpp"

class QMenu;
class QWidget;

namespace gpuplan::app {

class FileController : public QObject {
    Q_OBJECT
public:
    FileController(ScenarioDocument* document, QWidget* window, QString presetsDir);

    /// The presets folder's scenarios, for File ▸ New from preset.
    QStringList presetFiles() const;
    void fillPresetsMenu(QMenu* menu);
    void fillRecentMenu(QMenu* menu);

    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();
    bool newFromPreset(const QString& path);
    bool openFile(const QString& path);
    void open();
    bool save();
    bool saveAs();

    /// Autosave every 30 s while modified; a clean exit removes the file.
    void startAutosave();
    /// Writes the autosave file now if the document has unsaved changes; true if written.
    bool autosaveNow();
    void removeAutosave();
    /// This process's autosave file (one per running gpuplan, so two windows do not clash).
    QString autosavePath() const;
    /// Autosave files left by gpuplan processes that are no longer running, newest first.
    QStringList orphanedAutosaves() const;
    /// Offers the newest orphaned autosave for recovery.
    void offerRecovery();
    /// Loads an autosave file as unsaved work (no file name) and removes it. A file that does
    /// not load is kept, and where it is is reported.
    bool recover(const QString& autosaveFile);

signals:
    void message(const QString& text);
    void recentChanged();

private:
    void addRecent(const QString& path);
    void reportLoadError(const QString& path, const QString& what);

    ScenarioDocument* m_doc;
    QWidget* m_window;
    QString m_presetsDir;
    QTimer m_autosave;
};

}  // namespace gpuplan::app
