// Cases found in review: each pins down a behaviour that was wrong before.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

TEST_CASE("a short backfill on a reserved node frees the head's hold for long jobs") {
    // Two 8-GPU nodes. J0 holds node0 until 1000. At t = 1: H (3 pods × 4) is blocked and
    // reserved from 1000 on node0 (8) and node1 (4): 4 of node1's GPUs are held for it.
    // S (4 GPUs, 100 s) ends before 1000; L (4 GPUs, 5000 s) does not.
    // Whichever comes first, both start at 1: S on node1 returns its 4 GPUs by 1000, so the
    // hold on node1 drops to 0 and L may take the other 4. H still starts at 1000.
    for (bool shortFirst : {true, false}) {
        INFO("S listed " << (shortFirst ? "before" : "after") << " L");
        Scenario s = test::smallFleet(1, 2, "n8");
        s.jobs = {job("J0", 8, 1000), job("H", 12, 100, 1, 4)};
        if (shortFirst)
            s.jobs.insert(s.jobs.end(), {job("S", 4, 100, 1), job("L", 4, 5000, 1)});
        else
            s.jobs.insert(s.jobs.end(), {job("L", 4, 5000, 1), job("S", 4, 100, 1)});
        const Results r = test::run(s);
        CHECK(r.jobs[jobIndex(r, "S")].firstStartS == 1);
        CHECK(r.jobs[jobIndex(r, "L")].firstStartS == 1);
        CHECK(r.jobs[jobIndex(r, "H")].firstStartS == 1000);
    }
}

TEST_CASE("a node failing at the instant a job completes does not take its work") {
    // The job ends at 1000 exactly when its node fails: releases come first at equal times.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("a", 4, 1000)};
    s.nodeEvents = {{1000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.jobs[0].status == JobStatus::Completed);
    CHECK(r.jobs[0].endS == 1000);
    CHECK(r.kpi("goodput") == 1.0);
}

TEST_CASE("an evicted job that cannot restart is pending, not running") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("a", 4, 5000)};
    s.nodeEvents = {{1000, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.jobs[0].status == JobStatus::Pending);
    CHECK(r.kpi("jobs_waiting_at_end") == 1);
    CHECK(r.kpi("jobs_started") == 1);  // it did start once
}

TEST_CASE("a delivery does not revive a node that failed before it arrived") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.pods[0].racks[0].nodes[0].state = NodeState::Provisioning;
    s.pods[0].racks[0].nodes[0].readyAtS = 1000;
    s.nodeEvents = {{500, "pod-rack-node", NodeState::Failed}};
    const Results r = test::run(s);
    CHECK(r.stateAt(2000).nodeStates[0] == NodeState::Failed);
}

TEST_CASE("sampled job sizes stay within the validated bounds") {
    // Median 20,000 GPUs with σ = 5 draws values far beyond 100,000: they are clamped.
    Scenario s = test::smallFleet(1, 1, "n8");
    JobClassDef c;
    c.name = "wild";
    c.traits.team = "t";
    c.arrival.ratePerHour = 50;
    c.gpus.kind = DistKind::Lognormal;
    c.gpus.median = 20000;
    c.gpus.sigma = 5;
    c.durationS.kind = DistKind::Lognormal;
    c.durationS.median = 1e9;
    c.durationS.sigma = 5;
    s.jobClasses = {c};
    const Workload w = generateWorkload(s, Fleet::build(s));
    REQUIRE(w.jobs.size() > 500);
    for (const JobSpec& j : w.jobs) {
        REQUIRE(j.gpus >= 1);
        REQUIRE(j.gpus <= 100000);
        REQUIRE(j.durationS <= 1e10);
    }
}

TEST_CASE("a backlog that can never fit does not block or slow the rest") {
    // 3,000 jobs of 8 GPUs on a fleet of 4-GPU nodes can never fit (reservation layer);
    // a 1-GPU job behind them starts at once, and they are all counted as pending GPUs.
    Scenario s = test::smallFleet(1, 2, "n4");
    JobClassDef big;
    big.name = "big";
    big.traits.team = "t";
    big.traits.gpusPerPod = 8;
    big.arrival.process = ArrivalProcess::List;
    for (int i = 0; i < 3000; ++i)
        big.arrival.timesS.push_back(i * 0.01);
    big.gpus.value = 8;
    big.durationS.value = 60;
    s.jobClasses = {big};
    s.jobs = {job("small", 1, 60, 100)};
    RunOptions o;
    o.maxPendingEntriesPerSample = 5;
    const Results r = simulate(s, o);
    CHECK(r.jobs[jobIndex(r, "small")].firstStartS == 100);
    // Sample at 120 s: 5 listed, 2,995 left out of the list, all 3,000 counted.
    CHECK(r.pendingAtSample(2).size() == 5);
    CHECK(r.pendingOmitted[2] == 2995);
    CHECK(r.findSeries("pending_gpus{reservation}")->values[2] == 3000 * 8);
}
