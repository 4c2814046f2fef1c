// The By team table's quota columns: a run of the default fleet in which team research
// borrows the quota of team applied (worked by hand), and the dashes for teams without one.
#include <QtTest>

#include "app_test_main.hpp"
#include "checkout_paths.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "tables/group_kpi_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

/// The default preset's fleet (16 Ready nodes of 8 H100 in pod-a, 16 more in pod-b; the last
/// 4 arrive at 2 d), no job classes; research (nominal 64) and applied (nominal 64) share a
/// cohort. research runs 96 GPUs for the whole 1-day run from t = 0: it borrows 32 of
/// applied's unused 64; applied runs 1 GPU for a minute. At every sample (each 600 s, the one
/// at 0 included) research uses 96 and borrows 32, and applied, the pool's only member with
/// unused quota (63 or 64 of it), lends all 32.
Scenario borrowing() {
    const Catalog catalog =
        loadCatalog((gpuplan::checkout::presetsDir() / "catalog/catalog.json").string());
    Scenario s = loadScenario((gpuplan::checkout::presetsDir() / "scenarios/default.json").string(),
                              catalog);
    s.horizonS = 86400;
    s.jobClasses.clear();
    s.jobs.clear();
    JobDef j;
    j.name = "big";
    j.traits.team = "research";
    j.gpus = 96;
    j.durationS = 86400;
    s.jobs.push_back(j);
    j.name = "small";
    j.traits.team = "applied";
    j.gpus = 1;
    j.durationS = 60;
    s.jobs.push_back(j);
    s.cohorts = {CohortDef{
        .name = "all", .parent = "", .fairSharing = false, .flavors = {}, .fairShareWeight = 1}};
    for (const char* team : {"research", "applied"}) {
        QuotaDef q;
        q.team = team;
        q.cohort = "all";
        q.flavors = {FlavorQuotaDef{"h100-sxm", 64, {}, {}}};
        s.quotas.push_back(q);
    }
    return s;
}

}  // namespace

class GroupKpiQuotaTest : public QObject {
    Q_OBJECT
private slots:
    void quotaColumnsShowNominalUsedBorrowedLent() {
        auto results = std::make_shared<const Results>(simulate(borrowing()));
        GroupKpiTableModel model;
        model.setResults(results);
        int research = -1, applied = -1;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString name = model.index(r, GroupKpiTableModel::NameColumn).data().toString();
            if (name == "research") research = r;
            if (name == "applied") applied = r;
        }
        QVERIFY(research >= 0 && applied >= 0);
        auto cell = [&](int row, int column) { return model.index(row, column).data().toString(); };
        const QString n64 = QLocale().toString(64.0, 'f', 1),
                      n96 = QLocale().toString(96.0, 'f', 1),
                      n32 = QLocale().toString(32.0, 'f', 1), n0 = QLocale().toString(0.0, 'f', 1);
        QCOMPARE(cell(research, GroupKpiTableModel::NominalColumn), n64);
        QCOMPARE(cell(research, GroupKpiTableModel::UsedColumn), n96);
        QCOMPARE(cell(research, GroupKpiTableModel::BorrowedColumn), n32);
        QCOMPARE(cell(research, GroupKpiTableModel::LentColumn), n0);
        QCOMPARE(cell(research, GroupKpiTableModel::PreemptedColumn), QStringLiteral("0"));
        QCOMPARE(cell(applied, GroupKpiTableModel::LentColumn), n32);
        QCOMPARE(cell(applied, GroupKpiTableModel::BorrowedColumn), n0);
        QCOMPARE(
            model.headerData(GroupKpiTableModel::BorrowedColumn, Qt::Horizontal, Qt::DisplayRole)
                .toString(),
            QStringLiteral("Borrowed"));
    }

    void teamsWithoutQuotaShowDashes() {
        Scenario s = borrowing();
        s.quotas.clear();
        s.cohorts.clear();
        auto results = std::make_shared<const Results>(simulate(s));
        GroupKpiTableModel model;
        model.setResults(results);
        QVERIFY(model.rowCount() >= 1);
        QCOMPARE(model.index(0, GroupKpiTableModel::NominalColumn).data().toString(),
                 QStringLiteral("–"));
        QCOMPARE(model.index(0, GroupKpiTableModel::BorrowedColumn).data().toString(),
                 QStringLiteral("–"));
    }

    void aBaselineAddsEachTeamsDeltaColouredByDirection() {
        // Hand-made runs: research's wait p95 goes 1 h → 3 h (+2.0 h, worse: red), its GPU-hours
        // 1,000 → 1,500 (+500 GPU-h, no good direction: uncoloured), its share 25 % → 30 %
        // (+5.0 pp: one team's gain is another's loss, uncoloured), its jobs still waiting at
        // the end 4 → 1 (−3, better: green); applied is the same in both (±0: neutral); a team
        // only the current run has reads without a delta.
        auto run = [](double waitP95S, double gpuHours, double share, int waitingAtEnd) {
            auto r = std::make_shared<Results>();
            GroupKpis research;
            research.name = "research";
            research.waitP50S = 600;
            research.waitP95S = waitP95S;
            research.gpuHours = gpuHours;
            research.allocationShare = share;
            research.waitingAtEnd = waitingAtEnd;
            GroupKpis applied = research;
            applied.name = "applied";
            applied.waitP95S = 3600;
            r->teamKpis = {research, applied};
            return r;
        };
        auto before = run(3600, 1000, 0.25, 4);
        auto after = run(3 * 3600, 1500, 0.30, 1);
        GroupKpis newcomer;
        newcomer.name = "newcomer";
        newcomer.waitP95S = 60;
        after->teamKpis.push_back(newcomer);
        GroupKpiTableModel model;
        model.setResults(after);
        using M = GroupKpiTableModel;
        QCOMPARE(model.data(model.index(0, M::WaitP95Column), Qt::DisplayRole).toString(),
                 QStringLiteral("3.0 h"));
        model.setBaseline(before);
        const QModelIndex wait = model.index(0, M::WaitP95Column);
        QCOMPARE(model.data(wait, Qt::DisplayRole).toString(), QStringLiteral("3.0 h (+2.0 h)"));
        QCOMPARE(model.data(wait, M::ValueRole).toString(), QStringLiteral("3.0 h"));
        QCOMPARE(model.data(wait, Qt::ForegroundRole).value<QColor>(),
                 deltaToneColor(DeltaTone::Worse));
        const QModelIndex share = model.index(0, M::AllocationColumn);
        QCOMPARE(model.data(share, Qt::DisplayRole).toString(), QStringLiteral("30.0 % (+5.0 pp)"));
        QVERIFY(!model.data(share, Qt::ForegroundRole).isValid());
        const QModelIndex waiting = model.index(0, M::WaitingAtEndColumn);
        QVERIFY2(model.data(waiting, Qt::DisplayRole).toString().startsWith(QStringLiteral("1 (")),
                 qPrintable(model.data(waiting, Qt::DisplayRole).toString()));
        QCOMPARE(model.data(waiting, Qt::ForegroundRole).value<QColor>(),
                 deltaToneColor(DeltaTone::Better));
        QVERIFY(model.data(model.index(0, M::GpuHoursColumn), Qt::DisplayRole)
                    .toString()
                    .contains(QStringLiteral("+500 GPU-h")));
        QVERIFY(!model.data(model.index(1, M::WaitP95Column), Qt::ForegroundRole).isValid());
        QCOMPARE(model.data(model.index(2, M::WaitP95Column), Qt::DisplayRole).toString(),
                 QStringLiteral("60 s"));
        model.setBaseline(nullptr);
        QCOMPARE(model.data(wait, Qt::DisplayRole).toString(), QStringLiteral("3.0 h"));
    }
};

GPUPLAN_APP_TEST("test_group_kpi_quota", GroupKpiQuotaTest);
#include "test_group_kpi_quota.moc"
