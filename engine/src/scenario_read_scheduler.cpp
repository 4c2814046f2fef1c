#include "scenario_read_scheduler.hpp"

#include "gpuplan/scenario_io.hpp"

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
    o.finish();
}

}  // namespace gpuplan::detail
