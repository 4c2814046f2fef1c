// QtTest: the Cost chart — the cost rate stacked by buying class, one series per class the
// fleet has and only those, values that follow the time cursor, and a placeholder instead of
// an empty plot when the run has no prices.
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"

using namespace gpuplan;
using namespace gpuplan::app::test;

namespace {

Scenario defaultScenario() {
    return loadScenario((kPresets + "/scenarios/default.json").toStdString(), catalog());
}

std::shared_ptr<const Results> run(const Scenario& s) {
    return std::make_shared<const Results>(simulate(s, RunOptions{}));
}

/// The default preset (Lambda's prices: H100 reserved $1.85, on demand $2.99 per GPU-hour)
/// with pod-b's three racks of 4 DGX H100 (96 GPUs) bought on demand.
Scenario podBOnDemand() {
    Scenario s = defaultScenario();
    s.pods[1].racks[0].nodes[0].buyingClass = BuyingClass::OnDemand;
    return s;
}

}  // namespace

class CostChartTest : public QObject {
    Q_OBJECT
private slots:
    void oneSeriesPerBuyingClassTheFleetHas() {
        ui::ChartBoard board;
        board.resize(900, 900);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        ui::ChartPanel* cost = board.cost();
        QCOMPARE(cost->title(), QStringLiteral("Cost"));

        // All reserved: one layer, and the legend names no other class.
        board.setResults(run(defaultScenario()));
        QCOMPARE(cost->plottedMetrics(), QStringList{"cost_rate_usd_per_h{reserved}"});
        QVERIFY(!cost->drawnTexts().join(' ').contains("on-demand"));
        QVERIFY(cost->shownPlaceholder().isEmpty());

        // Reserved and on demand: two layers. Before day 2 the fleet pays for pod-a (16 nodes
        // × 8 = 128 reserved GPUs × $1.85 = $236.8/h) and pod-b's first three racks (96
        // on-demand GPUs × $2.99 = $287.04/h); pod-b-rack3 (32 reserved GPUs) is paid from its
        // delivery on day 2: + 32 × $1.85 = $59.2/h, $296/h reserved in all.
        const auto mixed = run(podBOnDemand());
        board.setResults(mixed);
        QCOMPARE(cost->plottedMetrics(),
                 (QStringList{"cost_rate_usd_per_h{reserved}", "cost_rate_usd_per_h{on-demand}"}));
        const QString legend = cost->drawnTexts().join(' ');
        QVERIFY2(legend.contains("reserved") && legend.contains("on-demand") &&
                     !legend.contains("spot") && !legend.contains("on-prem"),
                 qPrintable(legend));
        QCOMPARE(mixed->findSeries("cost_rate_usd_per_h{reserved}")->unit,
                 std::string("usd_per_h"));
        const QString day1 = cost->valuesAt(86400);
        QVERIFY2(day1.contains("reserved: 237 USD/h") && day1.contains("on-demand: 287 USD/h") &&
                     day1.contains("total: 524 USD/h"),
                 qPrintable(day1));
        const QString day3 = cost->valuesAt(3 * 86400);
        QVERIFY2(day3.contains("reserved: 296 USD/h") && day3.contains("total: 583 USD/h"),
                 qPrintable(day3));
    }

    void followsTheTimeCursorAndClicksLikeTheOthers() {
        ui::ChartBoard board;
        board.resize(900, 900);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        board.setResults(run(podBOnDemand()));
        QCoreApplication::processEvents();
        QSignalSpy clicked(&board, &ui::ChartBoard::timeClicked);
        ui::ChartPanel* cost = board.cost();
        QTest::mouseClick(cost->viewport(), Qt::LeftButton, {}, cost->viewportPosition(2 * 86400));
        QCOMPARE(clicked.count(), 1);
        QVERIFY(std::fabs(clicked.at(0).at(0).toDouble() - 2 * 86400) < 3600);
    }

    void anUnpricedRunShowsWhyInsteadOfAnEmptyPlot() {
        ui::ChartBoard board;
        board.resize(900, 900);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        Scenario s = defaultScenario();
        s.pricing.reset();
        board.setResults(run(s));
        ui::ChartPanel* cost = board.cost();
        QVERIFY(cost->plottedMetrics().isEmpty());
        QVERIFY2(cost->shownPlaceholder().startsWith("No prices: pick a price book"),
                 qPrintable(cost->shownPlaceholder()));
        // The other charts draw as before.
        QVERIFY(board.charts()[0]->shownPlaceholder().isEmpty());
        QVERIFY(!board.charts()[0]->plottedMetrics().isEmpty());
        // Prices again: the plot comes back.
        board.setResults(run(defaultScenario()));
        QVERIFY(cost->shownPlaceholder().isEmpty());
        QCOMPARE(cost->plottedMetrics().size(), 1);
    }
};

GPUPLAN_APP_TEST("test_cost_chart", CostChartTest);
#include "test_cost_chart.moc"
