#include "buying_mix_edits.hpp"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "gpuplan/model/topology.hpp"

namespace gpuplan::app {

namespace {

QString duration(double s) {
    if (s >= 3600 && std::fmod(s, 60) == 0) return QObject::tr("%1 h").arg(s / 3600, 0, 'g', 4);
    if (s >= 60) return QObject::tr("%1 min").arg(s / 60, 0, 'g', 4);
    return QObject::tr("%1 s").arg(s, 0, 'g', 4);
}

BuyingMixDef mixOf(const Scenario& s) {
    return s.buyingMix.value_or(BuyingMixDef{});
}

}  // namespace

FleetClassCounts fleetClassCounts(const Scenario& s) {
    FleetClassCounts c;
    if (s.nodeList) return c;
    Scenario own = s;
    own.buyingMix.reset();  // the groups' own classes
    try {
        const Fleet fleet = Fleet::build(own);
        c.nodes = static_cast<int>(fleet.nodes.size());
        for (const FleetNode& n : fleet.nodes) {
            c.reservedNodes += n.buyingClass == BuyingClass::Reserved;
            c.spotNodes += n.buyingClass == BuyingClass::Spot;
            c.onDemandNodes += n.buyingClass == BuyingClass::OnDemand;
        }
        if (s.buyingMix)
            c.onDemandNodes =
                std::max(0, c.nodes - s.buyingMix->reservedNodes - s.buyingMix->spotNodes);
        c.buildable = true;
    } catch (const std::exception&) {
        // The validator refuses such a scenario; the controls stay off meanwhile.
    }
    return c;
}

QString clampMixToFleet(Scenario& s) {
    const bool spares = s.failures && s.failures->hotSpareNodes > 0;
    if (!s.buyingMix && !spares) return {};
    const FleetClassCounts fleet = fleetClassCounts(s);
    if (!fleet.buildable) return {};
    QStringList cut;
    if (s.buyingMix) {
        BuyingMixDef& mix = *s.buyingMix;
        const int reserved = std::min(mix.reservedNodes, fleet.nodes);
        const int spot = std::min(mix.spotNodes, fleet.nodes - reserved);
        if (reserved != mix.reservedNodes || spot != mix.spotNodes)
            cut << QObject::tr("mix cut to %1 reserved, %2 spot").arg(reserved).arg(spot);
        mix.reservedNodes = reserved;
        mix.spotNodes = spot;
    }
    if (spares && s.failures->hotSpareNodes > fleet.nodes) {
        s.failures->hotSpareNodes = fleet.nodes;
        cut << QObject::tr("hot spares cut to %1").arg(fleet.nodes);
    }
    return cut.join(QStringLiteral(", "));
}

MixEdit setMixByNodeOrder(const Scenario& s, bool on, const BuyingMixDef& start) {
    MixEdit e{s, {}};
    if (!on) {
        e.after.buyingMix.reset();
        e.text = QObject::tr("Buying mix off (each node group's class)");
        return e;
    }
    e.after.buyingMix = start;
    e.text = QObject::tr("Buying mix by node order (%1 reserved, %2 spot)")
                 .arg(start.reservedNodes)
                 .arg(start.spotNodes);
    return e;
}

MixEdit setMixReservedNodes(const Scenario& s, int reservedNodes) {
    MixEdit e{s, QObject::tr("Reserve %1 nodes").arg(reservedNodes)};
    BuyingMixDef mix = mixOf(s);
    mix.reservedNodes = reservedNodes;
    e.after.buyingMix = mix;
    return e;
}

MixEdit setMixSpotNodes(const Scenario& s, int spotNodes) {
    MixEdit e{s, QObject::tr("Buy %1 nodes on spot").arg(spotNodes)};
    BuyingMixDef mix = mixOf(s);
    mix.spotNodes = spotNodes;
    e.after.buyingMix = mix;
    return e;
}

MixEdit setElasticOnDemand(const Scenario& s, bool on, const OnDemandDef& settings) {
    MixEdit e{s, {}};
    if (!on) {
        e.after.onDemand.reset();
        e.text = QObject::tr("Elastic on demand off");
        return e;
    }
    e.after.onDemand = settings;
    e.text = QObject::tr("Elastic on demand on (delay %1, idle timeout %2)")
                 .arg(duration(settings.provisioningDelayS), duration(settings.idleTimeoutS));
    return e;
}

MixEdit setProvisioningDelayS(const Scenario& s, double delayS) {
    MixEdit e{s, QObject::tr("Provisioning delay %1").arg(duration(delayS))};
    if (e.after.onDemand) e.after.onDemand->provisioningDelayS = delayS;
    return e;
}

MixEdit setIdleTimeoutS(const Scenario& s, double idleS) {
    MixEdit e{s, QObject::tr("Idle timeout %1").arg(duration(idleS))};
    if (e.after.onDemand) e.after.onDemand->idleTimeoutS = idleS;
    return e;
}

MixEdit setOnDemandCeiling(const Scenario& s, std::optional<int> maxNodes) {
    MixEdit e{s, maxNodes ? QObject::tr("On-demand ceiling %1 nodes").arg(*maxNodes)
                          : QObject::tr("On-demand ceiling: every on-demand node")};
    if (e.after.onDemand) e.after.onDemand->maxNodes = maxNodes;
    return e;
}

MixEdit setSpotReclaims(const Scenario& s, bool on, const SpotDef& settings) {
    MixEdit e{s, {}};
    if (!on) {
        e.after.spot.reset();
        e.text = QObject::tr("Spot reclaims off");
        return e;
    }
    e.after.spot = settings;
    e.text = QObject::tr("Spot reclaims on (%1 % a month, notice %2)")
                 .arg(settings.monthlyInterruptionFraction * 100, 0, 'g', 4)
                 .arg(duration(settings.noticeS));
    return e;
}

MixEdit setSpotMonthlyInterruption(const Scenario& s, double fraction) {
    MixEdit e{s, QObject::tr("Spot interruptions %1 % a month").arg(fraction * 100, 0, 'g', 4)};
    if (e.after.spot) e.after.spot->monthlyInterruptionFraction = fraction;
    return e;
}

MixEdit setSpotNoticeS(const Scenario& s, double noticeS) {
    MixEdit e{s, QObject::tr("Spot notice %1").arg(duration(noticeS))};
    if (e.after.spot) e.after.spot->noticeS = noticeS;
    return e;
}

MixEdit setSpotReturnS(const Scenario& s, double returnS) {
    MixEdit e{s, QObject::tr("Spot capacity back after %1").arg(duration(returnS))};
    if (e.after.spot) e.after.spot->returnS = returnS;
    return e;
}

}  // namespace gpuplan::app
