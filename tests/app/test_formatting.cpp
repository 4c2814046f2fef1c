// QtTest: how numbers, times and teams read — one time convention everywhere, no "-0.0",
// team colours that stay apart for dozens of teams.
#include <QtTest>

#include "app_test_support.hpp"
#include "chart_board.hpp"
#include "kpi_format.hpp"
#include "time_scrubber.hpp"
#include "ui_palette.hpp"

using namespace gpuplan;
using namespace gpuplan::app::test;

class FormattingTest : public QObject {
    Q_OBJECT
private slots:
    void simulatedTimesReadTheSameEverywhere() {
        // Days counted from 0: the first moment is day 0, midnight.
        QCOMPARE(ui::formatSimTime(0), QStringLiteral("d0 00:00"));
        QCOMPARE(ui::formatSimTime(2 * 86400 + 4.5 * 3600), QStringLiteral("d2 04:30"));
        QCOMPARE(ui::formatSimTime(3 * 86400, ui::TimeLabel::Short), QStringLiteral("d3"));
        QCOMPARE(ui::formatSimTime(1.5 * 86400, ui::TimeLabel::Short), QStringLiteral("d1 12:00"));
        // 05:59:59.9 is shown as 06:00, never as an earlier minute than a tick at 06:00.
        QCOMPARE(ui::formatSimTime(6 * 3600 - 0.1), QStringLiteral("d0 06:00"));

        // The scrubber, and the chart's time axis, say the same at t = 0 and at day 2.
        Fixture f;
        f.window->scrubber()->setTime(0);
        QVERIFY2(f.window->scrubber()->text().startsWith(QStringLiteral("d0 00:00 / ")),
                 qPrintable(f.window->scrubber()->text()));
        for (ui::ChartPanel* chart : f.window->charts()->charts()) {
            const QStringList ticks = chart->timeTickLabels();
            QVERIFY(ticks.size() >= 2);
            QCOMPARE(ticks.first(), QStringLiteral("d0"));
            QVERIFY2(ticks.contains(QStringLiteral("d2")) || ticks.contains("d2 00:00"),
                     qPrintable(ticks.join(", ")));
        }
        f.window->scrubber()->setTime(2 * 86400);
        QVERIFY(f.window->scrubber()->text().startsWith(QStringLiteral("d2 00:00 / ")));
    }

    void noNegativeZeroAnywhere() {
        // Tiny negative values and differences round to zero: "0.0", "±0.0", never "-0.0".
        const Kpi fraction{"allocation_mean", 0.49999, "fraction"};
        const Kpi half{"allocation_mean", 0.5, "fraction"};
        QCOMPARE(ui::formatKpiDelta(fraction, half), QStringLiteral("±0.0"));
        QCOMPARE(ui::formatKpiValue(Kpi{"stranded_gpus_mean", -0.01, "gpus"}),
                 QStringLiteral("0.0 GPUs"));
        QCOMPARE(ui::formatKpiValue(Kpi{"x", -0.0001, "fraction"}), QStringLiteral("0.0 %"));
        QCOMPARE(
            ui::formatKpiDelta(Kpi{"slowdown_mean", 1.0, "x"}, Kpi{"slowdown_mean", 1.0002, "x"}),
            QStringLiteral("±0.000"));
        QCOMPARE(ui::formatKpiDelta(Kpi{"stranded_gpus_mean", 2.0, "gpus"},
                                    Kpi{"stranded_gpus_mean", 2.04, "gpus"}),
                 QStringLiteral("±0.0"));
        // Real differences keep their sign; a minus is a true minus sign.
        QCOMPARE(ui::formatKpiDelta(Kpi{"allocation_mean", 0.45, "fraction"}, half),
                 QStringLiteral("−5.0"));
        QCOMPARE(ui::formatKpiDelta(Kpi{"allocation_mean", 0.55, "fraction"}, half),
                 QStringLiteral("+5.0"));
        QCOMPARE(ui::formatFixed(-0.04, 1), QStringLiteral("0.0"));
        QCOMPARE(ui::formatSigned(-0.04, 1), QStringLiteral("±0.0"));
    }

    void dozensOfTeamsGetDistinctColours() {
        // ΔE*76 of 20 in CIELAB is plainly another colour (2.3 is just noticeable).
        Results r;
        for (std::size_t t = 0; t < ui::kDistinctTeamColors; ++t)
            r.teams.push_back("team-" + std::to_string(t));
        const std::vector<QColor> colors = ui::teamColors(r);
        QCOMPARE(colors.size(), ui::kDistinctTeamColors);
        double closest = 1e9;
        for (std::size_t i = 0; i < colors.size(); ++i)
            for (std::size_t j = i + 1; j < colors.size(); ++j)
                closest = std::min(closest, ui::colorDistance(colors[i], colors[j]));
        QVERIFY2(closest >= ui::kMinTeamColorDistance, qPrintable(QString::number(closest)));
        // None looks like a free GPU, in either palette.
        for (const QColor& c : colors)
            for (const char* free : {"#e4e7eb", "#3a3f44"})
                QVERIFY(ui::colorDistance(c, QColor(free)) >= 15);
        // A colour the scenario gives is not handed to another team as well.
        r.teamColors.assign(r.teams.size(), std::string());
        r.teamColors[5] = "#4e79a7";  // what team 0 would get automatically
        const std::vector<QColor> mixed = ui::teamColors(r);
        QCOMPARE(mixed[5], QColor("#4e79a7"));
        for (std::size_t i = 0; i < mixed.size(); ++i)
            if (i != 5) QVERIFY(ui::colorDistance(mixed[i], mixed[5]) >= ui::kMinTeamColorDistance);
    }
};

QTEST_MAIN(FormattingTest)
#include "test_formatting.moc"
