#include "file_controller.hpp"

#include <signal.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

#include "gpuplan/model/topology.hpp"
#include "import/fleet_import_dialog.hpp"

namespace gpuplan::app {

namespace {
constexpr int kMaxRecent = 8;
const char* kRecentKey = "recentFiles";
const QString kFilter = QObject::tr("gpuplan scenarios (*.json);;All files (*)");

QString folderKey(FolderPurpose purpose) {
    return purpose == FolderPurpose::Scenarios ? QStringLiteral("folders/scenarios")
                                               : QStringLiteral("folders/exports");
}
}  // namespace

QString safeScenarioFileName(const QString& name) {
    QString stem = name.trimmed();
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    stem.replace(QRegularExpression(QStringLiteral("^[-.]+|[-.]+$")), QString());
    if (stem.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) stem.chop(5);
    if (stem.isEmpty()) stem = QStringLiteral("scenario");
    return stem + QStringLiteral(".json");
}

FileController::FileController(ScenarioDocument* document, QWidget* window, QString presetsDir)
    : QObject(window), m_doc(document), m_window(window), m_presetsDir(std::move(presetsDir)) {
    m_autosave.setSingleShot(true);
    m_autosave.setInterval(kAutosaveDelayMs);
    connect(&m_autosave, &QTimer::timeout, this, [this] {
        autosaveNow();
        m_unsavedSince.invalidate();
    });
    connect(m_doc, &ScenarioDocument::changed, this, &FileController::scheduleAutosave);
    connect(m_doc, &ScenarioDocument::modifiedChanged, this, &FileController::scheduleAutosave);
    // Every way a document gets its file (open, a recent file, save as, the command line,
    // undoing an import) makes that folder the one File ▸ Open starts in.
    connect(m_doc, &ScenarioDocument::pathChanged, this, &FileController::rememberDocumentFolder);
    rememberDocumentFolder(m_doc->filePath());  // opened before the window, from the command line
}

void FileController::rememberDocumentFolder(const QString& path) {
    if (path.isEmpty()) return;
    const QString folder = QFileInfo(path).absolutePath();
    const auto inside = [&](const QString& dir) {
        const QString root = QFileInfo(dir).absoluteFilePath();
        return !dir.isEmpty() && (folder == root || folder.startsWith(root + QLatin1Char('/')));
    };
    if (inside(m_presetsDir) ||
        inside(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)))
        return;
    rememberFolder(FolderPurpose::Scenarios, folder);
}

QString FileController::lastFolder(FolderPurpose purpose) {
    const QString folder = QSettings().value(folderKey(purpose)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void FileController::rememberFolder(FolderPurpose purpose, const QString& folder) {
    QSettings().setValue(folderKey(purpose), QFileInfo(folder).absoluteFilePath());
}

QString FileController::proposedSavePath() const {
    if (!m_doc->filePath().isEmpty()) return m_doc->filePath();
    return QDir(lastFolder(FolderPurpose::Scenarios))
        .filePath(safeScenarioFileName(QString::fromStdString(m_doc->scenario().name)));
}

QStringList FileController::presetFiles() const {
    QStringList files;
    for (const QFileInfo& f :
         QDir(m_presetsDir + QStringLiteral("/scenarios"))
             .entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << f.absoluteFilePath();
    return files;
}

void FileController::fillPresetsMenu(QMenu* menu) {
    menu->clear();
    for (const QString& path : presetFiles())
        menu->addAction(QFileInfo(path).completeBaseName(), this,
                        [this, path] { newFromPreset(path); });
}

void FileController::fillRecentMenu(QMenu* menu) {
    menu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        menu->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave()) openFile(path);
                        })
            ->setToolTip(path);
    menu->setEnabled(!recent.isEmpty());
}

void FileController::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    emit recentChanged();
}

bool FileController::maybeSave() {
    if (!m_doc->isModified()) return true;
    const auto choice = QMessageBox::warning(
        m_window, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_doc->title()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (choice == QMessageBox::Save) return save();
    return choice == QMessageBox::Discard;
}

void FileController::reportLoadError(const QString& path, const QString& what) {
    QMessageBox::critical(
        m_window, tr("Cannot open %1").arg(QFileInfo(path).fileName()),
        tr("The scenario was not opened; your current work is unchanged.\n\n%1").arg(what));
}

bool FileController::newFromPreset(const QString& path) {
    if (!maybeSave()) return false;
    try {
        m_doc->load(path);
        // A preset is a template: the new document has no file yet.
        m_doc->reset(m_doc->scenario(), QString());
    } catch (const std::exception& e) {
        reportLoadError(path, QString::fromUtf8(e.what()));
        return false;
    }
    emit message(tr("New scenario from %1").arg(QFileInfo(path).completeBaseName()));
    return true;
}

bool FileController::openFile(const QString& path) {
    try {
        m_doc->load(path);
    } catch (const std::exception& e) {
        reportLoadError(path, QString::fromUtf8(e.what()));
        return false;
    }
    addRecent(path);
    emit message(tr("Opened %1").arg(path));
    return true;
}

void FileController::open() {
    if (!maybeSave()) return;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open scenario"), openFolder(), kFilter);
    if (!path.isEmpty()) openFile(path);
}

bool FileController::importFleet() {
    if (!importFleetWithDialog(m_doc, m_window)) return false;
    // What came in, on the status line in place of the last edit of the scenario before.
    const Scenario& s = m_doc->scenario();
    const Fleet fleet = Fleet::build(s);
    long long gpus = 0;
    for (const FleetNode& n : fleet.nodes)
        gpus += n.gpus;
    const QLocale locale;
    emit message(tr("%1: %2 nodes, %3 GPUs (Edit ▸ Undo brings the previous scenario back).")
                     .arg(m_doc->undoStack()->undoText(),
                          locale.toString(static_cast<qlonglong>(fleet.nodes.size())),
                          locale.toString(gpus)));
    return true;
}

bool FileController::save() {
    if (m_doc->filePath().isEmpty()) return saveAs();
    try {
        m_doc->save(m_doc->filePath());
    } catch (const std::exception& e) {
        QMessageBox::critical(m_window, tr("Save failed"), QString::fromUtf8(e.what()));
        return false;
    }
    addRecent(m_doc->filePath());
    removeAutosave();  // the saved file is newer than any autosave
    emit message(tr("Saved %1").arg(m_doc->filePath()));
    return true;
}

bool FileController::saveAs() {
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Save scenario as"), proposedSavePath(), kFilter);
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
    try {
        m_doc->save(path);
    } catch (const std::exception& e) {
        QMessageBox::critical(m_window, tr("Save failed"), QString::fromUtf8(e.what()));
        return false;
    }
    addRecent(path);
    removeAutosave();
    emit message(tr("Saved %1").arg(path));
    return true;
}

QString FileController::autosavePath() const {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave-%1.json").arg(QCoreApplication::applicationPid());
}

QStringList FileController::orphanedAutosaves() const {
    QStringList found;
    const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    for (const QFileInfo& f :
         dir.entryInfoList({QStringLiteral("autosave-*.json")}, QDir::Files, QDir::Time)) {
        bool ok = false;
        const qint64 pid = f.completeBaseName().section(QLatin1Char('-'), 1).toLongLong(&ok);
        const bool alive = ok && pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
        if (!alive && pid != QCoreApplication::applicationPid()) found << f.absoluteFilePath();
    }
    return found;
}

void FileController::startAutosave() {
    m_autosaveOn = true;
    scheduleAutosave();
}

void FileController::scheduleAutosave() {
    // A crash a second after an edit must still find it: save shortly after the edits stop,
    // and never later than the maximum delay while they go on.
    if (!m_autosaveOn) return;
    if (!m_doc->isModified()) {  // saved, or undone back to the file: nothing to recover
        m_autosave.stop();
        m_unsavedSince.invalidate();
        removeAutosave();
        return;
    }
    if (!m_unsavedSince.isValid()) m_unsavedSince.start();
    m_autosave.start(std::max<qint64>(
        0, std::min<qint64>(kAutosaveDelayMs, kAutosaveMaxDelayMs - m_unsavedSince.elapsed())));
}

bool FileController::autosaveNow() {
    if (!m_doc->isModified()) return false;
    try {
        const QString path = autosavePath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        // Trace paths relative to the autosave's folder, so the file opens from there.
        const Scenario rebased =
            rebaseTraces(m_doc->scenario(), QFileInfo(path).absolutePath().toStdString(),
                         m_doc->loadOptions().dataDirs);
        writeFileAtomic(path.toStdString(), scenarioToJson(rebased));
        return true;
    } catch (const std::exception& e) {
        emit message(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

bool FileController::recover(const QString& autosaveFile) {
    try {
        m_doc->load(autosaveFile);
    } catch (const std::exception& e) {
        reportLoadError(autosaveFile, tr("%1\n\nThe autosave file is kept at %2.")
                                          .arg(QString::fromUtf8(e.what()), autosaveFile));
        return false;
    }
    m_doc->reset(m_doc->scenario(), QString());
    m_doc->markModified();
    QFile::remove(autosaveFile);
    emit message(tr("Recovered unsaved work; save it to keep it."));
    return true;
}

void FileController::removeAutosave() {
    QFile::remove(autosavePath());
}

void FileController::offerRecovery() {
    const QStringList orphans = orphanedAutosaves();
    if (orphans.isEmpty()) return;
    const QFileInfo info(orphans.first());
    const auto answer = QMessageBox::question(
        m_window, tr("Recover unsaved work?"),
        tr("gpuplan did not exit cleanly last time. Unsaved work from %1 was kept.\n\nRecover it?")
            .arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        recover(info.absoluteFilePath());
    else
        QFile::remove(info.absoluteFilePath());
}

}  // namespace gpuplan::app
