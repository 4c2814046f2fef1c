// QtTest: the Buying mix tab — picking a price book is one undoable edit of the
// scenario's pricing that reprices the next run; undo restores the prices and the costs
// exactly; "No prices" takes the cost chart and the cost KPIs away; a book that cannot price
// the fleet's buying class is refused with its reason and changes nothing; the read-only part
// shows the book, the prices the fleet pays, break-even and chargeback.
#include <QComboBox>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "buying_mix/buying_mix_dock.hpp"
#include "buying_mix/buying_mix_panel.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"
#include "format/kpi_format.hpp"
#include "kpis/kpi_strip.hpp"
#include "tables/chargeback_table_model.hpp"
#include "tables/price_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

BuyingMixPanel* panelOf(Fixture& f) {
    auto* dock = f.window->findChild<BuyingMixDock*>();
    return dock ? dock->panel() : nullptr;
}

/// Chooses the picker's entry whose text starts with `text`, as a click on it does.
bool choose(BuyingMixPanel* panel, const QString& text) {
    QComboBox* box = panel->bookBox();
    for (int i = 0; i < box->count(); ++i)
        if (box->itemText(i).startsWith(text)) {
            box->setCurrentIndex(i);
            emit box->activated(i);
            return true;
        }
    return false;
}

/// The default preset with every node group bought on demand (Lambda prices H100 on demand
/// at $2.99, Crusoe at $3.90 per GPU-hour).
Scenario allOnDemand(const Scenario& s) {
    Scenario out = s;
    for (PodDef& pod : out.pods)
        for (RackDef& rack : pod.racks)
            for (NodeGroupDef& group : rack.nodes)
                group.buyingClass = BuyingClass::OnDemand;
    return out;
}

}  // namespace

class BuyingMixPanelTest : public QObject {
    Q_OBJECT
private slots:
    void pickingABookRepricesTheNextRunAndUndoRestoresIt() {
        Fixture f;
        f.doc.reset(allOnDemand(f.doc.scenario()), QString());
        QVERIFY(f.waitForResults());
        BuyingMixPanel* panel = panelOf(f);
        QVERIFY(panel);
        QCOMPARE(panel->bookBox()->currentText(), QStringLiteral("Lambda list prices (2026-04)"));
        const auto lambda = f.window->results();
        const double lambdaCost = lambda->kpi("cost_usd");
        const std::optional<PricingDef> lambdaPricing = f.doc.scenario().pricing;
        const int steps = f.doc.undoStack()->count();

        QVERIFY(choose(panel, "Crusoe"));
        QVERIFY2(panel->refusal().isEmpty(), qPrintable(panel->refusal()));
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
        QCOMPARE(f.doc.scenario().pricing->book,
                 std::string("Crusoe list prices (on demand and spot)"));
        QCOMPARE(f.doc.scenario().pricing->find("h100-sxm")->of(BuyingClass::OnDemand), 3.9);
        QVERIFY(f.status().startsWith("Price with Crusoe"));
        QVERIFY(f.waitForResults());
        // Prices do not change the schedule: the same run, every node paid $3.90 instead of
        // $2.99 per GPU-hour for the same hours, so the bill scales by 3.90 ÷ 2.99.
        const auto crusoe = f.window->results();
        QCOMPARE(crusoe->fingerprint, lambda->fingerprint);
        QVERIFY(std::fabs(crusoe->kpi("cost_usd") / lambdaCost - 3.9 / 2.99) < 1e-9);
        QVERIFY(f.window->kpiStrip()
                    ->text("cost_usd")
                    .contains(ui::formatUsd(crusoe->kpi("cost_usd"))));
        QCOMPARE(
            panel->bookText(),
            QStringLiteral("Crusoe list prices (on demand and spot) · prices as of 2026-03-03"));

        // Undo: Lambda's prices exactly, and the next run costs what it did.
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario().pricing == lambdaPricing);
        QCOMPARE(panel->bookBox()->currentText(), QStringLiteral("Lambda list prices (2026-04)"));
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->kpi("cost_usd"), lambdaCost);
    }

    void noPricesTakesTheCostChartAndKpisAway() {
        Fixture f;
        BuyingMixPanel* panel = panelOf(f);
        ui::ChartPanel* cost = f.window->charts()->cost();
        QVERIFY(!f.window->kpiStrip()->text("cost_usd").isEmpty());
        QVERIFY(!f.window->kpiStrip()->text("idle_cost_usd").isEmpty());
        QVERIFY(!f.window->kpiStrip()->text("usd_per_useful_gpu_h").isEmpty());
        QCOMPARE(cost->plottedMetrics().size(), 1);
        const QString allocation = f.window->kpiStrip()->text("allocation_mean");

        // Layouts settle in posted events after the results are shown (more slowly on a busy
        // machine): measured once they have, before and after.
        auto settledMinHeight = [&] {
            int height = -1;
            for (int same = 0; same < 3; QTest::qWait(50)) {
                const int now = f.window->minimumSizeHint().height();
                same = now == height ? same + 1 : 0;
                height = now;
            }
            return height;
        };
        const int minHeight = settledMinHeight();
        QVERIFY(choose(panel, "No prices"));
        QVERIFY(!f.doc.scenario().pricing);
        QVERIFY(f.waitForResults());
        // The placeholder takes the plot's place: the window needs no more room than before
        // (less, when the KPI strip's cost cells leave a row empty).
        const int after = settledMinHeight();
        QVERIFY2(after <= minHeight,
                 qPrintable(QStringLiteral("%1 > %2").arg(after).arg(minHeight)));
        QVERIFY(std::isnan(f.window->results()->kpi("cost_usd")));
        for (const char* kpi : {"cost_usd", "idle_cost_usd", "usd_per_useful_gpu_h"})
            QVERIFY2(f.window->kpiStrip()->text(kpi).isEmpty(), kpi);
        QCOMPARE(f.window->kpiStrip()->text("allocation_mean"), allocation);  // as before
        QVERIFY(cost->plottedMetrics().isEmpty());
        QVERIFY(cost->shownPlaceholder().startsWith("No prices"));
        QCOMPARE(panel->prices()->rowCount(), 0);
        QCOMPARE(panel->chargeback()->rowCount(), 0);
        QVERIFY(panel->bookText().startsWith("No prices"));

        f.doc.undoStack()->undo();
        QVERIFY(f.waitForResults());
        QVERIFY(!f.window->kpiStrip()->text("cost_usd").isEmpty());
        QCOMPARE(cost->plottedMetrics().size(), 1);
    }

    void aBookThatCannotPriceTheFleetIsRefusedAndNothingChanges() {
        Fixture f;
        BuyingMixPanel* panel = panelOf(f);
        const Scenario before = f.doc.scenario();
        const int steps = f.doc.undoStack()->count();
        // The default fleet is reserved H100; AWS's book has no reserved H100 price.
        QVERIFY(choose(panel, "AWS"));
        const QString reason = panel->refusal();
        QVERIFY2(reason.contains("no reserved price for GPU model \"h100-sxm\"") &&
                     reason.contains("AWS list prices, us-east-1"),
                 qPrintable(reason));
        QVERIFY2(reason.contains("pod-a"), qPrintable(reason));  // the node group it stops at
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(f.doc.undoStack()->count(), steps);
        QCOMPARE(panel->bookBox()->currentText(), QStringLiteral("Lambda list prices (2026-04)"));
        QCOMPARE(f.status(), QStringLiteral("Refused: ") + reason);
        // The next choice that goes through clears the refusal.
        QVERIFY(choose(panel, "No prices"));
        QVERIFY(panel->refusal().isEmpty());
    }

    void showsTheBookPricesBreakevenAndChargeback() {
        Fixture f;
        BuyingMixPanel* panel = panelOf(f);
        const auto r = f.window->results();
        QCOMPARE(panel->bookText(), QStringLiteral("Lambda list prices · prices as of 2026-04"));
        // 256 H100, all reserved at $1.85.
        ui::PriceTableModel* prices = panel->prices();
        QCOMPARE(prices->rowCount(), 1);
        auto cell = [](QAbstractItemModel* m, int row, int column) {
            return m->index(row, column).data().toString();
        };
        QCOMPARE(cell(prices, 0, ui::PriceTableModel::ClassColumn), QStringLiteral("reserved"));
        QCOMPARE(cell(prices, 0, ui::PriceTableModel::GpusColumn), QStringLiteral("256"));
        QCOMPARE(cell(prices, 0, ui::PriceTableModel::PriceColumn), QStringLiteral("$1.85/GPU-h"));
        // Break-even: reserved ÷ on-demand price = 1.85 ÷ 2.99 = 61.87 %.
        QVERIFY2(panel->utilizationText().contains("Break-even utilisation 61.9 %"),
                 qPrintable(panel->utilizationText()));
        QVERIFY(panel->utilizationText().contains(
            ui::formatKpiValue(*r->findKpi("reserved_commitment_utilization"))));
        // Chargeback: every team with jobs, biggest payer first, then what no job held; the
        // rows add up to the bill.
        ui::ChargebackTableModel* chargeback = panel->chargeback();
        QCOMPARE(chargeback->rowCount(), static_cast<int>(r->teamKpis.size()) + 1);
        double teams = 0, largest = 1e300;
        for (const GroupKpis& g : r->teamKpis)
            teams += g.costUsd;
        for (int row = 0; row + 1 < chargeback->rowCount(); ++row) {
            const QString team = cell(chargeback, row, ui::ChargebackTableModel::TeamColumn);
            for (const GroupKpis& g : r->teamKpis)
                if (QString::fromStdString(g.name) == team) {
                    QVERIFY(g.costUsd <= largest);
                    largest = g.costUsd;
                    QCOMPARE(cell(chargeback, row, ui::ChargebackTableModel::CostColumn),
                             ui::formatUsd(g.costUsd));
                }
        }
        QVERIFY(cell(chargeback, chargeback->rowCount() - 1, 0).contains("idle"));
        const double bill = r->kpi("cost_usd");
        QVERIFY2(std::fabs(teams + r->kpi("idle_unallocated_usd") - bill) < 1e-6 * bill,
                 qPrintable(QStringLiteral("%1 + %2 vs %3")
                                .arg(teams)
                                .arg(r->kpi("idle_unallocated_usd"))
                                .arg(bill)));
    }
};

GPUPLAN_APP_TEST("test_buying_mix_panel", BuyingMixPanelTest);
#include "test_buying_mix_panel.moc"
