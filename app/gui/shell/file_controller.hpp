// Keeping the user's work safe: new from preset, open, import, save, save as, recent files, an
// unsaved-changes prompt, and an autosave file offered for recovery after a crash. A file
// that fails to load is reported with its place and reason; the open document stays as is.
// Each says what it did on the status line.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include "scenario_document.hpp"

class QMenu;
class QWidget;

namespace gpuplan::app {

/// Which folder a file dialog opens in: scenarios and exports each remember their own.
enum class FolderPurpose { Scenarios, Exports };

/// A file name made from a scenario's name: letters, digits, '.', '_' and '-' only, runs of
/// anything else (spaces, slashes, colons) become one '-'; "scenario" when nothing is left.
/// Ends in ".json".
QString safeScenarioFileName(const QString& name);

class FileController : public QObject {
    Q_OBJECT
public:
    FileController(ScenarioDocument* document, QWidget* window, QString presetsDir);

    /// The presets folder (scenarios/, pricebooks/, catalog/).
    QString presetsDir() const { return m_presetsDir; }
    /// The presets folder's scenarios, for File ▸ New from preset.
    QStringList presetFiles() const;
    void fillPresetsMenu(QMenu* menu);
    void fillRecentMenu(QMenu* menu);

    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();
    bool newFromPreset(const QString& path);
    bool openFile(const QString& path);
    void open();
    /// File ▸ Import fleet: the import dialog; the fleet it previews replaces the document
    /// (one undo step) and the status line says what came in. False when cancelled.
    bool importFleet();
    bool save();
    bool saveAs();

    /// The folder a dialog for this purpose opens in: the last one used (QSettings), else home.
    static QString lastFolder(FolderPurpose purpose);
    static void rememberFolder(FolderPurpose purpose, const QString& folder);
    /// Where File ▸ Open starts: the last scenarios folder used. A document that has its file
    /// (opened, saved, or named on the command line) is in the folder last used; the presets
    /// and the autosave folder are the application's, not the user's, and are not remembered.
    QString openFolder() const { return lastFolder(FolderPurpose::Scenarios); }
    /// What Save As proposes: the file itself if it has one, else a file-safe name from the
    /// scenario's name in the last scenarios folder.
    QString proposedSavePath() const;

    /// From now on, an edit is autosaved kAutosaveDelayMs after the last edit (debounced), and
    /// at least every kAutosaveMaxDelayMs while edits keep coming. A clean exit removes the file.
    void startAutosave();
    static constexpr int kAutosaveDelayMs = 400;
    static constexpr int kAutosaveMaxDelayMs = 3000;
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
    /// Remembers the folder of the document's file, unless it is the application's own.
    void rememberDocumentFolder(const QString& path);
    void reportLoadError(const QString& path, const QString& what);
    void scheduleAutosave();

    ScenarioDocument* m_doc;
    QWidget* m_window;
    QString m_presetsDir;
    QTimer m_autosave;             // restarted by every edit: the debounce
    QElapsedTimer m_unsavedSince;  // the oldest edit not autosaved yet
    bool m_autosaveOn = false;
};

}  // namespace gpuplan::app
