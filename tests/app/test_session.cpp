// The Session on its own, without a window: what every dock relies on. Selection is checked
// against the results and cannot recurse, time requests go out and the shown time comes
// back, and a baseline is pinned only from finished results and follows the document.
#include <QSignalSpy>
#include <QWidget>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "shell/file_controller.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"
#include "shell/simulation_controller.hpp"

namespace gpuplan::app::test {
namespace {

struct SessionFixture {
    ScenarioDocument doc{catalog(), LoadOptions{}};
    SimulationController sim;
    QWidget dialogParent;
    FileController files{&doc, &dialogParent, kPresets};
    Session session{&doc, &sim, &files};

    SessionFixture() { doc.reset(defaultPresetOnNodes(2), QString()); }
    /// The document's scenario run once, as finished (partial = false) or a run's results so
    /// far (partial = true).
    std::shared_ptr<const Results> run(bool partial = false) {
        auto r = std::make_shared<Results>(simulate(doc.scenario()));
        r->partial = partial;
        return r;
    }
};

}  // namespace

class SessionTest : public QObject {
    Q_OBJECT
private slots:
    void selectsOnlyJobsTheResultsHold() {
        SessionFixture f;
        QSignalSpy selected(&f.session, &Session::jobSelected);
        f.session.selectJob(0);  // no results yet
        QCOMPARE(selected.count(), 0);
        const auto results = f.run();
        QVERIFY(results->jobs.size() > 3);
        f.session.setResults(results, 1);
        f.session.selectJob(-1);
        f.session.selectJob(static_cast<int>(results->jobs.size()));
        QCOMPARE(selected.count(), 0);
        QCOMPARE(f.session.selectedJob(), -1);
        f.session.selectJob(3);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toInt(), 3);
        QCOMPARE(f.session.selectedJob(), 3);
    }

    void aViewAnsweringASelectionCannotStartAnother() {
        // The pending list selects the job's row, whose "current row" signal selects the job
        // again: the second call must not recurse.
        SessionFixture f;
        f.session.setResults(f.run(), 1);
        int calls = 0;
        connect(&f.session, &Session::jobSelected, &f.session, [&](int job) {
            ++calls;
            f.session.selectJob(job + 1);
        });
        f.session.selectJob(2);
        QCOMPARE(calls, 1);
        QCOMPARE(f.session.selectedJob(), 2);
    }

    void timeRequestsGoOutAndTheShownTimeComesBack() {
        SessionFixture f;
        QSignalSpy requested(&f.session, &Session::timeRequested);
        QSignalSpy changed(&f.session, &Session::timeChanged);
        f.session.requestTime(3600);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toDouble(), 3600.0);
        // The time is the scrubber's (it clamps): only setShownTime moves it.
        QCOMPARE(changed.count(), 0);
        QCOMPARE(f.session.timeS(), 0.0);
        f.session.setShownTime(1800);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(f.session.timeS(), 1800.0);
    }

    void aBaselineIsPinnedOnlyFromFinishedResults() {
        SessionFixture f;
        QSignalSpy baseline(&f.session, &Session::baselineChanged);
        QSignalSpy status(&f.session, &Session::statusMessage);
        f.session.pinBaseline();  // nothing on screen: nothing happens
        QCOMPARE(baseline.count(), 0);
        f.session.setResults(f.run(true), 0);
        f.session.pinBaseline();
        QCOMPARE(baseline.count(), 0);
        QVERIFY(!f.session.baseline());
        QCOMPARE(status.count(), 1);  // says why
        const auto finished = f.run();
        f.session.setResults(finished, 1);
        f.session.pinBaseline();
        QCOMPARE(baseline.count(), 1);
        QCOMPARE(f.session.baseline(), finished);
        QVERIFY(!f.session.baselineFromOtherScenario());
        // No run of the controller answers them: the document's scenario is the baseline's.
        QVERIFY(f.session.baselineScenario() && *f.session.baselineScenario() == f.doc.scenario());
        f.session.clearBaseline();
        QCOMPARE(baseline.count(), 2);
        QVERIFY(!f.session.baseline() && !f.session.baselineScenario());
    }

    void anotherScenarioClearsTheBaselineUnlessItIsKept() {
        SessionFixture f;
        f.session.setResults(f.run(), 1);
        f.session.pinBaseline();
        f.doc.reset(defaultPresetOnNodes(3), QString());  // replaced
        QVERIFY(!f.session.baseline());

        f.session.pinBaseline();
        QVERIFY(f.session.baseline());
        f.session.setKeepBaselineAcrossScenarios(true);
        QSignalSpy baseline(&f.session, &Session::baselineChanged);
        f.doc.reset(defaultPresetOnNodes(4), QString());
        QCOMPARE(baseline.count(), 1);
        QVERIFY(f.session.baseline());
        QVERIFY(f.session.baselineFromOtherScenario());  // the charts name it
    }
};

}  // namespace gpuplan::app::test

GPUPLAN_APP_TEST("test_session", gpuplan::app::test::SessionTest);
#include "test_session.moc"
