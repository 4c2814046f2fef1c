// Scenario::warmupS: KPIs measure [warmupS, end) so the start from an empty cluster does not
// bias them; the series still cover the whole run.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One node of 4 GPUs (reserved at $2.00 per GPU-hour), 10 hours. A 1-GPU job of 4 h arrives
/// on every hour from 0 h to 9 h. The cluster fills up one GPU an hour: 1, 2, 3 GPUs held in
/// hours 0-1, 1-2, 2-3, then 4 from 3 h on (at 4 h, 5 h, … one job ends as the next arrives).
/// Nobody ever waits.
///   Whole run: allocated 1 + 2 + 3 + 4 × 7 = 34 GPU-h of 40: allocation 0.85.
///   From 3 h:  4 × 7 = 28 GPU-h of 28: allocation 1.00, the steady state.
Scenario fillingUp(double warmupS) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 10 * 3600;
    s.sampleIntervalS = 3600;
    s.warmupS = warmupS;
    s.pricing = test::tgPrices();
    for (int h = 0; h < 10; ++h)
        s.jobs.push_back(test::job("j" + std::to_string(h), 1, 4 * 3600, h * 3600.0));
    return s;
}

}  // namespace

TEST_CASE("a warm-up leaves the empty-cluster start out of the KPIs", "[warmup]") {
    const Results whole = test::run(fillingUp(0));
    const Results steady = test::run(fillingUp(3 * 3600));
    CHECK(whole.kpi("allocation_mean") == Approx(34.0 / 40));
    CHECK(steady.kpi("allocation_mean") == Approx(1.0));
    CHECK(whole.kpi("gpu_hours_allocated") == Approx(34));
    CHECK(steady.kpi("gpu_hours_allocated") == Approx(28));
    CHECK(steady.kpi("gpu_hours_provisioned") == Approx(28));
    // Jobs submitted in the window: at 3 h, 4 h, …, 9 h.
    CHECK(whole.kpi("jobs_submitted") == 10);
    CHECK(steady.kpi("jobs_submitted") == 7);
    CHECK(steady.kpi("wait_s_mean") == 0);
    // Paid: 4 GPUs × $2.00 × 7 h = $56 in the window (× 10 h = $80 for the whole run), and
    // what the jobs held is what was paid: nothing idle from 3 h on.
    CHECK(whole.kpi("cost_usd") == Approx(80));
    CHECK(steady.kpi("cost_usd") == Approx(56));
    CHECK(steady.kpi("idle_unallocated_usd") == Approx(0).margin(1e-9));
    // The team's GPU-hours and chargeback: the same window (the job started at 0 h holds its
    // GPU until 4 h, one hour of it in the window).
    REQUIRE(steady.teamKpis.size() == 1);
    CHECK(steady.teamKpis[0].gpuHours == Approx(28));
    CHECK(steady.teamKpis[0].costUsd == Approx(56));
    CHECK(steady.teamKpis[0].allocationShare == Approx(1.0));
    // The series are the whole run's either way: hour 0 holds one GPU of four.
    CHECK(steady.findSeries("allocation")->values == whole.findSeries("allocation")->values);
    CHECK(steady.findSeries("allocation")->values.front() == Approx(0.25));
    CHECK(steady.warmupS == 3 * 3600);
}

TEST_CASE("a team whose jobs came before the window keeps what it holds in it", "[warmup]") {
    // fillingUp with jobs 0-2 (submitted at 0, 1, 2 h, before the 3 h warm-up) of team
    // "early". In the window they hold GPUs until 4, 5 and 6 h: 1 + 2 + 3 = 6 GPU-h ($12);
    // team t holds the other 28 − 6 = 22 GPU-h ($44). The chargeback adds up to the $56 paid.
    Scenario s = fillingUp(3 * 3600);
    s.teams.push_back(TeamDef{"early", ""});
    for (int h = 0; h < 3; ++h)
        s.jobs[h].traits.team = "early";
    const Results r = test::run(s);
    REQUIRE(r.teamKpis.size() == 2);
    double costUsd = 0;
    for (const GroupKpis& g : r.teamKpis) {
        CHECK(g.gpuHours == Approx(g.name == "early" ? 6 : 22));
        CHECK(g.submitted == (g.name == "early" ? 0 : 7));
        costUsd += g.costUsd;
    }
    CHECK(costUsd == Approx(r.kpi("cost_usd")));
}

TEST_CASE("work lost across the warm-up's end counts only its part in the window", "[warmup]") {
    // One node of 4 GPUs, 10 h, KPIs from 3 h. A 4-GPU job of 8 h without checkpoints starts
    // at 0; the node fails at 4 h (all 4 h of its work lost) and is back at 5 h, where the job
    // starts again and runs to the end.
    //   In the window: provisioned 4 × (7 − 1) = 24 GPU-h, allocated 4 × 1 + 4 × 5 = 24;
    //   useful only the second binding's 20 (the hour 3-4 h was lost), lost 4 of the 16.
    //   Goodput 20 / 24 = 0.8333. (Over the whole run: 20 useful of 36, 16 lost.)
    Scenario s = test::smallFleet(1, 1, "n4");
    s.horizonS = 10 * 3600;
    s.sampleIntervalS = 600;
    s.jobs = {test::job("train", 4, 8 * 3600)};
    s.nodeEvents = {{4 * 3600, "pod-rack-node", NodeState::Failed},
                    {5 * 3600, "pod-rack-node", NodeState::Ready}};
    const Results whole = test::run(s);
    CHECK(whole.kpi("gpu_hours_lost") == Approx(16));
    CHECK(whole.kpi("goodput") == Approx(20.0 / 36));
    s.warmupS = 3 * 3600;
    const Results window = test::run(s);
    CHECK(window.kpi("gpu_hours_provisioned") == Approx(24));
    CHECK(window.kpi("gpu_hours_allocated") == Approx(24));
    CHECK(window.kpi("gpu_hours_useful") == Approx(20));
    CHECK(window.kpi("gpu_hours_lost") == Approx(4));
    CHECK(window.kpi("goodput") == Approx(20.0 / 24));
    // Samples every 10 min from 3 h: 42 of them, the 6 while the node is down hold the job
    // as pending (4 GPUs): 6 × 4 / 42.
    CHECK(window.kpi("pending_gpus_mean") == Approx(6 * 4 / 42.0));
}

TEST_CASE("warmupS is read, written back and checked against the horizon", "[warmup]") {
    Scenario s = fillingUp(1800);
    const Catalog catalog = test::testCatalog();
    const Scenario back = parseScenario(scenarioToJson(s), "warmup", catalog);
    CHECK(back.warmupS == 1800);
    CHECK(scenarioToJson(fillingUp(0)).find("warmupS") == std::string::npos);
    s.warmupS = s.horizonS;
    CHECK_THROWS_WITH(validateScenario(s, catalog),
                      Catch::Contains("/warmupS") && Catch::Contains("shorter than horizonS"));
}
