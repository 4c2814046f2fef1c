// Without OpenGL (the offscreen platform, where any window holding a QOpenGLWidget crashes)
// the Timeline dock holds a plain placeholder and the application runs on; the job selection
// the timeline shares (Session::selectJob) works there too. Runs offscreen.
#include <QDockWidget>
#include <QLabel>
#include <QTableView>
#include <QtTest>
#include <algorithm>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "editors/inspector.hpp"
#include "tables/pending_table_model.hpp"
#include "timeline/timeline_dock.hpp"
#include "timeline/timeline_panel.hpp"
#include "timeline/timeline_view.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

class TimelinePlaceholderTest : public QObject {
    Q_OBJECT
private slots:
    void offscreenHasNoGlTimeline() {
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
        QString why;
        QVERIFY(!ui::timelineGlAvailable(&why));
        QVERIFY2(why.contains(QStringLiteral("offscreen")), qPrintable(why));
        QWidget parent;
        QWidget* panel = ui::makeTimelinePanel(&parent);
        QVERIFY(!qobject_cast<ui::TimelineView*>(panel));
        auto* label = qobject_cast<QLabel*>(panel);
        QVERIFY(label);
        QVERIFY(label->text().contains(QStringLiteral("OpenGL")));
    }

    void theMainWindowShowsThePlaceholderAndRunsOn() {
        test::Fixture f;
        auto* dock = f.window->findChild<TimelineDock*>(QStringLiteral("timeline"));
        QVERIFY(dock);
        // Nothing is made (no GL probed) until the tab shows; then the placeholder.
        QVERIFY(dock->widget()->objectName() != QStringLiteral("timelinePlaceholder"));
        dock->raise();
        QApplication::processEvents();
        QVERIFY(!dock->view());
        QCOMPARE(dock->widget()->objectName(), QStringLiteral("timelinePlaceholder"));
        QVERIFY(dock->widget()->isVisible());
        // Drawn, and the run goes on: a re-run still reaches the window.
        QVERIFY(!f.window->grab().isNull());
        f.window->simulation().runNow(f.doc.scenario());
        QVERIFY(f.waitForResults());
    }

    void selectJobShowsItEverywhere() {
        test::Fixture f;
        const Results& r = *f.window->results();
        // A job that runs: the inspector shows it, the fleet outlines it, the others hear of it.
        int job = -1;
        for (std::size_t j = 0; j < r.jobs.size() && job < 0; ++j)
            if (r.jobs[j].firstStartS >= 0) job = static_cast<int>(j);
        QVERIFY(job >= 0);
        QSignalSpy selected(&f.window->session(), &Session::jobSelected);
        f.window->session().selectJob(job);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toInt(), job);
        auto* inspector = f.window->findChild<ui::Inspector*>();
        const QString name = QString::fromStdString(r.jobName(static_cast<std::uint32_t>(job)));
        QVERIFY2(inspector->toPlainText().contains(name), qPrintable(inspector->toPlainText()));
        // A job waiting at t (the moment of the longest queue): its row in the pending list
        // is selected too; selecting a running job again leaves no row selected.
        const Series* queue = r.findSeries("queue_length");
        QVERIFY(queue);
        const auto longest = std::max_element(queue->values.begin(), queue->values.end());
        QVERIFY(*longest > 0);
        f.window->scrubber()->setTime(r.sampleTimesS[longest - queue->values.begin()] + 1);
        const auto& pending = f.window->topology()->snapshot().pending;
        QVERIFY(!pending.empty());
        const int waiting = static_cast<int>(pending.back().job);
        f.window->session().selectJob(waiting);
        auto* view = f.window->findChild<QTableView*>(QStringLiteral("pendingView"));
        QModelIndexList rows = view->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().data(ui::PendingTableModel::JobIndexRole).toInt(), waiting);
        QCOMPARE(selected.count(), 2);
        f.window->session().selectJob(job);
        if (std::none_of(pending.begin(), pending.end(),
                         [job](const PendingJob& p) { return static_cast<int>(p.job) == job; }))
            QVERIFY(view->selectionModel()->selectedRows().isEmpty());
        // Out of range: ignored.
        f.window->session().selectJob(static_cast<int>(r.jobs.size()));
        QCOMPARE(selected.count(), 3);
    }
};

GPUPLAN_APP_TEST("test_timeline_placeholder", TimelinePlaceholderTest);
#include "test_timeline_placeholder.moc"
