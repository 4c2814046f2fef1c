#include "reliability_edits.hpp"

#include <QObject>

namespace gpuplan::app {

namespace {

QString hours(double s) {
    return QString::number(s / 3600, 'g', 4);
}

}  // namespace

ReliabilityEdit setRandomFailures(const Scenario& s, bool on, double mtbfGpuHours, double repairS) {
    ReliabilityEdit e{s, {}};
    if (!on) {
        e.after.failures.reset();
        e.text = QObject::tr("Random failures off");
        return e;
    }
    // Hot spares stay as they were (the group shows the scenario's, or none).
    FailureDef f = s.failures.value_or(FailureDef{});
    f.mtbfGpuHours = mtbfGpuHours;
    f.repairS = repairS;
    e.after.failures = f;
    e.text = QObject::tr("Random failures on (MTBF %L1 GPU-h, repair %2 h)")
                 .arg(mtbfGpuHours, 0, 'f', 0)
                 .arg(hours(repairS));
    return e;
}

ReliabilityEdit setMtbfGpuHours(const Scenario& s, double mtbfGpuHours) {
    ReliabilityEdit e{s, QObject::tr("MTBF %L1 GPU-h per GPU").arg(mtbfGpuHours, 0, 'f', 0)};
    if (e.after.failures) e.after.failures->mtbfGpuHours = mtbfGpuHours;
    return e;
}

ReliabilityEdit setRepairS(const Scenario& s, double repairS) {
    ReliabilityEdit e{s, QObject::tr("Repair time %1 h").arg(hours(repairS))};
    if (e.after.failures) e.after.failures->repairS = repairS;
    return e;
}

ReliabilityEdit setHotSpareNodes(const Scenario& s, int nodes) {
    ReliabilityEdit e{s, QObject::tr("%n hot spare node(s)", nullptr, nodes)};
    if (e.after.failures) e.after.failures->hotSpareNodes = nodes;
    return e;
}

}  // namespace gpuplan::app
