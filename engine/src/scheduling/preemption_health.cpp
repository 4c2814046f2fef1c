#include "preemption_health.hpp"

#include <string>
#include <vector>

namespace gpuplan::detail {

void writePreemptionHealthKpis(Results& results) {
    // Jobs bound at most once (most runs: no eviction) each have their health from their one
    // binding; otherwise one scan of every segment.
    bool rebound = false;
    for (const JobRecord& j : results.jobs)
        rebound |= j.segmentCount > 1;
    const std::vector<JobHealth> all = rebound ? results.healthByJob() : std::vector<JobHealth>{};
    std::vector<int> thrashing(results.teams.size(), 0);
    std::vector<int> starved(results.teams.size(), 0);
    int thrashingJobs = 0;
    int starvedJobs = 0;
    for (std::uint32_t j = 0; j < results.jobs.size(); ++j) {
        if (!results.measurementWindow().counts(results.jobs[j].spec.submitS)) continue;
        const JobHealth h = rebound ? all[j] : results.healthOf(j);
        const int team = results.jobs[j].spec.team;
        if (h.thrashing) {
            ++thrashingJobs;
            ++thrashing[team];
        }
        if (h.starved) {
            ++starvedJobs;
            ++starved[team];
        }
    }
    results.kpis.push_back(
        {"jobs_thrashing", static_cast<double>(thrashingJobs), "jobs",
         "Jobs preempted " + std::to_string(results.thrashingPreemptions) +
             " times or more (scheduler.thrashingPreemptions): each preemption costs a restart "
             "and the work since the last checkpoint."});
    results.kpis.push_back(
        {"jobs_starved", static_cast<double>(starvedJobs), "jobs",
         "Jobs that waited in the queue longer than scheduler.starvationWaitS at a stretch "
         "(from submission or an eviction to the next start, or to the end of the run)."});
    for (GroupKpis& k : results.teamKpis)
        for (std::size_t t = 0; t < results.teams.size(); ++t)
            if (results.teams[t] == k.name) {
                k.thrashingJobs = thrashing[t];
                k.starvedJobs = starved[t];
            }
}

}  // namespace gpuplan::detail
