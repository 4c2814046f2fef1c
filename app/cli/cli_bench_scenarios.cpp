#include "cli_bench_scenarios.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"

namespace gpuplan::cli {

namespace {

using Json = nlohmann::ordered_json;

Json fleetOf(const std::vector<std::pair<std::string, int>>& racks, const std::string& nodeType) {
    Json rackList = Json::array();
    for (const auto& [name, nodes] : racks)
        rackList.push_back(
            {{"name", name},
             {"count", 1},
             {"nodes", {{{"name", "node"}, {"count", nodes}, {"nodeType", nodeType}}}}});
    return {{"pods", {{{"name", "pod"}, {"count", 1}, {"racks", rackList}}}}};
}

Json scenarioHead(const std::string& name, double horizonS, double sampleIntervalS) {
    return {{"format", "gpuplan-scenario"},
            {"formatVersion", 1},
            {"name", name},
            {"seed", 1},
            {"horizonS", horizonS},
            {"sampleIntervalS", sampleIntervalS},
            {"teams", {{{"name", "t"}}}}};
}

Json poissonClass(const std::string& name, double ratePerHour, long long maxJobs, int gpus,
                  double durationS) {
    return {{"name", name},
            {"team", "t"},
            {"arrival", {{"process", "poisson"}, {"ratePerHour", ratePerHour}}},
            {"maxJobs", maxJobs},
            {"gpus", {{"dist", "fixed"}, {"value", gpus}}},
            {"durationS", {{"dist", "fixed"}, {"value", durationS}}}};
}

Scenario parse(const Json& doc, const CommonOptions& common, const std::filesystem::path& dir,
               const RunBudget& budget) {
    LoadOptions options;
    options.budget = budget;
    return parseScenario(doc.dump(), doc.value("name", "generated"), loadCatalogFor(common),
                         options, dir);
}

/// The largest size in [1, maxSize] whose scenario is within the default budget: doubling,
/// then bisection, on the estimate alone (nothing is simulated while sizing).
long long edgeSize(const std::function<Json(long long)>& make, long long maxSize,
                   const CommonOptions& common, const std::filesystem::path& dir) {
    const RunBudget budget;
    RunBudget unlimited;
    unlimited.memoryBytes = unlimited.workOps = 1e300;
    auto fits = [&](long long n) {
        try {
            const Scenario s = parse(make(n), common, dir, unlimited);
            return budgetExcess(estimateRunCost(s, Fleet::build(s)), budget).empty();
        } catch (const InputError&) {
            return false;  // past another limit of the reader
        }
    };
    long long good = 1, bad = maxSize + 1;
    for (long long n = 2; n <= maxSize; n *= 2) {
        if (!fits(n)) {
            bad = n;
            break;
        }
        good = n;
    }
    while (bad - good > std::max(1LL, good / 64)) {
        const long long mid = good + (bad - good) / 2;
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

GeneratedScenario atEdge(std::string name, std::string what, long long maxSize,
                         std::function<Json(long long, const std::filesystem::path&)> make) {
    return {std::move(name), std::move(what), "",
            [make, maxSize](const CommonOptions& common, const std::filesystem::path& dir) {
                const auto at = [&](long long n) { return make(n, dir); };
                const long long n = edgeSize(at, maxSize, common, dir);
                Scenario s = parse(at(n), common, dir, RunBudget{});
                s.description = "N = " + std::to_string(n) + " (the largest that validates)";
                return s;
            }};
}

// ---- What the run-cost estimate must count ----
// (cohort chains, replications, racks visited per sample, elastic resizes' records). Each is
// grown to the largest size that validates, so its time and memory show the estimate holds.

/// One pod of `racks` racks of `nodesPerRack` DGX H100 nodes each (one rack definition).
Json identicalRacks(int racks, int nodesPerRack) {
    return {{"pods",
             {{{"name", "pod"},
               {"count", 1},
               {"racks",
                {{{"name", "rack"},
                  {"count", racks},
                  {"nodes",
                   {{{"name", "node"}, {"count", nodesPerRack}, {"nodeType", "dgx-h100"}}}}}}}}}}};
}

void appendEstimateScenarios(std::vector<GeneratedScenario>& out) {
    // A chain of 1,000 cohorts (the reader's most), each the parent of the next, a team's
    // queue at the bottom and one job, sampled N times: every sample's quota series and every
    // quota check climb the whole chain.
    out.push_back(
        atEdge("adversarial_cohort_chain", "1,000 nested cohorts, one job, N samples", 1'000'000,
               [](long long n, const std::filesystem::path&) {
                   Json s = scenarioHead("cohort chain × samples", static_cast<double>(n), 1);
                   s["topology"] = fleetOf({{"rack", 2}}, "dgx-h100");
                   Json cohorts = Json::array({{{"name", "c0"}}});
                   for (int i = 1; i < 1000; ++i)
                       cohorts.push_back({{"name", "c" + std::to_string(i)},
                                          {"parent", "c" + std::to_string(i - 1)}});
                   s["cohorts"] = cohorts;
                   s["quotas"] = {{{"team", "t"},
                                   {"cohort", "c999"},
                                   {"flavors", {{{"gpuModel", "h100-sxm"}, {"nominalGpus", 8}}}}}};
                   s["jobClasses"] = {poissonClass("one", 3600, 1, 1, 3600)};
                   return s;
               }));
    // The default week on N seeds (the scenario's "replications", as the application and
    // `run` use it).
    out.push_back({"adversarial_replications", "the default week, N replications", "",
                   [](const CommonOptions& common, const std::filesystem::path&) {
                       const std::filesystem::path file =
                           presetsDirFor(common) / "scenarios" / "default.json";
                       const Json base = Json::parse(readTextFile(file));
                       const auto at = [&base](long long n) {
                           Json s = base;
                           s["name"] = "default × replications";
                           s["replications"] = n;
                           return s;
                       };
                       const long long n =
                           edgeSize(at, Scenario::kMaxReplications, common, file.parent_path());
                       Scenario s = parse(at(n), common, file.parent_path(), RunBudget{});
                       s.description = "N = " + std::to_string(n) + " (the largest that validates)";
                       return s;
                   }});
    // Idle racks sampled N times: a sample's gang measures visit every rack, so the estimate
    // counts racks. 100,000 one-node racks (the same nodes in one rack would cost nothing), and
    // 60,000 two-node racks (the largest rack-local gang still reads every rack: its two nodes
    // could be one gang).
    auto idleRacks = [&](const char* name, const char* what, const char* scenarioName, int racks,
                         int nodesPerRack) {
        out.push_back(atEdge(name, what, 1'000'000, [=](long long n, const std::filesystem::path&) {
            Json s = scenarioHead(scenarioName, static_cast<double>(n), 1);
            s["topology"] = identicalRacks(racks, nodesPerRack);
            s["jobClasses"] = {poissonClass("one", 3600, 1, 1, 3600)};
            return s;
        }));
    };
    idleRacks("adversarial_one_node_racks", "100,000 idle one-node racks, N samples",
              "one-node racks × samples", 100'000, 1);
    idleRacks("adversarial_two_node_racks", "60,000 idle two-node racks, N samples",
              "two-node racks × samples", 60'000, 2);
    // The 100k preset's fleet at a fiftieth of its load for two weeks, its gangs elastic to
    // 1,000,000 GPUs: few jobs, but each gang grows into the idle fleet and gives it back,
    // every resize recording the whole gang (577 MB in the first week), so the estimate counts
    // resizes; the run's budget of GPU holds stops them in the second week.
    out.push_back(
        {"adversarial_elastic_light_load",
         "synthetic-100k at 1/50 of its load for 2 weeks, gangs elastic to 1,000,000 GPUs", "",
         [](const CommonOptions& common, const std::filesystem::path&) {
             const std::filesystem::path file =
                 presetsDirFor(common) / "scenarios" / "synthetic-100k.json";
             Json doc = Json::parse(readTextFile(file));
             doc["horizonS"] = 14 * 86400;
             for (Json& c : doc["jobClasses"]) {
                 c["arrival"]["ratePerHour"] = c["arrival"]["ratePerHour"].get<double>() / 50;
                 c["maxJobs"] = c["maxJobs"].get<long long>() / 50;
                 if (c["name"] == "gang") c["elastic"] = {{"maxGpus", 1'000'000}};
             }
             Scenario s = parse(doc, common, file.parent_path(), RunBudget{});
             s.description = "two weeks at 1/50 load, gangs elastic to 1,000,000 GPUs";
             return s;
         }});
}

}  // namespace

std::vector<GeneratedScenario> scalingScenarios() {
    std::vector<GeneratedScenario> out;
    for (const bool flatFabric : {false, true}) {
        const std::string family = flatFabric ? "scaling_flat" : "scaling";
        for (int pods : {1, 3, 6, 12, 25}) {
            const int gpus = pods * 25 * 20 * 8;
            const std::string what = std::to_string(pods) + " of 25 pods, load scaled" +
                                     (flatFabric ? ", pod uplinks 1:1" : "");
            out.push_back({family + "_" + std::to_string(gpus / 1000) + "k_gpus",
                           "synthetic-100k cut to " + what, family,
                           [pods, flatFabric, what](const CommonOptions& common,
                                                    const std::filesystem::path&) {
                               const std::filesystem::path file =
                                   presetsDirFor(common) / "scenarios" / "synthetic-100k.json";
                               Json doc = Json::parse(readTextFile(file));
                               const double factor = pods / 25.0;
                               doc["topology"]["pods"][0]["count"] = pods;
                               if (flatFabric) doc["fabric"]["podUplinkOversubscription"] = 1;
                               for (Json& c : doc["jobClasses"]) {
                                   c["arrival"]["ratePerHour"] =
                                       c["arrival"]["ratePerHour"].get<double>() * factor;
                                   c["maxJobs"] = std::llround(c["maxJobs"].get<double>() * factor);
                               }
                               Scenario s = parse(doc, common, file.parent_path(), RunBudget{});
                               s.description = what;
                               return s;
                           }});
        }
    }
    return out;
}

std::vector<GeneratedScenario> adversarialScenarios() {
    std::vector<GeneratedScenario> out;
    // Jobs that can never fit (16 GPUs on one 8-GPU node) and a million samples: every
    // sample lists the queue (pending records: at most the run's cap in all).
    out.push_back(atEdge("adversarial_backlog_samples", "N never-fitting jobs, 1,000,000 samples",
                         5'000'000, [](long long n, const std::filesystem::path&) {
                             Json s = scenarioHead("backlog × samples", 1'000'000, 1);
                             s["topology"] = fleetOf({{"rack", 1}}, "dgx-h100");
                             s["jobClasses"] = {poissonClass("never-fits", 3.6e6, n, 16, 60)};
                             return s;
                         }));
    // A pinned backlog that never fits (8 GPUs on a node a long job holds) and as many
    // one-second jobs beside it: every completion is a pass over the queue.
    out.push_back(atEdge("adversarial_pinned_backlog", "N pinned waiting jobs + N one-second jobs",
                         5'000'000, [](long long n, const std::filesystem::path&) {
                             Json s = scenarioHead("pinned backlog", 30 * 86400.0, 3600);
                             s["topology"] = fleetOf({{"rack", 2}}, "dgx-h100");
                             Json pinned = poissonClass("pinned", 3.6e5, n, 8, 3600);
                             pinned["pin"] = {{"node", "pod-rack-node0"}};
                             Json shortJobs = poissonClass("short", 3600, n, 1, 1);
                             s["jobClasses"] = {pinned, shortJobs};
                             s["jobs"] = {{{"name", "holder"},
                                           {"team", "t"},
                                           {"gpus", 8},
                                           {"durationS", 31 * 86400.0},
                                           {"submitS", 0},
                                           {"pin", {{"node", "pod-rack-node0"}}}}};
                             return s;
                         }));
    // A pod every node has GPUs for but no node has the CPUs for (200 cores; a DGX H100 has
    // 112), waiting all run on 12,500 empty nodes sampled N times: every sample walks every
    // Ready node for stranded GPUs and fragmentation.
    out.push_back(atEdge(
        "adversarial_host_walk_samples", "a pod no host can feed, 12,500 empty nodes, N samples",
        1'000'000, [](long long n, const std::filesystem::path&) {
            Json s = scenarioHead("host walk × samples", static_cast<double>(n), 1);
            s["topology"] = fleetOf({{"rack", 12'500}}, "dgx-h100");
            Json hungry = poissonClass("cpu-hungry", 3600, 1, 1, 60);
            hungry["cpuMilliPerPod"] = 200'000;
            s["jobClasses"] = {hungry};
            return s;
        }));
    // The largest fleet full of 1-GPU jobs for the whole run, sampled N times.
    out.push_back(atEdge("adversarial_full_fleet_samples", "1,000,000 GPUs busy, N samples",
                         1'000'000, [](long long n, const std::filesystem::path&) {
                             Json s =
                                 scenarioHead("full fleet × samples", static_cast<double>(n), 1);
                             s["topology"] = fleetOf({{"rack", 125'000}}, "dgx-h100");
                             s["jobClasses"] = {poissonClass("fill", 1e7, 1'000'000, 1, 1e7)};
                             return s;
                         }));
    // A trace whose every row is another team (cluster id): team lookups must be hashed.
    out.push_back(atEdge(
        "adversarial_trace_teams", "a trace of N rows, N distinct cluster ids", 2'000'000,
        [](long long n, const std::filesystem::path& dir) {
            const std::filesystem::path trace = dir / ("teams-" + std::to_string(n) + ".csv");
            if (!std::filesystem::exists(trace)) {
                std::ofstream csv(trace);
                csv << "timestamp,duration,num_gpus,gpu_time,cluster\n";
                for (long long i = 0; i < n; ++i)
                    csv << "2017-10-09 07:" << (i / 60) % 60 / 10 << (i / 60) % 10 << ":"
                        << (i % 60) / 10 << i % 10 << ",60.0,1,60.0,c" << i << "\n";
            }
            Json s = scenarioHead("trace teams", 86400, 600);
            s["topology"] = fleetOf({{"rack", 32}}, "dgx-h100");
            s["traces"] = {{{"format", "philly"}, {"file", trace.filename().string()}}};
            return s;
        }));
    // One rack group of 10,000 nodes and a 100,000-GPU job behind a default-sized week of
    // higher-priority work: every bind ahead of it moves its reservation.
    out.push_back({"adversarial_huge_head", "10,000-node rack, a 100,000-GPU head, a default week",
                   "", [](const CommonOptions& common, const std::filesystem::path& dir) {
                       Json s = Json::parse(
                           readTextFile(presetsDirFor(common) / "scenarios" / "default.json"));
                       s["name"] = "huge head";
                       s["description"] =
                           "the default week on a 10,000-node rack and 2,500 "
                           "more nodes, with one 100,000-GPU job";
                       s["topology"] = fleetOf({{"big", 10'000}, {"rest", 2'500}}, "dgx-h100");
                       s["jobs"] = {{{"name", "head"},
                                     {"team", s["teams"][0]["name"]},
                                     {"priority", -1},
                                     {"gpus", 100'000},
                                     {"durationS", 3600},
                                     {"submitS", 3600}}};
                       s.erase("nodeEvents");
                       return parse(s, common, dir, RunBudget{});
                   }});
    // ---- Backlogs of pods that take part of a GPU or that wait for on-demand nodes, and one
    // huge gang of shares: a pass must not look at the whole queue (or the first 4,096 jobs,
    // or every GPU per pod) each time.
    auto oneRack = [](int nodes, const Json& sharing) {
        Json fleet = fleetOf({{"rack", nodes}}, "dgx-h100");
        if (!sharing.is_null()) fleet["pods"][0]["racks"][0]["nodes"][0]["sharing"] = sharing;
        return fleet;
    };
    auto backlog = [](Json fleet, Json cls) {
        Json s = scenarioHead("backlog", 86400, 600);
        s["topology"] = std::move(fleet);
        cls.erase("maxJobs");
        cls["durationS"] = {{"dist", "exponential"}, {"mean", 600}};
        s["jobClasses"] = {cls};
        return s;
    };
    // N 1g instances an hour on 8 nodes cut 7 × 1g per GPU (448 instances): 600 s jobs keep
    // ~N / 6 busy, a queue of thousands that no 1g can join.
    out.push_back(atEdge(
        "adversarial_mig_backlog", "N 1g jobs an hour on 448 1g instances, a day", 100'000'000,
        [=](long long n, const std::filesystem::path&) {
            Json cls = poissonClass("instances", static_cast<double>(n), 0, 1, 600);
            cls["migProfile"] = "1g.10gb";
            const Json mig = {
                {"mode", "mig"},
                {"migLayout", "1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb"}};
            return backlog(oneRack(8, mig), cls);
        }));
    // The same on 8 nodes time-sliced 4 ways, quarter-GPU pods (256 replicas).
    out.push_back(
        atEdge("adversarial_shared_backlog",
               "N quarter-GPU jobs an hour on 256 time-slice replicas, a day", 100'000'000,
               [=](long long n, const std::filesystem::path&) {
                   Json cls = poissonClass("shares", static_cast<double>(n), 0, 1, 600);
                   cls["gpuMilli"] = 250;
                   return backlog(oneRack(8, {{"mode", "time-slicing"}, {"replicas", 4}}), cls);
               }));
    // N 1-GPU jobs an hour on 16 on-demand nodes (128 GPUs), all of them soon up: with every
    // node bought and none coming, the autoscaler skips the queue after a pass.
    out.push_back(atEdge(
        "adversarial_on_demand_backlog", "N 1-GPU jobs an hour on 16 autoscaled on-demand nodes",
        100'000'000, [=](long long n, const std::filesystem::path&) {
            Json fleet = oneRack(16, nullptr);
            fleet["pods"][0]["racks"][0]["nodes"][0]["buyingClass"] = "on-demand";
            Json s = backlog(fleet, poissonClass("ones", static_cast<double>(n), 0, 1, 600));
            s["onDemand"] = {{"provisioningDelayS", 300}, {"idleTimeoutS", 600}};
            return s;
        }));
    // One gang of N quarter-GPU pods on time-sliced nodes that just hold it (N / 32 nodes):
    // placement must not look at every GPU for every pod.
    out.push_back(atEdge("adversarial_shared_gang", "one gang of N quarter-GPU pods, N / 32 nodes",
                         100'000, [=](long long n, const std::filesystem::path&) {
                             Json s = scenarioHead("shared gang", 7200, 600);
                             s["topology"] = oneRack(static_cast<int>((n + 31) / 32),
                                                     {{"mode", "time-slicing"}, {"replicas", 4}});
                             s["jobs"] = {{{"name", "gang"},
                                           {"team", "t"},
                                           {"gpus", n},
                                           {"gpuMilli", 250},
                                           {"durationS", 600},
                                           {"submitS", 0}}};
                             return s;
                         }));
    // ---- end of the backlogs
    // Every multi-GPU class of the 100k preset elastic to 1,000,000 GPUs: each resize records
    // its gang's whole binding, so memory grows with resizes; the run's resize budget stops it.
    out.push_back({"adversarial_elastic_100k", "synthetic-100k, every multi-GPU class elastic", "",
                   [](const CommonOptions& common, const std::filesystem::path&) {
                       const std::filesystem::path file =
                           presetsDirFor(common) / "scenarios" / "synthetic-100k.json";
                       Json doc = Json::parse(readTextFile(file));
                       for (Json& c : doc["jobClasses"])
                           if (c["gpus"].value("dist", "") != "fixed" ||
                               c["gpus"]["value"].get<double>() > 1)
                               c["elastic"] = {{"maxGpus", 1'000'000}};
                       Scenario s = parse(doc, common, file.parent_path(), RunBudget{});
                       s.description = "every multi-GPU class elastic to 1,000,000 GPUs";
                       return s;
                   }});
    appendEstimateScenarios(out);
    return out;
}

std::vector<GeneratedScenario> quotaScenarios() {
    std::vector<GeneratedScenario> out;
    for (const bool fair : {false, true}) {
        const std::string what = fair
                                     ? "synthetic-100k, 8 teams in one cohort: fair sharing, "
                                       "reclaim, priority preemption"
                                     : "synthetic-100k, 8 teams in one cohort: quota and borrowing";
        out.push_back(
            {fair ? "quota_100k_8teams_fair" : "quota_100k_8teams", what, "",
             [fair, what](const CommonOptions& common, const std::filesystem::path&) {
                 const std::filesystem::path file =
                     presetsDirFor(common) / "scenarios" / "synthetic-100k.json";
                 Json doc = Json::parse(readTextFile(file));
                 constexpr int kTeams = 8;
                 Json classes = Json::array();
                 Json teams = Json::array();
                 Json quotas = Json::array();
                 // The fleet as the preset builds it: its GPUs split evenly in nominal quota.
                 const double gpus =
                     Fleet::build(parse(doc, common, file.parent_path(), RunBudget{})).totalGpus;
                 for (const Json& c : doc["jobClasses"]) {
                     for (int half = 0; half < 2; ++half) {
                         const std::string team = "team" + std::to_string(teams.size());
                         Json split = c;
                         split["name"] = c["name"].get<std::string>() + "-" + std::to_string(half);
                         split["team"] = team;
                         split["arrival"]["ratePerHour"] =
                             c["arrival"]["ratePerHour"].get<double>() / 2;
                         split["maxJobs"] = c["maxJobs"].get<long long>() / 2;
                         classes.push_back(split);
                         teams.push_back({{"name", team}});
                         Json quota = {
                             {"team", team},
                             {"cohort", "all"},
                             {"flavors",
                              {{{"gpuModel", "h100-sxm"}, {"nominalGpus", gpus / kTeams}}}}};
                         if (fair) quota["reclaimWithinCohort"] = "Any";
                         quotas.push_back(quota);
                     }
                 }
                 if (teams.size() != kTeams)
                     throw std::runtime_error("synthetic-100k.json: expected 4 job classes");
                 doc["jobClasses"] = classes;
                 doc["teams"] = teams;
                 doc["quotas"] = quotas;
                 doc["cohorts"] = {{{"name", "all"}, {"fairSharing", fair}}};
                 if (fair) doc["scheduler"]["preemption"] = "priority";
                 Scenario s = parse(doc, common, file.parent_path(), RunBudget{});
                 s.description = what;
                 return s;
             }});
    }
    return out;
}

std::string planSizingScenarioJson() {
    Json s = scenarioHead("plan-sizing-150k", 7 * 86400.0, 3600);
    s["topology"] = {
        {"pods",
         {{{"name", "pod"},
           {"count", 1},
           {"racks",
            {{{"name", "rack"},
              {"count", 20},
              {"nodes", {{{"name", "node"}, {"count", 4}, {"nodeType", "dgx-h100"}}}}}}}}}}};
    Json mix = poissonClass("mix", 893, 1'000'000, 1, 900);
    mix["gpus"] = {{"dist", "empirical"}, {"values", {1, 2, 4, 8}}, {"weights", {50, 25, 15, 10}}};
    mix["durationS"] = {{"dist", "exponential"}, {"mean", 900}};
    s["jobClasses"] = {mix};
    return s.dump();
}

}  // namespace gpuplan::cli
