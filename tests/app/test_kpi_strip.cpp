// QtTest: the KPI strip in a window 1280 px wide (a projector's), with the longest
// cells it shows (a baseline and paired replications: "allocation 71.2 % ± 0.8 % (+4.3 pp, not
// significant)"): it asks no minimum width, its cells flow into at most two rows, shortened
// to value and delta when whole ones would need more, every cell whole and readable, and each
// with a tooltip that wraps and gives the full reading.
#include <QLabel>
#include <QMainWindow>
#include <QToolBar>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "gpuplan/studies/replications.hpp"
#include "kpis/kpi_strip.hpp"

using namespace gpuplan;
using namespace gpuplan::app::test;

namespace {

/// The main window's arrangement (app/gui/shell/main_window.cpp): the strip in a toolbar of its
/// own, ignoring its width hint.
struct StripWindow {
    QMainWindow window;
    ui::KpiStrip* strip = new ui::KpiStrip;
    StripWindow() {
        strip->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        auto* bar = new QToolBar(&window);
        bar->setMovable(false);
        bar->addWidget(strip);
        window.addToolBar(Qt::TopToolBarArea, bar);
        window.setCentralWidget(new QWidget);
    }
    void resizeTo(int width) {
        window.resize(width, 720);
        // Rows change the strip's height, which the toolbar then lays out: let both settle.
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
    }
};

QList<QLabel*> shownCells(const ui::KpiStrip& strip) {
    QList<QLabel*> cells;
    for (QLabel* l : strip.findChildren<QLabel*>())
        if (!l->isHidden()) cells << l;
    return cells;
}

/// The shown cells by KPI, in the strip's order (its labels are made in that order).
std::vector<std::pair<std::string, QLabel*>> cells(const ui::KpiStrip& strip) {
    static const char* const kKpis[] = {"allocation_mean",   "occupancy_mean",      "mfu_mean",
                                        "wait_s_p50",        "wait_s_p95",          "goodput",
                                        "pending_gpus_mean", "jobs_completed",      "cost_usd",
                                        "idle_cost_usd",     "usd_per_useful_gpu_h"};
    const QList<QLabel*> labels = strip.findChildren<QLabel*>(Qt::FindDirectChildrenOnly);
    std::vector<std::pair<std::string, QLabel*>> out;
    for (int i = 0; i < labels.size() && i < 11; ++i)
        if (!labels[i]->isHidden()) out.emplace_back(kKpis[i], labels[i]);
    return out;
}

}  // namespace

class KpiStripTest : public QObject {
    Q_OBJECT
private slots:
    void fitsAWindow1280PxWide() {
        // The default preset for two days against 30 % more demand, three runs each on the
        // same seeds: every cell has a value, a half-width and a paired delta.
        Scenario base =
            loadScenario((kPresets + "/scenarios/default.json").toStdString(), catalog());
        base.horizonS = 2 * 86400.0;
        Scenario more = base;
        more.demandMultiplier = 1.3;
        ReplicationOptions options;
        options.replications = 3;
        options.threads = 2;
        PairedComparison c = comparePaired(base, more, options);
        auto current = std::make_shared<const Replications>(std::move(c.candidate));
        auto baseline = std::make_shared<const Replications>(std::move(c.baseline));

        StripWindow w;
        w.strip->setResults(current->first);
        w.strip->setBaseline(baseline->first);
        w.strip->setReplications(current, baseline);
        QVERIFY(w.strip->text("allocation_mean").contains(QStringLiteral(" pp")));
        QVERIFY(w.strip->text("cost_usd").contains(QStringLiteral("over 2.0 d")));
        // The strip asks no width: whatever its cells, the window's minimum is the rest's.
        QCOMPARE(w.strip->minimumSizeHint().width(), 0);
        QVERIFY2(w.window.minimumSizeHint().width() < 400,
                 qPrintable(QString::number(w.window.minimumSizeHint().width())));
        int oneRowWidth = 0;
        for (QLabel* l : shownCells(*w.strip))
            oneRowWidth += l->sizeHint().width();
        QVERIFY2(oneRowWidth > 1280, "the cells would not fit in one row: the test tests flow");

        w.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        w.resizeTo(1280);
        QCOMPARE(w.window.width(), 1280);
        QVERIFY(w.strip->width() <= 1280);
        // Whole, the cells would need three rows or more: each shortens to its value and delta,
        // and two rows hold them.
        QVERIFY(w.strip->isCompact());
        QVERIFY2(w.strip->cellRows().back() + 1 <= 2,
                 qPrintable(QString::number(w.strip->cellRows().back() + 1)));
        // Every cell whole, inside the strip; its tooltip wraps (rich text) and gives what the
        // cell leaves out (the half-width, "not significant") and what it measures.
        for (const auto& [kpi, label] : cells(*w.strip)) {
            QVERIFY2(label->width() >= label->sizeHint().width(), qPrintable(label->text()));
            QVERIFY2(label->geometry().right() < w.strip->width(), qPrintable(label->text()));
            QVERIFY2(label->geometry().bottom() < w.strip->height(), qPrintable(label->text()));
            const QString tip = label->toolTip();
            QVERIFY2(Qt::mightBeRichText(tip), qPrintable(tip));
            QVERIFY2(tip.contains(w.strip->text(kpi).toHtmlEscaped()), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("Against the baseline")), qPrintable(tip));
            QVERIFY(!label->text().contains(QStringLiteral("not significant")));
        }
        QVERIFY(w.strip->text("allocation_mean").contains(QStringLiteral(" ± ")));
        // Where two rows hold them whole, whole they are.
        w.resizeTo(2400);
        QVERIFY(!w.strip->isCompact());
        QVERIFY(w.strip->cellRows().back() + 1 <= 2);
        for (const auto& [kpi, label] : cells(*w.strip))
            QVERIFY2(label->geometry().right() < w.strip->width(), qPrintable(label->text()));
        // And back: the strip follows the window down again, never holding it wide.
        w.resizeTo(1280);
        QCOMPARE(w.window.width(), 1280);
        QVERIFY(w.strip->isCompact());
    }
};

GPUPLAN_APP_TEST("test_kpi_strip", KpiStripTest);
#include "test_kpi_strip.moc"
