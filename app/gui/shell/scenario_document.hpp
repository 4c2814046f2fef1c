// The open scenario: its value, its file, its undo history. Every edit goes through an undo
// command that stores the scenario before and after, so undo and redo restore it exactly.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "gpuplan/model/scenario.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    ScenarioDocument(Catalog catalog, LoadOptions loadOptions, QObject* parent = nullptr);

    const Scenario& scenario() const { return m_scenario; }
    const Catalog& catalog() const { return m_catalog; }
    const LoadOptions& loadOptions() const { return m_loadOptions; }
    QUndoStack* undoStack() { return &m_undo; }
    QString filePath() const { return m_path; }
    /// Display name: the file name, or the scenario's name for an unsaved preset copy.
    QString title() const;
    bool isModified() const { return !m_undo.isClean(); }

    /// Replaces the document (new from preset, open); clears the undo history.
    void reset(Scenario scenario, const QString& path);
    /// Replaces the document as one undo step (an imported fleet): undo brings back the
    /// scenario and the file it was. `scenario` is checked as an edit is; the refusal's reason
    /// is returned, or an empty string when it replaced the document.
    QString replaceUndoably(const Scenario& scenario, const QString& path, const QString& text);
    /// Reads a scenario file into the document. On any error (InputError with the place and
    /// reason) the document stays exactly as it was.
    void load(const QString& path);
    /// Writes atomically and marks the document saved under `path`; trace files found next to
    /// the old file are written relative to the new one. Throws std::runtime_error.
    void save(const QString& path);

    /// Marks the document as holding unsaved work (e.g. after recovery).
    void markModified() { m_undo.resetClean(); }

    /// One undoable edit: `after` replaces the scenario, `text` names it in the Edit menu.
    /// `after` is checked by the same rules as a file (validateScenario); a refused edit
    /// returns the reason ("/pods/0/racks/1/count: must be at least 1") and leaves the
    /// document and its history untouched. An edit that changes nothing is not recorded.
    /// Returns an empty string when the edit was applied (or changed nothing).
    /// Consecutive edits with the same non-zero `mergeKey` less than kMergeWindowMs apart
    /// merge into one undo step (the arrow clicks of one spin box).
    QString edit(const Scenario& after, const QString& text, int mergeKey = kNoMerge);

    /// A gesture (a slider held down): every edit with `mergeKey` until endGesture() is one
    /// undo step however long the hand rests, and the gesture's first edit starts a new step.
    void beginGesture(int mergeKey);
    void endGesture();

    static constexpr int kNoMerge = 0;
    static constexpr int kMergeDemandSteps = 1;
    static constexpr int kMergeReservedNodes = 2;  ///< the buying mix's reserved count
    static constexpr int kMergeSpotNodes = 3;
    static constexpr int kMergeProvisioningDelay = 4;  ///< the buying mix's settings boxes
    static constexpr int kMergeIdleTimeout = 5;
    static constexpr int kMergeSpotShare = 6;
    static constexpr int kMergeSpotNotice = 7;
    static constexpr int kMergeSpotReturn = 8;
    static constexpr int kMergeOnDemandCeiling = 9;
    static constexpr int kMergeWindowMs = 1500;
    /// The reason `candidate` would be refused, or an empty string when it is valid.
    QString validationError(const Scenario& candidate) const;

signals:
    /// Another scenario replaced this one (new, open, recover): what belonged to the old one
    /// (a pinned baseline) no longer applies. Emitted just before changed().
    void replaced();
    /// The scenario's content changed (edit, undo, redo, reset).
    void changed();
    void pathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    friend class ScenarioEditCommand;
    friend class ScenarioReplaceCommand;
    void apply(const Scenario& s);
    /// Another scenario and file, as reset() but keeping the history.
    void swapIn(const Scenario& s, const QString& path);

    Catalog m_catalog;
    LoadOptions m_loadOptions;
    Scenario m_scenario;
    QString m_path;
    QUndoStack m_undo;
    int m_gestureKey = kNoMerge;
    bool m_gestureFresh = false;  ///< its first edit is still to come
};

}  // namespace gpuplan::app
