// The pending list, the fleet's header and the inspector at exact times (not snapped to the
// sample grid), and the "By team / class" dock.
#include <QComboBox>
#include <QTableView>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "gpuplan/core/time_format.hpp"
#include "kpis/group_kpi_panel.hpp"
#include "tables/pending_table_model.hpp"

using namespace gpuplan;
using namespace gpuplan::app::test;

namespace {

/// The pending list's rows as (job index, waiting seconds).
std::vector<std::pair<int, double>> listRows(const ui::PendingTableModel* m) {
    std::vector<std::pair<int, double>> rows;
    for (int r = 0; r < m->rowCount(); ++r)
        rows.push_back({m->index(r, 0).data(ui::PendingTableModel::JobIndexRole).toInt(),
                        m->index(r, ui::PendingTableModel::WaitingColumn)
                            .data(ui::PendingTableModel::SortRole)
                            .toDouble()});
    return rows;
}

bool listed(const ui::PendingTableModel* m, std::uint32_t job) {
    for (const auto& [j, waiting] : listRows(m))
        if (j == static_cast<int>(job)) return true;
    return false;
}

}  // namespace

class PendingExactTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Bug 2: at t between samples, a job that started after the last sample is not listed,
    // and every listed job's wait is t − submit (the sample's list said otherwise).
    void listFollowsExactTime() {
        Fixture f;
        const Results& r = *f.window->results();
        const double dt = r.sampleIntervalS;
        // A job waiting at a sample that starts, and is through its startup, before the next.
        std::uint32_t job = 0;
        double t = -1;
        for (std::uint32_t j = 0; j < r.jobs.size() && t < 0; ++j) {
            const JobRecord& rec = r.jobs[j];
            if (rec.firstStartS < 0 || rec.segmentCount != 1) continue;
            const auto k = r.sampleAt(rec.firstStartS);
            if (!k) continue;
            const double sampleS = r.sampleTimesS[*k];
            const double runningS = rec.firstStartS + rec.spec.startupS;
            if (rec.spec.submitS < sampleS && rec.firstStartS > sampleS &&
                runningS + 1 < sampleS + dt && rec.endS > runningS + 1) {
                job = j;
                t = runningS + 0.5;
            }
        }
        QVERIFY2(t > 0, "the default preset has a job that starts between two samples");
        const std::size_t sample = r.sampleAt(t).value();
        bool inSample = false;
        for (const PendingEntry& e : r.pendingAtSample(sample))
            inSample |= e.job == job;
        QVERIFY(inSample);  // the sample's list still had it waiting

        f.window->scrubber()->setTime(t);
        QVERIFY(!listed(f.window->pendingModel(), job));
        QVERIFY(f.window->pendingModel()->rowCount() > 0);
        for (const auto& [j, waiting] : listRows(f.window->pendingModel()))
            QCOMPARE(waiting, t - r.jobs[j].spec.submitS);
        // Just before its start it is listed, waiting since its submit.
        f.window->scrubber()->setTime(r.jobs[job].firstStartS - 0.5);
        QVERIFY(listed(f.window->pendingModel(), job));
    }

    // Bug 2: a job added between samples (like a drop) is listed from its submit on.
    void jobSubmittedBetweenSamplesIsListed() {
        Fixture f;
        Scenario after = f.doc.scenario();
        JobDef big;
        big.name = "between-samples";
        big.traits.team = after.teams.front().name;
        big.gpus = 256;  // the whole fleet: it waits
        big.durationS = 3600;
        big.submitS = 4 * 3600 + 90;  // samples every 600 s: 14,400 and 15,000
        after.jobs.push_back(big);
        QCOMPARE(f.doc.edit(after, QStringLiteral("add a job")), QString());
        QVERIFY(f.waitForResults());
        std::uint32_t index = 0;
        QVERIFY(findJob(*f.window->results(), "between-samples", &index));
        f.window->scrubber()->setTime(big.submitS + 60);
        QVERIFY(listed(f.window->pendingModel(), index));
        for (const auto& [j, waiting] : listRows(f.window->pendingModel()))
            if (j == static_cast<int>(index)) QCOMPARE(waiting, 60.0);
        // The inspector explains it too.
        const auto rows = f.window->results()->pendingAt(big.submitS + 60);
        QVERIFY(std::any_of(rows.begin(), rows.end(), [&](const PendingJob& p) {
            return p.job == index && p.reason != PendingJob::kNoReason;
        }));
    }

    // Bug 3: the fleet's header counts what the list shows, workload-layer jobs included.
    void headerCountsWhatTheListShows() {
        Fixture f;
        const Results& r = *f.window->results();
        double t = -1;
        for (double s = 0; s < r.horizonS && t < 0; s += r.sampleIntervalS / 4) {
            const auto rows = r.pendingAt(s);
            if (std::any_of(rows.begin(), rows.end(),
                            [](const PendingJob& p) { return p.layer == Layer::Workload; }))
                t = s;
        }
        QVERIFY2(t >= 0, "the default preset has a job starting up at some time");
        f.window->scrubber()->setTime(t);
        const int rows = f.window->pendingModel()->rowCount();
        int gpus = 0;
        for (const auto& [j, waiting] : listRows(f.window->pendingModel()))
            gpus += r.jobs[j].spec.gpus;
        const QString header = f.window->topology()->statusText();
        QVERIFY2(header.contains(QStringLiteral("· %1 pending (%2 GPUs)").arg(rows).arg(gpus)),
                 qPrintable(header));
    }

    // Scrubbing or Play keeps the list's current row on the same job (no model reset), so
    // keyboard navigation goes on from there; also when other jobs start or arrive.
    void currentJobSurvivesTimeChanges() {
        Fixture f;
        const Results& r = *f.window->results();
        auto* view = f.window->findChild<QTableView*>(QStringLiteral("pendingView"));
        QVERIFY(view);
        auto waits = [&](std::uint32_t job, double t) {
            const auto rows = r.pendingAt(t);
            return std::any_of(rows.begin(), rows.end(),
                               [&](const PendingJob& p) { return p.job == job; });
        };
        // A time with a few waiting jobs, and a later one at which the second of them still
        // waits while the set of waiting jobs has changed.
        double t = -1, later = -1;
        std::uint32_t job = 0;
        for (double s = 0; s < r.horizonS && later < 0; s += r.sampleIntervalS / 7) {
            const auto rows = r.pendingAt(s);
            if (rows.size() < 3) continue;
            job = rows[1].job;
            for (double u = s + 1; u < s + r.sampleIntervalS && later < 0; u += 7) {
                const auto rowsThen = r.pendingAt(u);
                if (waits(job, u) && rowsThen.size() != rows.size()) later = u;
            }
            t = s;
        }
        QVERIFY2(later > 0, "the default preset has a job waiting while others come and go");
        f.window->scrubber()->setTime(t);
        const QAbstractItemModel* m = view->model();
        int row = -1;
        for (int i = 0; i < m->rowCount() && row < 0; ++i)
            if (m->index(i, 0).data(ui::PendingTableModel::JobIndexRole).toInt() ==
                static_cast<int>(job))
                row = i;
        QVERIFY(row >= 0);
        view->setCurrentIndex(m->index(row, 0));
        view->selectRow(row);
        auto currentJob = [&] {
            return view->currentIndex().data(ui::PendingTableModel::JobIndexRole).toInt();
        };
        QCOMPARE(currentJob(), static_cast<int>(job));

        f.window->scrubber()->setTime(t + 0.5);  // the same jobs wait: only the waits move
        QCOMPARE(currentJob(), static_cast<int>(job));
        f.window->scrubber()->setTime(later);  // others started or arrived
        QCOMPARE(f.window->scrubber()->time(), later);
        QCOMPARE(currentJob(), static_cast<int>(job));
        QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row()));
        // The keyboard goes on from the job's row.
        const int currentRow = view->currentIndex().row();
        if (currentRow + 1 < m->rowCount()) {
            QTest::keyClick(view, Qt::Key_Down);
            QCOMPARE(view->currentIndex().row(), currentRow + 1);
        }
    }

    // "Waiting" counts from the submit, an evicted job's run included: the header says so.
    void waitingColumnSaysWhatItCounts() {
        Fixture f;
        const QString tip =
            f.window->pendingModel()
                ->headerData(ui::PendingTableModel::WaitingColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString();
        QVERIFY2(
            tip.contains(QStringLiteral("submitted")) && tip.contains(QStringLiteral("evicted")),
            qPrintable(tip));
    }

    // A row's wait and its reason round by one rule (formatDuration, half up; Qt's and
    // printf's differ at a half), and the reason gives the start-up's whole length, not the
    // time spent so far. One job of 8 GPUs on an empty node, bound at 0, starting up for
    // 150 s: at t = 149.5 s it has waited 149.5 s = 2.49 min → "2 min", and its start-up
    // takes 150 s = 2.5 min → "3 min" (half up; printf's "%.0f" would say "2 min").
    void waitingAndReasonRoundAlike() {
        Fixture f;
        Scenario s = defaultPresetOnNodes(1);
        s.jobClasses.clear();
        JobDef slow;
        slow.name = "slow-start";
        slow.traits.team = s.teams.front().name;
        slow.gpus = 8;
        slow.traits.gpusPerPod = 8;
        slow.traits.startupS = 150;
        slow.durationS = 3600;
        s.jobs = {slow};
        f.doc.reset(s, QString());
        f.window->simulation().runNow(f.doc.scenario());
        QVERIFY(f.waitForResults());
        f.window->scrubber()->setTime(149.5);
        const ui::PendingTableModel* m = f.window->pendingModel();
        QCOMPARE(m->rowCount(), 1);
        const QString waiting = m->index(0, ui::PendingTableModel::WaitingColumn).data().toString();
        const QString reason = m->index(0, ui::PendingTableModel::ReasonColumn).data().toString();
        QCOMPARE(waiting, QStringLiteral("2 min"));
        QCOMPARE(waiting, QString::fromStdString(formatDuration(149.5)));  // the one rule
        QVERIFY2(reason.contains(QStringLiteral("which takes 3 min in all")), qPrintable(reason));
    }

    void byTeamAndClassDockShowsTheGroups() {
        Fixture f;
        const Results& r = *f.window->results();
        ui::GroupKpiPanel* panel = f.window->groupKpiPanel();
        const ui::GroupKpiTableModel* m = panel->model();
        // The default preset's four teams, in scenario order.
        QCOMPARE(m->rowCount(), 4);
        const QStringList teams = {"research", "applied", "product", "data-science"};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(m->index(i, ui::GroupKpiTableModel::NameColumn).data().toString(), teams[i]);
        QCOMPARE(m->index(0, ui::GroupKpiTableModel::CompletedColumn).data().toInt(),
                 r.teamKpis[0].completed);
        QCOMPARE(m->index(2, ui::GroupKpiTableModel::AllocationColumn).data().toString(),
                 QStringLiteral("%1 %").arg(100 * r.teamKpis[2].allocationShare, 0, 'f', 1));
        // By job class: one row per class of the preset, named as the engine names them.
        panel->groupingBox()->setCurrentIndex(1);
        QCOMPARE(m->rowCount(), static_cast<int>(r.classKpis.size()));
        QVERIFY(m->rowCount() >= 4);
        for (int i = 0; i < m->rowCount(); ++i)
            QCOMPARE(m->index(i, ui::GroupKpiTableModel::NameColumn).data().toString(),
                     QString::fromStdString(r.classKpis[i].name));
        QCOMPARE(m->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Job class"));
    }
};

GPUPLAN_APP_TEST("test_pending_exact", PendingExactTest);
#include "test_pending_exact.moc"
