// QtTest, offscreen: a fleet read from an openb node list (Scenario::nodeList) has no pods,
// racks or node groups to edit. The fleet's menu refuses to add or remove its nodes with the
// reason, never touching an empty pod list; node events on its nodes still work.
#include <QtTest>

#include "app_test_main.hpp"
#include "checkout_paths.hpp"
#include "fleet/fleet_edits.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

Scenario replay() {
    // Two GPU nodes, n-p100-0 and n-g2-0, in one rack "pod-rack" of pod "pod".
    return loadScenario(
        (gpuplan::checkout::testDataDir() / "openb/replay.json").string(),
        loadCatalog((gpuplan::checkout::presetsDir() / "catalog/catalog.json").string()));
}

const std::string kRefusal =
    "this fleet is the node list \"nodes-small.csv\": its nodes come from that file and are not "
    "added or removed here (cordon, fail and repair still work)";

}  // namespace

class NodeListFleetTest : public QObject {
    Q_OBJECT
private slots:
    void addingOrRemovingNodesIsRefusedWithTheReason() {
        const Scenario s = replay();
        for (const FleetEdit& e :
             {removeNode(s, "n-g2-0"), removeRack(s, "pod-rack"), duplicateRack(s, "pod-rack", 1),
              addDelivery(s, "", 3600), addDelivery(s, "pod", 3600), addPod(s)}) {
            QVERIFY(!e.ok());
            QCOMPARE(e.error, kRefusal);
        }
    }

    void nodeEventsOnItsNodesWork() {
        const Scenario s = replay();
        const FleetEdit cordon = addNodeEvent(s, "n-g2-0", 600, NodeState::Cordoned);
        QVERIFY2(cordon.ok(), cordon.error.c_str());
        QCOMPARE(cordon.scenario->nodeEvents.size(), std::size_t{1});
        validateScenario(
            *cordon.scenario,
            loadCatalog((gpuplan::checkout::presetsDir() / "catalog/catalog.json").string()));
        const FleetEdit rack = addNodeEvent(s, "pod-rack", 600, NodeState::Failed);
        QVERIFY2(rack.ok(), rack.error.c_str());
        const FleetEdit unknown = addNodeEvent(s, "n-nope", 600, NodeState::Failed);
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error, std::string("no node, rack or pod named \"n-nope\""));
    }
};

GPUPLAN_APP_TEST("test_node_list_fleet", NodeListFleetTest);
#include "test_node_list_fleet.moc"
