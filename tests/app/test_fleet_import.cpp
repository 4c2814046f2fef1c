// File ▸ Import fleet: the dialog reads tests/data/k8s (6 GPU nodes: 4 × 8 H100,
// 2 A100, 1 L4 = 35 GPUs; 4 running and 1 pending GPU pod) and previews the fleet and the
// summary; a refused file shows its place and keeps Import off; Import replaces the document as
// one undo step, and undo brings back the scenario and its file.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "import/fleet_import_dialog.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

const QString kK8s = QString::fromStdString((gpuplan::checkout::testDataDir() / "k8s").string());

FleetImportRequest fixtureRequest() {
    FleetImportRequest r;
    r.nodesFile = kK8s + "/nodes.json";
    r.workFile = kK8s + "/pods.json";
    r.horizonDays = 1;
    return r;
}

bool waitForRead(FleetImportDialog& dialog) {
    QSignalSpy spy(&dialog, &FleetImportDialog::previewChanged);
    return spy.wait(15000) && !dialog.isReading();
}

int nodeCount(const Scenario& s) {
    int n = 0;
    for (const PodDef& p : s.pods)
        for (const RackDef& r : p.racks)
            for (const NodeGroupDef& g : r.nodes)
                n += g.count * r.count * p.count;
    return n;
}

QPushButton* importButton(QDialog* dialog) {
    for (QPushButton* b : dialog->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Import")) return b;
    return nullptr;
}

}  // namespace

class FleetImportTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thePreviewShowsTheFleetAndWhatWasSkipped() {
        const Catalog catalog = test::catalog();
        FleetImportDialog dialog(catalog);
        dialog.setRequest(fixtureRequest());
        QVERIFY(waitForRead(dialog));
        QVERIFY2(dialog.preview(), qPrintable(dialog.errorText()));
        QCOMPARE(nodeCount(dialog.preview()->scenario), 6);
        QVERIFY(dialog.summaryText().contains(
            QStringLiteral("6 GPU nodes with 35 GPUs in 2 pods and 3 racks")));
        QVERIFY(dialog.summaryText().contains(QStringLiteral("2 nodes without GPUs")));
        QVERIFY(importButton(&dialog)->isEnabled());
    }

    void slurmNodesSacctAndTopologyPreviewToo() {
        // tests/data/slurm: 6 GPU nodes (34 GPUs) behind a spine with four leaf switches, and
        // an accounting export replayed as a sacct trace.
        const QString slurm =
            QString::fromStdString((gpuplan::checkout::testDataDir() / "slurm").string());
        const Catalog catalog = test::catalog();
        FleetImportDialog dialog(catalog);
        FleetImportRequest r;
        r.source = FleetImportRequest::Source::Slurm;
        r.nodesFile = slurm + "/nodes.txt";
        r.workFile = slurm + "/sacct.txt";
        r.topologyFile = slurm + "/topology.conf";
        r.gpuModels = QStringLiteral("h100=h100-pcie");
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY2(dialog.preview(), qPrintable(dialog.errorText()));
        QCOMPARE(nodeCount(dialog.preview()->scenario), 6);
        QCOMPARE(static_cast<int>(dialog.preview()->scenario.traces.size()), 1);
        QVERIFY(dialog.summaryText().contains(
            QStringLiteral("6 GPU nodes with 34 GPUs in 2 pods and 4 racks")));
        // Without the type mapping the ambiguous "h100" is refused with its line.
        r.gpuModels.clear();
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY(!dialog.preview());
        QVERIFY2(dialog.errorText().contains(QStringLiteral("nodes.txt:")),
                 qPrintable(dialog.errorText()));
    }

    void anAmbiguousSlurmGpuTypeOffersTheCatalogsModels() {
        // nodes.txt's gpu06 has Gres=gpu:h100:4, and "h100" is in three catalog models' names:
        // instead of only failing, the preview offers them; choosing one adds h100=MODEL to the
        // GPU types (as if typed) and reads again, now with gpu06 on that model.
        const QString slurm =
            QString::fromStdString((gpuplan::checkout::testDataDir() / "slurm").string());
        const Catalog catalog = test::catalog();
        FleetImportDialog dialog(catalog);
        FleetImportRequest r;
        r.source = FleetImportRequest::Source::Slurm;
        r.nodesFile = slurm + "/nodes.txt";
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY(!dialog.preview());
        QVERIFY(!importButton(&dialog)->isEnabled());
        QCOMPARE(dialog.ambiguousGpuType(), QStringLiteral("h100"));
        QCOMPARE(dialog.gpuTypeCandidates(), (QStringList{"h100-sxm", "h100-pcie", "h100-nvl"}));
        auto* choice = dialog.findChild<QComboBox*>(QStringLiteral("gpuTypeChoice"));
        QVERIFY(choice);
        QVERIFY(choice->isVisibleTo(&dialog));
        QCOMPARE(choice->count(), 4);  // "choose a model…" and the three
        QVERIFY(choice->itemText(2).startsWith(QStringLiteral("h100-pcie (NVIDIA H100 80GB PCIe")));
        emit choice->activated(2);
        QCOMPARE(dialog.request().gpuModels, QStringLiteral("h100=h100-pcie"));
        QVERIFY(waitForRead(dialog));
        QVERIFY2(dialog.preview(), qPrintable(dialog.errorText()));
        QVERIFY(dialog.ambiguousGpuType().isEmpty());
        QVERIFY(!choice->isVisibleTo(&dialog));
        QVERIFY(importButton(&dialog)->isEnabled());
        const Scenario& s = dialog.preview()->scenario;
        bool pcie = false;
        for (const NodeType& t : s.definedNodeTypes)
            pcie = pcie || (t.gpuModel == "h100-pcie" && t.gpusPerNode == 4);
        QVERIFY(pcie);  // gpu06's 4 GPUs
        // A type matching no catalog model offers nothing to choose: the error alone.
        QTemporaryDir dir;
        const QString v100 = dir.filePath(QStringLiteral("v100.txt"));
        writeFileAtomic(v100.toStdString(), "NodeName=a Gres=gpu:v100:4 State=IDLE\n");
        r.nodesFile = v100;
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY(!dialog.preview());
        QVERIFY(dialog.ambiguousGpuType().isEmpty());
        QVERIFY(!choice->isVisibleTo(&dialog));
        QVERIFY(dialog.errorText().contains(QStringLiteral("matches no catalog GPU model")));
    }

    void aRefusedFileShowsItsPlaceAndImportStaysOff() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        std::string text = readTextFile((kK8s + "/nodes.json").toStdString());
        text.replace(text.find("191450m"), 7, "lots");
        writeFileAtomic(bad.toStdString(), text);
        const Catalog catalog = test::catalog();
        FleetImportDialog dialog(catalog);
        FleetImportRequest r = fixtureRequest();
        r.nodesFile = bad;
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY(!dialog.preview());
        QVERIFY2(dialog.errorText().contains(
                     QStringLiteral("bad.json: /items/0/status/allocatable/cpu: \"lots\"")),
                 qPrintable(dialog.errorText()));
        QVERIFY(!importButton(&dialog)->isEnabled());
        // Fixing the option that was wrong reads again: an unknown product named by hand.
        r.nodesFile = kK8s + "/nodes.json";
        r.gpuModels = QStringLiteral("nonsense");
        dialog.setRequest(r);
        QVERIFY(waitForRead(dialog));
        QVERIFY(dialog.errorText().contains(QStringLiteral("is not NAME=MODEL")));
    }

    void importIsOneUndoStepAndUndoBringsBackTheDocument() {
        test::Fixture f;
        const QString path = test::kPresets + "/scenarios/default.json";
        f.doc.load(path);
        QVERIFY(f.waitForResults());
        const Scenario before = f.doc.scenario();
        // Drive the modal dialog as a user would: fill it in, wait for the preview, Import.
        bool driven = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<FleetImportDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->setRequest(fixtureRequest());
            QVERIFY(waitForRead(*dialog));
            QTest::mouseClick(importButton(dialog), Qt::LeftButton);
            driven = true;
        });
        QAction* action = nullptr;
        for (QAction* a : f.window->findChildren<QAction*>())
            if (a->text().startsWith(QStringLiteral("&Import fleet"))) action = a;
        QVERIFY(action);
        action->trigger();
        QVERIFY(driven);
        QCOMPARE(nodeCount(f.doc.scenario()), 6);
        QVERIFY(f.doc.filePath().isEmpty());  // unsaved: Save asks where
        QVERIFY(f.doc.isModified());
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Import fleet from nodes.json"));
        QVERIFY(f.waitForResults());
        QCOMPARE(static_cast<int>(f.window->results()->fleet.nodes.size()), 6);

        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(f.doc.filePath(), path);
        QVERIFY(!f.doc.isModified());
        f.doc.undoStack()->redo();
        QCOMPARE(nodeCount(f.doc.scenario()), 6);

        // Saved under a name, the import's undo and redo keep that name for the import.
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("imported.json"));
        f.doc.save(saved);
        QVERIFY(!f.doc.isModified());
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.filePath(), path);
        f.doc.undoStack()->redo();
        QCOMPARE(f.doc.filePath(), saved);
        QVERIFY(!f.doc.isModified());  // back at the saved state, under its file
    }
};

GPUPLAN_APP_TEST("test_fleet_import", FleetImportTest);
#include "test_fleet_import.moc"
