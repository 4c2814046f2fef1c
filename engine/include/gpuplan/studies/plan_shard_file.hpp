// A plan's shard file: the runs one array task made of every run the search could ask for
// (plan_study.hpp, runPlanShard), with what they depend on, so `gpuplan-cli plan merge`
// can check the shards belong together and finish the search without simulating.
//
// {"format": "gpuplan-plan-shard", "formatVersion": 1,
//  "question": {"targets": [EXPR...], "vary": [SPEC...], "objective": NAME, "replications": N,
//               "baseline": [i...] or null, "targetUnits": [UNIT...], "objectiveUnit": UNIT,
//               "gpuplan": VERSION, "scenarioFnv64": HEX,
//               "catalogFnv64": HEX},
//  "shard": {"index": K, "count": N},
//  "runs": [{"candidate": [i...], "replication": r, "targets": [x...], "objective": x}, ...]}
// A KPI a run did not measure is null.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/studies/plan_search.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace gpuplan {

/// What a shard's runs depend on: shards merge only when these agree.
struct PlanShardQuestion {
    std::vector<std::string> targets;  ///< --target texts
    std::vector<std::string> vary;     ///< --vary texts
    std::string objective;             ///< "cost", "gpus", "power"
    int replications = 5;
    std::optional<PlanCandidate> baseline;  ///< the scenario's own values (PlanStudy)
    std::vector<std::string> targetUnits;   ///< the units runs report each target's KPI in
    std::string objectiveUnit;
    std::string gpuplanVersion;
    std::string scenarioFnv64;
    std::string catalogFnv64;

    bool operator==(const PlanShardQuestion&) const = default;
};

struct PlanShardFile {
    PlanShardQuestion question;
    Shard shard;
    PlanRunTable runs;
};

/// The most a plan's grid may hold (candidates) and a shard file (runs): what the reader
/// accepts, and what a shard checks before it runs.
inline constexpr std::size_t kMaxPlanGridCandidates = 100'000'000;
inline constexpr std::size_t kMaxRunsPerPlanShard = 1'000'000;

/// Throws InputError ("--shard") when shard K/N of every run of `dimensions` × `replications`
/// would hold more than a shard file may, or the grid more than it may.
void checkPlanShardSize(const std::vector<PlanDimension>& dimensions, int replications,
                        Shard shard);

std::string writePlanShard(const PlanShardFile& file);
/// Reads strictly: unknown keys, a candidate outside the dimensions, a replication out of
/// range, a run outside its shard or twice, a value per target missing: InputError with the
/// file and the JSON pointer.
PlanShardFile readPlanShard(std::string_view text, const std::string& sourceName);

/// Joins the shards of one search: the same question in each, every index 1..N once, each
/// holding every run of its share. Throws InputError naming the file that does not fit.
PlanRunTable mergePlanShards(const std::vector<std::pair<std::string, PlanShardFile>>& shards);

}  // namespace gpuplan
