// QtTest: reading the charts — hover values, a click that moves time, nothing cut to "…",
// ticks that suit the size the dock gives them.
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "format/ui_palette.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;

namespace {
std::shared_ptr<const Results> defaultRun() {
    ScenarioDocument doc(catalog(), LoadOptions{});
    doc.load(kPresets + "/scenarios/default.json");
    return std::make_shared<const Results>(simulate(doc.scenario(), RunOptions{}));
}

void settle() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}
}  // namespace

class ChartsTest : public QObject {
    Q_OBJECT
private slots:
    void hoverShowsTheValuesUnderThePointer() {
        ui::ChartBoard board;
        const auto results = defaultRun();
        board.setResults(results);
        board.resize(900, 700);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        settle();
        ui::ChartPanel* utilization = board.charts()[0];
        const double t = 1.5 * 86400;
        const QPoint pos = utilization->viewportPosition(t);
        QTest::mouseMove(utilization->viewport(), pos);
        QTRY_VERIFY(!utilization->hoverReadout().isEmpty());
        const QString tip = utilization->hoverReadout();
        // The time under the pointer (within a pixel's worth) and the allocation there.
        const double perPixelS = results->horizonS / utilization->viewport()->width();
        QVERIFY2(tip.startsWith(ui::formatSimTime(t).left(4)), qPrintable(tip));
        const Series* allocation = results->findSeries("allocation");
        std::size_t k = 0;
        const double shownT = [&] {
            const QString first = tip.section(QLatin1Char('\n'), 0, 0);
            return first.mid(1, first.indexOf(' ') - 1).toDouble() * 86400 +
                   first.mid(first.indexOf(' ') + 1, 2).toDouble() * 3600 +
                   first.mid(first.indexOf(':') + 1, 2).toDouble() * 60;
        }();
        QVERIFY2(std::fabs(shownT - t) <= 2 * perPixelS + 60, qPrintable(tip));
        while (k + 1 < results->sampleTimesS.size() && results->sampleTimesS[k + 1] <= shownT)
            ++k;
        const double v = 100 * allocation->values[k];
        const int decimals = std::fabs(v - std::round(v)) < 1e-9 ? 0 : 1;
        const QString expected = QStringLiteral("allocation: %1 %").arg(v, 0, 'f', decimals);
        QVERIFY2(tip.contains(expected), qPrintable(tip + " / expected " + expected));
        QVERIFY2(tip.contains("occupancy (SM active): ") && tip.contains("MFU: "), qPrintable(tip));
        QCOMPARE(utilization->valuesAt(shownT).section('\n', 1), tip.section('\n', 1));
        // Stacked areas also give the total.
        QVERIFY(board.charts()[1]->valuesAt(t).contains("total: "));
        // It stays available after a click (QToolTip did not come back), and goes on leaving.
        QTest::mouseClick(utilization->viewport(), Qt::LeftButton, {}, pos);
        QTest::mouseMove(utilization->viewport(), pos + QPoint(5, 0));
        QVERIFY(!utilization->hoverReadout().isEmpty());
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(utilization->viewport(), &leave);
        QVERIFY(utilization->hoverReadout().isEmpty());
    }

    void aClickReportsItsTime() {
        ui::ChartBoard board;
        const auto results = defaultRun();
        board.setResults(results);
        board.resize(900, 700);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        settle();
        QSignalSpy clicked(&board, &ui::ChartBoard::timeClicked);
        ui::ChartPanel* jobs = board.charts()[4];
        const double t = 3.25 * 86400;
        QTest::mouseClick(jobs->viewport(), Qt::LeftButton, {}, jobs->viewportPosition(t));
        QCOMPARE(clicked.count(), 1);
        const double perPixelS = results->horizonS / jobs->viewport()->width();
        QVERIFY2(std::fabs(clicked.at(0).at(0).toDouble() - t) <= 2 * perPixelS,
                 qPrintable(QString::number(clicked.at(0).at(0).toDouble())));
    }

    void nothingIsElidedAndTicksFitAtAnyDockSize() {
        const auto results = defaultRun();
        QMap<int, int> ticksAtWidth;
        for (QSize size : {QSize(1400, 900), QSize(560, 760), QSize(260, 600)}) {
            ui::ChartBoard board;
            board.setResults(results);
            board.resize(size);
            board.show();
            QVERIFY(QTest::qWaitForWindowExposed(&board));
            settle();
            for (ui::ChartPanel* chart : board.charts()) {
                for (const QString& text : chart->drawnTexts())
                    QVERIFY2(!text.contains(QChar(0x2026)) && !text.contains("..."),
                             qPrintable(QStringLiteral("%1 at %2x%3: %4")
                                            .arg(chart->title())
                                            .arg(size.width())
                                            .arg(size.height())
                                            .arg(text)));
                // Every time tick is drawn, whole: none hidden for lack of room.
                const QStringList drawn = chart->drawnTexts();
                for (const QString& tick : chart->timeTickLabels())
                    QVERIFY2(drawn.contains(tick),
                             qPrintable(chart->title() + ": tick " + tick + " not drawn"));
                QVERIFY(chart->timeTickLabels().size() >= 2);
            }
            // The value axis of the jobs chart counts jobs: no decimals.
            for (const QString& text : board.charts()[4]->drawnTexts())
                if (text.contains('.') && text.size() < 8 && text[0].isDigit())
                    QFAIL(qPrintable("spurious decimals: " + text));
            ticksAtWidth[size.width()] =
                static_cast<int>(board.charts()[4]->timeTickLabels().size());
        }
        // Narrow charts get fewer time ticks, wide ones more (below 480 px the board has one
        // column: a 260-px dock's charts are 260 px wide, a 1400-px one's 700).
        QVERIFY2(
            ticksAtWidth[260] < ticksAtWidth[1400],
            qPrintable(QStringLiteral("%1 vs %2").arg(ticksAtWidth[260]).arg(ticksAtWidth[1400])));
    }
};

GPUPLAN_APP_TEST("test_charts", ChartsTest);
#include "test_charts.moc"
