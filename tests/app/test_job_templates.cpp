// QtTest, offscreen: the palette offers shares and MIG instances where the fleet can serve
// them (MPS / time-slicing / MIG node groups, or an openb node list, whose nodes share by MPS),
// and a drop of one lands as the fleet serves it.
#include <QtTest>

#include <QListWidget>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/gpu_sharing_editor.hpp"
#include "editors/job_palette.hpp"
#include "fleet/sharing_controller.hpp"
#include "gpuplan/model/openb.hpp"
#include "import/fleet_import_dialog.hpp"
#include "workload/job_templates.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

Scenario preset(const QString& name) {
    return loadScenario((kPresets + "/scenarios/" + name).toStdString(), catalog());
}

bool offers(const std::vector<ui::JobTemplate>& templates, const char* id) {
    return findTemplate(templates, QString::fromLatin1(id)) != nullptr;
}

/// An edit through the sharing editor (a node to MPS): its text goes to the status line.
void editorOn(Fixture& f) {
    f.window->sharing()->selectGenerated(QStringLiteral("Node"),
                                         QStringLiteral("pod-a-rack0-node0"));
    f.window->sharing()->editor()->chooseMode(SharingMode::Mps);
}

}  // namespace

class JobTemplatesTest : public QObject {
    Q_OBJECT
private slots:
    void wholeGpuFleetsOfferNoSharesOrInstances() {
        const auto templates = jobTemplates(preset("default.json"));
        QVERIFY(offers(templates, "ready:notebook"));
        QVERIFY(!offers(templates, "ready:inference-share"));
        QVERIFY(!offers(templates, "ready:notebook-share"));
        QVERIFY(!offers(templates, "ready:notebook-mig"));
    }

    void anMpsGroupBringsTheShareTemplates() {
        Scenario s = preset("default.json");
        NodeGroupDef& g = s.pods[0].racks[0].nodes[0];
        g.sharing.mode = SharingMode::Mps;
        const auto templates = jobTemplates(s);
        const ui::JobTemplate* inference = findTemplate(templates, "ready:inference-share");
        QVERIFY(inference);
        QCOMPARE(inference->job.traits.gpuMilli, 300);
        QCOMPARE(inference->label, QString("inference 0.3 H100, 4 h"));
        const ui::JobTemplate* notebook = findTemplate(templates, "ready:notebook-share");
        QVERIFY(notebook);
        QCOMPARE(notebook->job.traits.gpuMilli, 100);
        QVERIFY(!offers(templates, "ready:notebook-mig"));
        // Time-slicing serves shares too.
        g.sharing.mode = SharingMode::TimeSlicing;
        QVERIFY(offers(jobTemplates(s), "ready:inference-share"));
    }

    void aMigGroupBringsANotebookOnItsSmallestInstance() {
        Scenario s = preset("default.json");
        NodeGroupDef& g = s.pods[0].racks[0].nodes[0];
        g.sharing.mode = SharingMode::Mig;
        // The smallest instance of the layout, wherever it is written.
        g.sharing.migLayout = "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb";
        validateScenario(s, catalog());
        const auto templates = jobTemplates(s);
        const ui::JobTemplate* notebook = findTemplate(templates, "ready:notebook-mig");
        QVERIFY(notebook);
        QCOMPARE(notebook->label, QString("notebook 1g.10gb, 2 h"));
        QCOMPARE(notebook->job.traits.migProfile, std::string("1g.10gb"));
        QVERIFY(!offers(templates, "ready:inference-share"));
    }

    void anOpenbNodeListSharesByMps() {
        // A node list's nodes share by MPS (openbFleet); the fixture fleet is two T4 nodes.
        Scenario s = preset("default.json");
        s.pods.clear();
        NodeListDef list;
        list.file = "fill-nodes.csv";
        auto data = std::make_shared<NodeListData>();
        data->file = list.file;
        data->nodes = readOpenbNodes((testDataDir() / "openb/fill-nodes.csv").string());
        list.data = data;
        s.nodeList = list;
        QVERIFY(offers(jobTemplates(s), "ready:inference-share"));
    }

    void aShareDroppedOnAnMpsNodeLandsOnASharedGpu() {
        Fixture f;
        Scenario s = f.doc.scenario();
        s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
        f.doc.reset(s, QString());
        f.window->simulation().runNow(f.doc.scenario());
        QVERIFY(f.waitForResults());
        const int node = f.nodeIndex("pod-a-rack0-node0");
        f.dropOnNode(node, ui::kTemplateMime, "ready:inference-share");
        QVERIFY(f.waitForResults());
        const JobDef& added = f.doc.scenario().jobs.back();
        QCOMPARE(added.traits.gpuMilli, 300);
        std::uint32_t index = 0;
        const JobRecord* job = findJob(*f.window->results(), added.name, &index);
        QVERIFY(job);
        QVERIFY(job->firstStartS >= 0);
        const Results& r = *f.window->results();
        const RunSegment& seg = r.segments[job->lastSegment];
        const PodPlacement& p = r.placements[seg.placementBegin];
        QCOMPARE(static_cast<int>(p.node), node);
        QVERIFY(p.isShare());
        QCOMPARE(static_cast<int>(p.milliGpu), 300);
    }

    // A scenario with no team (an import of nodes alone) says so in the Built-in heading,
    // rather than "Built-in (team , …".
    void aScenarioWithoutTeamsSaysSoInTheBuiltInHeading() {
        Scenario s = preset("default.json");
        for (const ui::JobTemplate& t : jobTemplates(s))
            if (t.id.startsWith(QStringLiteral("ready:")))
                QCOMPARE(t.group,
                         QStringLiteral("Built-in (team %1, priority 0, unless chosen above)")
                             .arg(QString::fromStdString(s.teams.front().name)));
        s.teams.clear();
        s.jobClasses.clear();
        int builtIn = 0;
        for (const ui::JobTemplate& t : jobTemplates(s)) {
            builtIn += 1;
            QCOMPARE(
                t.group,
                QStringLiteral("Built-in (priority 0; no team yet: add one in Workload ▸ Teams)"));
            QVERIFY2(t.description.contains(QStringLiteral("no team to run it for")),
                     qPrintable(t.description));
        }
        QCOMPARE(builtIn, 4);  // fine-tune, pre-train, inference, notebook
    }

    // After File ▸ Import the palette names no team (not "Built-in (team , …") and the
    // status line says what came in, not the last edit of the scenario before. tests/data/k8s's
    // nodes alone: 6 GPU nodes (4 × 8 H100, 2 A100, 1 L4 = 35 GPUs), no pods, so no team.
    void anImportSaysWhatCameInAndThePaletteNamesNoTeam() {
        Fixture f;
        editorOn(f);  // an edit of the scenario before: its text on the status line
        const QString before = f.status();
        QVERIFY2(before.startsWith(QStringLiteral("MPS")), qPrintable(before));
        bool driven = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<FleetImportDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            FleetImportRequest request;
            request.nodesFile = QString::fromStdString((testDataDir() / "k8s/nodes.json").string());
            request.horizonDays = 1;
            dialog->setRequest(request);
            QSignalSpy read(dialog, &FleetImportDialog::previewChanged);
            QVERIFY(read.wait(15000) && !dialog->isReading());
            QVERIFY(dialog->preview());
            dialog->accept();
            driven = true;
        });
        QVERIFY(f.window->files().importFleet());
        QVERIFY(driven);
        QVERIFY(f.doc.scenario().teams.empty());
        QCOMPARE(f.status(), QStringLiteral("Import fleet from nodes.json: 6 nodes, 35 GPUs (Edit "
                                            "▸ Undo brings the previous scenario back)."));
        QStringList headings;
        QListWidget* list = f.window->palette()->list();
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toString().isEmpty())
                headings << list->item(i)->text();
        QCOMPARE(headings,
                 QStringList({QStringLiteral(
                     "Built-in (priority 0; no team yet: add one in Workload ▸ Teams)")}));
    }
};

GPUPLAN_APP_TEST("test_job_templates", JobTemplatesTest);
#include "test_job_templates.moc"
