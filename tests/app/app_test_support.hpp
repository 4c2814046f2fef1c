// Shared by the application's QtTest files: the catalog, a main window on a preset with its
// first results in, real drops on the fleet.
#pragma once

#include <QApplication>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>
#include <memory>

#include "checkout_paths.hpp"
#include "editors/time_scrubber.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "shell/main_window.hpp"
#include "topology/topology_view.hpp"

namespace gpuplan::app::test {

using gpuplan::checkout::presetsDir;
using gpuplan::checkout::testDataDir;

inline const QString kPresets = QString::fromStdString(presetsDir().string());
inline const QString kMalformed = QString::fromStdString((testDataDir() / "malformed").string());

inline Catalog catalog() {
    return loadCatalog((kPresets + "/catalog/catalog.json").toStdString());
}

/// The default preset cut to one rack of `nodes` DGX H100 nodes, all Ready, no node events:
/// small runs whose numbers a test works out by hand (its work stays; tests replace it).
inline Scenario defaultPresetOnNodes(int nodes) {
    Scenario s = loadScenario(kPresets.toStdString() + "/scenarios/default.json", catalog());
    s.pods.resize(1);
    s.pods[0].count = 1;
    s.pods[0].racks.resize(1);
    s.pods[0].racks[0].count = 1;
    s.pods[0].racks[0].nodes.resize(1);
    s.pods[0].racks[0].nodes[0].count = nodes;
    s.pods[0].racks[0].nodes[0].state = NodeState::Ready;
    s.nodeEvents.clear();
    return s;
}

/// The job of that name in a run, or nullptr.
inline const JobRecord* findJob(const Results& r, const std::string& name,
                                std::uint32_t* index = nullptr) {
    for (std::uint32_t j = 0; j < r.jobs.size(); ++j)
        if (r.jobs[j].spec.source == JobSource::Explicit && r.jobName(j) == name) {
            if (index) *index = j;
            return &r.jobs[j];
        }
    return nullptr;
}

struct Fixture {
    ScenarioDocument doc{catalog(), LoadOptions{}};
    std::unique_ptr<MainWindow> window;

    explicit Fixture(const QString& preset = QStringLiteral("default.json")) {
        doc.load(kPresets + "/scenarios/" + preset);
        doc.reset(doc.scenario(), QString());
        window = std::make_unique<MainWindow>(&doc, kPresets);
        window->resize(1400, 900);
        window->show();
        window->simulation().runNow(doc.scenario());
        QVERIFY(waitForResults());
    }
    bool waitForResults(int ms = 15000) {
        QSignalSpy spy(&window->session(), &Session::resultsApplied);
        return spy.wait(ms);
    }
    /// Sends a real QDropEvent with the palette's MIME data to the topology at a node.
    void dropOnNode(int node, const char* format, const QByteArray& payload) {
        ui::TopologyView* view = window->topology();
        const QPointF pos = view->toWidget(view->layout().nodeRect(node).center());
        QMimeData mime;
        mime.setData(QString::fromLatin1(format), payload);
        QDragEnterEvent enter(pos.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view, &enter);
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view, &drop);
    }
    int nodeIndex(const std::string& name) const {
        return *window->results()->fleet.findNode(name);
    }
    QString status() const { return window->statusMessage(); }
};

}  // namespace gpuplan::app::test
