// QtTest: how numbers, times and teams read — one time convention everywhere, no "-0.0",
// team colours that stay apart for dozens of teams.
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "editors/time_scrubber.hpp"
#include "format/kpi_format.hpp"
#include "format/ui_palette.hpp"

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
        QCOMPARE(ui::formatKpiDelta(fraction, half), QStringLiteral("±0.0 pp"));
        QCOMPARE(ui::formatKpiValue(Kpi{"stranded_gpus_mean", -0.01, "gpus"}),
                 QStringLiteral("0.0 GPUs"));
        QCOMPARE(ui::formatKpiValue(Kpi{"x", -0.0001, "fraction"}), QStringLiteral("0.0 %"));
        QCOMPARE(
            ui::formatKpiDelta(Kpi{"slowdown_mean", 1.0, "x"}, Kpi{"slowdown_mean", 1.0002, "x"}),
            QStringLiteral("±0.000×"));
        QCOMPARE(ui::formatKpiDelta(Kpi{"stranded_gpus_mean", 2.0, "gpus"},
                                    Kpi{"stranded_gpus_mean", 2.04, "gpus"}),
                 QStringLiteral("±0.0 GPUs"));
        // Real differences keep their sign; a minus is a true minus sign.
        QCOMPARE(ui::formatKpiDelta(Kpi{"allocation_mean", 0.45, "fraction"}, half),
                 QStringLiteral("−5.0 pp"));
        QCOMPARE(ui::formatKpiDelta(Kpi{"allocation_mean", 0.55, "fraction"}, half),
                 QStringLiteral("+5.0 pp"));
        QCOMPARE(ui::formatFixed(-0.04, 1), QStringLiteral("0.0"));
        QCOMPARE(ui::formatSigned(-0.04, 1), QStringLiteral("±0.0"));
    }

    void deltasSayTheirUnitWithThousandsSeparators() {
        // Whatever the system's locale (a C locale writes no separators): "16,128".
        QLocale::setDefault(QLocale::c());
        QCOMPARE(ui::formatGrouped(16128, 0), QStringLiteral("16,128"));
        QCOMPARE(ui::formatGrouped(1234.56, 1), QStringLiteral("1,234.6"));
        QCOMPARE(ui::formatGrouped(-0.01, 1), QStringLiteral("0.0"));
        // 36,000 − 19,872 = 16,128 GPU-hours: "+16,128 GPU-h", not "+16128.0".
        const Kpi hours{"gpu_hours_allocated", 36'000, "gpu_h", ""};
        const Kpi fewer{"gpu_hours_allocated", 19'872, "gpu_h", ""};
        QCOMPARE(ui::formatKpiValue(hours), QStringLiteral("36,000 GPU-h"));
        QCOMPARE(ui::formatKpiDelta(hours, fewer), QStringLiteral("+16,128 GPU-h"));
        QCOMPARE(ui::formatKpiDelta(fewer, hours), QStringLiteral("−16,128 GPU-h"));
        QCOMPARE(ui::formatKpiDelta(hours, hours), QStringLiteral("±0 GPU-h"));
        // Counts read as their values do, bare and grouped: 2,718 − 1,200 = +1,518.
        const Kpi done{"jobs_completed", 2'718, "jobs", ""},
            before{"jobs_completed", 1'200, "jobs", ""};
        QCOMPARE(ui::formatKpiValue(done), QStringLiteral("2,718"));
        QCOMPARE(ui::formatKpiDelta(done, before), QStringLiteral("+1,518"));
        // A mean count keeps its unit: 3.4 − 1.2 = +2.2 jobs.
        QCOMPARE(ui::formatKpiDelta(Kpi{"queue_length_mean", 3.4, "jobs", ""},
                                    Kpi{"queue_length_mean", 1.2, "jobs", ""}),
                 QStringLiteral("+2.2 jobs"));
        // Even when the difference of two means is whole: 107.4 − 7.4 = +100.0 jobs.
        QCOMPARE(ui::formatKpiDelta(Kpi{"jobs_waiting_at_end", 107.4, "jobs", ""},
                                    Kpi{"jobs_waiting_at_end", 7.4, "jobs", ""}),
                 QStringLiteral("+100.0 jobs"));
        QCOMPARE(ui::formatKpiValue(Kpi{"pending_gpus_mean", 1234.5, "gpus", ""}),
                 QStringLiteral("1,234.5 GPUs"));
        // Shares in percentage points; times in their own unit; money with its $.
        QCOMPARE(ui::formatKpiDelta(Kpi{"allocation_mean", 0.712, "fraction", ""},
                                    Kpi{"allocation_mean", 0.669, "fraction", ""}),
                 QStringLiteral("+4.3 pp"));
        QCOMPARE(
            ui::formatKpiDelta(Kpi{"wait_s_p95", 3600, "s", ""}, Kpi{"wait_s_p95", 7200, "s", ""}),
            QStringLiteral("−60 min"));
        QCOMPARE(ui::formatKpiDelta(Kpi{"usd_per_useful_gpu_h", 2.91, "usd_per_gpu_h", ""},
                                    Kpi{"usd_per_useful_gpu_h", 2.96, "usd_per_gpu_h", ""}),
                 QStringLiteral("−$0.05/GPU-h"));
        QLocale::setDefault(QLocale::system());
    }

    void deltasAreColouredByEachKpisDirection() {
        using ui::DeltaTone;
        auto tone = [](const char* name, double now, double before, const char* unit,
                       std::optional<MeanInterval> paired = std::nullopt) {
            return ui::compareKpi(Kpi{name, now, unit, ""}, Kpi{name, before, unit, ""}, paired)
                .tone;
        };
        // Less wait is better, more is worse; more allocation is better.
        QCOMPARE(tone("wait_s_p95", 600, 1200, "s"), DeltaTone::Better);
        QCOMPARE(tone("wait_s_p95", 1200, 600, "s"), DeltaTone::Worse);
        QCOMPARE(tone("allocation_mean", 0.7, 0.6, "fraction"), DeltaTone::Better);
        QCOMPARE(tone("cost_usd", 80'000, 76'000, "usd"), DeltaTone::Worse);
        QCOMPARE(tone("jobs_waiting_at_end", 3, 5, "jobs"), DeltaTone::Better);
        // No change, or one that rounds to "±0.0 pp", is neutral; so is a KPI with no
        // direction (a team's GPU-hours: more work is not better or worse in itself).
        QCOMPARE(tone("wait_s_p95", 600, 600, "s"), DeltaTone::Neutral);
        QCOMPARE(tone("allocation_mean", 0.50001, 0.5, "fraction"), DeltaTone::Neutral);
        QCOMPARE(tone("gpu_hours_allocated", 200, 100, "gpu_h"), DeltaTone::Neutral);
        QCOMPARE(tone("allocation_share", 0.3, 0.2, "fraction"), DeltaTone::Neutral);
        // Over paired replications: coloured only when the interval holds no 0.
        MeanInterval noise{};
        noise.mean = -300;
        noise.low = -700;
        noise.high = 100;
        noise.n = 5;
        QCOMPARE(tone("wait_s_p95", 600, 900, "s", noise), DeltaTone::Neutral);
        MeanInterval real = noise;
        real.high = -100;
        QCOMPARE(tone("wait_s_p95", 600, 900, "s", real), DeltaTone::Better);
        const ui::KpiDelta d =
            ui::compareKpi(Kpi{"wait_s_p95", 600, "s", ""}, Kpi{"wait_s_p95", 900, "s", ""}, real);
        QCOMPARE(d.text, QStringLiteral("−5 min"));
        QCOMPARE(d.interval, QStringLiteral("[−12 min, −100 s]"));
        QCOMPARE(d.significant, std::optional<bool>(true));
        // [−700 s, −100 s] about −300 s: ± 300 s = ± 5 min.
        QCOMPARE(d.halfWidth, QStringLiteral("± 5 min"));
        // Three colours, the neutral one grey.
        QCOMPARE(ui::deltaToneColor(DeltaTone::Better), QColor("#1e8449"));
        QCOMPARE(ui::deltaToneColor(DeltaTone::Worse), QColor("#c0392b"));
        const QColor grey = ui::deltaToneColor(DeltaTone::Neutral);
        QCOMPARE(grey.red(), grey.green());
        QCOMPARE(grey.green(), grey.blue());
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

GPUPLAN_APP_TEST("test_formatting", FormattingTest);
#include "test_formatting.moc"
