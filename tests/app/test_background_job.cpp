// BackgroundJob, the one way the window runs long work: the outcome arrives through the event
// loop; cancel() delivers it marked stopped; drop() and a newer start() never deliver the old
// one; progress reaches the GUI thread while the work runs. The work here waits on a gate the
// test opens, so nothing depends on how fast the machine is.
#include <QtTest>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "app_test_main.hpp"
#include "shell/background_job.hpp"

using namespace gpuplan::app;

namespace {

/// Work blocks on it until the test opens it (or the work is asked to stop).
class Gate {
public:
    void open() {
        const std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    /// Waits until open or stop is requested; true when opened.
    bool waitOpen(const JobControl& job) {
        std::unique_lock lock(m_mutex);
        while (!m_open && !job.stopRequested())
            m_changed.wait_for(lock, std::chrono::milliseconds(5));
        return m_open;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
};

struct Delivery {
    int outcome = 0;
    bool stopped = false;
};

}  // namespace

class BackgroundJobTest : public QObject {
    Q_OBJECT
private slots:
    void theOutcomeArrivesThroughTheEventLoop() {
        Gate gate;  // declared first: it outlives the job, which waits for its work
        BackgroundJob<int> job;
        QList<Delivery> got;
        job.onFinished([&](int outcome, bool stopped) { got.append({outcome, stopped}); });
        job.start([&](const JobControl& control) { return gate.waitOpen(control) ? 42 : -1; });
        QVERIFY(job.isRunning());
        gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 1, 60000);
        QCOMPARE(got[0].outcome, 42);
        QVERIFY(!got[0].stopped);
        QVERIFY(!job.isRunning());
    }

    void cancelDeliversWhatTheWorkReturnsMarkedStopped() {
        Gate gate;  // never opened: the work returns when it sees the stop
        BackgroundJob<int> job;
        QList<Delivery> got;
        job.onFinished([&](int outcome, bool stopped) { got.append({outcome, stopped}); });
        job.start([&](const JobControl& control) { return gate.waitOpen(control) ? 42 : 7; });
        job.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 1, 60000);
        QCOMPARE(got[0].outcome, 7);
        QVERIFY(got[0].stopped);
    }

    void aNewerStartDropsTheOlderOutcome() {
        Gate first, second;
        BackgroundJob<int> job;
        QList<Delivery> got;
        job.onFinished([&](int outcome, bool stopped) { got.append({outcome, stopped}); });
        job.start([&](const JobControl& control) { return first.waitOpen(control) ? 1 : -1; });
        job.start([&](const JobControl& control) { return second.waitOpen(control) ? 2 : -2; });
        second.open();
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 1, 60000);
        QCOMPARE(got[0].outcome, 2);
        // The first work was asked to stop when the second started; whatever it returned is
        // not delivered, however late it comes.
        QCoreApplication::processEvents();
        QCOMPARE(got.size(), 1);
    }

    void dropNeverDelivers() {
        Gate gate;  // never opened: the work returns when it sees the stop
        std::atomic<bool> returned{false};
        QList<Delivery> got;
        {
            BackgroundJob<int> job;
            job.onFinished([&](int outcome, bool stopped) { got.append({outcome, stopped}); });
            job.start([&](const JobControl& control) {
                const int outcome = gate.waitOpen(control) ? 1 : -1;
                returned = true;
                return outcome;
            });
            job.drop();
            QVERIFY(!job.isRunning());
            // The dropped work ends while the job lives on: its outcome is not delivered
            // (an absence, so the wait after it only gives a wrong delivery time to show).
            QTRY_VERIFY_WITH_TIMEOUT(returned.load(), 60000);
            QTest::qWait(50);
            QVERIFY(got.isEmpty());
            job.start([&](const JobControl&) { return 2; });
            job.drop();
            // Destroying the job waits for the dropped work: nothing outlives it.
        }
        QCoreApplication::processEvents();
        QVERIFY(got.isEmpty());
    }

    void progressReachesTheGuiThreadWhileTheWorkRuns() {
        Gate gate;
        BackgroundJob<int> job(10);
        QList<double> seen;
        job.onProgress([&](double f) { seen.append(f); });
        bool finished = false;
        job.onFinished([&](int, bool) { finished = true; });
        job.start([&](const JobControl& control) {
            control.setProgress(0.5);
            return gate.waitOpen(control) ? 1 : -1;
        });
        QTRY_VERIFY_WITH_TIMEOUT(seen.contains(0.5), 60000);
        QCOMPARE(job.progress(), 0.5);
        gate.open();
        QTRY_VERIFY_WITH_TIMEOUT(finished, 60000);
        // No progress after the outcome: the poll ends with the work.
        const qsizetype after = seen.size();
        QCoreApplication::processEvents();
        QCOMPARE(seen.size(), after);
    }
};

GPUPLAN_APP_TEST("test_background_job", BackgroundJobTest);
#include "test_background_job.moc"
