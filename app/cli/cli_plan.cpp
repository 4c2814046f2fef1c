// gpuplan-cli plan: the cheapest change that meets the targets (gpuplan/studies/plan_study.hpp),
// on this machine, or split into shards and finished by `plan merge`.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/studies/plan_shard_file.hpp"
#include "gpuplan/studies/plan_study.hpp"
#include "gpuplan/studies/plan_words.hpp"

namespace gpuplan::cli {

const char* const kPlanUsage =
    "usage: gpuplan-cli plan SCENARIO --target EXPR... --vary SPEC... [--objective "
    "cost|gpus|power]\n"
    "                        [--replications N] [--threads K] [--json]\n"
    "       gpuplan-cli plan SCENARIO ... --shard K/N --out DIR\n"
    "       gpuplan-cli plan merge DIR [--json]\n"
    "\n"
    "Finds the cheapest change to SCENARIO that meets every target, each judged on its 95 %\n"
    "confidence interval over replications that run the same seeds for every candidate.\n"
    "  --target EXPR   KPI<=V or KPI>=V, KPI a name of run --out's KPIs (wait_s_p95) or\n"
    "                  team:NAME:KPI (wait_s_p50, wait_s_p95, gpu_hours_allocated,\n"
    "                  jobs_completed, jobs_waiting_at_end, allocation_share, cost_usd);\n"
    "                  repeatable, all must hold. Met when the interval's upper bound is <= V\n"
    "                  (or its lower bound >= V)\n"
    "  --vary SPEC     /JSON/POINTER=LO..HI (an integer the scenario sets: a rack or node\n"
    "                  count, a quota; more never hurts, so it is bisected) or\n"
    "                  /JSON/POINTER=a|b|c (a string: a node type; each is tried); repeatable\n"
    "  --objective X   what \"cheapest\" means: cost (cost_usd; the default on a priced\n"
    "                  scenario), gpus (gpu_hours_provisioned; the default otherwise) or power\n"
    "                  (peak_power_kw)\n"
    "  --replications N  the most runs per candidate (default 5, 2..100): two at first, more\n"
    "                  only while an interval straddles its bound; still undecided = missed\n"
    "  --threads K     threads (default: every core); the answer does not depend on it\n"
    "  --json          {\"feasible\", \"plan\": {SPEC: value}, \"set\": {POINTER: value},\n"
    "                  \"objective\": {\"name\", \"kpi\", \"value\", \"ci95\"}, \"targets\": "
    "{EXPR:\n"
    "                  {\"value\", \"ci95\", \"met\"}}, \"baseline\", \"evaluations\", "
    "\"frontier\"}\n"
    "  --shard K/N --out DIR  run shard K of N of every run the search could ask for\n"
    "                  (a Slurm array task, a Kubernetes Indexed Job pod) into\n"
    "                  DIR/plan-shard-K-of-N.json; `plan merge DIR` then finishes the search\n"
    "                  from the N files without simulating, with the answer one machine gives\n"
    "  Options of run: --data-dir, --presets, --catalog, --budget-gb, --budget-ops\n"
    "When no candidate meets every target: \"feasible\": false and the one that misses least\n"
    "(exit 0). The search is refused before it starts when its runs would exceed the budget.\n";

namespace {

using Json = nlohmann::ordered_json;

Json interval(const MeanInterval& m) {
    const auto num = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
    return Json::array({num(m.low), num(m.high)});
}

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

/// What the plan's answer needs besides the search: the question's texts and the objective.
struct PlanAnswer {
    std::vector<PlanTarget> targets;
    std::vector<PlanDimension> dimensions;
    std::string objectiveName, objectiveKpi;
    std::vector<std::string> targetUnits;  ///< as the runs report each target's KPI
    std::string objectiveUnit;
    PlanSearchResult result;
    /// The plan in words (describePlanChange), when the scenario was read (not in a merge).
    std::vector<std::string> changes;
};

Json valueJson(const PlanDimension& d, long long index) {
    return d.isChoice() ? Json(planValueText(d, index)) : Json(d.lo + index);
}

Json verdictJson(const PlanAnswer& a, const PlanVerdict& v) {
    Json plan = Json::object(), targets = Json::object();
    for (std::size_t d = 0; d < a.dimensions.size(); ++d)
        plan[a.dimensions[d].text] = valueJson(a.dimensions[d], v.candidate[d]);
    for (std::size_t t = 0; t < a.targets.size(); ++t) {
        // How far its mean is past the bound, in the KPI's unit (0 on the right side).
        const PlanTarget& target = a.targets[t];
        const double past = target.sense == TargetSense::AtMost ? v.targets[t].mean - target.bound
                                                                : target.bound - v.targets[t].mean;
        targets[target.text] = {{"value", number(v.targets[t].mean)},
                                {"unit", a.targetUnits[t]},
                                {"ci95", interval(v.targets[t])},
                                {"met", static_cast<bool>(v.targetMet[t])},
                                {"shortfall", number(std::max(0.0, past))}};
    }
    return {{"plan", plan},
            {"objective",
             {{"name", a.objectiveName},
              {"kpi", a.objectiveKpi},
              {"value", number(v.objective.mean)},
              {"unit", a.objectiveUnit},
              {"ci95", interval(v.objective)}}},
            {"targets", targets},
            {"met", v.met},
            {"replications", v.replications}};
}

Json answerJson(const PlanAnswer& a) {
    const PlanSearchResult& r = a.result;
    const Json best = verdictJson(a, r.best);
    Json out = {{"feasible", r.feasible}};
    out["plan"] = best["plan"];
    Json set = Json::object();
    for (std::size_t d = 0; d < a.dimensions.size(); ++d)
        set[a.dimensions[d].pointer] = valueJson(a.dimensions[d], r.best.candidate[d]);
    out["set"] = set;
    out["objective"] = best["objective"];
    out["targets"] = best["targets"];
    out["replications"] = r.best.replications;
    if (!r.feasible) out["miss"] = r.best.miss;
    out["baseline"] = r.baseline ? verdictJson(a, *r.baseline) : Json(nullptr);
    out["evaluations"] = r.evaluations;
    out["candidates"] = r.evaluated.size();
    out["capped"] = r.capped;
    Json frontier = Json::array();
    for (std::size_t i : planFrontier(r, a.targets))
        frontier.push_back(verdictJson(a, r.evaluated[i]));
    out["frontier"] = frontier;
    return out;
}

void printTable(const PlanAnswer& a) {
    const PlanSearchResult& r = a.result;
    const PlanVerdict& v = r.best;
    std::printf("%s\n", r.feasible ? "Plan: the cheapest candidate that meets every target"
                                   : "No candidate within the bounds meets every target; the "
                                     "closest:");
    int width = 0;
    for (const PlanDimension& dim : a.dimensions)
        width = std::max(width, static_cast<int>(dim.pointer.size()));
    for (std::size_t d = 0; d < a.dimensions.size(); ++d) {
        const PlanDimension& dim = a.dimensions[d];
        std::string before;
        if (r.baseline) before = planValueText(dim, r.baseline->candidate[d]) + " -> ";
        std::printf("  %-*s  %s%s\n", width, dim.pointer.c_str(), before.c_str(),
                    planValueText(dim, v.candidate[d]).c_str());
    }
    for (const std::string& change : a.changes)
        std::printf("  %s\n", change.c_str());
    std::printf("\n%-36s %-30s %-6s %s\n", "target", "mean [95 % interval]", "met",
                r.baseline ? "now" : "");
    for (std::size_t t = 0; t < a.targets.size(); ++t) {
        const std::string& unit = a.targetUnits[t];
        const std::string value = formatKpi(v.targets[t].mean, unit) + " [" +
                                  formatKpi(v.targets[t].low, unit) + ", " +
                                  formatKpi(v.targets[t].high, unit) + "]";
        std::printf("%-36s %-30s %-6s %s\n", a.targets[t].text.c_str(), value.c_str(),
                    v.targetMet[t] ? "yes" : "no",
                    r.baseline ? formatKpi(r.baseline->targets[t].mean, unit).c_str() : "");
    }
    const std::string objective = formatKpi(v.objective.mean, a.objectiveUnit) + " [" +
                                  formatKpi(v.objective.low, a.objectiveUnit) + ", " +
                                  formatKpi(v.objective.high, a.objectiveUnit) + "]";
    std::printf("%-36s %-30s %-6s %s\n", ("objective " + a.objectiveKpi).c_str(), objective.c_str(),
                "",
                r.baseline ? formatKpi(r.baseline->objective.mean, a.objectiveUnit).c_str() : "");
    if (!r.feasible)
        std::printf("\nmisses by %.3g (each target's shortfall over its bound)\n", v.miss);
    int most = 0;
    for (const PlanVerdict& e : r.evaluated)
        most = std::max(most, e.replications);
    std::printf(
        "\n%zu candidates judged with %d runs (2 to %d replications each, the same seeds "
        "for every candidate)%s\n",
        r.evaluated.size(), r.evaluations, most,
        r.capped ? "; stopped at the search's bound, so perhaps not the cheapest" : "");
}

void printAnswer(const PlanAnswer& a, bool json) {
    if (json)
        std::printf("%s\n", answerJson(a).dump(2).c_str());
    else
        printTable(a);
}

int mergeCommand(Args& args) {
    std::optional<std::filesystem::path> dir;
    bool json = false;
    while (!args.done()) {
        if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else if (args.peek().starts_with("-")) {
            args.unknown();
        } else if (dir) {
            throw UsageError{"plan merge takes one folder"};
        } else {
            dir = args.take();
        }
    }
    if (!dir) throw UsageError{"plan merge needs the folder the shards wrote"};
    std::vector<std::pair<std::string, PlanShardFile>> shards;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(*dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("plan-shard-") || !name.ends_with(".json")) continue;
        shards.emplace_back(entry.path().string(),
                            readPlanShard(readTextFile(entry.path()), entry.path().string()));
    }
    if (ec) throw InputError(dir->string(), "", "cannot list the folder: " + ec.message());
    if (shards.empty())
        throw InputError(dir->string(), "", "holds no plan-shard-K-of-N.json files");
    std::sort(shards.begin(), shards.end(), [](const auto& a, const auto& b) {
        return a.second.shard.index < b.second.shard.index;
    });
    const PlanRunTable table = mergePlanShards(shards);
    const PlanShardQuestion& q = shards.front().second.question;
    PlanAnswer a;
    for (const std::string& t : q.targets)
        a.targets.push_back(parsePlanTarget(t));
    for (const std::string& v : q.vary)
        a.dimensions.push_back(parsePlanDimension(v));
    a.objectiveName = q.objective;
    a.targetUnits = q.targetUnits;
    a.objectiveUnit = q.objectiveUnit;
    a.objectiveKpi = q.objective == "cost"   ? "cost_usd"
                     : q.objective == "gpus" ? "gpu_hours_provisioned"
                                             : "peak_power_kw";
    // The options the unsharded search runs with, so it judges alike.
    a.result = searchPlan(a.dimensions, a.targets, table.evaluator(),
                          planSearchOptions(a.dimensions, q.replications, q.baseline, 1));
    printAnswer(a, json);
    return kOk;
}

}  // namespace

int planCommand(Args& args) {
    if (!args.done() && args.peek() == "merge") {
        args.take();
        return mergeCommand(args);
    }
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile, outDir;
    PlanQuestion question;
    int threads = 0;
    bool json = false;
    std::optional<Shard> shard;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--target")) {
            question.targets.push_back(parsePlanTarget(args.value("--target")));
        } else if (args.at("--vary")) {
            question.dimensions.push_back(parsePlanDimension(args.value("--vary")));
        } else if (args.at("--objective")) {
            question.objective = args.value("--objective");
            if (question.objective != "cost" && question.objective != "gpus" &&
                question.objective != "power")
                throw UsageError{"--objective takes cost, gpus or power, got \"" +
                                 question.objective + "\""};
        } else if (args.at("--replications")) {
            question.replications = static_cast<int>(args.integer("--replications", 2, 100));
        } else if (args.at("--threads")) {
            threads = static_cast<int>(args.integer("--threads", 1, 1024));
        } else if (args.at("--shard")) {
            shard = parseShard(args.value("--shard"));
        } else if (args.at("--out")) {
            outDir = args.value("--out");
        } else if (args.at("--json")) {
            args.flag("--json");
            json = true;
        } else {
            args.scenario(scenarioFile);
        }
    }
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (question.targets.empty()) throw UsageError{"no --target given"};
    if (question.dimensions.empty()) throw UsageError{"no --vary given"};
    if (shard.has_value() != outDir.has_value())
        throw UsageError{"--shard and --out go together (a shard writes its runs into DIR)"};
    if (common.priceBook) throw UsageError{"--pricebook does not go with plan (set /pricing)"};
    const Catalog catalog = loadCatalogFor(common);
    const std::string scenarioText = readTextFile(*scenarioFile);
    const PlanStudy study(scenarioText, *scenarioFile, question, catalog, loadOptionsFor(common));

    if (shard) {
        checkPlanShardSize(question.dimensions, question.replications, *shard);
        const std::size_t runs = planShardRunCount(study, *shard);
        if (const std::string excess = budgetExcess(study.costOfRuns(runs, threads), common.budget);
            !excess.empty())
            throw InputError(scenarioFile->string(), "--shard",
                             "this shard would make " + std::to_string(runs) +
                                 " runs (every candidate's, split " + std::to_string(shard->count) +
                                 " ways): " + excess);
        prepareOutputFolder("--out", *outDir);
        PlanShardFile file;
        for (const PlanTarget& t : question.targets)
            file.question.targets.push_back(t.text);
        for (const PlanDimension& d : question.dimensions)
            file.question.vary.push_back(d.text);
        file.question.objective = study.objectiveName();
        file.question.replications = question.replications;
        file.question.baseline = study.baseline();
        for (std::size_t t = 0; t < question.targets.size(); ++t)
            file.question.targetUnits.push_back(study.targetUnit(t));
        file.question.objectiveUnit = study.objectiveUnit();
        file.question.gpuplanVersion = GPUPLAN_VERSION;
        file.question.scenarioFnv64 = fnv64(scenarioText);
        file.question.catalogFnv64 = catalogFnv64(common);
        file.shard = *shard;
        file.runs = runPlanShard(study, *shard, threads, progressBar(runs));
        const std::string name = "plan-shard-" + std::to_string(shard->index) + "-of-" +
                                 std::to_string(shard->count) + ".json";
        writeFileAtomic(*outDir / name, writePlanShard(file));
        std::printf("shard %d/%d: %zu runs into %s\n", shard->index, shard->count, file.runs.size(),
                    (*outDir / name).string().c_str());
        return kOk;
    }

    PlanAnswer a;
    a.targets = question.targets;
    a.dimensions = question.dimensions;
    a.objectiveName = study.objectiveName();
    a.objectiveKpi = study.objectiveKpi();
    for (std::size_t t = 0; t < a.targets.size(); ++t)
        a.targetUnits.push_back(study.targetUnit(t));
    a.objectiveUnit = study.objectiveUnit();
    a.result = runPlanStudy(study, threads, progressBar(study.runBound()));
    for (std::size_t d = 0; d < a.dimensions.size() && !a.result.evaluated.empty(); ++d)
        a.changes.push_back(
            describePlanChange(study.scenario(), a.dimensions[d].pointer, study.currentValues()[d],
                               planValueText(a.dimensions[d], a.result.best.candidate[d])));
    printAnswer(a, json);
    return kOk;
}

}  // namespace gpuplan::cli
