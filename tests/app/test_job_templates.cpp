// QtTest, offscreen: the palette offers shares and MIG instances where the fleet can serve
// them (MPS / time-slicing / MIG node groups, or an openb node list, whose nodes share by MPS),
// and a drop of one lands as the fleet serves it.
#include <QtTest>

#include "app_test_support.hpp"
#include "gpuplan/openb.hpp"
#include "job_templates.hpp"

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
        data->nodes = readOpenbNodes(GPUPLAN_TEST_DATA_DIR "/openb/fill-nodes.csv");
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
};

QTEST_MAIN(JobTemplatesTest)
#include "test_job_templates.moc"
