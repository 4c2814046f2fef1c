// The planner on scenarios (gpuplan/studies/plan_study.hpp): an M/M/c fleet sized to the
// server count Erlang C gives, the answer the same on one thread or two and from merged
// shards, and questions the scenario cannot answer refused before (or at) the first run.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/studies/lesson.hpp"
#include "gpuplan/studies/plan_shard_file.hpp"
#include "gpuplan/studies/plan_study.hpp"
#include "gpuplan/studies/plan_words.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// c one-GPU nodes, 1-GPU jobs arriving as a Poisson process of 30 an hour, exponential run
/// times of mean 600 s, first come first served: an M/M/c queue with offered load
/// a = λ/µ = 30/h × 600 s = 5.
std::string mmcScenario(int servers, double horizonS) {
    Scenario s = test::smallFleet(1, servers, "n1");
    s.horizonS = horizonS;
    s.sampleIntervalS = 3600;
    s.seed = 31;
    JobClassDef c = test::jobClass("mmc", 1, 30, 600);
    c.durationS.kind = DistKind::Exponential;
    c.durationS.mean = 600;
    s.jobClasses = {c};
    return scenarioToJson(s);
}

const char* const kServers = "/topology/pods/0/racks/0/nodes/0/count";

PlanQuestion question(const std::string& target, const std::string& vary, int replications = 5) {
    PlanQuestion q;
    q.targets = {parsePlanTarget(target)};
    q.dimensions = {parsePlanDimension(vary)};
    q.replications = replications;
    return q;
}

PlanStudy study(const std::string& text, PlanQuestion q, const Catalog& catalog,
                RunBudget budget = {}) {
    LoadOptions load;
    load.budget = budget;
    return PlanStudy(text, "mmc.json", std::move(q), catalog, load);
}

}  // namespace

TEST_CASE("the planner sizes an M/M/c fleet to the server count Erlang C gives") {
    // a = 5, 1/µ = 600 s. Erlang C: C(c, a) = [aᶜ/c! · c/(c − a)] / [Σ_{k<c} aᵏ/k! +
    // aᶜ/c! · c/(c − a)], and the mean wait Wq = C / (cµ − λ) = C · 600 s / (c − 5).
    //   c = 6: Σ = 1 + 5 + 12.5 + 20.833 + 26.042 + 26.042 = 91.42; 5⁶/6! · 6 = 130.21;
    //          C = 0.5875, Wq = 352.5 s
    //   c = 7: Σ = 113.12; 5⁷/7! · 7/2 = 54.25; C = 0.3241, Wq = 97.2 s
    //   c = 8: Σ = 128.62; 5⁸/8! · 8/3 = 25.84; C = 0.1673, Wq = 33.5 s
    // So wait_s_mean ≤ 60 s needs c = 8: 33.5 s is far below 60 and 97 s far above, each
    // decided in a few 20-day replications (about 14,400 jobs each). The objective, GPU-hours
    // of Ready capacity, is c × 480 h.
    const Catalog catalog = test::testCatalog();
    const PlanStudy s =
        study(mmcScenario(4, 20 * 86400.0),
              question("wait_s_mean<=60", std::string(kServers) + "=1..16"), catalog);
    CHECK(s.objectiveName() == "gpus");
    CHECK(s.objectiveKpi() == "gpu_hours_provisioned");
    CHECK(s.objectiveUnit() == "gpu_h");
    CHECK(s.targetUnit(0) == "s");
    REQUIRE(s.baseline() == PlanCandidate{3});  // the scenario's 4 servers, at index 4 − 1
    const PlanSearchResult one = runPlanStudy(s, 1);
    REQUIRE(one.feasible);
    CHECK(planValueText(s.question().dimensions[0], one.best.candidate[0]) == "8");
    CHECK(one.best.objective.mean == Approx(8 * 480));
    CHECK(one.best.targets[0].high <= 60);
    // The baseline (c = 4 < a: an unstable queue) misses by far.
    REQUIRE(one.baseline);
    CHECK_FALSE(one.baseline->met);
    // c = 7 was judged and missed: the plan is the smallest that meets the target.
    bool sawSeven = false;
    for (const PlanVerdict& v : one.evaluated)
        if (v.candidate[0] == 6) {
            sawSeven = true;
            CHECK_FALSE(v.met);
        }
    CHECK(sawSeven);
    // Two threads run replications two at a time; the verdicts are the same.
    const PlanSearchResult two = runPlanStudy(s, 2);
    CHECK(two.best.candidate == one.best.candidate);
    CHECK(two.evaluations == one.evaluations);
    CHECK(two.best.targets[0].mean == one.best.targets[0].mean);
    CHECK(two.best.targets[0].high == one.best.targets[0].high);
    CHECK(two.runsExecuted >= two.evaluations);
}

TEST_CASE("a plan's shards, written, read and merged, give the unsharded answer") {
    // The grid 1..10 servers × 3 replications = 30 runs, split 3 ways (10 each); the search
    // over the merged table asks only runs it holds and judges them alike.
    const Catalog catalog = test::testCatalog();
    const PlanStudy s =
        study(mmcScenario(9, 5 * 86400.0),
              question("wait_s_mean<=60", std::string(kServers) + "=1..10", 3), catalog);
    const PlanSearchResult direct = runPlanStudy(s, 1);
    REQUIRE(direct.feasible);
    std::vector<std::pair<std::string, PlanShardFile>> shards;
    for (int k = 1; k <= 3; ++k) {
        PlanShardFile f;
        f.question.targets = {"wait_s_mean<=60"};
        f.question.vary = {std::string(kServers) + "=1..10"};
        f.question.objective = "gpus";
        f.question.replications = 3;
        f.question.baseline = s.baseline();
        f.question.targetUnits = {s.targetUnit(0)};
        f.question.objectiveUnit = s.objectiveUnit();
        f.question.gpuplanVersion = "test";
        f.shard = {k, 3};
        f.runs = runPlanShard(s, f.shard, 2);
        CHECK(f.runs.size() == 10);
        CHECK(planShardRunCount(s, f.shard) == 10);
        const std::string name = "plan-shard-" + std::to_string(k) + "-of-3.json";
        shards.emplace_back(name, readPlanShard(writePlanShard(f), name));
    }
    const PlanRunTable merged = mergePlanShards(shards);
    CHECK(merged.size() == 30);
    const PlanSearchResult fromShards =
        searchPlan(s.question().dimensions, s.question().targets, merged.evaluator(),
                   planSearchOptions(s.question().dimensions, 3, s.baseline(), 1));
    CHECK(fromShards.best.candidate == direct.best.candidate);
    CHECK(fromShards.evaluations == direct.evaluations);
    CHECK(fromShards.best.targets[0].mean == direct.best.targets[0].mean);
    CHECK(fromShards.best.objective.high == direct.best.objective.high);
    REQUIRE(fromShards.evaluated.size() == direct.evaluated.size());

    // A shard missing, twice, or from another question is refused with its file.
    auto lacking = shards;
    lacking.pop_back();
    CHECK(test::errorOf([&] { mergePlanShards(lacking); }) ==
          "plan-shard-1-of-3.json: /shard: the shards of 3 lack 3");
    auto twice = shards;
    twice.push_back(shards[1]);
    CHECK(test::errorOf([&] { mergePlanShards(twice); }) ==
          "plan-shard-2-of-3.json: /shard/index: shard 2 twice");
    auto other = shards;
    other[2].second.question.scenarioFnv64 = "1";
    CHECK(test::errorOf([&] { mergePlanShards(other); }).find("another search, scenario") !=
          std::string::npos);
}

TEST_CASE("a shard file that does not hold its own runs is refused with the place") {
    PlanShardFile f;
    f.question.targets = {"wait<=1"};
    f.question.vary = {"/n=0..3"};
    f.question.objective = "gpus";
    f.question.replications = 2;
    f.question.targetUnits = {"s"};
    f.question.objectiveUnit = "gpu_h";
    f.question.gpuplanVersion = "v";
    f.shard = {2, 2};
    // Runs are numbered candidate × 2 + replication: shard 2 of 2 holds the odd ones.
    f.runs.add({0}, 1, {{0.5}, 1});
    f.runs.add({1}, 1, {{0.25}, 2});
    const std::string good = writePlanShard(f);
    const PlanShardFile back = readPlanShard(good, "s.json");
    CHECK(back.runs.size() == 2);
    CHECK(back.question == f.question);
    const auto refused = [](std::string text) {
        return test::errorOf([&] { readPlanShard(text, "s.json"); });
    };
    const auto edited = [&good](const char* pointer, nlohmann::json value) {
        nlohmann::json doc = nlohmann::json::parse(good);
        doc[nlohmann::json::json_pointer(pointer)] = std::move(value);
        return doc.dump();
    };
    CHECK(refused(edited("/runs/0/replication", 0)) == "s.json: /runs/0: run 0 is not shard 2/2's");
    CHECK(refused(edited("/runs/1/candidate/0", 9)) ==
          "s.json: /runs/1/candidate/0: must be between 0 and 3");
    CHECK(refused(edited("/runs/1/candidate/0", 0)) == "s.json: /runs/1: run 1 twice");
    CHECK(refused(edited("/runs/1/targets", nlohmann::json::array())) ==
          "s.json: /runs/1/targets: expected a value per target (1)");
    CHECK(refused(edited("/question/vary/0", "/n=3..0")) ==
          "s.json: /question/vary/0: /n=3..0: the range is inverted (3 > 0)");
    CHECK(refused("{\"format\": \"gpuplan-plan-shard\"}").find("formatVersion") !=
          std::string::npos);
}

TEST_CASE("a plan the scenario cannot answer is refused naming what is wrong") {
    const Catalog catalog = test::testCatalog();
    const std::string text = mmcScenario(4, 86400.0);
    const auto refused = [&](const std::string& target, const std::string& vary,
                             RunBudget budget = {}) {
        return test::errorOf([&] { (void)study(text, question(target, vary), catalog, budget); });
    };
    // The seed and what sets the measurement are no change to plan.
    CHECK(refused("wait_s_mean<=60", "/seed=1..9") ==
          "--vary: /seed=1..9: the planner runs every candidate on the same seeds (common random "
          "numbers); a seed is not a change to plan");
    CHECK(refused("wait_s_mean<=60", "/horizonS=1..9") ==
          "--vary: /horizonS=1..9: horizonS changes what is measured, not the fleet or its rules");
    CHECK(refused("wait_s_mean<=60", "/name=1..9") ==
          "--vary: /name=1..9: a range sets an integer, and /name in mmc.json is \"test\"");
    CHECK(refused("wait_s_mean<=60", "/topology/pods/0/racks/0/nodes/0/nodeType=n1|n4") ==
          "accepted");
    CHECK(
        refused("wait_s_mean<=60", std::string(kServers) + "=a|b").find("a choice sets a string") !=
        std::string::npos);
    CHECK(refused("wait_s_mean<=60", "/nothing/here=1..3") ==
          "--vary: /nothing/here=1..3: the scenario mmc.json sets nothing at /nothing/here (set "
          "it in the scenario first)");
    // cost needs prices.
    PlanQuestion q = question("wait_s_mean<=60", std::string(kServers) + "=1..9");
    q.objective = "cost";
    CHECK(test::errorOf([&] { (void)study(text, q, catalog); }).find("has no prices") !=
          std::string::npos);
    // The budget: up to (1 + ⌈log2 9⌉ + 1 + 1) = 7 candidates × 5 replications = 35 runs,
    // each about 1e5 work units at the top (9 servers, 720 jobs, 25 samples): one run fits
    // 1e6, the search does not.
    RunBudget tiny;
    tiny.workOps = 1e6;
    CHECK(refused("wait_s_mean<=60", std::string(kServers) + "=1..9", tiny)
              .find("the plan's search would make up to 35 runs (7 candidates × 5 "
                    "replications): the run would take about") != std::string::npos);
    // A KPI, team or objective no run reports: refused before the search (a short run of the
    // top candidate names what runs report), with what they do report.
    CHECK(refused("wait_p95<=60", std::string(kServers) + "=1..9")
              .starts_with("--target: wait_p95<=60: the runs report no KPI \"wait_p95\" (they "
                           "report allocation_mean, "));
    CHECK(refused("team:nobody:wait_s_p95<=60", std::string(kServers) + "=1..9") ==
          "--target: team:nobody:wait_s_p95<=60: no team \"nobody\" (the teams: t)");
    CHECK(refused("team:t:wait_p95<=60", std::string(kServers) + "=1..9")
              .starts_with("--target: team:t:wait_p95<=60: a team has no KPI \"wait_p95\" (a "
                           "team's KPIs: wait_s_p50, wait_s_p95, "));
    PlanQuestion power = question("wait_s_mean<=60", std::string(kServers) + "=1..9");
    power.objective = "power";
    CHECK(test::errorOf([&] { (void)study(text, power, catalog); }) ==
          "--objective: power: the runs report no KPI \"peak_power_kw\" to minimise");
}

TEST_CASE("a plan's changes are said in words by the place they set") {
    // smallFleet: pod "pod" with one rack "rack" of nodes "node" of type n1 (named "n1" in the
    // test catalog). A quota for team t of 8 tg GPUs.
    Scenario s = test::smallFleet(1, 4, "n1");
    QuotaDef q;
    q.team = "t";
    FlavorQuotaDef tg;
    tg.gpuModel = "tg";
    tg.nominalGpus = 8;
    q.flavors = {tg};
    s.quotas = {q};
    const std::string node = s.pods[0].racks[0].nodes[0].name;
    CHECK(describePlanChange(s, "/topology/pods/0/racks/0/count", "1", "4") ==
          "+3 racks of 4 × " + s.nodeTypes[0].name + " in pod ▸ rack (1 → 4)");
    CHECK(describePlanChange(s, "/topology/pods/0/racks/0/count", "2", "1") ==
          "−1 rack of 4 × " + s.nodeTypes[0].name + " in pod ▸ rack (2 → 1)");
    CHECK(describePlanChange(s, "/topology/pods/0/racks/0/count", "3", "3") ==
          "pod ▸ rack: 3 racks, unchanged");
    CHECK(describePlanChange(s, "/topology/pods/0/racks/0/nodes/0/count", "4", "6") ==
          "+2 nodes of " + s.nodeTypes[0].name + " per rack in pod ▸ rack ▸ " + node + " (4 → 6)");
    CHECK(describePlanChange(s, "/topology/pods/0/racks/0/nodes/0/nodeType", "n1", "n4") ==
          "pod ▸ rack ▸ " + node + "'s node type: " + s.nodeTypes[0].name + " → n4");
    CHECK(describePlanChange(s, "/quotas/0/flavors/0/nominalGpus", "8", "12") ==
          "+4 GPUs in team t's quota of tg (8 → 12)");
    CHECK(describePlanChange(s, "/scheduler/backfillDepth", "4", "9") ==
          "/scheduler/backfillDepth: 4 → 9");
    CHECK(describePlanPlace(s, "/topology/pods/0/racks/0/count") == "racks in pod ▸ rack");
    CHECK(describePlanPlace(s, "/topology/pods/3/racks/0/count") ==
          "/topology/pods/3/racks/0/count");
}

TEST_CASE("lesson 6.5's plan is the one the planner finds") {
    // The lesson tells the learner the planner answers "wait p95 ≤ 60 min, racks of pod-a
    // 4..12" with its step 2's rack count, at 5 runs per candidate; and that 7 racks, whose
    // interval still reaches past the hour after five runs, count as missed.
    const std::filesystem::path file =
        test::presetsDir() / "lessons" / "scenarios" / "6.5-plan-next-quarter.json";
    const std::string text = readTextFile(file);
    const Catalog& catalog = test::presetCatalog();
    const PlanQuestion q = question("wait_s_p95<=3600", "/topology/pods/0/racks/0/count=4..12");
    const PlanStudy s(text, file, q, catalog, LoadOptions{});
    const PlanSearchResult r = runPlanStudy(s, 2);
    REQUIRE(r.feasible);
    CHECK(planValueText(q.dimensions[0], r.best.candidate[0]) == "8");
    for (const PlanVerdict& v : r.evaluated)
        if (planValueText(q.dimensions[0], v.candidate[0]) == "7") {
            CHECK_FALSE(v.met);
            CHECK(v.replications == 5);
            CHECK(v.targets[0].high > 3600);
        }
    const Lesson lesson = loadLesson(test::presetsDir() / "lessons" / "6.5-plan-next-quarter.json");
    REQUIRE(lesson.steps.size() == 2);
    CHECK(lesson.steps[1].set.at(0).second == "8");
}

TEST_CASE("a node type a job would not fit is no choice for a plan") {
    // The test catalog's "tg" holds 80 GB, "tg-big" 160 GB. A class asking 100 GB per GPU fits
    // big8 (tg-big) but not n8 (tg): a group of big8 may not become n8 (the jobs would
    // crash-loop, and a wait target be met by failing them), while a group of n8 already
    // fails them, so n8 → n8 or big8 adds no failure.
    Scenario s = test::smallFleet(1, 2, "big8");
    JobClassDef c = test::jobClass("big", 8, 1, 3600);
    c.traits.memoryGbPerGpu = 100;
    s.jobClasses = {c};
    test::resolveHardware(s);
    const Catalog catalog = test::testCatalog();
    CHECK(jobsFailingOn(s, catalog, "big8", "n8") ==
          "job class big asks 100 GB per GPU, and n8's GPUs hold 80 GB");
    CHECK(jobsFailingOn(s, catalog, "big8", "big8").empty());
    CHECK(jobsFailingOn(s, catalog, "n8", "n8").empty());  // it fails as it is
    // A class held to another GPU model never lands there.
    s.jobClasses[0].traits.gpuModel = "tg-big";
    CHECK(jobsFailingOn(s, catalog, "big8", "n8").empty());
}

TEST_CASE("a shard that would hold more runs than a shard file may is refused before it runs") {
    // 1..1,000,000 × 5 replications = 5,000,000 runs: one shard would hold them all, five
    // shards 1,000,000 each (the most a file holds).
    const std::vector<PlanDimension> dims{parsePlanDimension("/n=1..1000000")};
    CHECK(test::errorOf([&] {
              checkPlanShardSize(dims, 5, {1, 1});
          }) ==
          "--shard: 1/1: a shard would hold up to 5000000 runs (at most 1,000,000): split into "
          "at least 5 shards");
    CHECK(test::errorOf([&] { checkPlanShardSize(dims, 5, {1, 5}); }) == "accepted");
    CHECK(test::errorOf([&] {
              checkPlanShardSize(
                  {parsePlanDimension("/a=1..100000"), parsePlanDimension("/b=1..100000")}, 2,
                  {1, 100000});
          }).find("more than 100,000,000 candidates") != std::string::npos);
}
