// Buying-mix edits as pure functions: the mix by node order on or off, its reserved
// and spot node counts, elastic on-demand settings and spot reclaims. Each result is committed
// through ScenarioDocument::edit, which checks it by the reader's rules (a mix larger than the
// fleet or one the pricing has no price for, a share out of range) and makes it one undo step.
#pragma once

#include <QString>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::app {

struct MixEdit {
    Scenario after;
    QString text;  ///< the undo step's name
};

/// The fleet's nodes counted by the classes their node groups give them (the mix ignored).
struct FleetClassCounts {
    int nodes = 0;
    int reservedNodes = 0;
    int spotNodes = 0;
    int onDemandNodes = 0;   ///< by the mix when the scenario has one, else by the groups
    bool buildable = false;  ///< false: a node-list fleet or one the engine cannot build
};
FleetClassCounts fleetClassCounts(const Scenario& s);

/// On: the fleet bought by node order, starting from `start` (the panel passes the fleet's own
/// counts, so turning it on keeps the amounts). Off: each group's own class again.
MixEdit setMixByNodeOrder(const Scenario& s, bool on, const BuyingMixDef& start);
/// The mix's reserved / spot node counts (a scenario without a mix gets one, spot or reserved 0).
MixEdit setMixReservedNodes(const Scenario& s, int reservedNodes);
MixEdit setMixSpotNodes(const Scenario& s, int spotNodes);

/// A fleet edit that leaves fewer nodes than the mix buys (or than the hot spares) takes the
/// mix (and the spares) down with it instead of being refused: reserved first, then spot, are
/// cut to what the fleet has. Returns what it cut, for the undo step's name (empty: nothing).
QString clampMixToFleet(Scenario& s);

/// Elastic on-demand nodes on (with these settings) or off.
MixEdit setElasticOnDemand(const Scenario& s, bool on, const OnDemandDef& settings);
/// These change the settings the scenario has; without elastic on demand they change nothing.
MixEdit setProvisioningDelayS(const Scenario& s, double delayS);
MixEdit setIdleTimeoutS(const Scenario& s, double idleS);
/// The most elastic on-demand nodes up at once (OnDemandDef::maxNodes); nullopt = all of the
/// fleet's on-demand nodes.
MixEdit setOnDemandCeiling(const Scenario& s, std::optional<int> maxNodes);

/// Spot reclaims on (with these settings) or off.
MixEdit setSpotReclaims(const Scenario& s, bool on, const SpotDef& settings);
/// These change the spot settings the scenario has; without them they change nothing.
MixEdit setSpotMonthlyInterruption(const Scenario& s, double fraction);
MixEdit setSpotNoticeS(const Scenario& s, double noticeS);
MixEdit setSpotReturnS(const Scenario& s, double returnS);

}  // namespace gpuplan::app
