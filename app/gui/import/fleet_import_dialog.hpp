// File ▸ Import fleet: a real cluster's fleet, read by the engine's importers (Kubernetes'
// `kubectl get nodes/pods -o json`; Slurm's scontrol and sacct), shown before it replaces the
// document: what was mapped, skipped and assumed, and the fleet as pods, racks and nodes.
// Reading runs off the GUI thread and again after every change of a file or an option; a
// file the importer refuses shows its place and reason, and Import stays disabled.
#pragma once

#include <QDialog>
#include <QStringList>
#include <memory>
#include <optional>

#include "gpuplan/import/fleet_import.hpp"
#include "shell/background_job.hpp"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class QTreeView;

namespace gpuplan::ui {
class FleetTreeModel;
}

namespace gpuplan::app {

class ScenarioDocument;

/// What the dialog asks an importer for.
struct FleetImportRequest {
    enum class Source { Kubernetes, Slurm };
    Source source = Source::Kubernetes;
    QString nodesFile;        ///< kubectl get nodes -o json / scontrol show node --oneliner
    QString workFile;         ///< optional: kubectl get pods -A -o json / sacct --parsable2
    QString topologyFile;     ///< Slurm, optional: topology.conf (leaf switches → racks)
    QString topologyLabels;   ///< Kubernetes: "POD_LABEL,RACK_LABEL"; empty = detected
    QString teamLabel;        ///< Kubernetes: a pod label naming the team
    QString gpuModels;        ///< "PRODUCT=MODEL, …" (Kubernetes) or "TYPE=MODEL, …" (Slurm)
    QString unlabelledModel;  ///< Kubernetes: the model of GPU nodes without a product label
    QString toleratedTaints;  ///< Kubernetes: "KEY, …" taints the GPU pods tolerate
    int horizonDays = 0;      ///< 0: from the sacct export (Slurm), else 7 days
};

/// Reads the request's files with the engine's importer for its source. Throws InputError (a
/// file's place and reason) or std::invalid_argument (an option that is not well formed).
ImportedScenario readFleetImport(const FleetImportRequest& request, const Catalog& catalog);

class FleetImportDialog : public QDialog {
    Q_OBJECT
public:
    FleetImportDialog(const Catalog& catalog, QWidget* parent = nullptr);
    ~FleetImportDialog() override;

    void setRequest(const FleetImportRequest& request);
    FleetImportRequest request() const;
    /// The scenario shown now, after a read that succeeded; nullopt otherwise.
    const std::optional<ImportedScenario>& preview() const { return m_preview; }
    /// Why the last read failed ("nodes.json: /items/3/status/allocatable/cpu: …"), or empty.
    QString errorText() const { return m_error; }
    QString summaryText() const;
    bool isReading() const;
    /// After a read refused for a Slurm GPU type that is not one catalog model ("h100"):
    /// the type and the models offered to choose from; empty otherwise. Choosing one adds
    /// TYPE=MODEL to the GPU types and reads again.
    QString ambiguousGpuType() const { return m_ambiguousType; }
    QStringList gpuTypeCandidates() const;
    void chooseGpuTypeModel(const QString& model);

signals:
    /// A read ended (preview() or errorText() tells which).
    void previewChanged();

private:
    struct Outcome;
    void scheduleRead();
    void read();
    void showOutcome(const Outcome& outcome);
    void browse(QLineEdit* edit, const QString& title, const QString& filter);
    void sourceChanged();

    const Catalog& m_catalog;
    QComboBox* m_source;
    QLineEdit* m_nodes;
    QLineEdit* m_work;
    QLabel* m_workLabel;
    QLineEdit* m_topologyFile;
    QWidget* m_topologyFileRow;
    QLineEdit* m_topologyLabels;
    QLineEdit* m_teamLabel;
    QLineEdit* m_gpuModels;
    QLineEdit* m_unlabelledModel;
    QLineEdit* m_toleratedTaints;
    QLabel* m_gpuModelsLabel;
    QSpinBox* m_horizonDays;
    QLabel* m_status;
    QWidget* m_typeChoiceRow;  ///< shown when a Slurm GPU type is ambiguous
    QLabel* m_typeChoiceLabel;
    QComboBox* m_typeChoice;
    QString m_ambiguousType;
    QTreeView* m_tree;
    ui::FleetTreeModel* m_model;
    QPlainTextEdit* m_summary;
    QDialogButtonBox* m_buttons;
    QPushButton* m_import;
    QTimer* m_debounce;
    BackgroundJob<std::shared_ptr<Outcome>> m_read;  ///< at most one: a file may be 64 MB
    int m_generation = 0;      ///< a read whose request has changed since is dropped
    bool m_readAgain = false;  ///< the request changed while it ran
    std::optional<ImportedScenario> m_preview;
    QString m_error;
};

/// Runs the dialog; on Import the document becomes the imported scenario (unsaved, one undo
/// step). Returns true when it did.
bool importFleetWithDialog(ScenarioDocument* doc, QWidget* parent);

}  // namespace gpuplan::app
