// QtTest: how costs read — money in three significant digits, a cost per GPU-hour to the
// cent, deltas with their sign and colour (less cost is better), the KPI strip's cost cells
// only for priced runs, and a node's price in the inspector.
#include <QLabel>
#include <QtTest>

#include "app_test_support.hpp"
#include "inspector.hpp"
#include "kpi_format.hpp"
#include "kpi_strip.hpp"

using namespace gpuplan;
using namespace gpuplan::app::test;

namespace {

Scenario defaultScenario() {
    return loadScenario((kPresets + "/scenarios/default.json").toStdString(), catalog());
}

std::shared_ptr<const Results> run(const Scenario& s) {
    return std::make_shared<const Results>(simulate(s, RunOptions{}));
}

}  // namespace

class CostReadoutsTest : public QObject {
    Q_OBJECT
private slots:
    void moneyReadsInThreeSignificantDigits() {
        QCOMPARE(ui::formatUsd(0), QStringLiteral("$0.00"));
        QCOMPARE(ui::formatUsd(0.42), QStringLiteral("$0.42"));
        QCOMPARE(ui::formatUsd(42.345), QStringLiteral("$42.3"));
        QCOMPARE(ui::formatUsd(742.4), QStringLiteral("$742"));
        QCOMPARE(ui::formatUsd(76'712), QStringLiteral("$76.7k"));
        QCOMPARE(ui::formatUsd(1'234'567), QStringLiteral("$1.23M"));
        // Judged after rounding: never "$10.00" or "$1000".
        QCOMPARE(ui::formatUsd(9.996), QStringLiteral("$10.0"));
        QCOMPARE(ui::formatUsd(999.7), QStringLiteral("$1.00k"));
        QCOMPARE(ui::formatUsd(-0.001), QStringLiteral("$0.00"));  // never "−$0.00"
        QCOMPARE(ui::formatUsd(-1500), QStringLiteral("−$1.50k"));
        QCOMPARE(ui::formatUsdPerGpuHour(2.9149), QStringLiteral("$2.91/GPU-h"));

        const Kpi cost{"cost_usd", 76'712, "usd", ""}, base{"cost_usd", 75'512, "usd", ""};
        QCOMPARE(ui::formatKpiValue(cost), QStringLiteral("$76.7k"));
        QCOMPARE(ui::formatKpiDelta(cost, base), QStringLiteral("+$1.20k"));
        QCOMPARE(ui::formatKpiDelta(base, cost), QStringLiteral("−$1.20k"));
        QCOMPARE(ui::formatKpiDelta(cost, cost), QStringLiteral("±$0.00"));
        const Kpi useful{"usd_per_useful_gpu_h", 2.912, "usd_per_gpu_h", ""},
            usefulBase{"usd_per_useful_gpu_h", 2.862, "usd_per_gpu_h", ""};
        QCOMPARE(ui::formatKpiValue(useful), QStringLiteral("$2.91/GPU-h"));
        QCOMPARE(ui::formatKpiDelta(useful, usefulBase), QStringLiteral("+$0.05"));
        QCOMPARE(ui::kpiLabel("cost_usd"), QStringLiteral("cost"));
        QCOMPARE(ui::kpiLabel("idle_cost_usd"), QStringLiteral("idle cost"));
        QCOMPARE(ui::kpiLabel("usd_per_useful_gpu_h"), QStringLiteral("useful compute"));
        // Less is better for every cost; more reserved commitment used is better.
        for (const char* name :
             {"cost_usd", "idle_cost_usd", "idle_unallocated_usd", "idle_allocated_usd",
              "usd_per_allocated_gpu_h", "usd_per_useful_gpu_h"})
            QVERIFY2(ui::goodDirection(name) == -1, name);
        QCOMPARE(ui::goodDirection("reserved_commitment_utilization"), +1);
        QCOMPARE(ui::goodDirection("breakeven_utilization"), 0);
    }

    void theKpiStripShowsCostsOfPricedRunsWithDeltas() {
        ui::KpiStrip strip;
        const auto priced = run(defaultScenario());
        strip.setResults(priced);
        QCOMPARE(strip.text("cost_usd"),
                 QStringLiteral("cost ") + ui::formatUsd(priced->kpi("cost_usd")));
        QCOMPARE(strip.text("idle_cost_usd"),
                 QStringLiteral("idle cost ") + ui::formatUsd(priced->kpi("idle_cost_usd")));
        QCOMPARE(strip.text("usd_per_useful_gpu_h"),
                 QStringLiteral("useful compute ") +
                     ui::formatUsdPerGpuHour(priced->kpi("usd_per_useful_gpu_h")));

        // Against the pinned baseline: pod-b's three racks on demand cost more ($2.99 instead
        // of $1.85 per GPU-hour), so the delta is positive, and red.
        Scenario dearer = defaultScenario();
        dearer.pods[1].racks[0].nodes[0].buyingClass = BuyingClass::OnDemand;
        const auto current = run(dearer);
        strip.setBaseline(priced);
        strip.setResults(current);
        const Kpi& now = *current->findKpi("cost_usd");
        const Kpi& before = *priced->findKpi("cost_usd");
        QVERIFY(now.value > before.value);
        QCOMPARE(strip.text("cost_usd"),
                 QStringLiteral("cost %1 (%2)")
                     .arg(ui::formatUsd(now.value), ui::formatKpiDelta(now, before)));
        QVERIFY(strip.text("cost_usd").contains("(+$"));
        const QLabel* cell = nullptr;
        for (QLabel* l : strip.findChildren<QLabel*>())
            if (l->text().contains("cost <b>")) cell = l;
        QVERIFY(cell && cell->text().contains("#c0392b"));

        // Eleven cells with deltas are wider than a 900 px window: they go on in further rows,
        // each whole; a wide window holds them in one.
        strip.resize(900, strip.sizeHint().height());
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        strip.resize(900, strip.sizeHint().height());
        QCoreApplication::processEvents();
        QVERIFY(strip.cellRows().back() >= 1);
        for (const QLabel* l : strip.findChildren<QLabel*>()) {
            if (l->isHidden()) continue;
            QVERIFY2(l->width() >= l->sizeHint().width() && l->geometry().right() < strip.width(),
                     qPrintable(l->text()));
        }
        strip.resize(3000, strip.sizeHint().height());
        QCoreApplication::processEvents();
        QCOMPARE(strip.cellRows().back(), 0);

        // Unpriced: no cost cells at all; the other cells read as they did.
        Scenario unpriced = defaultScenario();
        unpriced.pricing.reset();
        const auto free = run(unpriced);
        strip.setBaseline(nullptr);
        strip.setResults(free);
        for (const char* kpi : {"cost_usd", "idle_cost_usd", "usd_per_useful_gpu_h"})
            QVERIFY2(strip.text(kpi).isEmpty(), kpi);
        QVERIFY(strip.text("allocation_mean").startsWith("allocation "));
    }

    void theInspectorShowsANodesPrice() {
        ui::Inspector inspector;
        inspector.setResults(run(defaultScenario()));
        inspector.showNode(0);
        QVERIFY2(inspector.toPlainText().contains(QStringLiteral("reserved · $1.85/GPU-h")),
                 qPrintable(inspector.toPlainText()));
        Scenario unpriced = defaultScenario();
        unpriced.pricing.reset();
        inspector.setResults(run(unpriced));
        QVERIFY(inspector.toPlainText().contains("reserved"));
        QVERIFY(!inspector.toPlainText().contains("$"));
    }
};

QTEST_MAIN(CostReadoutsTest)
#include "test_cost_readouts.moc"
