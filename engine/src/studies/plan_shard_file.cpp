// A plan's shard files (gpuplan/studies/plan_shard_file.hpp): written, read strictly, merged.
#include "gpuplan/studies/plan_shard_file.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "gpuplan/io/input_error.hpp"
#include "io/json_reader.hpp"

namespace gpuplan {

using detail::Json;
using detail::JsonNode;
using detail::JsonObject;

namespace {

Json numberOrNull(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

double readNumberOrNull(const JsonNode& n) {
    if (n.raw().is_null()) return std::numeric_limits<double>::quiet_NaN();
    return n.number(-1e300, 1e300);
}

}  // namespace

void checkPlanShardSize(const std::vector<PlanDimension>& dimensions, int replications,
                        Shard shard) {
    const std::size_t grid = planGridSize(dimensions);
    if (grid > kMaxPlanGridCandidates)
        throw InputError("--shard", "",
                         "the ranges make more than 100,000,000 candidates for shards to run "
                         "every one of: narrow them");
    const std::size_t total = grid * static_cast<std::size_t>(replications);  // ≤ 1e10
    const auto n = static_cast<std::size_t>(shard.count);
    const std::size_t most = total / n + (total % n ? 1 : 0);
    if (most > kMaxRunsPerPlanShard)
        throw InputError(
            "--shard", std::to_string(shard.index) + "/" + std::to_string(shard.count),
            "a shard would hold up to " + std::to_string(most) +
                " runs (at most 1,000,000): split into at least " +
                std::to_string((total + kMaxRunsPerPlanShard - 1) / kMaxRunsPerPlanShard) +
                " shards");
}

std::string writePlanShard(const PlanShardFile& file) {
    const PlanShardQuestion& q = file.question;
    Json runs = Json::array();
    for (const auto& [key, e] : file.runs.runs()) {
        Json targets = Json::array();
        for (double v : e.targetValues)
            targets.push_back(numberOrNull(v));
        runs.push_back({{"candidate", key.first},
                        {"replication", key.second},
                        {"targets", targets},
                        {"objective", numberOrNull(e.objective)}});
    }
    const Json doc = {{"format", "gpuplan-plan-shard"},
                      {"formatVersion", 1},
                      {"question",
                       {{"targets", q.targets},
                        {"vary", q.vary},
                        {"objective", q.objective},
                        {"replications", q.replications},
                        {"baseline", q.baseline ? Json(*q.baseline) : Json(nullptr)},
                        {"targetUnits", q.targetUnits},
                        {"objectiveUnit", q.objectiveUnit},
                        {"gpuplan", q.gpuplanVersion},
                        {"scenarioFnv64", q.scenarioFnv64},
                        {"catalogFnv64", q.catalogFnv64}}},
                      {"shard", {{"index", file.shard.index}, {"count", file.shard.count}}},
                      {"runs", runs}};
    return doc.dump(1) + "\n";
}

PlanShardFile readPlanShard(std::string_view text, const std::string& sourceName) {
    const Json doc = detail::parseStrict(text, sourceName);
    JsonObject root = JsonNode(doc, "", sourceName).object();
    if (root.required("format").string(64) != "gpuplan-plan-shard")
        root.required("format").fail("expected \"gpuplan-plan-shard\"");
    if (root.required("formatVersion").integer(1, 1) != 1)
        root.required("formatVersion").fail("expected 1");
    PlanShardFile out;
    PlanShardQuestion& q = out.question;
    JsonObject question = root.required("question").object();
    // The texts are read as the command line's are: a file cannot carry what an option could not.
    const JsonNode targets = question.required("targets");
    for (const JsonNode& t : targets.array(64)) {
        q.targets.push_back(t.string(4096));
        try {
            (void)parsePlanTarget(q.targets.back());
        } catch (const InputError& e) {
            t.fail(q.targets.back() + ": " + e.message());
        }
    }
    std::vector<PlanDimension> dims;
    const JsonNode vary = question.required("vary");
    for (const JsonNode& v : vary.array(16)) {
        q.vary.push_back(v.string(4096));
        try {
            dims.push_back(parsePlanDimension(q.vary.back()));
        } catch (const InputError& e) {
            v.fail(q.vary.back() + ": " + e.message());
        }
    }
    if (q.targets.empty()) targets.fail("no target");
    if (dims.empty()) vary.fail("nothing varied");
    q.objective =
        question.required("objective")
            .enumeration<std::string>({{"cost", "cost"}, {"gpus", "gpus"}, {"power", "power"}});
    q.replications = static_cast<int>(question.required("replications").integer(2, 100));
    const JsonNode baseline = question.required("baseline");
    if (!baseline.raw().is_null()) {
        const std::vector<JsonNode> indices = baseline.array(dims.size());
        if (indices.size() != dims.size())
            baseline.fail("expected " + std::to_string(dims.size()) + " indices or null");
        PlanCandidate c;
        for (std::size_t d = 0; d < dims.size(); ++d)
            c.push_back(indices[d].integer(0, dims[d].size() - 1));
        q.baseline = std::move(c);
    }
    const JsonNode units = question.required("targetUnits");
    for (const JsonNode& u : units.array(64))
        q.targetUnits.push_back(u.string(32));
    if (q.targetUnits.size() != q.targets.size())
        units.fail("expected a unit per target (" + std::to_string(q.targets.size()) + ")");
    q.objectiveUnit = question.required("objectiveUnit").string(32);
    q.gpuplanVersion = question.required("gpuplan").string(64);
    q.scenarioFnv64 = question.required("scenarioFnv64").string(16);
    q.catalogFnv64 = question.required("catalogFnv64").string(16);
    question.finish();
    if (planGridSize(dims) > kMaxPlanGridCandidates) vary.fail("more than 100,000,000 candidates");
    JsonObject shard = root.required("shard").object();
    out.shard.count = static_cast<int>(shard.required("count").integer(1, 100000));
    out.shard.index = static_cast<int>(shard.required("index").integer(1, out.shard.count));
    shard.finish();

    const auto reps = static_cast<std::size_t>(q.replications);
    const std::size_t grid = planGridSize(dims);
    for (const JsonNode& run : root.required("runs").array(kMaxRunsPerPlanShard)) {
        JsonObject o = run.object();
        PlanCandidate c;
        const std::vector<JsonNode> indices = o.required("candidate").array(dims.size());
        if (indices.size() != dims.size())
            o.required("candidate").fail("expected " + std::to_string(dims.size()) + " indices");
        for (std::size_t d = 0; d < dims.size(); ++d)
            c.push_back(indices[d].integer(0, dims[d].size() - 1));
        const int r = static_cast<int>(o.required("replication").integer(0, q.replications - 1));
        // The run's number says which shard holds it (run % N == K − 1).
        std::size_t index = 0;
        for (std::size_t d = 0; d < dims.size(); ++d)
            index =
                index * static_cast<std::size_t>(dims[d].size()) + static_cast<std::size_t>(c[d]);
        const std::size_t number = index * reps + static_cast<std::size_t>(r);
        if (index >= grid || number % static_cast<std::size_t>(out.shard.count) !=
                                 static_cast<std::size_t>(out.shard.index - 1))
            run.fail("run " + std::to_string(number) + " is not shard " +
                     std::to_string(out.shard.index) + "/" + std::to_string(out.shard.count) +
                     "'s");
        if (out.runs.contains(c, r)) run.fail("run " + std::to_string(number) + " twice");
        PlanEvaluation e;
        const std::vector<JsonNode> values = o.required("targets").array(q.targets.size());
        if (values.size() != q.targets.size())
            o.required("targets").fail("expected a value per target (" +
                                       std::to_string(q.targets.size()) + ")");
        for (const JsonNode& v : values)
            e.targetValues.push_back(readNumberOrNull(v));
        e.objective = readNumberOrNull(o.required("objective"));
        o.finish();
        out.runs.add(c, r, std::move(e));
    }
    root.finish();
    return out;
}

PlanRunTable mergePlanShards(const std::vector<std::pair<std::string, PlanShardFile>>& shards) {
    if (shards.empty()) throw InputError("plan merge", "", "no shard files");
    const auto& [firstName, first] = shards.front();
    std::set<int> seen;
    PlanRunTable merged;
    std::vector<PlanDimension> dims;
    for (const std::string& v : first.question.vary)
        dims.push_back(parsePlanDimension(v));
    const std::size_t total =
        planGridSize(dims) * static_cast<std::size_t>(first.question.replications);
    for (const auto& [name, shard] : shards) {
        if (!(shard.question == first.question))
            throw InputError(name, "/question",
                             "another search, scenario, catalog or gpuplan than " + firstName +
                                 " (its runs would not be the ones one machine makes)");
        if (shard.shard.count != first.shard.count)
            throw InputError(name, "/shard/count",
                             "a shard of " + std::to_string(shard.shard.count) + ", and " +
                                 firstName + " one of " + std::to_string(first.shard.count));
        if (!seen.insert(shard.shard.index).second)
            throw InputError(name, "/shard/index",
                             "shard " + std::to_string(shard.shard.index) + " twice");
        const auto n = static_cast<std::size_t>(shard.shard.count);
        const auto k = static_cast<std::size_t>(shard.shard.index - 1);
        const std::size_t expected = total / n + (k < total % n ? 1 : 0);
        if (shard.runs.size() != expected)
            throw InputError(name, "/runs",
                             "holds " + std::to_string(shard.runs.size()) + " runs of its " +
                                 std::to_string(expected) + " (an unfinished shard?)");
        for (const auto& [key, e] : shard.runs.runs())
            merged.add(key.first, key.second, e);
    }
    if (seen.size() != static_cast<std::size_t>(first.shard.count)) {
        std::string missing;
        for (int k = 1; k <= first.shard.count; ++k)
            if (!seen.contains(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
        throw InputError(firstName, "/shard",
                         "the shards of " + std::to_string(first.shard.count) + " lack " + missing);
    }
    return merged;
}

}  // namespace gpuplan
