#include "scenario_read_scheduler.hpp"

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::detail {

void readScheduler(JsonObject& root, SchedulerDef& scheduler) {
    auto n = root.optional("scheduler");
    if (!n) return;
    JsonObject o = n->object();
    if (auto v = o.optional("queueOrder"))
        scheduler.queueOrder = v->enumeration<QueueOrder>(
            {{"priority-fifo", QueueOrder::PriorityFifo},
             {"priority-smallest-first", QueueOrder::PrioritySmallestFirst}});
    if (auto v = o.optional("placement"))
        scheduler.placement =
            v->enumeration<PlacementPolicy>({{"pack", PlacementPolicy::Pack},
                                             {"spread", PlacementPolicy::Spread},
                                             {"topology", PlacementPolicy::TopologyAware}});
    if (auto v = o.optional("backfill"))
        scheduler.backfill = v->enumeration<BackfillMode>({{"easy", BackfillMode::Easy},
                                                           {"none", BackfillMode::None},
                                                           {"greedy", BackfillMode::Greedy}});
    if (auto v = o.optional("preemption"))
        scheduler.preemption = v->enumeration<PreemptionMode>(
            {{"off", PreemptionMode::Off}, {"priority", PreemptionMode::Priority}});
    if (auto v = o.optional("preemptionGraceS"))
        scheduler.preemptionGraceS = v->number(0, SchedulerDef::kMaxPreemptionGraceS);
    if (auto v = o.optional("thrashingPreemptions"))
        scheduler.thrashingPreemptions = static_cast<int>(v->integer(1, 1000000));
    if (auto v = o.optional("starvationWaitS"))
        scheduler.starvationWaitS = v->number(1, InputLimits::maxHorizonS);
    if (auto v = o.optional("elasticGrowAfterIdleS"))
        scheduler.elasticGrowAfterIdleS = v->number(1, 30 * 86400.0);
    o.finish();
}

void readFailures(JsonObject& root, Scenario& s) {
    auto n = root.optional("failures");
    if (!n) return;
    JsonObject o = n->object();
    FailureDef f;
    if (auto v = o.optional("mtbfGpuHours")) f.mtbfGpuHours = v->number(1, 1e9);
    f.repairS = o.required("repairS").number(1, 366 * 86400.0);
    if (auto v = o.optional("hotSpareNodes"))
        f.hotSpareNodes = static_cast<int>(v->integer(0, 100'000'000));
    o.finish();
    s.failures = f;
}

void readSpot(JsonObject& root, Scenario& s) {
    auto n = root.optional("spot");
    if (!n) return;
    JsonObject o = n->object();
    SpotDef spot;
    // 1 would mean every instance is certainly reclaimed at once: no mean time to reclaim.
    spot.monthlyInterruptionFraction =
        o.required("monthlyInterruptionFraction").number(1e-6, 0.999);
    if (auto v = o.optional("noticeS")) spot.noticeS = v->number(0, 3600);
    spot.returnS = o.required("returnS").number(1, 366 * 86400.0);
    o.finish();
    s.spot = spot;
}

}  // namespace gpuplan::detail
