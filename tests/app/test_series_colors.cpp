// QtTest, offscreen: the series of one chart stay apart as drawn, in the light and the dark
// palette. The threshold is CIELAB ΔE*76 ≥ 20 (ui::kMinSeriesColorDistance; ~2.3 is just
// noticeable, 20 is plainly another colour). The trial found allocation and occupancy both
// mid blue on a dark chart (#388cda against #2e86c1: ΔE ≈ 12).
#include <QAreaSeries>
#include <QChartView>
#include <QLineSeries>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"
#include "format/ui_palette.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {

/// Each drawn series of the chart with its colour as drawn (the time cursor is not a series
/// of the data).
std::vector<std::pair<QString, QColor>> drawnColors(ui::ChartPanel* panel) {
    std::vector<std::pair<QString, QColor>> out;
    QChart* chart = panel->findChild<QChartView*>()->chart();
    for (QAbstractSeries* s : chart->series()) {
        if (s->name().isEmpty()) continue;
        if (auto* area = qobject_cast<QAreaSeries*>(s))
            out.emplace_back(s->name(), area->color());
        else if (auto* line = qobject_cast<QLineSeries*>(s))
            out.emplace_back(s->name(), line->pen().color());
    }
    return out;
}

}  // namespace

class SeriesColorsTest : public QObject {
    Q_OBJECT
private slots:
    void theDarkPaletteKeepsDarkColoursApartFromMidOnes() {
        // The pair the trial saw: navy #1f4e79 drawn on a dark chart next to #2e86c1.
        const QColor allocation = ui::shownLineColor(QColor("#1f4e79"), true);
        QVERIFY2(ui::colorDistance(allocation, QColor("#2e86c1")) >= ui::kMinSeriesColorDistance,
                 qPrintable(allocation.name()));
        // Still readable on the dark chart's base (28, 30, 34), and light charts draw as given.
        QVERIFY(ui::colorDistance(allocation, QColor(28, 30, 34)) >= 50);
        QCOMPARE(ui::shownLineColor(QColor("#1f4e79"), false), QColor("#1f4e79"));
    }

    void everyPairOfSeriesInAChartIsDistinguishableInBothPalettes() {
        Fixture f;
        for (bool dark : {false, true}) {
            ui::applyPalette(*qApp, dark);
            QCoreApplication::processEvents();
            for (ui::ChartPanel* panel : f.window->charts()->charts()) {
                const auto colors = drawnColors(panel);
                QVERIFY2(!colors.empty(), qPrintable(panel->title()));
                for (std::size_t a = 0; a < colors.size(); ++a)
                    for (std::size_t b = a + 1; b < colors.size(); ++b) {
                        const double d = ui::colorDistance(colors[a].second, colors[b].second);
                        QVERIFY2(d >= ui::kMinSeriesColorDistance,
                                 qPrintable(QStringLiteral("%1 palette, %2: %3 %4 and %5 %6 are "
                                                           "ΔE %7 apart")
                                                .arg(dark ? "dark" : "light", panel->title(),
                                                     colors[a].first, colors[a].second.name(),
                                                     colors[b].first, colors[b].second.name())
                                                .arg(d, 0, 'f', 1)));
                    }
            }
        }
        ui::applyPalette(*qApp, false);
    }
};

GPUPLAN_APP_TEST("test_series_colors", SeriesColorsTest);
#include "test_series_colors.moc"
