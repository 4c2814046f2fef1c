// QtTest, offscreen: the Fill study runs the paper's fill experiment in the background and
// shows what runFill computes: a line per policy and the allocation at 100 % arrived.
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>

#include "app_test_main.hpp"
#include "charts/fill_curve_chart.hpp"
#include "checkout_paths.hpp"
#include "gpuplan/model/openb.hpp"
#include "studies/fill_study_view.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

std::filesystem::path openbTestData() {
    return gpuplan::checkout::testDataDir() / "openb";
}

}  // namespace

class FillStudyTest : public QObject {
    Q_OBJECT
private slots:
    void twoPoliciesOneSeedShowRunFillsNumbers() {
        FillStudyView view({});
        view.setNodesFile(openbTestData() / "fill-nodes.csv");
        view.setPodsFile(openbTestData() / "fill-pods.csv");
        view.setSeeds(42, 1);
        view.setPolicies({FillPolicy::Fgd, FillPolicy::BestFit});
        QSignalSpy finished(&view.runner(), &FillStudyRunner::finished);
        view.run();
        QVERIFY2(view.runner().running(), qPrintable(view.status()));
        QVERIFY(finished.wait(30'000));
        QVERIFY(view.status().startsWith("Done: 2 runs"));

        // The same runs, here: the table shows their allocation at 100 % arrived.
        QStandardItemModel* table = view.table();
        QCOMPARE(table->rowCount(), 2);
        const FillPolicy policies[] = {FillPolicy::Fgd, FillPolicy::BestFit};
        for (int row = 0; row < 2; ++row) {
            FillSpec spec;
            spec.nodes = readOpenbNodes(openbTestData() / "fill-nodes.csv");
            spec.pods = readOpenbPods(openbTestData() / "fill-pods.csv");
            spec.policy = policies[row];
            spec.seed = 42;
            spec.tune = 1.3;
            const FillResult expected = runFill(spec);
            QCOMPARE(table->item(row, 0)->text(),
                     QString::fromStdString(std::string(fillPolicyName(policies[row]))));
            QCOMPARE(table->item(row, 1)->data(Qt::UserRole).toDouble(), expected.allocPctAt100);
            QCOMPARE(table->item(row, 1)->text(),
                     QString::number(expected.allocPctAt100, 'f', 2) + " %");
        }
        // A line per policy, each with a point per whole arrived % read from its curve.
        QCOMPARE(view.chart()->seriesNames(), (QStringList{"FGD", "BestFit"}));
        QVERIFY(view.chart()->pointCount(0) > 10);
        QVERIFY(view.chart()->pointCount(1) > 10);
    }

    void aMalformedPodListIsRefusedWithItsLine() {
        FillStudyView view({});
        view.setNodesFile(openbTestData() / "fill-nodes.csv");
        const auto bad =
            gpuplan::checkout::testDataDir() / "malformed" / "openb-pods-not-a-number.csv";
        view.setPodsFile(bad);
        view.run();
        QVERIFY(!view.runner().running());
        QCOMPARE(view.status(), QString::fromStdString(bad.string()) +
                                    ": line 2: cpu_milli \"12k\" is not a whole number");
    }

    void cancelStopsTheStudy() {
        FillStudyView view({});
        view.setNodesFile(openbTestData() / "fill-nodes.csv");
        view.setPodsFile(openbTestData() / "fill-pods.csv");
        view.setSeeds(1, 100);
        QSignalSpy cancelled(&view.runner(), &FillStudyRunner::cancelled);
        QSignalSpy finished(&view.runner(), &FillStudyRunner::finished);
        view.run();
        view.runner().cancel();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!view.runner().running());
        QTest::qWait(200);  // whatever the stopped tasks still post is dropped
        QCOMPARE(finished.count(), 0);
        QCOMPARE(view.status(), QString("Cancelled."));
    }
};

GPUPLAN_APP_TEST("test_fill_study", FillStudyTest);
#include "test_fill_study.moc"
