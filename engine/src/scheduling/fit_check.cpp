#include "gpuplan/scheduling/fit_check.hpp"

#include "diagnosis.hpp"
#include "resources/node_events.hpp"
#include "scheduler.hpp"

namespace gpuplan {

FitVerdict checkFit(const Scenario& scenario, const JobDef& job, double timeS) {
    // A scenario holding only this job, so the diagnoser sees it against an empty fleet.
    Scenario alone = scenario;
    alone.jobClasses.clear();
    alone.traces.clear();
    alone.jobs = {job};
    alone.jobs[0].submitS = 0;
    RunRecord record;
    record.fleet = Fleet::build(alone);
    Workload w = generateWorkload(alone, record.fleet);
    record.explicitNames = std::move(w.explicitNames);
    record.teams = std::move(w.teams);
    for (const JobSpec& spec : w.jobs)
        record.jobs.push_back(JobRecord{.spec = spec});

    detail::SimState sim(record, record.fleet, alone);
    // Node states as of timeS, by the run's own node-event path.
    for (const detail::NodeChangeEvent& change : detail::nodeChangeEvents(record.fleet, scenario)) {
        if (change.timeS > timeS) break;
        detail::applyNodeChange(sim.cluster, change, {});
    }
    detail::Scheduler scheduler(
        alone.scheduler, sim,
        [](std::uint32_t, const std::vector<PodPlacement>&, double t) { return t; },
        [](std::uint32_t, const std::vector<PodPlacement>&) {});
    detail::Diagnoser diagnoser(sim, scheduler);
    FitVerdict verdict;
    verdict.layer = diagnoser.layerOf(0);
    verdict.canEverFit = verdict.layer != Layer::Reservation;
    if (verdict.layer != Layer::Scheduling) {
        const PendingEntry e = diagnoser.diagnoseQueued(0, timeS);
        verdict.reason = record.reasons[e.reason];
    }
    return verdict;
}

}  // namespace gpuplan
