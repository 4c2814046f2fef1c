// Preemption health: a job preempted again and again is flagged thrashing, one that waited in
// the queue past the starvation threshold at a stretch is flagged starved. Worked by hand on
// one 8-GPU node.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;

namespace {

JobDef prioritized(const std::string& name, double durationS, double submitS, int priority) {
    JobDef j = test::job(name, 8, durationS, submitS);
    j.traits.priority = priority;
    j.traits.team = "t";
    return j;
}

/// One 8-GPU node, priority preemption, run to 14,000 s. low (priority 0, 10 h, no
/// checkpoints) starts at 0. high1 (priority 10, 1 h) comes at 1,000 s and evicts it; low
/// restarts when high1 ends at 4,600 s. high2 (1 h) at 5,000 s evicts it again; it restarts
/// at 8,600 s. high3 (4 h) at 9,000 s evicts it a third time and runs past the end (23,400 s).
///   low: 3 preemptions; in the queue 1,000→4,600 (3,600 s), 5,000→8,600 (3,600 s) and
///   9,000→14,000 (5,000 s, still waiting at the end): longest stretch 5,000 s.
///   high1..3: each starts when it comes (0 s in the queue), never preempted.
Scenario thriceEvicted() {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 14000;
    s.sampleIntervalS = 1000;
    s.scheduler.preemption = PreemptionMode::Priority;
    s.jobs = {prioritized("low", 36000, 0, 0), prioritized("high1", 3600, 1000, 10),
              prioritized("high2", 3600, 5000, 10), prioritized("high3", 14400, 9000, 10)};
    return s;
}

}  // namespace

TEST_CASE("a job preempted three times thrashes; its longest wait decides starvation",
          "[preemption][health]") {
    Scenario s = thriceEvicted();
    s.scheduler.starvationWaitS = 4000;  // 5,000 s > 4,000 s: starved
    const Results r = test::run(s);
    const std::vector<JobHealth> health = r.healthByJob();
    const std::uint32_t low = test::jobIndex(r, "low");
    CHECK(health[low].preemptions == 3);
    CHECK(health[low].longestQueuedS == 5000);
    CHECK(health[low].thrashing);  // 3 ≥ the default 3
    CHECK(health[low].starved);
    for (const char* name : {"high1", "high2", "high3"}) {
        INFO(name);
        const JobHealth& h = health[test::jobIndex(r, name)];
        CHECK(h.preemptions == 0);
        CHECK(h.longestQueuedS == 0);
        CHECK_FALSE(h.thrashing);
        CHECK_FALSE(h.starved);
    }
    CHECK(r.kpi("jobs_thrashing") == 1);
    CHECK(r.kpi("jobs_starved") == 1);
    REQUIRE(r.teamKpis.size() == 1);
    CHECK(r.teamKpis[0].thrashingJobs == 1);
    CHECK(r.teamKpis[0].starvedJobs == 1);
    CHECK(r.teamKpis[0].preemptions == 3);

    SECTION("the thresholds are the scenario's: 4 preemptions, a wait over 5,000 s") {
        Scenario strict = thriceEvicted();
        strict.scheduler.thrashingPreemptions = 4;
        strict.scheduler.starvationWaitS = 5000;  // not over: 5,000 s is not > 5,000 s
        const Results q = test::run(strict);
        const JobHealth h = q.healthByJob()[test::jobIndex(q, "low")];
        CHECK(h.preemptions == 3);
        CHECK_FALSE(h.thrashing);
        CHECK_FALSE(h.starved);
        CHECK(q.kpi("jobs_thrashing") == 0);
        CHECK(q.kpi("jobs_starved") == 0);
    }

    SECTION("jobs.csv carries the counts and the flags") {
        const auto row = test::jobsCsvRow(r, test::jobIndex(r, "low"));
        auto field = [&](const std::string& name) {
            const auto it = row.find(name);
            return it == row.end() ? std::string("(no column)") : it->second;
        };
        CHECK(field("name") == "low");
        CHECK(field("preemptions") == "3");
        CHECK(field("longest_wait_s") == "5000");
        CHECK(field("thrashing") == "1");
        CHECK(field("starved") == "1");
    }
}

TEST_CASE("a job that never starts starves from its submission to the end", "[health]") {
    // Without preemption: low holds the node 0 → 36,000 s; high1 (1,000 s) waits to the end
    // at 14,000 s: 13,000 s in the queue, over the default 86,400 s? No: 13,000 < 86,400.
    // With starvationWaitS 10,000 s it starves; low (started at once) does not.
    Scenario s = thriceEvicted();
    s.scheduler.preemption = PreemptionMode::Off;
    s.jobs.resize(2);
    const Results byDefault = test::run(s);
    CHECK(byDefault.healthByJob()[test::jobIndex(byDefault, "high1")].longestQueuedS == 13000);
    CHECK(byDefault.kpi("jobs_starved") == 0);
    s.scheduler.starvationWaitS = 10000;
    const Results r = test::run(s);
    CHECK(r.healthByJob()[test::jobIndex(r, "high1")].starved);
    CHECK_FALSE(r.healthByJob()[test::jobIndex(r, "low")].starved);
    CHECK(r.kpi("jobs_starved") == 1);
    CHECK(r.kpi("jobs_thrashing") == 0);
}
