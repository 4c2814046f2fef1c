// The Forecast tab (lesson 6.4): the default preset's week of demand is the history; the
// forecast, its band and the reservation are drawn; prices follow the scenario's price book
// (Lambda: $1.85 reserved, $2.99 on demand → 62 %); a dearer reservation reserves less; too
// short a history for a weekly season says so instead of drawing. The reservation is the
// overflow model's and says so; the fluid approximation's level is drawn dotted beside it,
// with its bias.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "buying_mix/forecast_dock.hpp"
#include "charts/forecast_chart.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

double reservedIn(const QString& summary) {
    const QRegularExpression re(QStringLiteral("Reserve <b>([0-9]+) GPUs"));
    const auto m = re.match(summary);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

}  // namespace

class ForecastTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theWeekIsTheHistoryAndTheReservationFollowsThePrices() {
        test::Fixture f;
        auto* dock = f.window->findChild<ForecastDock*>();
        QVERIFY(dock);
        // 7 days of hourly history, 7 days of forecast by default.
        QCOMPARE(dock->chart()->historyPoints(), 168);
        QCOMPARE(dock->chart()->forecastPoints(), 168);
        QVERIFY(dock->chart()->drawsReservation());
        QVERIFY2(dock->summary().contains(QStringLiteral("more than 62 %")),
                 qPrintable(dock->summary()));
        const double lambda = reservedIn(dock->summary());
        QVERIFY(lambda > 0);
        // A reservation at $2.50 of $2.99: needed in more than 84 % of the hours → fewer GPUs.
        auto boxes = dock->findChildren<QDoubleSpinBox*>();
        QCOMPARE(boxes.size(), 2);
        boxes[0]->setValue(2.50);
        QVERIFY(dock->summary().contains(QStringLiteral("more than 84 %")));
        QVERIFY(reservedIn(dock->summary()) < lambda);

        dock->findChild<QComboBox*>()->setCurrentIndex(1);  // weekly: needs two weeks
        QVERIFY(!dock->chart()->drawsReservation());
        QVERIFY(dock->chart()->shownMessage().contains(QStringLiteral("too short")));
    }

    void theReservationNamesItsModelAndTheFluidOnesBias() {
        test::Fixture f;
        auto* dock = f.window->findChild<ForecastDock*>();
        QVERIFY(dock);
        const QString text = dock->summary();
        QVERIFY2(text.contains(QStringLiteral("by the overflow model")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Erlang loss system")), qPrintable(text));
        // "The fluid approximation … says N GPUs and expects B % less than that level costs."
        const QRegularExpression fluid(
            QStringLiteral("fluid approximation .* says ([0-9]+) GPUs and expects ([0-9.]+) % "
                           "less than that level costs"));
        const auto m = fluid.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(text));
        // Jobs stay where they start: the fluid formula expects less than its level costs.
        QVERIFY(m.captured(2).toDouble() > 0);
        QVERIFY(reservedIn(text) > 0);
        const QStringList names = dock->chart()->seriesNames();
        QVERIFY2(names.filter(QStringLiteral("(overflow model)")).size() == 1,
                 qPrintable(names.join(QStringLiteral("; "))));
        QCOMPARE(names.filter(QStringLiteral("fluid approximation")).size(),
                 dock->chart()->drawsFluidLevel() ? 1 : 0);
    }
};

GPUPLAN_APP_TEST("test_forecast", ForecastTest);
#include "test_forecast.moc"
