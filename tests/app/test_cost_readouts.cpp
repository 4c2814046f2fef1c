// QtTest: how costs read — money in three significant digits, a cost per GPU-hour to the
// cent, deltas with their sign and colour (less cost is better), the KPI strip's cost cells
// only for priced runs, and a node's price in the inspector.
#include <QLabel>
#include <QTextDocumentFragment>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/inspector.hpp"
#include "format/kpi_format.hpp"
#include "kpis/kpi_strip.hpp"

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
        QCOMPARE(ui::formatKpiDelta(useful, usefulBase), QStringLiteral("+$0.05/GPU-h"));
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
        // Totals say the span they count: the default preset's week, no warm-up.
        QCOMPARE(ui::measuredSpan(*priced), QStringLiteral("over 7.0 d"));
        QCOMPARE(strip.text("cost_usd"),
                 QStringLiteral("cost %1 over 7.0 d").arg(ui::formatUsd(priced->kpi("cost_usd"))));
        QCOMPARE(strip.text("idle_cost_usd"),
                 QStringLiteral("idle cost %1 over 7.0 d")
                     .arg(ui::formatUsd(priced->kpi("idle_cost_usd"))));
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
                 QStringLiteral("cost %1 over 7.0 d (%2)")
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

    void aWarmUpShortensTheSpanACostCounts() {
        // KPIs count from the warm-up's end: a week with a day's warm-up counts 6 days.
        Scenario s = defaultScenario();
        s.horizonS = 2 * 86400.0;
        s.warmupS = 12 * 3600.0;
        const auto r = run(s);
        QCOMPARE(ui::measuredSpan(*r), QStringLiteral("over 36.0 h"));
        ui::KpiStrip strip;
        strip.setResults(r);
        QVERIFY(strip.text("cost_usd").endsWith(QStringLiteral(" over 36.0 h")));
        QVERIFY(!strip.text("usd_per_useful_gpu_h").contains(QStringLiteral("over")));  // a rate
    }

    void theCostTooltipWrapsAtAReadableWidth() {
        // The cost's description is ~300 characters: one line of it is ~1,400 px. Qt wraps a
        // rich-text tooltip; the label a tooltip is shown in is as wide as its size hint.
        ui::KpiStrip strip;
        strip.setResults(run(defaultScenario()));
        QLabel* cell = nullptr;
        for (QLabel* l : strip.findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("cost <b>"))) cell = l;
        QVERIFY(cell);
        const QString tip = cell->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("each node's GPUs")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("over 7.0 d")));
        QVERIFY(Qt::mightBeRichText(tip));
        QLabel plain(QTextDocumentFragment::fromHtml(tip).toPlainText());
        QVERIFY2(plain.sizeHint().width() > 1000, "the description is one long line unwrapped");
        QLabel shown(tip);
        shown.setWordWrap(Qt::mightBeRichText(tip));  // what QToolTip's label does
        QVERIFY2(shown.sizeHint().width() < 700,
                 qPrintable(QString::number(shown.sizeHint().width())));
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

GPUPLAN_APP_TEST("test_cost_readouts", CostReadoutsTest);
#include "test_cost_readouts.moc"
