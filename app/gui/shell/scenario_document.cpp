#include "scenario_document.hpp"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QUndoCommand>

#include "refusal_text.hpp"

namespace gpuplan::app {

/// Before and after as whole values: exact undo, no per-edit inverse logic to get wrong.
class ScenarioEditCommand : public QUndoCommand {
public:
    ScenarioEditCommand(ScenarioDocument* doc, Scenario before, Scenario after, const QString& text,
                        int mergeKey)
        : QUndoCommand(text),
          m_doc(doc),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_mergeKey(mergeKey) {
        m_lastChange.start();
    }
    void undo() override { m_doc->apply(m_before); }
    void redo() override { m_doc->apply(m_after); }
    int id() const override { return m_mergeKey == ScenarioDocument::kNoMerge ? -1 : m_mergeKey; }
    /// A burst of small steps of one control (arrow clicks on a spin box) is one undo step;
    /// a pause longer than ScenarioDocument::kMergeWindowMs starts a new one, except within
    /// a gesture (beginGesture), which is one step from its first edit to its end.
    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const ScenarioEditCommand*>(other);
        if (next->m_mergeKey != m_mergeKey) return false;
        if (m_doc->m_gestureKey == m_mergeKey) {
            if (m_doc->m_gestureFresh) return false;
        } else if (m_lastChange.elapsed() > ScenarioDocument::kMergeWindowMs) {
            return false;
        }
        m_after = next->m_after;
        setText(next->text());
        m_lastChange.start();
        return true;
    }

private:
    ScenarioDocument* m_doc;
    Scenario m_before, m_after;
    int m_mergeKey;
    QElapsedTimer m_lastChange;
};

/// A whole other document (an import): scenario and file, both ways.
class ScenarioReplaceCommand : public QUndoCommand {
public:
    ScenarioReplaceCommand(ScenarioDocument* doc, Scenario after, QString afterPath,
                           const QString& text)
        : QUndoCommand(text),
          m_doc(doc),
          m_before(doc->scenario()),
          m_after(std::move(after)),
          m_beforePath(doc->filePath()),
          m_afterPath(std::move(afterPath)) {}
    void undo() override {
        m_afterPath = m_doc->filePath();  // Save As since the import named it: redo keeps that
        m_doc->swapIn(m_before, m_beforePath);
    }
    void redo() override { m_doc->swapIn(m_after, m_afterPath); }

private:
    ScenarioDocument* m_doc;
    Scenario m_before, m_after;
    QString m_beforePath, m_afterPath;
};

ScenarioDocument::ScenarioDocument(Catalog catalog, LoadOptions loadOptions, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_loadOptions(std::move(loadOptions)) {
    connect(&m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

QString ScenarioDocument::title() const {
    if (!m_path.isEmpty()) return QFileInfo(m_path).fileName();
    return m_scenario.name.empty() ? tr("Untitled") : QString::fromStdString(m_scenario.name);
}

void ScenarioDocument::reset(Scenario scenario, const QString& path) {
    m_scenario = std::move(scenario);
    m_path = path;
    m_undo.clear();
    m_undo.setClean();
    emit pathChanged(m_path);
    emit modifiedChanged(false);
    emit replaced();
    emit changed();
}

void ScenarioDocument::load(const QString& path) {
    // Parse completely first; only a good scenario replaces the current one.
    Scenario loaded = loadScenario(path.toStdString(), m_catalog, m_loadOptions);
    reset(std::move(loaded), path);
}

void ScenarioDocument::save(const QString& path) {
    const std::filesystem::path file = path.toStdString();
    Scenario rebased = rebaseTraces(m_scenario, file.parent_path(), m_loadOptions.dataDirs);
    saveScenarioAtomic(rebased, file);
    m_scenario = std::move(rebased);  // the document now is that file
    m_path = path;
    m_undo.setClean();
    emit pathChanged(m_path);
}

QString ScenarioDocument::validationError(const Scenario& candidate) const {
    try {
        validateScenario(candidate, m_catalog, m_loadOptions.budget);
    } catch (const InputError& e) {
        // The file part is the scenario's name, which says nothing for an in-app edit; the
        // place is said with the scenario's names, not the file's pointer.
        return refusalText(candidate, e.place(), e.message());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString ScenarioDocument::edit(const Scenario& after, const QString& text, int mergeKey) {
    if (after == m_scenario) return {};
    if (QString error = validationError(after); !error.isEmpty()) return error;
    m_undo.push(
        new ScenarioEditCommand(this, m_scenario, after, text, mergeKey));  // push() calls redo()
    if (mergeKey == m_gestureKey) m_gestureFresh = false;
    return {};
}

QString ScenarioDocument::replaceUndoably(const Scenario& scenario, const QString& path,
                                          const QString& text) {
    if (QString error = validationError(scenario); !error.isEmpty()) return error;
    m_undo.push(new ScenarioReplaceCommand(this, scenario, path, text));  // push() calls redo()
    return {};
}

void ScenarioDocument::swapIn(const Scenario& s, const QString& path) {
    m_scenario = s;
    m_path = path;
    emit pathChanged(m_path);
    emit replaced();
    emit changed();
}

void ScenarioDocument::beginGesture(int mergeKey) {
    m_gestureKey = mergeKey;
    m_gestureFresh = true;
}

void ScenarioDocument::endGesture() {
    m_gestureKey = kNoMerge;
    m_gestureFresh = false;
}

void ScenarioDocument::apply(const Scenario& s) {
    m_scenario = s;
    emit changed();
}

}  // namespace gpuplan::app
