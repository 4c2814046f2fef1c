// The cohort view shows a borrow the engine reports, the pending
// list's reason token for quota-blocked and preempted jobs, and preemption markers on the
// charts. Each scenario is small enough to work out by hand (comments).
#include <QtTest>
#include <cmath>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "charts/chart_board.hpp"
#include "charts/chart_panel.hpp"
#include "charts/cohort_view.hpp"
#include "format/ui_palette.hpp"
#include "quotas/cohort_dock.hpp"
#include "tables/pending_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

constexpr double kHourS = 3600;

JobDef job(const char* name, const char* team, int gpus, double durationS, double submitS = 0) {
    JobDef j;
    j.name = name;
    j.traits.team = team;
    j.gpus = gpus;
    j.durationS = durationS;
    j.submitS = submitS;
    return j;
}

/// The default preset's fleet (28 Ready DGX-H100 nodes of 8 GPUs at t = 0, the last 4 of 32
/// from 2 d), a 1-day run, no job classes; teams research and applied each hold a nominal
/// quota of 8 H100 in cohort "lab" (no limits: each may borrow all the other leaves unused).
Scenario twoTeams(std::vector<JobDef> jobs) {
    Scenario s = loadScenario((gpuplan::checkout::presetsDir() / "scenarios/default.json").string(),
                              app::test::catalog());
    s.horizonS = 24 * kHourS;
    s.jobClasses.clear();
    s.jobs = std::move(jobs);
    s.cohorts = {CohortDef{
        .name = "lab", .parent = "", .fairSharing = false, .flavors = {}, .fairShareWeight = 1}};
    s.quotas.clear();
    for (const char* team : {"research", "applied"}) {
        QuotaDef q;
        q.team = team;
        q.cohort = "lab";
        q.flavors = {FlavorQuotaDef{"h100-sxm", 8, {}, {}}};
        s.quotas.push_back(q);
    }
    return s;
}

/// research runs two 8-GPU jobs for 12 h from t = 0, each on one node (so no fabric
/// slowdown): the first fits its nominal 8, the second borrows applied's unused 8. A third
/// 8-GPU job of research (1 h) finds its quota and the cohort's used up: it waits, blamed on
/// quota (WaitingForQuota), until the first two end at 12 h. applied runs nothing.
/// By hand, at every sample in (0, 12 h), e.g. t = 6 h:
///   research: used 16, borrowed 16 − 8 = 8, lent 0, pending 8 → demand 24;
///   applied:  used 0, borrowed 0, lent 8 (the pool's only unused quota, all of it borrowed).
/// At 18 h nothing runs or waits: research borrows 0.
Scenario borrowing() {
    return twoTeams({job("first", "research", 8, 12 * kHourS),
                     job("second", "research", 8, 12 * kHourS),
                     job("third", "research", 8, kHourS)});
}

/// applied runs two 8-GPU jobs for 20 h from t = 0 (one within its nominal 8, one borrowing
/// research's 8). research may reclaim its quota (reclaimWithinCohort Any) and submits an
/// 8-GPU job at 65 min, within its nominal: Kueue's reclaim preempts the borrower, applied's
/// most recently admitted job, and research's job starts at 65 min. One preemption, in the
/// sample interval (60 min, 70 min]. The victim queues again at 65 min with a Preempted
/// diagnosis naming research's job; its team's quota (8, used by its other job) and the
/// cohort's (research now uses its own 8) are full, so it waits.
Scenario reclaim() {
    Scenario s = twoTeams({job("keeps", "applied", 8, 20 * kHourS),
                           job("borrower", "applied", 8, 20 * kHourS, 1),
                           job("reclaimer", "research", 8, 4 * kHourS, 65 * 60)});
    for (QuotaDef& q : s.quotas)
        if (q.team == "research") q.reclaimWithinCohort = ReclaimPolicy::Any;
    return s;
}

std::shared_ptr<const Results> run(const Scenario& s) {
    return std::make_shared<const Results>(simulate(s));
}

/// Pixels of exactly `color` in the widget image's column x, between y0 and y1 inclusive.
int pixelsOf(const QImage& image, int x, int y0, int y1, const QColor& color) {
    int n = 0;
    for (int y = y0; y <= y1; ++y)
        if (image.pixelColor(x, y).rgb() == color.rgb()) ++n;
    return n;
}

/// The pending row of a job in the model, or −1.
int rowOf(const PendingTableModel& model, const Results& r, const char* name) {
    std::uint32_t index = 0;
    if (!app::test::findJob(r, name, &index)) return -1;
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data(PendingTableModel::JobIndexRole).toUInt() == index) return row;
    return -1;
}

}  // namespace

class CohortViewTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheBorrowTheEngineReports() {
        const Scenario s = borrowing();
        const auto results = run(s);
        // The engine's series say what the hand numbers say.
        const std::size_t k = *results->sampleAt(6 * kHourS);
        QCOMPARE(results->findSeries("quota_borrowed_gpus{research}")->values[k], 8.0);
        QCOMPARE(results->findSeries("quota_lent_gpus{applied}")->values[k], 8.0);

        CohortView view;
        view.resize(900, 360);
        view.setResults(results, s.quotas, s.cohorts);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.teams(), (QStringList{"research", "applied"}));
        QVERIFY(view.emptyText().isEmpty());

        const TeamSample research = view.valuesAt("research", 6 * kHourS);
        QCOMPARE(research.nominalGpus, 8.0);
        QCOMPARE(research.usedGpus, 16.0);
        QCOMPARE(research.borrowedGpus, 8.0);
        QCOMPARE(research.usedWithinNominalGpus(), 8.0);
        QCOMPARE(research.lentGpus, 0.0);
        QCOMPARE(research.demandGpus(), 24.0);
        const TeamSample applied = view.valuesAt("applied", 6 * kHourS);
        QCOMPARE(applied.usedGpus, 0.0);
        QCOMPARE(applied.lentGpus, 8.0);
        QCOMPARE(view.valuesAt("research", 18 * kHourS).borrowedGpus, 0.0);

        // research's strip is painted in the borrowed colour at 6 h, and not at 18 h; applied,
        // borrowing nothing, never shows it.
        const QImage image = view.grab().toImage();
        const QRect strip = view.stripRect("research");
        QVERIFY(!strip.isEmpty());
        const QColor borrowed = view.borrowedColor("research");
        QVERIFY(borrowed != view.usedColor("research"));
        const int x6 = view.xOf(6 * kHourS), x18 = view.xOf(18 * kHourS);
        // 8 GPUs of a scale above 24 in a strip this tall is several pixels.
        QVERIFY(pixelsOf(image, x6, strip.top(), strip.bottom(), borrowed) >= 3);
        QVERIFY(pixelsOf(image, x6, strip.top(), strip.bottom(), view.usedColor("research")) >= 3);
        QCOMPARE(pixelsOf(image, x18, strip.top(), strip.bottom(), borrowed), 0);
        const QRect appliedStrip = view.stripRect("applied");
        QCOMPARE(pixelsOf(image, x6, appliedStrip.top(), appliedStrip.bottom(),
                          view.borrowedColor("applied")),
                 0);
        QVERIFY(view.tooltipAt(QPoint(x6, strip.center().y())).contains("8 borrowed"));

        // A click there asks for that time, within one sample.
        QSignalSpy clicked(&view, &CohortView::timeClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(x6, strip.center().y()));
        QCOMPARE(clicked.count(), 1);
        QVERIFY(std::fabs(clicked.at(0).at(0).toDouble() - 6 * kHourS) <= results->sampleIntervalS);
    }

    void showsAnEmptyStateWithoutQuotas() {
        Scenario s = borrowing();
        s.quotas.clear();
        s.cohorts.clear();
        CohortView view;
        view.setResults(run(s), s.quotas, s.cohorts);
        QVERIFY(view.teams().isEmpty());
        QCOMPARE(view.emptyText(), QStringLiteral("No quotas: add one in the Quotas dock"));
    }

    void theDockFollowsResultsAndTheScrubberBothWays() {
        // shared-cohort: three teams with quotas in one cohort; data-science has none.
        app::test::Fixture f(QStringLiteral("shared-cohort.json"));
        auto* dock = f.window->findChild<app::CohortDock*>();
        QVERIFY(dock);
        CohortView* view = dock->view();
        QCOMPARE(view->teams(), (QStringList{"research", "applied", "product"}));
        f.window->scrubber()->setTime(2 * 86400);
        QCOMPARE(view->time(), 2.0 * 86400);
        dock->show();
        dock->raise();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        const QRect strip = view->stripRect("applied");
        QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(view->xOf(86400), strip.center().y()));
        QVERIFY(std::fabs(f.window->scrubber()->time() - 86400) <=
                f.window->results()->sampleIntervalS);
        QCOMPARE(view->time(), f.window->scrubber()->time());
    }

    void pendingListShowsTheQuotaToken() {
        // borrowing(): "third" waits for quota at 6 h.
        const auto results = run(borrowing());
        PendingTableModel model;
        model.setResults(results);
        model.setTime(6 * kHourS);
        const int row = rowOf(model, *results, "third");
        QVERIFY(row >= 0);
        auto cell = [&](int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(cell(PendingTableModel::TokenColumn), QStringLiteral("WaitingForQuota"));
        QCOMPARE(cell(PendingTableModel::LayerColumn), layerName(Layer::Scheduling));
        QVERIFY(cell(PendingTableModel::ReasonColumn).contains("insufficient unused quota"));
        QCOMPARE(model.headerData(PendingTableModel::TokenColumn, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Token"));
    }

    void pendingListShowsAPreemptedJobAndWhoTookItsPlace() {
        // reclaim(): at 66 min "borrower" waits to restart, preempted at 65 min by "reclaimer".
        const auto results = run(reclaim());
        PendingTableModel model;
        model.setResults(results);
        model.setTime(66 * 60);
        const int row = rowOf(model, *results, "borrower");
        QVERIFY(row >= 0);
        auto cell = [&](int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(cell(PendingTableModel::TokenColumn), QStringLiteral("Preempted"));
        QCOMPARE(cell(PendingTableModel::LayerColumn), layerName(Layer::Scheduling));
        const QString reason = cell(PendingTableModel::ReasonColumn);
        QVERIFY2(reason.contains("reclaimer") && reason.contains("team research"),
                 qPrintable(reason));
        // The next sample (70 min) diagnoses it again: what keeps it out now is quota (its
        // team's 8 and the cohort's are in use), as Kueue's condition would say after the
        // eviction. The Preempted row lasts until then (engine behaviour, reported).
        model.setTime(75 * 60);
        const int later = rowOf(model, *results, "borrower");
        QVERIFY(later >= 0);
        QCOMPARE(model.index(later, PendingTableModel::TokenColumn).data().toString(),
                 QStringLiteral("WaitingForQuota"));
    }

    void chartsMarkPreemptionsOnlyWhenThereWereSome() {
        // reclaim(): one preemption, in the interval ending at 70 min.
        const auto preempted = run(reclaim());
        QCOMPARE(preempted->findSeries("preemptions")->values[*preempted->sampleAt(70 * 60)], 1.0);
        ChartBoard board;
        board.resize(1000, 600);
        board.setResults(preempted);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        for (ChartPanel* chart : board.charts()) {
            QCOMPARE(chart->preemptionMarkers(), 1);
            QVERIFY(chart->valuesAt(66 * 60).contains("1 preemption between"));
            QVERIFY(!chart->valuesAt(5 * kHourS).contains("preemption"));
        }
        // borrowing() with priority preemption on: the series is there, all zero (equal
        // priorities, no reclaim): no marker. Without preemption there is no series at all.
        Scenario none = borrowing();
        none.scheduler.preemption = PreemptionMode::Priority;
        const auto zero = run(none);
        QVERIFY(zero->findSeries("preemptions"));
        board.setResults(zero);
        for (ChartPanel* chart : board.charts())
            QCOMPARE(chart->preemptionMarkers(), 0);
        board.setResults(run(borrowing()));
        for (ChartPanel* chart : board.charts())
            QCOMPARE(chart->preemptionMarkers(), 0);
    }
};

GPUPLAN_APP_TEST("test_cohort_view", CohortViewTest);
#include "test_cohort_view.moc"
