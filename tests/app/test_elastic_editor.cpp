// QtTest, offscreen: the workload panel's "Elastic to" column (JobTraitsDef::elasticMaxGpus),
// driven through its models as the view drives them (setData with the text a user types).
// An elastic class on a fleet with room to grow ends its jobs sooner, undo restores the
// scenario and its results, and a value the file's rules refuse changes nothing and says why.
#include <QtTest>
#include <cmath>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "tables/workload_models.hpp"
#include "workload/job_templates.hpp"
#include "workload/workload_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;
using ClassCol = ui::JobClassTableModel::Column;
using JobCol = ui::ExplicitJobTableModel::Column;

namespace {

/// The default preset cut to one rack of two DGX H100 nodes (16 GPUs), and one class,
/// "train": 8 GPUs in one pod, 4 h of work, submitted at 0, 8 h and 16 h (a list), to a day.
/// Each job runs alone: fixed-size it takes 4 h (mean JCT 14,400 s); elastic to 16 GPUs it
/// grows at once to both nodes and works at twice the pace, 2 h (7,200 s).
Scenario roomToGrow() {
    Scenario s = defaultPresetOnNodes(2);
    s.horizonS = 86400;
    s.jobs.clear();
    JobClassDef c = s.jobClasses.at(0);
    c.name = "train";
    c.arrival = ArrivalDef{};
    c.arrival.process = ArrivalProcess::List;
    c.arrival.timesS = {0, 28800, 57600};
    c.gpus = DistributionDef{};
    c.gpus.value = 8;
    c.durationS = DistributionDef{};
    c.durationS.value = 14400;
    c.traits.gpusPerPod = 8;
    c.traits.startupS = 0;
    c.traits.topologySensitivity = 0;
    s.jobClasses = {c};
    return s;
}

double meanJctOfClass(const Results& r, const std::string& name) {
    double sum = 0;
    int n = 0;
    for (const JobRecord& j : r.jobs)
        if (j.spec.source == JobSource::Class && r.classNames[j.spec.sourceIndex] == name &&
            j.endS >= 0) {
            sum += j.jctS();
            ++n;
        }
    return n ? sum / n : std::nan("");
}

/// The fixture on roomToGrow(), its first results in.
void loadRoomToGrow(Fixture& f) {
    f.doc.reset(roomToGrow(), QString());
    QVERIFY(f.waitForResults());
}

}  // namespace

class ElasticEditorTest : public QObject {
    Q_OBJECT
private slots:
    void elasticToGrowsAClassAndUndoRestoresIt() {
        Fixture f;
        loadRoomToGrow(f);
        ui::JobClassTableModel* m = f.window->workload()->classModel();
        const std::string before = scenarioToJson(f.doc.scenario());
        const QModelIndex cell = m->index(0, ClassCol::ElasticColumn);
        QCOMPARE(m->headerData(ClassCol::ElasticColumn, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Elastic to"));
        QVERIFY(!m->headerData(ClassCol::ElasticColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(), QStringLiteral("fixed"));
        QCOMPARE(m->data(cell, Qt::EditRole).toString(), QString());
        // Fixed-size: no elastic KPIs, every job 4 h.
        const std::shared_ptr<const Results> fixed = f.window->results();
        QVERIFY(std::isnan(fixed->kpi("elastic_grows")));
        QCOMPARE(meanJctOfClass(*fixed, "train"), 14400.0);

        QVERIFY(m->setData(cell, "16", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.elasticMaxGpus, 16);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(), QStringLiteral("16 GPUs"));
        QVERIFY(f.waitForResults());
        const std::shared_ptr<const Results> grown = f.window->results();
        QVERIFY2(grown->kpi("elastic_grows") > 0,
                 qPrintable(QString::number(grown->kpi("elastic_grows"))));
        // Each job alone on both nodes: twice the pace, 2 h.
        const double jct = meanJctOfClass(*grown, "train");
        QVERIFY2(jct < 14400, qPrintable(QString::number(jct)));
        QCOMPARE(jct, 7200.0);

        f.doc.undoStack()->undo();
        QCOMPARE(scenarioToJson(f.doc.scenario()), before);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fingerprint, fixed->fingerprint);
        QVERIFY(std::isnan(f.window->results()->kpi("elastic_grows")));
        QCOMPARE(m->data(cell, Qt::DisplayRole).toString(), QStringLiteral("fixed"));

        // Blank is fixed size again: an edit back from 16.
        f.doc.undoStack()->redo();
        QVERIFY(m->setData(cell, "", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobClasses[0].traits.elasticMaxGpus, 0);
    }

    void aClassTemplateDropsElasticOnlyBelowItsMaximum() {
        // "train" asks 8 GPUs: elastic to 16, its template is an elastic 8-GPU job; elastic
        // to 8 (a class's job of its maximum is fixed-size), a fixed one, which the file's
        // rule for an explicit job (maxGpus above gpus) would otherwise refuse on the drop.
        Scenario s = roomToGrow();
        s.jobClasses[0].traits.elasticMaxGpus = 16;
        std::vector<ui::JobTemplate> templates = jobTemplates(s);
        const ui::JobTemplate* t = findTemplate(templates, QStringLiteral("class:train"));
        QVERIFY(t);
        QCOMPARE(t->job.gpus, 8);
        QCOMPARE(t->job.traits.elasticMaxGpus, 16);
        s.jobClasses[0].traits.elasticMaxGpus = 8;
        templates = jobTemplates(s);
        t = findTemplate(templates, QStringLiteral("class:train"));
        QVERIFY(t);
        QCOMPARE(t->job.traits.elasticMaxGpus, 0);
    }

    void invalidElasticValuesChangeNothingAndSayWhy() {
        Fixture f;
        loadRoomToGrow(f);
        // A GPU-share class, a MIG class and an explicit job of 8 GPUs.
        Scenario s = f.doc.scenario();
        JobClassDef share = s.jobClasses[0];
        share.name = "shared";
        share.traits.gpuMilli = 500;
        share.traits.gpusPerPod = 0;
        share.gpus.value = 1;
        JobClassDef mig = share;
        mig.name = "mig";
        mig.traits.gpuMilli = 1000;
        mig.traits.migProfile = "1g.10gb";
        s.jobClasses.push_back(share);
        s.jobClasses.push_back(mig);
        JobDef j;
        j.name = "eight";
        j.traits.team = s.teams.at(0).name;
        j.gpus = 8;
        j.durationS = 3600;
        s.jobs = {j};
        f.doc.reset(s, QString());
        QCOMPARE(f.doc.validationError(f.doc.scenario()), QString());  // valid as it is
        QVERIFY(f.waitForResults());
        const std::string before = scenarioToJson(f.doc.scenario());

        WorkloadPanel* panel = f.window->workload();
        ui::JobClassTableModel* classes = panel->classModel();
        ui::ExplicitJobTableModel* jobs = panel->jobModel();
        struct Case {
            ui::WorkloadTableModel* model;
            int row, column;
            const char* value;
            const char* reason;
        } cases[] = {
            {classes, 1, ClassCol::ElasticColumn, "4",
             "job class \"shared\" · elastic: an elastic job grows by whole GPUs"},
            {classes, 2, ClassCol::ElasticColumn, "4",
             "job class \"mig\" · elastic: an elastic job grows by whole GPUs"},
            {jobs, 0, JobCol::ElasticColumn, "8",
             "Elastic to must be more than the job's 8 GPUs (blank = fixed size)"},
            {jobs, 0, JobCol::ElasticColumn, "4",
             "Elastic to must be more than the job's 8 GPUs (blank = fixed size)"},
            {classes, 0, ClassCol::ElasticColumn, "-8", "Elastic to must be a number of GPUs"},
            {classes, 0, ClassCol::ElasticColumn, "lots", "Elastic to: \"lots\" is not a whole"},
        };
        for (const Case& c : cases) {
            const QModelIndex cell = c.model->index(c.row, c.column);
            QVERIFY2(!c.model->setData(cell, c.value, Qt::EditRole), c.value);
            QVERIFY2(c.model->lastRefusal().startsWith(QString::fromUtf8(c.reason)),
                     qPrintable(c.model->lastRefusal()));
            QCOMPARE(scenarioToJson(f.doc.scenario()), before);
            QCOMPARE(f.doc.undoStack()->count(), 0);
            // The reason is in the panel and the status bar.
            QVERIFY2(panel->reason().startsWith(QString::fromUtf8(c.reason)),
                     qPrintable(panel->reason()));
            QVERIFY2(f.status().contains(QString::fromUtf8(c.reason)), qPrintable(f.status()));
        }
        // The file's rule holds for a scenario edited elsewhere: the document refuses it.
        Scenario below = f.doc.scenario();
        below.jobs[0].traits.elasticMaxGpus = 4;
        QVERIFY2(f.doc.validationError(below).contains(
                     "job \"eight\" · elastic max GPUs: an elastic job grows above its gpus (8)"),
                 qPrintable(f.doc.validationError(below)));
        // Above its 8 GPUs, the explicit job is elastic.
        QVERIFY(jobs->setData(jobs->index(0, JobCol::ElasticColumn), "16 GPUs", Qt::EditRole));
        QCOMPARE(f.doc.scenario().jobs[0].traits.elasticMaxGpus, 16);
        QCOMPARE(jobs->data(jobs->index(0, JobCol::ElasticColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("16 GPUs"));
    }
};

GPUPLAN_APP_TEST("test_elastic_editor", ElasticEditorTest);
#include "test_elastic_editor.moc"
