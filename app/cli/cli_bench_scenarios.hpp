// Scenarios the bench command generates: the scaling series (the 100k preset's fleet and load
// scaled down) and the adversarial-but-valid shapes, each grown to the edge of the run budget.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "gpuplan/model/scenario.hpp"

namespace gpuplan::cli {

struct GeneratedScenario {
    std::string name;
    std::string what;  ///< one line: the shape and why it is hard
    /// Benchmarks of one family have their cost per job compared (empty: none).
    std::string family;
    /// Builds the scenario in the child process (traces go into `workDir`).
    std::function<Scenario(const CommonOptions&, const std::filesystem::path& workDir)> build;
};

/// synthetic-100k's fleet of 25 pods cut to 1, 3, 6, 12 and 25 pods (4k … 100k GPUs), every
/// class's rate and maxJobs scaled by the same factor: the same load per GPU. Twice: as the
/// preset is (family "scaling"), and with 1:1 pod uplinks (family "scaling_flat"). The
/// preset's 4:1 uplinks slow gangs that span pods, which a one-pod fleet never has, so the
/// larger fleets run saturated with long queues; with 1:1 uplinks every size runs in one
/// regime, which is what comparing the engine's cost per job needs.
std::vector<GeneratedScenario> scalingScenarios();

/// Shapes that would hang the engine or exhaust its memory without the run budget, each sized
/// so that its estimated cost is just within the default budget (the largest size that
/// validates).
std::vector<GeneratedScenario> adversarialScenarios();

/// synthetic-100k shared by 8 teams in one cohort: each of its 4 classes split into
/// two teams at half the rate, each team a nominal quota of 1/8 of the GPUs. Plain (admission
/// by quota and borrowing) and with fair sharing, reclaim and priority preemption.
std::vector<GeneratedScenario> quotaScenarios();

/// The planner's benchmark: a one-pool fleet of 1 to 40 racks of 4 DGX H100 (32
/// to 1,280 GPUs), a week of about 150,000 jobs (Poisson, 893 an hour; 1, 2, 4 or 8 GPUs,
/// 2.4 on average; exponential run times of mean 15 min: 536 busy GPUs offered, so the
/// answer lies mid-range), its rack count the dimension to size.
std::string planSizingScenarioJson();
inline constexpr const char* kPlanSizingRacks = "/topology/pods/0/racks/0/count=1..40";

}  // namespace gpuplan::cli
