#include "fleet_import_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "gpuplan/import/k8s_import.hpp"
#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "shell/file_controller.hpp"
#include "shell/scenario_document.hpp"
#include "topology/fleet_tree_model.hpp"

namespace gpuplan::app {

namespace {

/// Waits this long after the last keystroke before reading the files again.
constexpr int kReadDelayMs = 300;
/// A read that takes longer says so (the files of a large cluster take a while).
constexpr int kShowReadingAfterMs = 500;

/// "A=B, C=D" → pairs; each side trimmed and non-empty.
std::vector<std::pair<std::string, std::string>> assignments(const QString& text,
                                                             const QString& what) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const QString& item : text.split(',', Qt::SkipEmptyParts)) {
        const QString trimmed = item.trimmed();
        const qsizetype eq = trimmed.indexOf('=');
        if (eq <= 0 || eq + 1 >= trimmed.size())
            throw std::invalid_argument(
                QString("%1: \"%2\" is not NAME=MODEL").arg(what, trimmed).toStdString());
        out.push_back({trimmed.left(eq).trimmed().toStdString(),
                       trimmed.mid(eq + 1).trimmed().toStdString()});
    }
    return out;
}

}  // namespace

ImportedScenario readFleetImport(const FleetImportRequest& request, const Catalog& catalog) {
    if (request.nodesFile.isEmpty()) throw std::invalid_argument("choose the nodes file");
    ImportScenarioOptions options;
    options.horizonS = (request.horizonDays > 0 ? request.horizonDays : 7) * 86400.0;
    options.name = "Imported: " + QFileInfo(request.nodesFile).completeBaseName().toStdString();
    const std::filesystem::path nodes = request.nodesFile.toStdString();
    std::optional<std::filesystem::path> work;
    if (!request.workFile.isEmpty()) work = request.workFile.toStdString();
    if (request.source == FleetImportRequest::Source::Slurm) {
        SlurmImportOptions slurm;
        slurm.nodes.gpuTypeModels = assignments(request.gpuModels, "GPU types");
        if (request.horizonDays > 0) slurm.horizonS = options.horizonS;
        std::optional<std::filesystem::path> topology;
        if (!request.topologyFile.isEmpty()) topology = request.topologyFile.toStdString();
        const SlurmImport read = importSlurmFiles(catalog, nodes, work, topology, slurm);
        options.horizonS = read.horizonS;
        ImportedScenario imported = importedScenario(read.fleet, catalog, options);
        validateScenario(imported.scenario, catalog);
        return imported;
    }

    K8sImportOptions k8s;
    if (!request.topologyLabels.trimmed().isEmpty()) {
        const QStringList labels = request.topologyLabels.split(',');
        if (labels.size() != 2)
            throw std::invalid_argument("topology labels: give POD_LABEL,RACK_LABEL");
        k8s.topologyLabelsGiven = true;
        k8s.podLabel = labels[0].trimmed().toStdString();
        k8s.rackLabel = labels[1].trimmed().toStdString();
    }
    k8s.teamLabel = request.teamLabel.trimmed().toStdString();
    k8s.productModels = assignments(request.gpuModels, "GPU products");
    k8s.unlabelledModel = request.unlabelledModel.trimmed().toStdString();
    for (const QString& key : request.toleratedTaints.split(',', Qt::SkipEmptyParts))
        k8s.toleratedTaints.push_back(key.trimmed().toStdString());
    ImportedScenario imported =
        importedScenario(importK8sFiles(catalog, nodes, work, k8s), catalog, options);
    // Checked here, off the GUI thread, as the document will check it: what the preview
    // shows can be imported.
    validateScenario(imported.scenario, catalog);
    return imported;
}

struct FleetImportDialog::Outcome {
    int generation = 0;
    std::optional<ImportedScenario> imported;
    QString error;
    QString ambiguousType;   ///< a Slurm GPU type naming several catalog models
    QStringList candidates;  ///< the models it could be
};

FleetImportDialog::FleetImportDialog(const Catalog& catalog, QWidget* parent)
    : QDialog(parent), m_catalog(catalog) {
    setWindowTitle(tr("Import fleet"));
    m_source = new QComboBox(this);
    m_source->addItem(tr("Kubernetes: kubectl get nodes / pods -o json"),
                      static_cast<int>(FleetImportRequest::Source::Kubernetes));
    m_source->addItem(tr("Slurm: scontrol show node --oneliner / sacct --parsable2"),
                      static_cast<int>(FleetImportRequest::Source::Slurm));
    m_nodes = new QLineEdit(this);
    m_work = new QLineEdit(this);
    m_topologyFile = new QLineEdit(this);
    m_workLabel = new QLabel(this);
    m_topologyLabels = new QLineEdit(this);
    m_topologyLabels->setPlaceholderText(tr("detected (e.g. topology.kubernetes.io/zone,)"));
    m_teamLabel = new QLineEdit(this);
    m_teamLabel->setPlaceholderText(tr("the namespace"));
    m_gpuModels = new QLineEdit(this);
    m_gpuModelsLabel = new QLabel(this);
    m_unlabelledModel = new QLineEdit(this);
    m_unlabelledModel->setPlaceholderText(tr("a catalog model id, e.g. h100-sxm"));
    m_toleratedTaints = new QLineEdit(this);
    m_toleratedTaints->setPlaceholderText(
        tr("taint keys the GPU pods tolerate, e.g. sku, dedicated"));
    m_horizonDays = new QSpinBox(this);
    m_horizonDays->setRange(0, 3 * 366);
    m_horizonDays->setSpecialValueText(
        tr("automatic (the sacct export's span plus a day; else 7 days)"));
    m_horizonDays->setValue(0);
    m_horizonDays->setSuffix(tr(" days"));

    auto fileRow = [this](QLineEdit* edit, const QString& title, const QString& filter) {
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(edit, 1);
        auto* button = new QPushButton(tr("Browse…"), row);
        connect(button, &QPushButton::clicked, this,
                [this, edit, title, filter] { browse(edit, title, filter); });
        h->addWidget(button);
        return row;
    };
    auto* form = new QFormLayout;
    form->addRow(tr("Source"), m_source);
    form->addRow(tr("Nodes"), fileRow(m_nodes, tr("Nodes file"), tr("JSON (*.json);;All (*)")));
    form->addRow(m_workLabel, fileRow(m_work, tr("Work file"), tr("All (*)")));
    m_topologyFileRow = fileRow(m_topologyFile, tr("topology.conf"), tr("All (*)"));
    form->addRow(tr("Topology (Slurm)"), m_topologyFileRow);
    form->addRow(tr("Topology labels"), m_topologyLabels);
    form->addRow(tr("Team label"), m_teamLabel);
    form->addRow(m_gpuModelsLabel, m_gpuModels);
    form->addRow(tr("Unlabelled GPUs are"), m_unlabelledModel);
    form->addRow(tr("Tolerated taints"), m_toleratedTaints);
    form->addRow(tr("Horizon"), m_horizonDays);

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);  // messages quote the files: never markup
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // An ambiguous Slurm GPU type ("h100"): the catalog's candidates, one to choose.
    m_typeChoiceRow = new QWidget(this);
    auto* choice = new QHBoxLayout(m_typeChoiceRow);
    choice->setContentsMargins(0, 0, 0, 0);
    m_typeChoiceLabel = new QLabel(m_typeChoiceRow);
    m_typeChoiceLabel->setTextFormat(Qt::PlainText);
    m_typeChoice = new QComboBox(m_typeChoiceRow);
    m_typeChoice->setObjectName(QStringLiteral("gpuTypeChoice"));
    choice->addWidget(m_typeChoiceLabel);
    choice->addWidget(m_typeChoice);
    choice->addStretch(1);
    m_typeChoiceRow->setVisible(false);
    connect(m_typeChoice, &QComboBox::activated, this, [this](int index) {
        if (index > 0) chooseGpuTypeModel(m_typeChoice->itemData(index).toString());
    });
    m_model = new ui::FleetTreeModel(this);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_model);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAlternatingRowColors(true);
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tree);
    split->addWidget(m_summary);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = m_buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    m_import->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_typeChoiceRow);
    layout->addWidget(split, 1);
    layout->addWidget(m_buttons);
    resize(1100, 700);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kReadDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &FleetImportDialog::read);
    for (QLineEdit* edit : {m_nodes, m_work, m_topologyFile, m_topologyLabels, m_teamLabel,
                            m_gpuModels, m_unlabelledModel, m_toleratedTaints})
        connect(edit, &QLineEdit::textChanged, this, &FleetImportDialog::scheduleRead);
    connect(m_horizonDays, &QSpinBox::valueChanged, this, &FleetImportDialog::scheduleRead);
    connect(m_source, &QComboBox::currentIndexChanged, this, &FleetImportDialog::sourceChanged);
    m_read.onFinished([this](std::shared_ptr<Outcome> outcome, bool) {
        if (outcome->generation == m_generation) showOutcome(*outcome);
        // The request changed while it ran: read the newest one now (unless more typing
        // will start it anyway).
        if (std::exchange(m_readAgain, false) && !m_debounce->isActive()) read();
    });
    sourceChanged();
}

// m_read waits for the read under way: it holds the catalog by reference.
FleetImportDialog::~FleetImportDialog() = default;

void FleetImportDialog::sourceChanged() {
    const bool k8s =
        m_source->currentData().toInt() == static_cast<int>(FleetImportRequest::Source::Kubernetes);
    m_workLabel->setText(k8s ? tr("Pods (optional)") : tr("Jobs, sacct (optional)"));
    m_gpuModelsLabel->setText(k8s ? tr("GPU products") : tr("GPU types"));
    m_gpuModels->setPlaceholderText(k8s ? tr("PRODUCT=MODEL, … for products the catalog lacks")
                                        : tr("TYPE=MODEL, … for gres types the catalog lacks"));
    m_topologyLabels->setEnabled(k8s);
    m_teamLabel->setEnabled(k8s);
    m_unlabelledModel->setEnabled(k8s);
    m_toleratedTaints->setEnabled(k8s);
    m_topologyFileRow->setEnabled(!k8s);
    scheduleRead();
}

void FleetImportDialog::browse(QLineEdit* edit, const QString& title, const QString& filter) {
    const QString start = edit->text().isEmpty()
                              ? FileController::lastFolder(FolderPurpose::Scenarios)
                              : QFileInfo(edit->text()).absolutePath();
    const QString file = QFileDialog::getOpenFileName(this, title, start, filter);
    if (!file.isEmpty()) edit->setText(file);
}

void FleetImportDialog::setRequest(const FleetImportRequest& request) {
    m_source->setCurrentIndex(m_source->findData(static_cast<int>(request.source)));
    m_nodes->setText(request.nodesFile);
    m_work->setText(request.workFile);
    m_topologyFile->setText(request.topologyFile);
    m_topologyLabels->setText(request.topologyLabels);
    m_teamLabel->setText(request.teamLabel);
    m_gpuModels->setText(request.gpuModels);
    m_horizonDays->setValue(request.horizonDays);
    m_unlabelledModel->setText(request.unlabelledModel);
    m_toleratedTaints->setText(request.toleratedTaints);
    scheduleRead();
}

FleetImportRequest FleetImportDialog::request() const {
    FleetImportRequest r;
    r.source = static_cast<FleetImportRequest::Source>(m_source->currentData().toInt());
    r.nodesFile = m_nodes->text().trimmed();
    r.workFile = m_work->text().trimmed();
    r.topologyFile = m_topologyFile->text().trimmed();
    r.topologyLabels = m_topologyLabels->text();
    r.teamLabel = m_teamLabel->text();
    r.gpuModels = m_gpuModels->text();
    r.horizonDays = m_horizonDays->value();
    r.unlabelledModel = m_unlabelledModel->text();
    r.toleratedTaints = m_toleratedTaints->text();
    return r;
}

QString FleetImportDialog::summaryText() const {
    return m_summary->toPlainText();
}

bool FleetImportDialog::isReading() const {
    return m_read.isRunning() || m_debounce->isActive();
}

void FleetImportDialog::scheduleRead() {
    ++m_generation;               // whatever is being read now is out of date
    m_import->setEnabled(false);  // until the preview shows what Import would bring
    m_debounce->start();
}

void FleetImportDialog::read() {
    if (m_read.isRunning()) {  // one read at a time: the newest request follows when it ends
        m_readAgain = true;
        return;
    }
    const FleetImportRequest request = this->request();
    const int generation = m_generation;
    QTimer::singleShot(kShowReadingAfterMs, this, [this, generation] {
        if (m_read.isRunning() && generation == m_generation)
            m_status->setText(tr("Reading the files…"));
    });
    const Catalog* catalog = &m_catalog;
    m_read.start([request, generation, catalog](const JobControl&) {
        auto outcome = std::make_shared<Outcome>();
        outcome->generation = generation;
        try {
            outcome->imported = readFleetImport(request, *catalog);
        } catch (const SlurmGpuTypeError& e) {
            outcome->error = QString::fromUtf8(e.what());
            if (!e.candidates().empty()) {
                outcome->ambiguousType = QString::fromStdString(e.type());
                for (const std::string& id : e.candidates())
                    outcome->candidates << QString::fromStdString(id);
            }
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
        return outcome;
    });
}

QStringList FleetImportDialog::gpuTypeCandidates() const {
    QStringList out;
    for (int i = 1; i < m_typeChoice->count(); ++i)
        out << m_typeChoice->itemData(i).toString();
    return out;
}

void FleetImportDialog::chooseGpuTypeModel(const QString& model) {
    if (m_ambiguousType.isEmpty()) return;
    // As if typed: TYPE=MODEL joins the GPU types, which reads the files again.
    const QString given = m_gpuModels->text().trimmed();
    m_gpuModels->setText((given.isEmpty() ? QString() : given + QStringLiteral(", ")) +
                         m_ambiguousType + QLatin1Char('=') + model);
}

void FleetImportDialog::showOutcome(const Outcome& outcome) {
    m_preview = outcome.imported;
    m_error = outcome.error;
    m_ambiguousType = outcome.ambiguousType;
    m_typeChoice->clear();
    if (!m_ambiguousType.isEmpty()) {
        m_typeChoiceLabel->setText(
            tr("GPU type \"%1\" is not one catalog model; it is:").arg(m_ambiguousType));
        m_typeChoice->addItem(tr("choose a model…"));
        for (const QString& id : outcome.candidates) {
            const GpuModel* gpu = m_catalog.findGpu(id.toStdString());
            m_typeChoice->addItem(
                gpu ? QStringLiteral("%1 (%2)").arg(id, QString::fromStdString(gpu->name)) : id,
                id);
        }
    }
    m_typeChoiceRow->setVisible(!m_ambiguousType.isEmpty());
    m_import->setEnabled(m_preview.has_value());
    if (m_preview) {
        const Scenario& s = m_preview->scenario;
        m_model->setNodeTypes(s.definedNodeTypes);
        m_model->setScenario(s);
        m_tree->expandToDepth(1);  // pods and racks open: the nodes show
        m_tree->header()->resizeSections(QHeaderView::ResizeToContents);
        m_summary->setPlainText(QString::fromStdString(m_preview->summary.text()));
        m_status->setStyleSheet({});
        m_status->setText(
            tr("Import replaces the open scenario with this fleet (Edit ▸ Undo "
               "brings it back)."));
    } else if (request().nodesFile.isEmpty()) {  // nothing asked yet: how, not an error
        m_model->setScenario(Scenario{});
        m_summary->clear();
        m_status->setStyleSheet({});
        m_status->setText(
            tr("Choose the cluster's exports: kubectl get nodes -o json > nodes.json (and "
               "kubectl get pods -A -o json > pods.json), or Slurm's scontrol show node "
               "--oneliner (and sacct --parsable2 --allocations)."));
    } else {
        m_model->setScenario(Scenario{});
        m_summary->clear();
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        m_status->setText(m_error);
    }
    emit previewChanged();
}

bool importFleetWithDialog(ScenarioDocument* doc, QWidget* parent) {
    FleetImportDialog dialog(doc->catalog(), parent);
    if (dialog.exec() != QDialog::Accepted || !dialog.preview()) return false;
    const QString from = QFileInfo(dialog.request().nodesFile).fileName();
    const QString refusal = doc->replaceUndoably(dialog.preview()->scenario, QString(),
                                                 QObject::tr("Import fleet from %1").arg(from));
    if (!refusal.isEmpty()) {
        QMessageBox::critical(parent, QObject::tr("Import refused"), refusal);
        return false;
    }
    return true;
}

}  // namespace gpuplan::app
